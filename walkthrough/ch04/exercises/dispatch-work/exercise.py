"""Exercise ch04/dispatch-work: hand a pod to its pod worker, unless it is all done.
练习 ch04/dispatch-work：把 Pod 交给它的 pod worker，除非它已经彻底结束。

Below is the port's ``Kubelet.dispatch_work`` (minikubelet/kubelet.py) with its decisions
taken out. Fill in the TODOs, then run:
下面是移植版的 ``Kubelet.dispatch_work``（minikubelet/kubelet.py），其中的判断被删掉了。补全其中的
TODO，然后运行：

    python -m walkthrough check dispatch-work
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.pod_workers import UpdatePodOptions
from minikubelet.sim import klog
from minikubelet.types import SyncPodType

#: What this module offers; UpdatePodOptions is for the code you write.
__all__ = ["Kubelet", "UpdatePodOptions"]


class Kubelet(PortKubelet):
    """The port's Kubelet with your ``dispatch_work``: the tests run this one."""

    async def dispatch_work(
        self, pod: Pod, sync_type: SyncPodType, mirror_pod: Pod | None, start: float
    ) -> None:
        """Start the asynchronous sync of a pod in its pod worker (unless it is all done).

        Go: pkg/kubelet/kubelet.go (*Kubelet).dispatchWork
        """
        # A deleted pod whose containers are all stopped: only its final status is left to do.
        containers_terminal, pod_worker_terminal = self.pod_and_containers_are_terminal(pod)
        # TODO 1: a pod being deleted (it has a deletion timestamp) whose containers
        #   are all terminal is done: log it at verbosity 4, tell the status manager
        #   (self.status_manager.terminate_pod) and return.

        # Nothing more can change once the pod is done and its containers are terminated.
        if pod_worker_terminal and containers_terminal:
            klog.v(4).info_s(
                "Pod has completed and its containers have been terminated, "
                "ignoring remaining sync work",
                pod=klog.kobj(pod),
                syncType=sync_type,
            )
            return

        # TODO 2: run the sync in the pod's worker: self.pod_workers.update_pod(...)
        #   with the pod, its mirror pod and the sync type (UpdatePodOptions).
