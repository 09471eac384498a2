"""The catalogue kept between commands reads the same as the chapters read afresh, and is
not used once a file it was read from changed (walkthrough/catalog.py, ours)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from walkthrough import catalog
from walkthrough.catalog import catalog_data, discover
from walkthrough.runner import Workspace

ROOT = catalog.PACKAGE_DIR.parent

#: A fresh interpreter's catalogue of a folder, as JSON (what a new command sees).
READ = (
    "import json, sys; from pathlib import Path; from walkthrough.catalog import discover, "
    "catalog_data; root = Path(sys.argv[1]); print(json.dumps(catalog_data(discover(root), root)))"
)


def fresh_command(root: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", READ, str(root)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def afresh(root: Path) -> str:
    """The catalogue read from the files, nothing kept."""
    import json

    return json.dumps(catalog_data(catalog._read_chapters(root), root)) + "\n"


def test_a_new_command_reads_the_kept_catalogue_as_the_files_say(workspace: Workspace) -> None:
    root = workspace.root
    kept = catalog._kept_file(root)
    assert kept is not None
    assert fresh_command(root) == afresh(root)  # the first command keeps it
    assert kept.is_file(), "nothing was kept for the next command"
    assert fresh_command(root) == afresh(root)  # the next reads it back


def test_a_changed_file_is_read_again(workspace: Workspace) -> None:
    root = workspace.root
    fresh_command(root)
    # The first in name order (a glob's order is the file system's), changed through YAML: a
    # title may be quoted, so text put before it could make the file unreadable.
    spec = sorted(root.glob("ch*/exercises/*/exercise.yaml"))[0]
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    data["title"]["en"] = "Changed " + data["title"]["en"]
    spec.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    seen = fresh_command(root)
    assert '"Changed ' in seen and seen == afresh(root)


def test_a_damaged_kept_file_is_passed_by(workspace: Workspace) -> None:
    root = workspace.root
    fresh_command(root)
    kept = catalog._kept_file(root)
    assert kept is not None
    kept.write_bytes(b"not a pickle")
    assert fresh_command(root) == afresh(root)
    catalog._read.clear()  # this process, too, as a new command would
    assert [c.key for c in catalog.all_exercises(discover(root))] == [
        e.key for e in catalog.all_exercises(catalog._read_chapters(root))
    ]
