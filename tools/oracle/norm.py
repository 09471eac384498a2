"""What Go leaves unspecified in a trace, made canonical (the same for both sides; ours).

* the container kills run concurrently in Go (killContainersWithSyncResult starts one goroutine
  per container): each run of consecutive lines of one such kind is sorted;
* image-pull durations are the wall clock in Go (time.Since) and virtual in the port: <d>.
"""

from __future__ import annotations

import re

CONCURRENT = (
    re.compile(r"^call: StopContainer "),
    re.compile(r"^event: Normal Killing "),
    re.compile(r"^result: KillContainer "),
    re.compile(r"^call: ExecSync "),
)
_PULLED = re.compile(r'(Successfully pulled image "[^"]*" in )\S+')


def norm(lines: list[str]) -> list[str]:
    """The trace with concurrent runs sorted and pull durations replaced."""
    out: list[str] = []
    run: list[str] = []
    kind: int | None = None
    for line in lines:
        line = _PULLED.sub(r"\1<d>", line.rstrip("\n"))
        k = next((i for i, r in enumerate(CONCURRENT) if r.match(line)), None)
        if k is None or k != kind:
            out.extend(sorted(run))
            run = []
        kind = k
        (run if k is not None else out).append(line)
    out.extend(sorted(run))
    return out


#: Lines of the Kubelet level that concurrent goroutines write in no fixed order (the container
#: kills of one KillPod): a run of such lines is sorted, by kind and then text.
CONCURRENT_KUBELET = (
    *CONCURRENT,
    re.compile(r'^klog: I "Killing container with a grace period'),
)


def norm_kubelet(lines: list[str]) -> list[str]:
    """A Kubelet-level trace with concurrent runs sorted and pull durations replaced."""
    out: list[str] = []
    run: list[tuple[int, str]] = []
    for line in lines:
        line = _PULLED.sub(r"\1<d>", line.rstrip("\n"))
        k = next((i for i, r in enumerate(CONCURRENT_KUBELET) if r.match(line)), None)
        if k is None:
            out.extend(text for _, text in sorted(run))
            run = []
            out.append(line)
        else:
            run.append((k, line))
    out.extend(text for _, text in sorted(run))
    return out
