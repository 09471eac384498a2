"""What ``minikubelet run`` prints besides kubelet's log: phase changes, refused manifests and
a summary (ours).

Lines start with ``minikubelet:`` so that nobody takes them for kubelet's.
"""

from __future__ import annotations

from typing import Any, TextIO

from minikubelet import go
from minikubelet.base.i18n import in_language, text
from minikubelet.config.manifest import ManifestError
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus


class PhaseReporter:
    """Prints a line each time a pod's phase changes, each manifest refused, and the pods at the
    end (ours)."""

    def __init__(self, out: TextIO, lang: str) -> None:
        self.out = out
        self.lang = lang
        self.kubelet: Any = None
        #: The run's clock (monotonic) when kubelet started: phase lines show time since then.
        self.start = 0.0
        self.refused: set[str] = set()

    def begin(self) -> None:
        """Note the time the run starts, on the running runtime's clock. A virtual clock starts
        at 0; the real one at the machine's monotonic reading, which means nothing to a reader."""
        self.start = go.current_runtime().clock.monotonic()

    def on_log(self, msg: str, kv: dict[str, Any]) -> None:
        """A manifest error that kubelet logs (in English, with every relist) is told once, in
        the user's language."""
        err = kv.get("err")
        if not isinstance(err, ManifestError) or str(err) in self.refused:
            return
        self.refused.add(str(err))
        self.out.write(
            text(
                f"minikubelet: manifest refused: {err}\n",
                f"minikubelet: 清单未被接受：{in_language(err, 'zh')}\n",
                self.lang,
            )
        )

    def on_status_change(self, pod: Pod, new: PodStatus, old: PodStatus | None) -> None:
        before = old.phase if old is not None else None
        if new.phase == before:
            return
        at = format_duration(go.current_runtime().clock.monotonic() - self.start)
        ref = f"{pod.metadata.namespace}/{pod.metadata.name}"
        change = f"{before} → {new.phase}" if before else f"{new.phase}"
        detail = f" ({new.reason}: {new.message})" if new.reason else ""
        self.out.write(
            text(
                f"minikubelet: pod {ref} is {change} at {at}{detail}\n",
                f"minikubelet: Pod {ref} 在 {at} 变为 {change}{detail}\n",
                self.lang,
            )
        )

    def summary(self, until: float) -> None:
        kl = self.kubelet
        if kl is None:
            return
        pods = kl.pod_manager.get_pods()
        self.out.write(
            text(
                f"minikubelet: after {format_duration(until)}, {len(pods)} pod(s):\n",
                f"minikubelet: 运行 {format_duration(until)} 后，共 {len(pods)} 个 Pod：\n",
                self.lang,
            )
        )
        for pod in pods:
            status, ok = kl.status_manager.get_pod_status(pod.metadata.uid)
            status = status if ok else pod.status
            ready = sum(1 for c in status.container_statuses if c.ready)
            restarts = sum(c.restart_count for c in status.container_statuses)
            ref = f"{pod.metadata.namespace}/{pod.metadata.name}"
            ips = ",".join(ip.ip for ip in status.pod_ips) or "-"
            qos = status.qos_class or "-"
            reason = waiting_reason(status)
            self.out.write(
                text(
                    f"  {ref:<40} {status.phase:<10} ready {ready}/{len(pod.spec.containers)}"
                    f"  restarts {restarts}  IP {ips}  QoS {qos}"
                    + (f"  waiting: {reason}" if reason else "")
                    + "\n",
                    f"  {ref:<40} {status.phase:<10} 就绪 {ready}/{len(pod.spec.containers)}"
                    f"  重启 {restarts} 次  IP {ips}  QoS {qos}"
                    + (f"  等待中：{reason}" if reason else "")
                    + "\n",
                    self.lang,
                )
            )


def waiting_reason(status: PodStatus) -> str:
    """Why the pod's first waiting container waits (``ContainerCreating``, ``CrashLoopBackOff``
    …): what ``kubectl get pods`` shows as the pod's STATUS instead of its phase."""
    for c in [*status.init_container_statuses, *status.container_statuses]:
        if c.state.waiting is not None and c.state.waiting.reason:
            return c.state.waiting.reason
    return ""
