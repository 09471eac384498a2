"""The layers of ARCHITECTURE.md, as the import-linter contracts of pyproject.toml check them.

``make lint`` runs ``lint-imports``. These tests prove that the contracts catch an upward
import planted in a copy of the repository, and that the layer list of ARCHITECTURE.md (and of
its Chinese twin) is the one the contracts check, so that the document cannot drift.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("minikubelet", "tools", "walkthrough")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def contracts() -> list[dict]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return pyproject["tool"]["importlinter"]["contracts"]


def copy_of_repository(dest: Path) -> Path:
    """The Python files of the three packages and pyproject.toml, under ``dest``."""
    keep_py = shutil.ignore_patterns("__pycache__", ".*")
    for package in PACKAGES:

        def only_python(folder: str, names: list[str]) -> set[str]:
            skipped = keep_py(folder, names)
            return skipped | {
                n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()
            }

        shutil.copytree(ROOT / package, dest / package, ignore=only_python)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS)],
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def repository_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_of_repository(tmp_path_factory.mktemp("layers"))


@pytest.mark.parametrize(
    ("planted", "line", "broken"),
    [
        # The Go runtime (ground) reaching for the simulation.
        ("minikubelet/go/planted.py", "from minikubelet.sim import node\n", "the port"),
        # The simulation reaching for the command line.
        ("minikubelet/sim/cri/planted.py", "from minikubelet.sim import cli\n", "the simulation"),
        # The installed exercise runner reaching for the tools, run only from the repository.
        ("walkthrough/planted.py", "import tools\n", "tools above walkthrough"),
    ],
)
def test_a_planted_upward_import_breaks_a_contract(
    repository_copy: Path, planted: str, line: str, broken: str
) -> None:
    target = repository_copy / planted
    target.write_text(line, encoding="utf-8")
    try:
        result = lint_imports(repository_copy)
    finally:
        target.unlink()
    assert result.returncode != 0, result.stdout
    module = planted.removesuffix(".py").replace("/", ".")
    assert module in result.stdout
    assert re.search(rf"^{re.escape(broken)}[^\n]* BROKEN", result.stdout, re.M), result.stdout


def test_the_copy_keeps_the_contracts(repository_copy: Path) -> None:
    """Without a planted import the same copy passes: the failures above are the plants'."""
    result = lint_imports(repository_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_new_module_outside_the_layers_breaks_the_contract(repository_copy: Path) -> None:
    """The port's layers are exhaustive: a new top-level package must be given its layer."""
    target = repository_copy / "minikubelet" / "unplaced.py"
    target.write_text("", encoding="utf-8")
    try:
        result = lint_imports(repository_copy)
    finally:
        target.unlink()
    assert result.returncode != 0
    assert "minikubelet.unplaced" in result.stdout


def layers_of_the_contracts() -> list[set[str]]:
    """All layers, top to bottom, with full module names: a layer that is the container of
    another contract is replaced by that contract's layers."""
    by_container = {c["containers"][0]: c for c in contracts() if "containers" in c}
    (top,) = (c for c in contracts() if "containers" not in c)

    def expand(layer: str, container: str = "") -> list[set[str]]:
        names = {n.strip() for n in re.split(r"[|:]", layer)}
        full = {f"{container}.{n}" if container else n for n in names}
        if len(full) == 1 and (only := next(iter(full))) in by_container:
            inner = by_container[only]
            return [s for sub in inner["layers"] for s in expand(sub, only)]
        return [full]

    return [s for layer in top["layers"] for s in expand(layer)]


def layers_of_the_document(name: str) -> list[set[str]]:
    """The modules column of the layer table, top to bottom. A row ``… `pkg` …`` naming no
    module but its package stands for the package's modules that no other row names."""
    text = (ROOT / name).read_text(encoding="utf-8")
    rows = re.findall(r"^\| *(\d+) *\|[^|]*\|([^|]*)\|", text, re.M)
    assert rows, f"{name}: no layer table"
    layers = [set(re.findall(r"`([\w.]+)`", modules)) for _, modules in rows]
    assert [int(n) for n, _ in rows] == list(range(1, len(rows) + 1)), name
    return layers


def expand_rest(layers: list[set[str]], rest_rows: list[int]) -> list[set[str]]:
    named = set().union(*layers)
    for i in rest_rows:
        (package,) = layers[i]
        folder = ROOT.joinpath(*package.split("."))
        children = {
            f"{package}.{p.name.removesuffix('.py')}"
            for p in folder.iterdir()
            if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").exists()
        }
        # A child is named when a row names it or a module inside it (`minikubelet.sim.cli`).
        layers[i] = {c for c in children if not any(n == c or n.startswith(f"{c}.") for n in named)}
    return layers


@pytest.mark.parametrize("name", ["ARCHITECTURE.md", "ARCHITECTURE.zh.md"])
def test_the_document_lists_the_layers_the_contracts_check(name: str) -> None:
    document = layers_of_the_document(name)
    # The kubelet mirror's row names its package only: "every other module of `minikubelet`".
    rest = [i for i, layer in enumerate(document) if layer == {"minikubelet"}]
    assert len(rest) == 1, f"{name}: the mirror's row should name `minikubelet` alone"
    assert expand_rest(document, rest) == layers_of_the_contracts()


def ignored_edges_of_the_contracts() -> set[tuple[str, str]]:
    return {
        (a.strip(), b.strip())
        for contract in contracts()
        for a, b in (edge.split("->") for edge in contract.get("ignore_imports", []))
    }


@pytest.mark.parametrize("name", ["ARCHITECTURE.md", "ARCHITECTURE.zh.md"])
def test_the_document_lists_the_edges_the_contracts_ignore(name: str) -> None:
    """Each upward edge a contract lets through is named, with its reason, in the document."""
    text = (ROOT / name).read_text(encoding="utf-8")
    section = text.split("### ", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^- `([\w.*]+)` →\s+`([\w.*]+)`[:：]\s*\S", section, re.M))
    assert listed == ignored_edges_of_the_contracts()


def test_each_ignored_edge_says_why_in_pyproject() -> None:
    """In pyproject.toml a comment gives each ignored edge its reason: right above it, or above
    the edges just before it that share the reason."""
    lines = [line.strip() for line in (ROOT / "pyproject.toml").read_text("utf-8").splitlines()]
    for a, b in ignored_edges_of_the_contracts():
        (at,) = (i for i, line in enumerate(lines) if line.startswith(f'"{a} -> {b}"'))
        above = at - 1
        while lines[above].startswith('"') and " -> " in lines[above]:
            above -= 1
        assert lines[above].startswith("#"), f"pyproject.toml: {a} -> {b} has no reason above it"
