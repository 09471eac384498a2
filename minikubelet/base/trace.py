"""The port's calls into a recording: one line each where kubelet's state changes.

Ours, not kubelet's. Each function returns at once when no recording is under way (one global
lookup), so the kubelet files can call them unconditionally. A call sits right below the
statement whose change it reports, and the step is located at that statement (the recorder
steps back over the ``trace.…`` line), so a reader is shown kubelet's line, not ours.
"""

from __future__ import annotations

from typing import Any

from minikubelet.go import tracing


def pod_worker(workers: Any, uid: str) -> None:
    """A pod worker's state changed: ``isWorking`` or ``lastUndeliveredWorkUpdate``."""
    rec: Any = tracing.tracer
    if rec is not None:
        rec.pod_worker(
            uid, workers.is_working.get(uid, False), workers.last_undelivered_work_update.get(uid)
        )


def pod_status(pod: Any, status: Any) -> None:
    """The status manager took a new status for ``pod``."""
    rec: Any = tracing.tracer
    if rec is not None:
        rec.pod_status(pod, status)


def cri(op: str, sandbox_config: Any, detail: str | None = None) -> None:
    """The (fake) container runtime carried out a CRI call (``RunPodSandbox``,
    ``StartContainer``…) for the pod of ``sandbox_config``, on ``detail`` (a container or an
    image)."""
    rec: Any = tracing.tracer
    if rec is not None:
        meta = None if sandbox_config is None else sandbox_config.metadata
        pod = "" if meta is None else f"{meta.namespace}/{meta.name}"
        rec.cri(op, pod, detail)


def cgroup(op: str, path: str, files: dict[str, int | str] | None) -> None:
    """The node's cgroup file system changed: ``mkdir`` or ``rmdir`` of ``path``, or a
    ``write`` of ``files`` in it."""
    rec: Any = tracing.tracer
    if rec is not None:
        rec.cgroup(op, path, files)


def log(severity: str, msg: str, pairs: str) -> None:
    """A log line was printed (klog)."""
    rec: Any = tracing.tracer
    if rec is not None:
        rec.log(severity, msg, pairs)
