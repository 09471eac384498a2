"""Where to stop in the port: ``file:line`` of a function's first statement, read at build time."""

from __future__ import annotations

import ast
from pathlib import Path

from .directives import DirectiveError
from .recipes import expand_spots, session_block, spot_location
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


def pdb_directive(
    root: Path, script: str, *targets: str, then: list[str] | None = None, args: str = ""
) -> str:
    """A console block: start the script under pdb, break at each target, continue.

    A target is a function (``minikubelet.kubelet.Kubelet.sync_loop``: its first statement) or
    a spot of the script's example (``config-add``). With ``then``, the commands typed after
    the first ``continue`` (``{spot}`` in one becomes its ``file:line``): the session is run now
    and the block shows what pdb printed.

    ``PYTHONPATH=.``: pdb puts the script's folder first on ``sys.path``, and a ``break
    minikubelet/…py:N`` is looked up on ``sys.path``; from the repository's top it then works
    as printed.
    """
    if not targets:
        raise DirectiveError("pdb: name at least one function to break in")
    command = f"PYTHONPATH=. python -m pdb {script}" + (f" {args}" if args else "")
    breaks = []
    for target in targets:
        path, line = locate(root, target) if "." in target else spot_location(root, script, target)
        breaks.append(f"break {path}:{line}")
    if then is None:
        return console_block([PROMPT + command, *(f"(Pdb) {b}" for b in breaks), "(Pdb) continue"])
    typed = [*breaks, "continue", *(expand_spots(root, script, c) for c in then)]
    return console_block([PROMPT + command, *session_block(root, script, typed, args.split())])
