"""``python -m tools.deadcode``: code that nothing uses, found with vulture; `make lint` runs it.

Usages count wherever they are (the tests, the benchmarks and the examples use the port too);
findings are reported only for the code we ship: ``minikubelet/``, ``tools/``, ``walkthrough/``.
What vulture cannot see being used (hooks mkdocs calls by name, fields a template reads) is listed
in `ALLOWED`, each with its reason. A Go symbol that the port keeps for the reader must be used
by a test or a page, like any other code.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("minikubelet", "tools", "walkthrough")
USERS = ("tests", "bench", "examples")
MIN_CONFIDENCE = 60

# (path, name) → why it is used although nothing in Python calls it.
ALLOWED: dict[tuple[str, str], str] = {
    ("tools/site/hooks.py", "on_startup"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_config"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_files"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_page_markdown"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_page_content"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_post_page"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "on_post_template"): "an mkdocs hook, called by name",
    ("tools/site/nav.py", "on_config"): "an mkdocs hook, called by name",
    ("tools/site/hooks.py", "handle_starttag"): "html.parser.HTMLParser calls it",
    ("tools/site/serve.py", "log_message"): "http.server calls it for every request",
    ("tools/site/building.py", "log_message"): "http.server calls it for every request",
    ("tools/site/building.py", "do_GET"): "http.server calls it for every GET request",
    ("tools/site/book/__init__.py", "page_mode"): "pypdf's property: open with the bookmarks",
    ("tools/site/sidebyside.py", "go_pad"): "read by templates/sidebyside.html.j2",
    ("tools/site/sidebyside.py", "py_pad"): "read by templates/sidebyside.html.j2",
    ("tools/site/sidebyside.py", "go_first"): "read by templates/sidebyside.html.j2",
    ("minikubelet/config/http.py", "http_open"): "urllib's OpenerDirector calls it by name",
    ("minikubelet/config/http.py", "https_open"): "urllib's OpenerDirector calls it by name",
    ("tools/xref/download.py", "http_open"): "urllib's OpenerDirector calls it by name",
    ("tools/xref/download.py", "https_open"): "urllib's OpenerDirector calls it by name",
    ("minikubelet/kuberuntime/kuberuntime_sandbox.py", "log_directory"): (
        "a field of the CRI message sent to the runtime"
    ),
    ("walkthrough/child.py", "dont_write_bytecode"): "sys.dont_write_bytecode, read by import",
}


def _is_exercise_check(rel: str, name: str) -> bool:
    """A ``check_*`` function of an exercise's ``checks.py``: the walkthrough runner calls it by
    its name."""
    parts = rel.split("/")
    return (
        len(parts) == 5
        and parts[0] == "walkthrough"
        and parts[2] == "exercises"
        and parts[4] == "checks.py"
        and name.startswith("check_")
    )


def find(root: Path = ROOT, allowed: dict[tuple[str, str], str] = ALLOWED) -> list[str]:
    """``path:line: message`` for each unused piece of shipped code not in `allowed`, and for
    each entry of `allowed` that is no longer needed."""
    import vulture

    # The walkthrough runner calls each exercise's check_* functions by name (checks.py).
    v = vulture.Vulture(ignore_names=["check_*"])
    paths = [str(root / p) for p in (*SHIPPED, *USERS) if (root / p).exists()]
    # A learner's exercise file is theirs (git and ruff skip it too).
    v.scavenge(paths, exclude=["*/fixtures/*", "*/exercises/*/exercise.py"])
    out = []
    seen = set()
    for item in v.get_unused_code(min_confidence=MIN_CONFIDENCE):
        rel = Path(item.filename).resolve().relative_to(root.resolve()).as_posix()
        if not rel.startswith(tuple(p + "/" for p in SHIPPED)):
            continue
        if item.typ in ("import", "variable"):  # ruff reports unused imports and variables
            continue
        if _is_exercise_check(rel, item.name):
            continue
        if (rel, item.name) in allowed:
            seen.add((rel, item.name))
            continue
        out.append(f"{rel}:{item.first_lineno}: {item.message} ({item.confidence}% confidence)")
    for rel, name in sorted(set(allowed) - seen):
        out.append(f"{rel}: '{name}' is used now: drop it from tools/deadcode.py ALLOWED")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else ROOT
    found = find(root)
    for line in found:
        print(line)
    if found:
        print(
            f"deadcode: {len(found)} unused: remove it, or (a Go symbol kept for the reader) say "
            "so in its docstring and use it in a test or a page"
        )
        return 1
    print("deadcode: ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
