"""``python -m tools.xref fetch|index|check|report|lock`` (``--help`` on each)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .index import Index, build_index
from .paths import COMMIT, LOCK_PATH, PACKAGE, REPO_ROOT, TAG
from .problems import ERROR
from .progress import Progress

if TYPE_CHECKING:
    from .download import FetchResult

EPILOG = f"""\
environment:
  K8S_SRC          a kubernetes checkout (read at tag {TAG}) or a directory laid out like one
  K8S_SRC_VERSION  the release K8S_SRC holds, or the tag to read from a checkout (default {TAG})
  XREF_CACHE_DIR   cache directory (default .cache/xref)
  XREF_RAW_BASE, XREF_ARCHIVE_URL, XREF_TIMEOUT   download settings (default: the
                   release commit {COMMIT} on GitHub, over https)

exit status: 0 ok, 1 problems found (check, lock, fetch), 2 bad usage
"""


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=REPO_ROOT, help="repository root")
    p.add_argument("--package", default=PACKAGE, help="the port's package directory")
    p.add_argument("--src", help="kubernetes source (overrides $K8S_SRC)")
    p.add_argument("--source-version", help="release held by --src (overrides $K8S_SRC_VERSION)")
    p.add_argument("--lock", type=Path, default=LOCK_PATH, help="lock file")
    p.add_argument("--cache-dir", type=Path, help="cache directory (default .cache/xref)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--offline", action="store_true", help="never download")
    p.add_argument("--via", choices=("raw", "archive"), default="raw", help="how to download")
    p.add_argument("--base-url", help="raw file URL prefix (default: the release commit on GitHub)")
    p.add_argument(
        "--archive-url", help="source archive URL (default: the release commit's .tar.gz)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bars on stderr (default: when stderr is a terminal)",
    )
    p.add_argument(
        "--require-source",
        action="store_true",
        help="fail instead of falling back to link-only mode when no source can be read",
    )


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tools.xref",
        description=f"Cross-links the port to Kubernetes {TAG} with tree-sitter.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("fetch", help="download the mapped Go files into the cache, verified")
    _common(p)
    p.add_argument("--force", action="store_true", help="download again even when cached")
    p.add_argument(
        "--offline-ok",
        action="store_true",
        help="no network is no error: say so in one line, exit 0 (make serve, make build)",
    )
    p = sub.add_parser("index", help="build the cross-reference (or index any Go tree)")
    _common(p)
    p.add_argument("--go-tree", type=Path, help="index every *.go file under this directory")
    p.add_argument("--rehash", action="store_true", help="hash every file, ignore stat")
    p.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    p.add_argument("--text", action="store_true", help="include Go declaration text in --json")
    p = sub.add_parser(
        "check",
        help="resolve every mapping, check fidelity and the lock, find copied Go comments",
    )
    _common(p)
    p.add_argument(
        "--no-fidelity",
        action="store_true",
        help="report cases neither ported nor omitted as warnings instead of failing",
    )
    p = sub.add_parser("report", help="fidelity report: each case of each mapped Go function")
    _common(p)
    p = sub.add_parser("lock", help="write the lock file from the source")
    _common(p)
    p.add_argument("--force", action="store_true", help="write even if some mappings fail")
    return ap


def _cache(args):
    if args.no_cache:
        return None
    return args.cache_dir or True


def _build(args, progress, **kw) -> Index:
    return build_index(
        args.root,
        package=args.package,
        src=args.src,
        source_version=args.source_version,
        lock_path=args.lock,
        cache_dir=_cache(args),
        offline=args.offline,
        require_source=args.require_source,
        via=args.via,
        base_url=args.base_url,
        archive_url=args.archive_url,
        progress=progress,
        **kw,
    )


def _say(*lines: str) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def _print_problems(index: Index, quiet_notes: bool = False) -> None:
    for p in index.problems:
        if quiet_notes and p.severity == "note":
            continue
        print(p)


def _summary(index: Index) -> str:
    resolved = sum(m.resolved for m in index.mappings)
    fields = sum(b.go_kind == "field" for m in index.mappings for b in m.blocks)
    blocks = sum(len(m.blocks) for m in index.mappings) - fields
    ported = sum(f.count("ported") for f in index.fidelity)
    omitted = sum(f.count("omitted") for f in index.fidelity)
    missing = sum(f.count("missing") for f in index.fidelity)
    copied = sum(p.code == "copied-comment" for p in index.problems)
    where = index.source.describe() if index.source else "the lock (link-only)"
    return (
        f"{resolved}/{len(index.mappings)} mappings resolved against {where}; {blocks} block "
        f"anchors; {fields} struct fields linked; cases of {len(index.fidelity)} mapped Go "
        f"functions: {ported} ported, {omitted} omitted, {missing} missing; {copied} lines "
        f"repeat a Go comment; "
        f"{len(index.errors)} errors"
    )


def cmd_fetch(args, progress) -> int:
    from .cache import default_cache_dir
    from .lock import LockError, load_lock
    from .py_index import index_package
    from .source import CacheSource, fetch_into

    root = Path(args.root)
    py = index_package(root / args.package, root)
    try:
        lock = load_lock(args.lock)
    except LockError as exc:
        _say(f"xref fetch: {exc}")
        return 1
    need = py.go_paths() | (lock.paths() if lock else set())
    if not need:
        _say("xref fetch: no Go file is mapped yet: nothing to fetch")
        return 0
    src = args.src or os.environ.get("K8S_SRC")
    if src:
        return _check_k8s_src(src, args, lock, need)
    expected = lock.expected_hashes(TAG) if lock else {}
    known = lock.known_blobs() if lock else {}
    cache = CacheSource(args.cache_dir or default_cache_dir(root), expected=expected, known=known)
    todo = set(need) if args.force else cache.missing(need)
    for note in cache.notes:
        print(f"xref fetch: {note}")
    res: FetchResult | None = None
    unwritable: list[str] = []
    if todo and args.offline:
        print(f"xref fetch: --offline: {len(todo)} files not fetched")
    elif todo:
        res, unwritable = fetch_into(
            cache,
            todo,
            via=args.via,
            base_url=args.base_url,
            archive_url=args.archive_url,
            progress=progress,
        )
    out = _fetch_outcome(need, cache, res, unwritable, known, expected)
    offline = bool(out["network_error"]) and not out["refused"]
    if args.json:
        print(json.dumps(out, indent=1))
    elif offline and args.offline_ok:
        url, _, why = out["network_error"].partition(": ")
        host = urlsplit(url).netloc or url
        print(
            f"xref fetch: offline (cannot reach {host}: {why or 'no answer'}): the site shows "
            "the Go as links to GitHub; set K8S_SRC=/path/to/kubernetes to read a local copy"
        )
    else:
        _print_fetched(out, need, known, cache.dir, downloaded=res is not None)
    if offline and args.offline_ok:
        return 0
    return 1 if out["missing"] or out["absent_at_tag"] else 0


def _check_k8s_src(src: str, args, lock, need: set[str]) -> int:
    """``fetch`` with ``K8S_SRC`` set: nothing to download; say what the source lacks."""
    from .source import SourceError, open_explicit

    version = args.source_version or os.environ.get("K8S_SRC_VERSION")
    try:
        source = open_explicit(src, version, lock=lock, need=need)
    except SourceError as exc:
        _say(f"xref fetch: {exc}")
        return 1
    lacking = sorted(set(need) - set(source.read_many(need)))
    print(f"xref fetch: K8S_SRC is set, nothing to fetch: {source.describe()}")
    if source.warning:
        print(f"xref fetch: warning: {source.warning}")
    for rel in lacking:
        print(f"xref fetch: {rel}: not in K8S_SRC")
    return 1 if lacking else 0


def _fetch_outcome(
    need: set[str],
    cache,
    res: FetchResult | None,
    unwritable: list[str],
    known: dict,
    expected: dict,
) -> dict[str, Any]:
    """What ``fetch`` did, as ``--json`` prints it."""
    missing = sorted(cache.missing(need))
    absent = sorted(set(need) & cache.absent())
    # Present and checked by a git blob id the lock records, or present with none to check by.
    unverified = sorted(set(need) - set(missing) - set(absent) - set(known))
    return {
        "cache": str(cache.dir),
        "commit": COMMIT,
        "needed": len(need),
        "fetched": res.fetched if res else {},
        "checked_against_lock": sorted(set(res.files) & set(expected)) if res else [],
        "not_found": res.not_found if res else [],
        "refused": res.refused if res else {},
        "rejected": [list(r) for r in res.rejected] if res else [],
        "network_error": res.network_error if res else "",
        "unwritable": unwritable,
        "missing": missing,
        "absent_at_tag": absent,
        "unverified": unverified,
    }


def _print_fetched(
    out: dict[str, Any], need: set[str], known: dict, cache_dir: Path, *, downloaded: bool
) -> None:
    """``fetch``'s report in lines: how many files are verified, then each one that is not."""
    missing, absent, unverified = out["missing"], out["absent_at_tag"], out["unverified"]
    ok = len(need) - len(missing) - len(absent) - len(unverified)
    releases = "/".join(sorted({known[p][1] for p in set(need) & set(known)}))
    by = f" by the lock's git blob ids ({releases})" if releases else ""
    got = f"; {len(out['fetched'])} downloaded at commit {COMMIT[:12]}" if downloaded else ""
    print(f"xref fetch: {ok}/{len(need)} Go files of {TAG} verified{by} in {cache_dir}{got}")
    if unverified:
        names = ", ".join(unverified[:3]) + (", …" if len(unverified) > 3 else "")
        print(
            f"xref fetch: {len(unverified)} unverified (the lock has no git blob id for "
            f"them): {names}"
        )
    for rel in absent:
        print(f"xref fetch: {rel}: not found at {TAG} (404): a mapping names a missing file")
    for rel, why in out["refused"].items():
        print(f"xref fetch: {rel}: refused: {why}")
    for name, why in out["rejected"]:
        print(f"xref fetch: archive member skipped: {name!r}: {why}")
    for line in out["unwritable"]:
        print(f"xref fetch: {line}")
    if out["network_error"]:
        print(
            f"xref fetch: download failed: {out['network_error']}. Builds fall back to "
            "link-only mode (permalinks from the lock); set K8S_SRC to read a local copy"
        )


def cmd_index(args, progress) -> int:
    if args.go_tree is not None:
        from .go_tree import index_tree

        tree = index_tree(
            args.go_tree,
            cache_dir=_cache(args),
            rehash=args.rehash,
            jobs=args.jobs,
            progress=progress,
        )
        _say(*tree.notes)
        files = tree.files.values()
        symbols = sum(len(f.record[2]) for f in files)
        cases = sum(len(f.record[3]) for f in files)
        with_errors = [f.path for f in files if f.record[4]]
        out: dict[str, Any] = {
            "root": str(tree.root),
            "files": len(tree),
            "symbols": symbols,
            "cases": cases,
            "files_with_syntax_errors": with_errors,
            **{k: v for k, v in tree.stats.items() if k != "files"},
        }
        if args.json:
            print(json.dumps(out, indent=1))
        else:
            print(
                f"{out['files']} Go files under {tree.root}: {symbols} symbols, {cases} "
                f"select/switch cases, {len(with_errors)} files with syntax errors; "
                f"{out['parsed']} parsed, {out['stat_hits'] + out['hash_hits']} from the cache, "
                f"{out['seconds']:.3f} s"
            )
        return 0
    index = _build(args, progress, strict_fidelity=False, check_lock=False)
    if args.json:
        print(json.dumps(index.to_json(text=args.text), indent=1, ensure_ascii=False))
    else:
        _say(*index.notes)
        for m in index.mappings:
            go = f"{m.go_path}:{m.go_start}-{m.go_end}" if m.resolved else f"{m.go_path} (?)"
            print(f"{m.py_file}:{m.py_start} {m.py_qualname} -> {m.go_symbol} {go}")
        _print_problems(index, quiet_notes=True)
        print(_summary(index))
    return 1 if any(p.code in ("no-source", "source") for p in index.errors) else 0


def cmd_check(args, progress) -> int:
    index = _build(args, progress, strict_fidelity=not args.no_fidelity, check_comments=True)
    if args.json:
        print(json.dumps(index.to_json(), indent=1, ensure_ascii=False))
    else:
        _say(*index.notes)
        _print_problems(index)
        print(_summary(index))
        print("check: ok" if index.ok else "check: FAILED")
    return 0 if index.ok else 1


def cmd_report(args, progress) -> int:
    index = _build(args, progress, strict_fidelity=False, check_lock=False)
    if args.json:
        print(json.dumps([f.to_json() for f in index.fidelity], indent=1, ensure_ascii=False))
        return 0
    _say(*index.notes)
    if not index.fidelity:
        print("no mapped Go function has select/switch cases resolved yet")
    for f in index.fidelity:
        mapped = ", ".join(f"{p}:{n}" for p, n in f.py)
        print(
            f"{f.go_symbol}  {f.go_path}:{f.go_start}-{f.go_end}  (mapped at {mapped}): "
            f"{f.count('ported')} ported, {f.count('omitted')} omitted, "
            f"{f.count('missing')} missing"
        )
        if not f.cases:
            print("  (no select/switch cases)")
        for c in f.cases:
            where = f"  {c.py_file}:{c.py_line}" if c.py_file else ""
            why = f" -- {c.reason}" if c.reason else ""
            print(f"  {c.status:8} L{c.go_start:<5} {c.case}{where}{why}")
        for o in f.omissions:
            print(f"  {'omitted':8} {'':6} {o.what}  {o.py_file}:{o.py_line} -- {o.reason}")
    for p in index.problems:
        if p.severity == ERROR and p.code != "missing-case":
            print(p)
    return 0


def cmd_lock(args, progress) -> int:
    from .lock import write_lock
    from .resolve import SourceLookup, make_lock
    from .source import UNKNOWN

    index = _build(args, progress, strict_fidelity=False, check_lock=False)
    _say(*index.notes)
    if index.source is None or not isinstance(index.lookup, SourceLookup):
        print("lock: needs the Go source (K8S_SRC, the cache, or a download); none found")
        return 1
    if index.errors and not args.force:
        _print_problems(index)
        print("lock: not written: fix the errors above (or use --force)")
        return 1
    if index.source.version == UNKNOWN:
        print(
            f"lock: not written: {index.source.describe()}; say which release it holds with "
            "K8S_SRC_VERSION (the lock records where each fact was read)"
        )
        return 1
    lock = make_lock(index.py, index.lookup, index.mappings)
    write_lock(args.lock, lock)
    versions = sorted({f.read_from for f in lock.files.values()}) or [index.source.version]
    if args.json:
        print(
            json.dumps(
                {
                    "lock": str(args.lock),
                    "files": len(lock.files),
                    "symbols": len(lock.symbols),
                    "read_from": versions,
                    "skipped_errors": [p.to_json() for p in index.errors],
                },
                indent=1,
            )
        )
        return 0
    print(
        f"lock: wrote {len(lock.files)} files and {len(lock.symbols)} symbols read from "
        f"{', '.join(versions)} to {args.lock}"
    )
    return 0


COMMANDS = {
    "fetch": cmd_fetch,
    "index": cmd_index,
    "check": cmd_check,
    "report": cmd_report,
    "lock": cmd_lock,
}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    with Progress(args.progress) as progress:
        return COMMANDS[args.command](args, progress)
