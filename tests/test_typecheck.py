"""``python -m tools.typecheck``: mypy over the configured files and every exercise's checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.typecheck import check, exercise_checks

CONFIG = """
[tool.mypy]
files = ["port.py"]
"""


def exercise(root: Path, chapter: str, name: str, text: str) -> None:
    folder = root / "walkthrough" / chapter / "exercises" / name
    folder.mkdir(parents=True)
    (folder / "checks.py").write_text(text, encoding="utf-8")


PORT = "def answer() -> int:\n    return 42\n"
TICKERS = "walkthrough/ch02/exercises/loop-tickers/checks.py"
TICKERS_TEXT = "def check_two() -> None:\n    y: str = 'y'\n"


@pytest.fixture(scope="module")
def small_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One module the settings name, and two exercises' checks (mypy's cache kept between
    the tests, which restore what they change)."""
    root = tmp_path_factory.mktemp("typecheck")
    (root / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    exercise(root, "ch01", "merge-set", "def check_one() -> None:\n    x: int = 1\n")
    exercise(root, "ch02", "loop-tickers", TICKERS_TEXT)
    return root


@pytest.fixture
def tree(small_repository: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (small_repository / "port.py").write_text(PORT, encoding="utf-8")
    (small_repository / TICKERS).write_text(TICKERS_TEXT, encoding="utf-8")
    monkeypatch.chdir(small_repository)
    return small_repository


def test_every_checks_file_has_a_module_name_of_its_own() -> None:
    names = [name for _, name in exercise_checks()]
    assert len(names) == len(set(names)) > 30
    assert "ch01_merge_set_checks" in names


def test_two_checks_files_are_checked_together(tree: Path) -> None:
    """Plain mypy refuses two ``checks.py`` outside packages; here both are checked."""
    assert check(tree) == []


def test_a_type_error_in_an_exercise_checks_file_is_reported(tree: Path) -> None:
    (tree / TICKERS).write_text("def check_two() -> None:\n    y: str = 2\n", encoding="utf-8")
    messages = check(tree)
    assert any(
        m.startswith(f"{TICKERS}:2: error: Incompatible types in assignment") for m in messages
    ), messages


def test_a_type_error_in_the_configured_files_is_reported(tree: Path) -> None:
    (tree / "port.py").write_text("def answer() -> int:\n    return 'no'\n", encoding="utf-8")
    assert any("port.py:2: error: Incompatible return value type" in m for m in check(tree))
