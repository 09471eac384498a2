"""The inotify gate of the polling watcher (ours) against a fresh comparison at every poll: the
gate may only skip a poll whose comparison would have found nothing."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from minikubelet.github_com.fsnotify.fsnotify.fsnotify import InotifyGate, changes, snapshot


def steps(d: Path, outside: Path) -> list[tuple[str, Callable[[], object]]]:
    """File operations as a user or an editor makes them, one per poll."""
    return [
        ("nothing", lambda: None),
        ("create", lambda: (d / "a.yaml").write_text("a: 1\n")),
        ("nothing", lambda: None),
        ("rewrite, same size", lambda: (d / "a.yaml").write_text("a: 2\n")),
        ("touch", lambda: os.utime(d / "a.yaml", ns=(1, 1))),
        ("chmod", lambda: os.chmod(d / "a.yaml", 0o600)),
        ("create b", lambda: (d / "b.yaml").write_text("b: 1\n")),
        ("rename", lambda: os.rename(d / "b.yaml", d / "c.yaml")),
        (
            "editor",
            lambda: ((d / ".a.swp").write_text("a: 3\n"), os.rename(d / ".a.swp", d / "a.yaml")),
        ),
        ("remove", lambda: os.remove(d / "c.yaml")),
        ("nothing", lambda: None),
        ("symlink", lambda: os.symlink(outside, d / "link.yaml")),
        ("target changes", lambda: outside.write_text("x: 22\n")),
        ("nothing", lambda: None),
        ("unlink", lambda: os.remove(d / "link.yaml")),
        ("subdirectory", lambda: os.mkdir(d / "sub")),
        ("file in it", lambda: (d / "sub" / "z").write_text("z")),
        ("nothing", lambda: None),
    ]


def test_the_gate_skips_only_polls_that_would_find_nothing(tmp_path: Path) -> None:
    d, outside = tmp_path / "manifests", tmp_path / "target.yaml"
    d.mkdir()
    outside.write_text("x: 1\n")
    gate = InotifyGate(str(d))
    if gate.fd < 0:
        pytest.skip("no inotify here: the gate always answers 'maybe'")
    before = snapshot(str(d))
    skipped = []
    try:
        for name, step in steps(d, outside):
            step()
            now = snapshot(str(d))
            fresh = changes(before, now)
            plain = all(entry[3] for entry in before.values())
            if not gate.maybe_changed() and plain:
                assert fresh == [], name
                skipped.append(name)
            before = now
    finally:
        gate.close()
    # Polls with nothing to find are skipped, except while the directory holds a symlink or a
    # subdirectory.
    assert skipped.count("nothing") == 3  # of 5
    assert "target changes" not in skipped


def test_without_a_descriptor_the_gate_always_says_maybe(tmp_path: Path) -> None:
    gate = InotifyGate(str(tmp_path / "missing"))
    assert gate.fd == -1
    assert gate.maybe_changed() and gate.maybe_changed()
    gate.close()
