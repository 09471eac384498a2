"""``make lint``'s type check: mypy over the port, the tools, the walkthrough and every exercise's
checks. Ours.

    python -m tools.typecheck

mypy names a file outside a package by its file name, so the 37 ``checks.py`` of the exercise
folders (``walkthrough/ch01/exercises/merge-set/``: a dash, no package) would all be one module
``checks``, and mypy refuses the clash. This runs one mypy build (the settings of
``pyproject.toml``) over the files those settings name, plus each ``checks.py`` under a module
name of its own (``ch01_merge_set_checks``). A learner's ``exercise.py`` is theirs: not checked.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def exercise_checks(root: Path = ROOT) -> list[tuple[Path, str]]:
    """Each exercise's checks file, with the module name it is checked under."""
    return [
        (path, f"{path.parts[-4]}_{path.parts[-2].replace('-', '_')}_checks")
        for path in sorted(root.glob("walkthrough/ch*/exercises/*/checks.py"))
    ]


def check(root: Path = ROOT) -> list[str]:
    """mypy's messages (errors and their notes), paths relative to the working directory (run
    from ``root``: its settings name files relative to it); none when clean."""
    from mypy import build
    from mypy.errors import CompileError
    from mypy.main import process_options
    from mypy.modulefinder import BuildSource

    config = root / "pyproject.toml"
    sources, options = process_options(["--config-file", str(config)])
    sources += [
        BuildSource(os.path.relpath(path), name, None) for path, name in exercise_checks(root)
    ]
    try:
        result = build.build(sources, options)
    except CompileError as err:
        return list(err.messages)
    return list(result.errors)


def main() -> int:
    messages = check()
    for line in messages:
        print(line)
    errors = sum(": error:" in line for line in messages)
    if errors:
        print(f"typecheck: {errors} errors")
        return 1
    print(f"typecheck: no issues (the configured files and {len(exercise_checks())} checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
