"""What Go leaves unspecified in a trace, made canonical (the same for both sides; ours).

* the container kills run concurrently in Go (killContainersWithSyncResult starts one goroutine
  per container): each run of consecutive lines of one such kind is sorted;
* image-pull durations are the wall clock in Go (time.Since) and virtual in the port: <d>;
* the container GC walks its evict units (one per container name of a pod) in Go's map order:
  within a gc step, each unit's removals are kept in their order and the units put in name order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

CONCURRENT = (
    re.compile(r"^call: StopContainer "),
    re.compile(r"^event: Normal Killing "),
    re.compile(r"^result: KillContainer "),
    re.compile(r"^call: ExecSync "),
)
_PULLED = re.compile(r'(Successfully pulled image "[^"]*" in )\S+')


def sort_runs(lines: Iterable[str], kind: Callable[[str], object]) -> list[str]:
    """The lines, with each run of consecutive lines of one kind sorted (``kind`` is None for a
    line that keeps its place)."""
    out: list[str] = []
    run: list[str] = []
    current: object = None
    for line in lines:
        k = kind(line)
        if k is None or k != current:
            out.extend(sorted(run))
            run = []
        current = k
        (run if k is not None else out).append(line)
    out.extend(sorted(run))
    return out


def _concurrent(line: str) -> int | None:
    return next((i for i, r in enumerate(CONCURRENT) if r.match(line)), None)


def norm(lines: list[str]) -> list[str]:
    """The trace with concurrent runs sorted, pull durations replaced, and the GC's evict
    units in name order."""
    lines = sort_runs((_PULLED.sub(r"\1<d>", line.rstrip("\n")) for line in lines), _concurrent)
    return _gc_units_in_order(lines)


_CREATED = re.compile(r"^call: CreateContainer \S+ (\S+) attempt=\d+ -> (\S+)$")
_GC_STEP = re.compile(r"^# step \d+ gc at ")
_STATUS = re.compile(r"^call: ContainerStatus (\S+)$")


def _gc_units_in_order(lines: list[str]) -> list[str]:
    """Each gc step's runs of container removals (from the first ``ContainerStatus`` of a
    container to its ``RemoveContainer``) regrouped by the container's name, each unit's
    removals in the order they came (a stable sort)."""
    names: dict[str, str] = {}
    out: list[str] = []
    in_gc = False
    run: list[tuple[str, list[str]]] = []
    group: list[str] | None = None
    for line in lines:
        created = _CREATED.match(line)
        if created:
            names[created.group(2)] = created.group(1)
        if line.startswith("# step "):
            in_gc = bool(_GC_STEP.match(line))
        status = _STATUS.match(line) if in_gc else None
        if group is None and status:
            cid = status.group(1)
            group = []
            run.append((names.get(cid, cid), group))
        if group is not None:
            group.append(line)
            if line == f"call: RemoveContainer {group[0].split()[-1]}":
                group = None
            continue
        out.extend(text for _, lines_of in sorted(run, key=lambda g: g[0]) for text in lines_of)
        run = []
        out.append(line)
    out.extend(text for _, lines_of in sorted(run, key=lambda g: g[0]) for text in lines_of)
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
