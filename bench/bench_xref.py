"""Benchmark of tools.xref: indexing a large Go tree cold and warm, beside universal-ctags.

Run: ``python bench/bench_xref.py [--tree DIR] [--repeat 3] [--jobs N]``.  Prints figures;
asserts nothing.  Needs (Debian): ``apt-get install golang-1.19-src universal-ctags`` — the tree
defaults to Debian's Go 1.19 standard library source, ``/usr/share/go-1.19/src``.

Figures, each the best of ``--repeat`` runs, raw parse and cold index interleaved:

- raw parse: read and tree-sitter-parse every ``*.go`` file with a process pool on all cores,
  nothing else (the floor for a cold index);
- cold: ``index_tree`` with an empty cache: scan, read, hash, parse, extract symbols and
  cases, write the cache;
- warm: ``index_tree`` again, nothing changed (content-hash cache, trusted ``stat``);
  also with ``--rehash`` (every file read and hashed) and with every record decoded;
- ctags: ``ctags -R --languages=Go`` on the same tree;
- the kubelet file set: the Go files the port maps, from ``$K8S_SRC`` (or the local v1.21.4
  copy in ``.cache/k8s-v1.21.4``), indexed cold, and the whole ``build_index``.

Goals: cold ≤ 1.25 × raw parse; warm ≤ 0.1 × ctags; kubelet file set < 0.3 s.
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.xref import build_index  # noqa: E402
from tools.xref.go_index import index_bytes  # noqa: E402
from tools.xref.go_tree import cpu_count, index_tree, raw_parse_tree  # noqa: E402
from tools.xref.py_index import index_package  # noqa: E402
from tools.xref.source import open_explicit  # noqa: E402

DEFAULT_TREE = "/usr/share/go-1.19/src"


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def find_tree(arg: str | None) -> Path | None:
    if arg:
        return Path(arg)
    if Path(DEFAULT_TREE).is_dir():
        return Path(DEFAULT_TREE)
    found = sorted(glob.glob("/usr/share/go-*/src"))
    return Path(found[-1]) if found else None


def ctags_cmd() -> list[str] | None:
    exe = shutil.which("ctags") or shutil.which("universal-ctags")
    if exe is None:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False).stdout
    return [exe] if "Universal Ctags" in out else None


def row(name: str, seconds: float, extra: str = "") -> None:
    print(f"  {name:50} {seconds:8.3f} s  {extra}")


def bench_tree(tree: Path, repeat: int, jobs: int) -> None:
    size = sum(p.stat().st_size for p in tree.rglob("*.go") if p.is_file())
    print(f"tree: {tree} ({size / 1e6:.1f} MB of Go)")
    raws, colds, cold_tree = [], [], None
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            t = time.perf_counter()
            n_files, _ = raw_parse_tree(tree, jobs=jobs)
            raws.append(time.perf_counter() - t)
            cache = Path(tmp) / f"cold{i}"
            t = time.perf_counter()
            cold_tree = index_tree(tree, cache_dir=cache, jobs=jobs)
            colds.append(time.perf_counter() - t)
        raw, cold = min(raws), min(colds)
        files = cold_tree.files.values()
        symbols = sum(len(f.record[2]) for f in files)
        cases = sum(len(f.record[3]) for f in files)
        broken = sum(1 for f in files if f.record[4])
        print(
            f"  {n_files} files; {symbols} symbols, {cases} select/switch cases, "
            f"{broken} files with syntax errors (reported, not fatal)"
        )
        cache = Path(tmp) / f"cold{repeat - 1}"
        warm, _ = best(lambda: index_tree(tree, cache_dir=cache, jobs=jobs), repeat)
        rehash, _ = best(lambda: index_tree(tree, cache_dir=cache, rehash=True), repeat)

        def decode_all():
            t = index_tree(tree, cache_dir=cache)
            return sum(len(f.symbols) for f in t.files.values())

        decoded, _ = best(decode_all, repeat)
        cmd = ctags_cmd()
        ctags = None
        if cmd:
            tags = Path(tmp) / "tags"
            run = [*cmd, "-R", "--languages=Go", "-f", str(tags), str(tree)]
            ctags, _ = best(lambda: subprocess.run(run, capture_output=True, check=True), repeat)
    row(f"raw tree-sitter parse, {jobs} processes", raw)
    row("cold index (empty cache)", cold, f"{cold / raw:.2f} × raw parse   (goal ≤ 1.25)")
    row("warm index (nothing changed)", warm, f"{warm / raw:.3f} × raw parse")
    row("warm index, --rehash (read + sha256 all)", rehash)
    row("warm index + decode every record", decoded)
    if ctags is None:
        print("  ctags: universal-ctags not found (apt-get install universal-ctags)")
        return
    row("ctags -R --languages=Go", ctags)
    print(f"  ratios: cold / raw parse = {cold / raw:.2f}   (goal ≤ 1.25)")
    print(f"          warm / ctags     = {warm / ctags:.3f}  (goal ≤ 0.1)")
    print(f"          warm --rehash / ctags = {rehash / ctags:.3f}")
    print(f"          cold / ctags     = {cold / ctags:.2f}")


def bench_kubelet(repeat: int) -> None:
    src = os.environ.get("K8S_SRC")
    version_ = os.environ.get("K8S_SRC_VERSION")
    if not src and (ROOT / ".cache" / "k8s-v1.21.4").is_dir():
        src, version_ = str(ROOT / ".cache" / "k8s-v1.21.4"), "v1.21.4"
    if not src:
        print("kubelet file set: no K8S_SRC (and no .cache/k8s-v1.21.4): skipped")
        return
    source = open_explicit(src, version_)
    py = index_package(ROOT / "minikubelet", ROOT)
    data = source.read_many(py.go_paths())
    size = sum(map(len, data.values()))
    print(f"kubelet file set: {len(data)} Go files mapped by the port ({size / 1e6:.2f} MB), from")
    print(f"  {source.describe()}")
    parse, _ = best(lambda: [index_bytes(p, d) for p, d in data.items()], repeat)
    row("parse + extract, no cache", parse, "(goal < 0.3 s)")
    with tempfile.TemporaryDirectory() as tmp:
        kw = {"src": src, "source_version": version_, "cache_dir": Path(tmp), "offline": True}
        t = time.perf_counter()
        build_index(ROOT, **kw)
        row("build_index, cold cache (Python + Go + resolve)", time.perf_counter() - t)
        warm, _ = best(lambda: build_index(ROOT, **kw), repeat)
        row("build_index, warm cache", warm)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", help=f"Go tree to index (default {DEFAULT_TREE})")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=cpu_count())
    args = ap.parse_args()
    print(
        f"python {platform.python_version()}, tree-sitter {version('tree-sitter')}, "
        f"tree-sitter-go {version('tree-sitter-go')}, {cpu_count()} cores, jobs={args.jobs}, "
        f"best of {args.repeat}"
    )
    tree = find_tree(args.tree)
    if tree is None or not tree.is_dir():
        print("no Go tree: apt-get install golang-1.19-src (or pass --tree DIR)")
    else:
        if str(tree) != DEFAULT_TREE:
            print(f"note: {DEFAULT_TREE} not found, using {tree}")
        bench_tree(tree, args.repeat, args.jobs)
    bench_kubelet(args.repeat)


if __name__ == "__main__":
    main()
