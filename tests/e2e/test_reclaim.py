"""A deleted pod's object stays on the API server until its volumes are gone, run from
examples/api/busy-volume.yaml through ``minikubelet run`` (issue #29 item 3, its volume part).

Go (v1.21.4 lines): pkg/kubelet/kubelet_pods.go L976-987 (PodResourcesAreReclaimed: the
containers, then the volumes, each with its -v 3 line); pkg/kubelet/status/status_manager.go L614
(syncPod deletes the object once canBeDeleted: "Pod fully terminated and removed from etcd");
pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go L301-302 and
pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go L72-78 (the failed unmount's
line, its back-off of 500ms, 1s, 2s, the error with %q).
"""

from __future__ import annotations

import re

from tests.test_cli import EXAMPLES, run_cli


def test_the_pod_object_waits_for_its_busy_volume():
    code, out = run_cli(
        "--api-script", EXAMPLES + "/api/busy-volume.yaml", "--until", "40s", "-v", "3"
    )
    assert code == 0
    lines = out.splitlines()

    def at(pattern: str) -> list[int]:
        return [i for i, line in enumerate(lines) if re.search(pattern, line)]

    (delete,) = at(r'"SyncLoop DELETE" source="api" pods=\[shop/web\]')
    failures = at(
        r"^E\S+ \S+ +1 nestedpendingoperations\.py:\d+\] Operation for "
        r'"\{volumeName:kubernetes\.io/empty-dir/[0-9a-f-]+-scratch podName:[0-9a-f-]+ '
        r'nodeName:\}" failed\. No retries permitted until 2021-07-15 \S+ \+0000 UTC '
        r'm=\+\d+\.\d{9} \(durationBeforeRetry (500ms|1s|2s)\)\. Error: "UnmountVolume\.TearDown '
        r'failed for volume \\"scratch\\" .* : device or resource busy"$'
    )
    assert len(failures) == 3
    assert [re.search(r"durationBeforeRetry (\S+)\)", lines[i]).group(1) for i in failures] == [
        "500ms",
        "1s",
        "2s",
    ]
    waiting = at(r'"Pod is terminated, but some volumes have not been cleaned up" pod="shop/web"$')
    (unmounted,) = at(r'UnmountVolume\.TearDown succeeded for volume "kubernetes\.io/empty-dir/')
    (removed,) = at(r'"Pod fully terminated and removed from etcd" pod="shop/web"')
    assert waiting, "the volume check never held the deletion back"
    assert delete < failures[0] < waiting[0] < unmounted < removed
    assert all(w < unmounted for w in waiting)
    assert "minikubelet: after 40s, 0 pod(s):" in out
