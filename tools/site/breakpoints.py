"""Where to stop in the port: ``file:line`` of a function's first statement, read at build time."""

from __future__ import annotations

import ast
from pathlib import Path

from .directives import DirectiveError
from .runner import PROMPT, console_block


def _find(body: list[ast.stmt], names: list[str]) -> ast.AST | None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == names[0]:
                return node if len(names) == 1 else _find(node.body, names[1:])
    return None


def first_statement(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The line of the first statement of a function, after its docstring."""
    body = node.body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1].lineno
    return body[0].lineno


def locate(root: Path, dotted: str) -> tuple[str, int]:
    """``minikubelet.kubelet.Kubelet.sync_loop`` → (``minikubelet/kubelet.py``, line)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        for candidate in (
            Path(*parts[:cut]).with_suffix(".py"),
            Path(*parts[:cut]) / "__init__.py",
        ):
            path = root / candidate
            if path.is_file():
                tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
                node = _find(tree.body, parts[cut:])
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    raise DirectiveError(
                        f"pdb: {'.'.join(parts[cut:])} is not a function or method in {candidate}"
                    )
                return candidate.as_posix(), first_statement(node)
    raise DirectiveError(f"pdb: no module of the repository holds {dotted!r}")


def pdb_directive(root: Path, script: str, *targets: str) -> str:
    """A console block: start the script under pdb, break at each target, continue.

    ``PYTHONPATH=.``: pdb puts the script's folder first on ``sys.path``, and a ``break
    minikubelet/…py:N`` is looked up on ``sys.path``; from the repository's top it then works
    as printed.
    """
    if not targets:
        raise DirectiveError("pdb: name at least one function to break in")
    lines = [f"{PROMPT}PYTHONPATH=. python -m pdb {script}"]
    for target in targets:
        path, line = locate(root, target)
        lines.append(f"(Pdb) break {path}:{line}")
    lines.append("(Pdb) continue")
    return console_block(lines)
