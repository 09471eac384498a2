"""The simulated volume manager: syncPod waits for a pod's volumes, and times out as kubelet does."""

from __future__ import annotations

import io

import pytest

from minikubelet import go
from minikubelet.go import Second
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.sim.manifest import pod_from_dict
from minikubelet.volumemanager.volume_manager import VolumeManager, get_expected_volumes


def pod_with_volume():
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "web", "namespace": "default", "uid": "uid-web"},
            "spec": {
                "volumes": [{"name": "data", "emptyDir": {}}, {"name": "unused", "emptyDir": {}}],
                "initContainers": [
                    {
                        "name": "init",
                        "image": "busybox:1.33",
                        "volumeMounts": [{"name": "data", "mountPath": "/data"}],
                    }
                ],
                "containers": [
                    {
                        "name": "app",
                        "image": "busybox:1.33",
                        "volumeMounts": [{"name": "data", "mountPath": "/data"}],
                    }
                ],
            },
        }
    )


def wait(manager: VolumeManager) -> tuple[float, str]:
    log = io.StringIO()
    took = []

    async def main() -> None:
        start = go.now()
        await manager.wait_for_attach_and_mount(pod_with_volume())
        took.append(go.now() - start)

    klog.configure(verbosity=3, out=log)
    try:
        go.run(main)
    finally:
        klog.configure(verbosity=0, out=None)
    return took[0], log.getvalue()


def test_only_mounted_volumes_are_waited_for():
    assert get_expected_volumes(pod_with_volume()) == ["data"]


def test_sync_pod_waits_until_the_volumes_are_mounted():
    took, log = wait(VolumeManager(mount_delay=1 * Second))
    assert 1.0 <= took < 1.3  # polled every 300 ms
    assert '"Waiting for volumes to attach and mount for pod" pod="default/web"' in log
    assert '"All volumes are attached and mounted for pod" pod="default/web"' in log


def test_the_wait_times_out_after_two_minutes_and_three_seconds():
    with pytest.raises(TimeoutError, match=r"unmounted volumes=\['data'\]"):
        wait(VolumeManager(mount_delay=10 * 60 * Second))
