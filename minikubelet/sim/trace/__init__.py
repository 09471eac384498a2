"""Trace recording: the port's own record of a run, step by step. Ours, not kubelet's.

A *trace* is what a reader needs to replay a run: each `select` with the cases that were ready
and the one the seeded choice took, each send and receive on a named channel, goroutines
starting and ending, the pod workers' state, the container runtime's calls, the status
manager's new statuses and the log lines, each at its virtual time, in its goroutine, at the
Python `file:line` that did it. Record one with:

```python
from minikubelet.sim.trace import recording
with recording() as rec:
    go.run(main, seed=1)
trace = rec.trace(command="…")          # a JSON-ready dict
```

or `minikubelet run … --trace FILE`, which also adds the Go line each step maps to (the
cross-linker `tools.xref` resolves them: `tools.trace.resolve`). The site records its traces at
build time (the `trace` directive, see `tools/site`) and plays them back on the page.

The same seed and the same port give the same trace, byte for byte ([`dumps`][minikubelet.sim.trace.dumps]);
tracing off costs one global lookup per channel operation (`bench/bench_trace.py` measures it).
`schema.json` next to this module is the format's JSON Schema (the tests check traces with it).
Version 2 added the `cgroup` steps; a version 1 trace is still read.

**Format (version 2).** A JSON object:

```
{"format": "minikubelet-trace", "version": 2,
 "command": "minikubelet run …" | null,  "seed": 0, "clock": "virtual" | "real",
 "truncated": false,            # true: the run made more steps than were kept
 "xref": {...},                 # present once resolved (below)
 "locations": [...], "goroutines": [...], "channels": [...], "steps": [...]}
```

`locations`: the Python places steps happened, each `{"py": "minikubelet/kubelet.py",
"line": 301, "fn": "Kubelet.sync_loop_iteration"}` (paths relative to the repository root; `fn`
is the qualified name). `goroutines`: `{"id": 7, "name": "podWorker default/web"}` in the order
they started (`main` is 1). `channels`: `{"id": 0, "name": "PodConfig.updates" | null,
"cap": 50}`, numbered in the order the recording first saw them (a channel without a name — a
ticker's, a timer's — is named in the site by the Go case that reads it).

`steps`, in the order they happened. Every step has

- `k`: its kind (below); `t`: virtual nanoseconds since the run started; `g`: the goroutine
  (0: a timer firing outside any goroutine);
- `at`: indexes into `locations`, the innermost frames of the port first (at most 6; the
  simulation and the Go-semantics runtime are skipped, so a runtime call is located at the
  kubelet line that made it);
- `bufs` (when any changed since the previous step): `[[channel, [item, …]], …]`, the whole
  buffer of each channel whose buffer changed, items described in a few words (`ADD api
  [default/web]`, `ContainerStarted default/web`, `tick 2s`);

and, by kind:

| kind | fields |
|---|---|
| `select` | `cases`, a `[kind, channel]` per case (kind `"r"` to receive or `"s"` to send; channel null for a nil channel), `ready` (case indexes ready when it chose; only the chosen one if it had to wait), `chosen` (a case index, -1 for `default`), `v` (the value received or sent), `waited` |
| `wait` | a `select` found no case ready and blocks: `cases` |
| `send` | on a named channel: `ch`, `v`, `waited` (it blocked first) |
| `recv` | on a named channel: `ch`, `v` (null when closed), `ok`, `waited` |
| `close` | `ch` |
| `sleep` | the goroutine sleeps `d` nanoseconds (Go: `time.Sleep`) |
| `go` | a goroutine started (`g` is the one that started it): `id`, `name` |
| `exit` | goroutine `g` ended: `how` is `returned`, `panicked` or `cancelled` |
| `worker` | a pod worker's state: `pod`, `working` (Go: `isWorking`), `pending` (Go: `lastUndeliveredWorkUpdate`, described, or null) |
| `cri` | the container runtime did `op` (`RunPodSandbox`, `StopPodSandbox`, `CreateContainer`, `StartContainer`, `StopContainer`, `PullImage`) for `pod` on `on` (a container or an image) |
| `cgroup` | the node's cgroup tree changed: `op` is `mkdir` or `rmdir` of the cgroup at `path` (as the cgroup driver spells it: `/kubepods/burstable/pod…`), or `write`, with the files written in `set` (`{"cpu.shares": 256, …}`; null for the other two) |
| `status` | the status manager took a new status: `pod`, `phase`, `reason`, `containers` and `init` `[[name, state, ready], …]` with state `running`, `waiting:Reason` or `terminated:Reason(exit code)` |
| `log` | a log line printed at the run's verbosity: `sev` (`I`/`E`), `msg`, `kv` |

**Resolved (Go) fields.** `tools.trace.resolve` adds `"xref": {"tag": "v1.21.3", "mode":
"source" | "link-only", "read_from": [...]}` and, to each location the cross-linker maps,
`"go": {"path", "symbol", "start", "end"` (the Go declaration's lines), `"line"` (the Go line
of this step, or null when only the function is known), `"from", "to"` (the lines lit: an
anchored block or the line), `"case"` (the Go case the Python line is in, if any), `"how"`
(`select`, `message`, `call`, `channel` (a send or receive), `case`, `function`: how `line`
was found), `"permalink"}`. A
location of a `select` also gets `"cases"` and `"case_lines"` (the Go case text and lines of
each case index), and `"default"`/`"default_lines"`. A step's *focus* is the first location of
`at` that has `go` (else the first): the function the player shows.
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from minikubelet.base.trace import cgroup, cri, log, pod_status, pod_worker

from .recorder import MAX_STEPS, Recorder, RecordingError, recording

FORMAT = "minikubelet-trace"
VERSION = 2


def dumps(trace: dict[str, Any]) -> str:
    """The trace as text: the same trace gives the same bytes (keys sorted, one step a line)."""
    head = {k: v for k, v in trace.items() if k != "steps"}
    body = json.dumps(head, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    steps = ",\n".join(
        json.dumps(s, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        for s in trace.get("steps", [])
    )
    return body[:-1] + ',"steps":[\n' + steps + "\n]}\n"


def with_go_lines(trace: dict[str, Any]) -> str | None:
    """Add the Go lines to a trace with the repository's cross-linker; None when done, else why
    not (the port runs without the repository's ``tools/`` next to it, or without tree-sitter).
    """
    from .recorder import ROOT

    if not (ROOT / "tools" / "trace" / "resolve.py").is_file():
        return f"no cross-linker next to the port ({ROOT / 'tools'} is missing)"
    if str(ROOT) not in sys.path:  # tools/ is run from the repository, not installed
        sys.path.append(str(ROOT))
    try:  # by name: tools/ is not part of the package (nor of what mypy checks)
        resolver = importlib.import_module("tools.trace.resolve")
    except ImportError as exc:
        return f"the cross-linker cannot run here: {exc}"
    resolver.resolve(trace)
    return None


def write(trace: dict[str, Any], path: str) -> None:
    """Write a trace to ``path`` whole or not at all (a temporary file, then renamed).

    The temporary file is created anew (``O_EXCL``, ``O_NOFOLLOW``; a link planted at its name
    is removed first), so nothing is written through a symbolic link; a ``path`` that is one
    is refused (``OSError``, ELOOP), as ``O_NOFOLLOW`` refuses it."""
    target = Path(path)
    if target.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link (a trace is not written through one)")
    tmp = target.with_name(f".{target.name}.tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(trace))
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = [
    "FORMAT",
    "MAX_STEPS",
    "VERSION",
    "Recorder",
    "RecordingError",
    "cgroup",
    "cri",
    "dumps",
    "log",
    "pod_status",
    "pod_worker",
    "recording",
    "with_go_lines",
    "write",
]
