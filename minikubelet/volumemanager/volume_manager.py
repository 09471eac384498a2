"""Waiting for a pod's volumes: the step of ``syncPod`` just before the runtime's ``SyncPod``.

Go: pkg/kubelet/volumemanager/volume_manager.go

Real kubelet attaches and mounts volumes in the volume manager's reconciler loop, while
``syncPod`` waits (polling every 300 ms, for at most 2 min 3 s) until every volume the pod's
containers mount is mounted. The port has no disks: its reconciler is a clock. Each pod's
volumes count as mounted ``mount_delay`` seconds after ``syncPod`` first waits for them (0 by
default: at once), so the wait, its log lines and its time-out are the real ones.
"""

from __future__ import annotations

from minikubelet.go import Millisecond, Minute, Second, now, sleep
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.klog.v2 import klog

#: Go: podAttachAndMountTimeout
podAttachAndMountTimeout = 2 * Minute + 3 * Second
#: Go: podAttachAndMountRetryInterval
podAttachAndMountRetryInterval = 300 * Millisecond


def get_expected_volumes(pod: Pod) -> list[str]:
    """The names of the volumes the pod's containers (and init containers) mount.

    Go: pkg/kubelet/volumemanager/volume_manager.go getExpectedVolumes
    """
    names: dict[str, None] = {}
    for container in [*pod.spec.init_containers, *pod.spec.containers]:
        for mount in container.volume_mounts:
            names[mount.name] = None
    return list(names)


class VolumeManager:
    """Go: pkg/kubelet/volumemanager/volume_manager.go type volumeManager

    Only ``WaitForAttachAndMount`` is ported; mounting itself is simulated (module docstring).
    """

    def __init__(self, mount_delay: float = 0.0) -> None:
        self.mount_delay = mount_delay
        #: pod UID → when its volumes count as mounted.
        self.mounted_at: dict[str, float] = {}

    async def wait_for_attach_and_mount(self, pod: Pod | None) -> None:
        """Wait until every volume the pod mounts is mounted; raise after the time-out.

        Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).WaitForAttachAndMount
        """
        if pod is None:
            return

        expected_volumes = get_expected_volumes(pod)
        if len(expected_volumes) == 0:
            return

        klog.v(3).info_s("Waiting for volumes to attach and mount for pod", pod=klog.kobj(pod))
        uid = pod.metadata.uid
        mounted_at = self.mounted_at.setdefault(uid, now() + self.mount_delay)

        # Go polls with wait.PollImmediate(podAttachAndMountRetryInterval, ...Timeout, ...).
        deadline = now() + podAttachAndMountTimeout
        while now() < mounted_at:
            if now() + podAttachAndMountRetryInterval > deadline:
                raise TimeoutError(
                    f"unmounted volumes={sorted(expected_volumes)}, unattached volumes=[]: "
                    "timed out waiting for the condition"
                )
            await sleep(podAttachAndMountRetryInterval)

        klog.v(3).info_s("All volumes are attached and mounted for pod", pod=klog.kobj(pod))
