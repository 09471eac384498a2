"""Docstring cross-references: written so that mkdocstrings resolves them, and a broken one fails
``mkdocs build --strict``.

The site's API reference renders the port's docstrings with the options of mkdocs.yml; a small
site built here with the same options shows what a good and a broken reference do.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ROLE = re.compile(r":(?:class|meth|func|mod|data|attr|exc|obj|const):`")


def _python_handler_options() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *a: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            return plugin["mkdocstrings"]["handlers"]["python"]["options"]
    raise AssertionError("mkdocs.yml has no mkdocstrings plugin")


def test_the_port_has_no_sphinx_roles_left():
    found = []
    for path in sorted((ROOT / "minikubelet").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if ROLE.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "Sphinx roles that mkdocstrings shows raw:\n" + "\n".join(found)


def _build(tmp_path: Path, module_doc: str) -> subprocess.CompletedProcess:
    pkg = tmp_path / "orchard"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        f'"""{module_doc}"""\n\n\n'
        "class Keeper:\n"
        '    """Counts apples."""\n\n'
        "    def count(self) -> int:\n"
        '        """How many, so far; see [`Keeper`][]."""\n'
        "        return 0\n"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# API\n\n::: orchard\n")
    config = {
        "site_name": "t",
        "docs_dir": "docs",
        "plugins": [
            "autorefs",
            {
                "mkdocstrings": {
                    "default_handler": "python",
                    "handlers": {"python": {"paths": ["."], "options": _python_handler_options()}},
                }
            },
        ],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.parametrize(
    "doc",
    [
        "The [`Keeper`][] and its [`count`][.Keeper.count].",
        "The [`Keeper.count`][] method.",
        "Full path: [`count`][orchard.Keeper.count].",
    ],
)
def test_references_in_the_sites_form_resolve(tmp_path, doc):
    done = _build(tmp_path, doc)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "out" / "index.html").read_text()
    assert 'href="#orchard.Keeper.count"' in html or "#orchard.Keeper.count" in html


@pytest.mark.parametrize("doc", ["See [`Gardener`][].", "See [`x`][orchard.Keeper.weigh]."])
def test_a_broken_reference_fails_the_strict_build(tmp_path, doc):
    done = _build(tmp_path, doc)
    assert done.returncode != 0
    assert "Could not find cross-reference target" in done.stderr
