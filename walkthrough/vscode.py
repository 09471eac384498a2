"""``.vscode/launch.json``: one debugger configuration per chapter example, made from the chapters.

VS Code reads the file from the checkout before anything is built or run, so it is committed;
it is written from the chapters (:func:`walkthrough.catalog.discover`), never by hand::

    python -m walkthrough.vscode            # write .vscode/launch.json
    python -m walkthrough.vscode --check    # write nothing; exit 1 when the file is not current

``make lint`` runs the check, so a chapter added without writing the file fails CI.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from walkthrough.catalog import PACKAGE_DIR, CatalogError, Chapter, discover

#: The committed file, at the top of the repository.
LAUNCH_JSON = PACKAGE_DIR.parent / ".vscode" / "launch.json"
WRITE = "python -m walkthrough.vscode"

HEADER = [
    f"// Written by {WRITE} from walkthrough/chNN/chapter.yaml: do not edit.",
    "// One configuration per chapter example: Run and Debug, pick one, press F5.",
    "// Each example is deterministic (seed 1, virtual clock): a breakpoint stops at the same",
    "// moment on every run. The good places to stop: python walkthrough/chNN/example.py --breakpoints",
]
CHECK_COMMENT = [
    "// Your exercise under the debugger: set breakpoints in its exercise.py, then F5.",
    "// The check runs in a child process without a time limit; debugpy follows it.",
]


def example_configuration(chapter: Chapter) -> dict[str, Any]:
    """The configuration that runs ``chapter``'s example (which it must have) under debugpy."""
    return {
        "name": f"{chapter.slug} · {chapter.title['en']}",
        "type": "debugpy",
        "request": "launch",
        "program": f"${{workspaceFolder}}/walkthrough/{chapter.slug}/example.py",
        "args": ["--seed", "1"],
        "cwd": "${workspaceFolder}",
        "console": "integratedTerminal",
        "justMyCode": True,
    }


#: The last configuration: ``python -m walkthrough check`` on the exercise the learner is on.
CHECK_CONFIGURATION: dict[str, Any] = {
    "name": "walkthrough · check the exercise I am on",
    "type": "debugpy",
    "request": "launch",
    "module": "walkthrough",
    "args": ["check"],
    "cwd": "${workspaceFolder}",
    "console": "integratedTerminal",
    "justMyCode": True,
    "subProcess": True,
}


def _block(configuration: dict[str, Any], comments: list[str]) -> str:
    """One configuration, a key a line (a list on its line, as people write them)."""
    pairs = [
        f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"
        for key, value in configuration.items()
    ]
    lines = ["{", *("  " + c for c in comments), *(f"  {p}," for p in pairs), "}"]
    lines[-2] = lines[-2].removesuffix(",")
    return "\n".join("    " + line for line in lines)


def launch_json(chapters: list[Chapter]) -> str:
    """The text of ``.vscode/launch.json`` for ``chapters`` (JSON with ``//`` comments)."""
    blocks = [_block(example_configuration(c), []) for c in chapters if c.example is not None]
    blocks.append(_block(CHECK_CONFIGURATION, CHECK_COMMENT))
    body = ",\n".join(blocks)
    header = "\n".join("  " + line for line in HEADER)
    return f'{{\n{header}\n  "version": "0.2.0",\n  "configurations": [\n{body}\n  ]\n}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=WRITE, description="Write .vscode/launch.json from the chapters."
    )
    parser.add_argument("--check", action="store_true", help="write nothing; fail when stale")
    args = parser.parse_args(argv)
    try:
        wanted = launch_json(discover())
    except CatalogError as err:
        print(f"{WRITE}: {err}", file=sys.stderr)
        return 2
    root = PACKAGE_DIR.parent
    where = LAUNCH_JSON.relative_to(root) if LAUNCH_JSON.is_relative_to(root) else LAUNCH_JSON
    current = LAUNCH_JSON.read_text(encoding="utf-8") if LAUNCH_JSON.is_file() else None
    if args.check:
        if current != wanted:
            print(f"{where} is not what the chapters give: run {WRITE}", file=sys.stderr)
            return 1
        print(f"{where} is current")
        return 0
    if current != wanted:
        LAUNCH_JSON.parent.mkdir(exist_ok=True)
        LAUNCH_JSON.write_text(wanted, encoding="utf-8")
        print(f"wrote {where}")
    else:
        print(f"{where} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
