"""The eviction manager's log lines, byte for byte as kubelet v1.21 prints them.

klog v2.8.0 (the one v1.21 vendors) quotes a value only when its type is exactly ``string``, an
``error`` or a ``fmt.Stringer`` (klog.go kvListFormat); a named string type such as
``v1.ResourceName`` is none of those and prints with ``%+v``, bare.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest

from minikubelet.k8s_io.api.core.v1 import Volume
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import FsStats
from tests.eviction import test_eviction_manager as scenarios
from tests.eviction.pods import disk_stats, pod, resources


@pytest.fixture
def log() -> Iterator[Callable[[], str]]:
    out = io.StringIO()
    klog.configure(verbosity=0, out=out)
    try:
        yield out.getvalue
    finally:
        klog.configure(verbosity=0, out=None)


def messages(text: str) -> list[str]:
    """Each line after its klog header (``... file:line] ``)."""
    return [line.split("] ", 1)[1] for line in text.splitlines()]


def test_the_resource_to_reclaim_prints_bare(log):
    # eviction_manager.go:339, :346 and :350 log "resourceName", resourceToReclaim, a
    # v1.ResourceName: klog prints it with %+v, without quotes.
    scenarios.test_node_reclaim_before_eviction()
    lines = messages(log())
    assert '"Eviction manager: attempting to reclaim" resourceName=ephemeral-storage' in lines
    assert (
        '"Eviction manager: able to reduce resource pressure without evicting pods."'
        " resourceName=ephemeral-storage"
    ) in lines
    assert (
        '"Eviction manager: must evict pod(s) to reclaim" resourceName=ephemeral-storage' in lines
    )


def test_local_storage_evictions_say_which_limit():
    # eviction_manager.go:491, :518 and :544 with helpers.go's emptyDirMessageFmt ("%q" twice),
    # podEphemeralStorageMessageFmt ("%s") and containerEphemeralStorageMessageFmt ("%s", "%q").
    empty = pod("scratch", volumes=[Volume(name="data", volume_source={"emptyDir": {}})])
    empty.spec.volumes[0].volume_source["emptyDir"] = {"sizeLimit": "1Mi"}
    whole = pod("whole", limits=resources(disk="1Mi"))
    one = pod("one", limits=resources(disk="2Mi"))
    stats = {
        "scratch": disk_stats(empty, "0", "0", "2Mi"),
        "whole": disk_stats(whole, "0", "0", "0"),
        "one": disk_stats(one, "2Mi", "1Mi", "0"),
    }
    stats["whole"].ephemeral_storage = FsStats(used_bytes=Quantity.parse("3Mi").value())
    killer = scenarios.PodKiller()
    manager, _, _, recorder = scenarios.make_manager(
        [], scenarios.memory_summary("4Gi", list(stats.values())), killer
    )
    pods = [empty, whole, one]
    evicted = scenarios.sync(manager, pods)
    assert evicted == pods
    expected = [
        'Usage of EmptyDir volume "data" exceeds the limit "1Mi". ',
        "Pod ephemeral local storage usage exceeds the total limit of containers 1Mi. ",
        'Container one exceeded its local ephemeral storage limit "2Mi". ',
    ]
    assert [status.message for _, status, _ in killer.killed] == expected
    # evictPod (eviction_manager.go:569) records the same text as the pod's Evicted event.
    assert [e.message for e in recorder.events if e.reason == "Evicted"] == expected
