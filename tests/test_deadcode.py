"""``python -m tools.deadcode``: unused shipped code is reported, code a test uses is not."""

from __future__ import annotations

from tools.deadcode import find


def _tree(tmp_path):
    (tmp_path / "minikubelet").mkdir()
    (tmp_path / "minikubelet" / "orchard.py").write_text(
        "def count_apples():\n    return 3\n\n\ndef count_pears():\n    return 4\n\n\n"
        "def on_harvest():\n    return 5\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_orchard.py").write_text(
        "from minikubelet.orchard import count_apples\n\n\n"
        "def test_apples():\n    assert count_apples() == 3\n"
    )
    return tmp_path


def test_unused_shipped_code_is_found_and_test_usage_counts(tmp_path):
    root = _tree(tmp_path)
    found = find(root, allowed={})
    assert [line.split(":")[0:2] for line in found] == [
        ["minikubelet/orchard.py", "5"],
        ["minikubelet/orchard.py", "9"],
    ]
    assert "count_pears" in found[0] and "count_apples" not in "".join(found)


def test_allowed_entries_must_still_be_needed(tmp_path):
    root = _tree(tmp_path)
    allowed = {
        ("minikubelet/orchard.py", "on_harvest"): "called by name",
        ("minikubelet/orchard.py", "count_apples"): "stale",
    }
    found = find(root, allowed=allowed)
    assert any("count_pears" in line for line in found)
    assert not any("on_harvest" in line for line in found)
    assert any("'count_apples' is used now" in line for line in found)


def test_the_checks_of_an_exercise_are_called_by_name(tmp_path):
    checks = tmp_path / "walkthrough" / "ch09" / "exercises" / "pick-a-pear" / "checks.py"
    checks.parent.mkdir(parents=True)
    checks.write_text(
        "def check_a_pear_is_picked():\n    assert True\n\n\n"
        "def helper_nobody_calls():\n    return 1\n"
    )
    found = find(tmp_path, allowed={})
    assert len(found) == 1 and "helper_nobody_calls" in found[0]
