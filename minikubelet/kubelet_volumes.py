"""The Kubelet's questions to the volume manager: are a pod's volumes still there?

Go: pkg/kubelet/kubelet_volumes.go

kubelet deletes a terminated pod from the API server only once its volumes are unmounted
(``PodResourcesAreReclaimed``): the reconciler unmounts them after the populator has dropped
the pod from the desired state, which it does at most every 2 s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet


class KubeletVolumes:
    """The methods of Go's Kubelet defined in kubelet_volumes.go."""

    def pod_volumes_exist(self: Kubelet, pod_uid: str) -> bool:
        """Whether any volume of the pod is still mounted.

        Go: pkg/kubelet/kubelet_volumes.go (*Kubelet).podVolumesExist

        Go also lists the pod's volume directories that are still mount points on disk; the
        simulated filesystem has no mount table, so the volume manager's answer is the answer.
        """
        if self.volume_manager is None:
            return False
        mounted_volumes = self.volume_manager.get_mounted_volumes_for_pod(pod_uid)
        return len(mounted_volumes) > 0
