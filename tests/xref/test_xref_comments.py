"""Copied Go comments: found in our text with the source and offline, reported at file:line.

Every Go and Python text here is our own, written for these tests.
"""

from __future__ import annotations

import json
import textwrap

from tools.xref import LOCK_PATH, build_index
from tools.xref.cli import main
from tools.xref.comments import UNITS_FORMAT, go_units, words
from tools.xref.lock import load_lock

GO = "pkg/orchard/keeper.go"
GO_TEXT = """\
package orchard

// Keeper counts apples.
//
// The keeper writes every apple it has counted today into the ledger, and
// never counts a bruised apple twice. Tally twice before dusk.
type Keeper struct {
\tledger map[string]int // one entry per tree
}

/* Counted apples are
   never returned to the basket. */
func (k *Keeper) Count(tree string) int {
\tsays := "// this is a string, not a comment, about apples in baskets today"
\t_ = says
\treturn k.ledger[tree]
}
"""

MODULE = '''\
"""Our keeper.

Go: pkg/orchard/keeper.go
"""


class Keeper:
    """Go: pkg/orchard/keeper.go type Keeper"""


def count(tree):
    """Go: pkg/orchard/keeper.go (*Keeper).Count"""
{body}
'''


def _tree(tmp_path, body: str = "    return 0", extra: dict[str, str] | None = None):
    k8s = tmp_path / "k8s"
    (k8s / GO).parent.mkdir(parents=True)
    (k8s / GO).write_text(GO_TEXT)
    root = tmp_path / "root"
    (root / "port").mkdir(parents=True)
    (root / "port" / "__init__.py").write_text("")
    (root / "port" / "keeper.py").write_text(MODULE.format(body=body))
    for rel, text in (extra or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    return root, k8s


def _copies(root, **kw):
    index = build_index(root, package="port", check_comments=True, offline=True, **kw)
    return [(p.file, p.line, p.message) for p in index.problems if p.code == "copied-comment"]


def test_words_fold_identifier_styles():
    assert words("The podStatus, pod_status (kl.podManager)") == [
        "the",
        "podstatus",
        "podstatus",
        "kl",
        "podmanager",
    ]


def test_a_rewrapped_copy_is_found_with_its_go_line(tmp_path):
    body = """\
    # The keeper writes every apple it has counted today
    # into the ledger, and never counts a bruised apple twice.
    return 0"""
    root, k8s = _tree(tmp_path, body)
    found = _copies(root, src=k8s, lock_path=None)
    assert [(f, n) for f, n, _ in found] == [("port/keeper.py", 13), ("port/keeper.py", 14)]
    assert f"({GO}:5)" in found[0][2] and "word for word" in found[0][2]


def test_our_own_words_and_strings_pass(tmp_path):
    body = """\
    # Python has no ledger type: a dict keyed by tree name stands in for Go's map.
    print("The keeper writes every apple it has counted today into the ledger, and")
    return 0"""
    root, k8s = _tree(tmp_path, body)
    assert _copies(root, src=k8s, lock_path=None) == []


def test_short_comment_counts_only_when_whole(tmp_path):
    body = """\
    x = 1  # One entry per tree.
    # Not one entry per tree at all, the map is keyed by row.
    # Tally twice before dusk.
    return x"""
    root, k8s = _tree(tmp_path, body)
    assert [(f, n) for f, n, _ in _copies(root, src=k8s, lock_path=None)] == [
        ("port/keeper.py", 13),
        ("port/keeper.py", 15),
    ]


def test_block_comments_count_and_strings_do_not(tmp_path):
    body = """\
    # Counted apples are never returned to the basket.
    return 0"""
    root, k8s = _tree(tmp_path, body)
    assert [n for _, n, _ in _copies(root, src=k8s, lock_path=None)] == [13]
    units = go_units(GO_TEXT)
    assert "this is a string not a comment" not in json.dumps(units.to_json())


def test_marked_quotations_pass_and_unmarked_ones_fail(tmp_path):
    extra = {
        "docs/ok.md": """\
            The Go comment says it plainly: "the keeper writes every apple it has counted
            today into the ledger".

            > The keeper writes every apple it has counted today into the ledger, and
            > never counts a bruised apple twice.

            (the comment on `type Keeper`, pkg/orchard/keeper.go)
            """,
        "docs/bad.md": """\
            Intro.

            > The keeper writes every apple it has counted today into the ledger, and
            > never counts a bruised apple twice.
            """,
        "docs/bad.zh.md": "看守人会把今天数过的每个苹果记进账本：the keeper writes every apple it has "
        "counted today into the ledger\n",
    }
    root, k8s = _tree(tmp_path, extra=extra)
    found = {(f, n) for f, n, _ in _copies(root, src=k8s, lock_path=None)}
    assert found == {("docs/bad.md", 3), ("docs/bad.md", 4), ("docs/bad.zh.md", 1)}


def test_annotations_are_not_prose(tmp_path):
    root, k8s = _tree(tmp_path)
    go = k8s / GO
    go.write_text(go.read_text() + "\n// pkg/orchard/keeper.go type Keeper is our keeper here\n")
    assert _copies(root, src=k8s, lock_path=None) == []


def test_offline_check_uses_the_lock_and_names_file_and_line(tmp_path, capsys):
    body = """\
    # the keeper writes every apple it has counted today into the ledger
    return 0"""
    root, k8s = _tree(tmp_path, body)
    lock = tmp_path / "o.lock.json"
    common = ["--root", str(root), "--package", "port", "--lock", str(lock)]
    assert main(["lock", *common, "--src", str(k8s)]) == 0
    text = lock.read_text()
    assert "ledger" not in text and "apple" not in text  # hashes only, never the text
    assert json.loads(text)["comments_format"] == UNITS_FORMAT
    capsys.readouterr()
    assert main(["check", *common, "--offline"]) == 1
    out = capsys.readouterr().out
    assert f"port/keeper.py:13: error: repeats a Kubernetes comment ({GO})" in out
    assert "1 lines repeat a Go comment" in out and "check: FAILED" in out
    assert main(["check", *common, "--src", str(k8s)]) == 1
    assert f"port/keeper.py:13: error: repeats a Kubernetes comment ({GO}:5)" in (
        capsys.readouterr().out
    )
    (root / "port" / "keeper.py").write_text(MODULE.format(body="    return 0"))
    assert main(["check", *common, "--offline"]) == 0
    assert "0 lines repeat a Go comment" in capsys.readouterr().out


def test_a_lock_without_comment_hashes_fails_offline(tmp_path, capsys):
    root, k8s = _tree(tmp_path)
    lock = tmp_path / "o.lock.json"
    common = ["--root", str(root), "--package", "port", "--lock", str(lock)]
    assert main(["lock", *common, "--src", str(k8s)]) == 0
    data = json.loads(lock.read_text())
    data["comments_format"] = UNITS_FORMAT - 1  # hashed another way: stale
    lock.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["check", *common, "--offline"]) == 1
    out = capsys.readouterr().out
    assert "lock-stale" in out and "run 'python -m tools.xref lock'" in out
    assert main(["check", *common, "--src", str(k8s)]) == 1
    assert f"{GO}: the lock has no current hashes of its comments" in capsys.readouterr().out


def test_the_committed_lock_has_comment_hashes_for_every_file():
    lock = load_lock(LOCK_PATH)
    assert lock is not None and lock.files
    assert all(f.comments is not None and len(f.comments) for f in lock.files.values())


def test_go_contributor_tags_are_reported(tmp_path):
    body = """\
    # TODO(alice): count the pears too.
    # TODO: ours, with no name, is fine.
    return 0"""
    root, k8s = _tree(tmp_path, body)
    index = build_index(root, package="port", check_comments=True, offline=True, src=k8s)
    tags = [(p.file, p.line) for p in index.problems if p.code == "contributor-tag"]
    assert tags == [("port/keeper.py", 13)]


def test_a_whole_line_copied_with_its_quotation_is_found(tmp_path):
    body = """\
    # "example.org/orchard/ledger" wants the tree names without a trailing slash
    return 0"""
    root, k8s = _tree(tmp_path, body)
    go = k8s / GO
    go.write_text(
        go.read_text()
        + '\n// "example.org/orchard/ledger" wants the tree names without a trailing slash\n'
    )
    assert [(f, n) for f, n, _ in _copies(root, src=k8s, lock_path=None)] == [
        ("port/keeper.py", 13)
    ]
