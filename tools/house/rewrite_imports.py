"""Move modules to their layer and rewrite every reference to them. Ours (issue #26).

The table below says where each module moved. A run (a) ``git mv``s what is still at its old
place and (b) rewrites, in every tracked file, the old dotted names (``minikubelet.sim.go``),
their path spellings (``minikubelet/sim/go/``) and the ``from minikubelet.sim import go`` lines.
It is idempotent: run again, it finds nothing left to move or rewrite.

After ``git merge main`` on a branch that added files with the old names::

    .venv/bin/python -m tools.house.rewrite_imports --fix-imports

rewrites them (``--fix-imports`` only rewrites; it moves nothing). ``--check`` exits 1 and
lists the files that still name an old module (nothing is written).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Old module → new module (a package moves with everything under it).
MOVES: dict[str, str] = {
    "minikubelet.sim.go": "minikubelet.go",
    "minikubelet.sim.i18n": "minikubelet.base.i18n",
    "minikubelet.sim.files": "minikubelet.base.files",
    "minikubelet.sim.trace.hooks": "minikubelet.base.trace",
    "minikubelet.sim.klog": "minikubelet.k8s_io.klog.v2.klog",
    "minikubelet.sim.fsnotify": "minikubelet.github_com.fsnotify.fsnotify.fsnotify",
    "minikubelet.sim.manifest": "minikubelet.config.manifest",
}

#: ``from PARENT import NAME`` where PARENT.NAME is a module that moved, limited to files under
#: a prefix (None: everywhere). The trace package stays in sim for the CLI and the tests; the
#: kubelet files only call its hooks, which now live at the bottom.
NAME_IMPORTS: list[tuple[str, str, str, str | None]] = [
    # (parent, name, new parent, only under this path prefix, excluding minikubelet/sim/)
    ("minikubelet.sim", "trace", "minikubelet.base", "minikubelet/"),
]

_SKIP_SUFFIXES = (".png", ".svg", ".ico", ".woff", ".woff2", ".gz", ".pdf", ".jpg")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def _path(module: str, package: bool) -> Path:
    rel = module.replace(".", "/")
    return ROOT / rel if package else ROOT / f"{rel}.py"


def move_files() -> list[str]:
    """``git mv`` each module still at its old place; new packages get an ``__init__.py``."""
    done = []
    for old, new in MOVES.items():
        for package in (True, False):
            src, dst = _path(old, package), _path(new, package)
            if not src.exists() or (package and not (src / "__init__.py").exists()):
                continue
            for parent in reversed(dst.parents):
                if parent == ROOT or ROOT not in parent.parents:
                    continue
                if not parent.exists():
                    parent.mkdir()
                init = parent / "__init__.py"
                if parent != dst and not init.exists() and parent != ROOT / "minikubelet":
                    name = parent.relative_to(ROOT / "minikubelet").as_posix()
                    init.write_text(f'"""{_package_doc(name)}"""\n', encoding="utf-8")
                    _git("add", str(init.relative_to(ROOT)))
            _git("mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT)))
            done.append(f"{old} -> {new}")
    return done


def _package_doc(name: str) -> str:
    docs = {
        "base": "The foundation under every layer: bilingual messages, bounded file reads, trace "
        "hooks. Ours.",
        "k8s_io/klog": "k8s.io/klog (the klog repository).",
        "k8s_io/klog/v2": "k8s.io/klog/v2: kubelet's logger, its output format.",
        "github_com": "Go modules hosted on github.com, at their import paths.",
        "github_com/fsnotify": "github.com/fsnotify.",
        "github_com/fsnotify/fsnotify": "github.com/fsnotify/fsnotify: the directory watcher.",
    }
    return docs.get(name, f"{name}.")


def _patterns() -> list[tuple[re.Pattern[str], str]]:
    pats: list[tuple[re.Pattern[str], str]] = []
    for old, new in sorted(MOVES.items(), key=lambda kv: -len(kv[0])):
        # Dotted: minikubelet.sim.go, minikubelet.sim.go.chan (not minikubelet.sim.gone).
        pats.append((re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w])"), new))
        o, n = old.replace(".", "/"), new.replace(".", "/")
        pats.append((re.compile(rf"(?<![\w/.]){re.escape(o)}(?=/|\.py\b)"), n))
        # from minikubelet.sim import go[, klog] as a whole line (names split per new home).
    return pats


_FROM = re.compile(r"^(?P<indent>[ \t]*)from (?P<parent>[\w.]+) import (?P<names>[\w, ]+?)[ \t]*$")


def _split_from(line: str, rel: str) -> str:
    """``from minikubelet.sim import go, klog`` → one line per new home, others kept."""
    m = _FROM.match(line)
    if not m:
        return line
    parent, indent = m["parent"], m["indent"]
    homes: dict[str, list[str]] = {}
    for raw in m["names"].split(","):
        name = raw.strip()
        if not name:
            continue
        full = f"{parent}.{name}"
        home = parent
        if full in MOVES:
            home = MOVES[full].rsplit(".", 1)[0]
            if MOVES[full].rsplit(".", 1)[1] != name:
                homes.setdefault(parent, []).append(name)
                continue
        for p, n, newp, prefix in NAME_IMPORTS:
            if (p, n) == (parent, name) and _in_scope(rel, prefix):
                home = newp
        homes.setdefault(home, []).append(name)
    if list(homes) == [parent]:
        return line
    return "\n".join(f"{indent}from {h} import {', '.join(ns)}" for h, ns in homes.items())


def _in_scope(rel: str, prefix: str | None) -> bool:
    if prefix is None:
        return True
    return rel.startswith(prefix) and not rel.startswith("minikubelet/sim/")


def rewrite_text(text: str, rel: str) -> str:
    lines = [_split_from(line, rel) for line in text.split("\n")]
    out = "\n".join(lines)
    for pat, new in _patterns():
        out = pat.sub(new, out)
    return out


def _tracked() -> list[str]:
    files = _git("ls-files", "-z").split("\0")
    return [f for f in files if f and not f.endswith(_SKIP_SUFFIXES) and f != _SELF]


_SELF = "tools/house/rewrite_imports.py"


def rewrite_files(write: bool) -> list[str]:
    changed = []
    for rel in _tracked():
        path = ROOT / rel
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = rewrite_text(text, rel)
        if new != text:
            changed.append(rel)
            if write:
                path.write_text(new, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.house.rewrite_imports")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fix-imports", action="store_true", help="rewrite references only")
    mode.add_argument("--check", action="store_true", help="list files naming old modules")
    args = parser.parse_args(argv)
    if args.check:
        left = rewrite_files(write=False)
        for rel in left:
            print(f"{rel}: names a moved module (run python -m tools.house.rewrite_imports)")
        return 1 if left else 0
    if not args.fix_imports:
        for line in move_files():
            print(f"moved {line}")
    for rel in rewrite_files(write=True):
        print(f"rewrote {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
