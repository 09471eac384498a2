"""Exercise ch04/sort-and-admit: sort and admit new pods in HandlePodAdditions.
练习 ch04/sort-and-admit：在 HandlePodAdditions 里给新 Pod 排序并做准入检查。

Below is the port's ``Kubelet.handle_pod_additions`` (minikubelet/kubelet.py) without its
sorting and its admission. Fill in the TODOs, then run:
下面是移植版的 ``Kubelet.handle_pod_additions``（minikubelet/kubelet.py），排序和准入两部分被删掉了。
补全其中的 TODO，然后运行：

    python -m walkthrough check sort-and-admit
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.kubelet import sort_pods_by_creation_time
from minikubelet.types import SyncPodType, is_mirror_pod

#: What this module offers; sort_pods_by_creation_time is for the code you write.
__all__ = ["Kubelet", "sort_pods_by_creation_time"]


class Kubelet(PortKubelet):
    """The port's Kubelet with your ``handle_pod_additions``: the tests run this one."""

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        """New pods: oldest first, remember each, admit it or reject it, hand it to a worker.

        Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodAdditions
        """
        start = self.clock.now()
        # TODO 1: handle the oldest pods first (sort_pods_by_creation_time).
        for pod in pods:
            # TODO 2: before the pod joins the pod manager, take the list of pods it
            #   already has: admission needs it (TODO 3).
            # Before admission, and even if admission then refuses the pod: a pod kubelet does
            # not know would look deleted, and its Failed status would be lost.
            self.pod_manager.add_pod(pod)

            if is_mirror_pod(pod):
                await self.handle_mirror_pod(pod, start)
                continue

            if not self.pod_is_terminated(pod):
                # Only a pod that is not terminated goes through admission.

                # Rejected pods were failed, so the pods that are not terminated are exactly the
                # admitted ones still alive: the resources already promised.
                # TODO 3: admit the pod or reject it. The pods it competes with are the
                #   existing pods that are still alive (self.filter_out_terminated_pods);
                #   await self.can_admit_pod(...) returns (ok, reason, message); a pod that is
                #   not admitted is rejected (self.reject_pod) and not handed to a worker.
                pass
            mirror_pod, _ = self.pod_manager.get_mirror_pod_by_pod(pod)
            await self.dispatch_work(pod, SyncPodType.CREATE, mirror_pod, start)
            self.probe_manager.add_pod(pod)
