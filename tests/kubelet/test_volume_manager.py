"""The volume manager: populator and reconciler loops, the plugins, and syncPod's wait."""

from __future__ import annotations

import re

import pytest

from minikubelet import go
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import ErrWaitTimeout, poll_immediate
from minikubelet.k8s_io.kubernetes.pkg.util.goroutinemap.exponentialbackoff.exponential_backoff import (
    ExponentialBackoff,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.hostpath.host_path import check_type_internal
from minikubelet.sim.cri.scenario_values import ScenarioError
from minikubelet.sim.volume_fs import SimFS
from minikubelet.sim.volume_scenario import MountError, VolumeScenario
from minikubelet.volumemanager.volume_manager import (
    desiredStateOfWorldPopulatorLoopSleepPeriod,
    get_expected_volumes,
    podAttachAndMountRetryInterval,
    podAttachAndMountTimeout,
    reconcilerLoopSleepPeriod,
)
from tests.kubelet.volume_runs import POD, events, pod, run


def test_go_constants():
    assert reconcilerLoopSleepPeriod == 0.1
    assert desiredStateOfWorldPopulatorLoopSleepPeriod == 0.1
    assert podAttachAndMountRetryInterval == 0.3
    assert podAttachAndMountTimeout == 123


def test_only_mounted_volumes_are_expected_sorted_once():
    p = pod([{"name": n, "emptyDir": {}} for n in ("zeta", "data", "unused")], ["zeta", "data"])
    assert get_expected_volumes(p) == ["data", "zeta"]


def test_poll_immediate_asks_at_once_then_every_interval_and_times_out():
    asked: list[float] = []
    result = []

    async def run() -> None:
        def cond():
            asked.append(round(float(go.now()) - start, 6))
            return False, None

        start = float(go.now())
        result.append(await poll_immediate(0.3, 1.0, cond))
        result.append(round(float(go.now()) - start, 6))

    go.run(run)
    assert asked == [0.0, 0.3, 0.6, 0.9]
    assert result == [ErrWaitTimeout, 1.0]


def test_backoff_doubles_from_half_a_second_up_to_2m2s():
    async def run() -> list[float]:
        b = ExponentialBackoff()
        seen = []
        for _ in range(10):
            b.update(Exception("x"))
            seen.append(b.duration_before_retry)
        return seen

    out: list[list[float]] = []
    go.run(lambda: _collect(run, out))
    assert out[0] == [0.5, 1, 2, 4, 8, 16, 32, 64, 122, 122]


async def _collect(f, out):
    out.append(await f())


def test_host_path_types():
    fs = SimFS()
    check_type_internal(fs, "/var/log", "Directory")
    with pytest.raises(ValueError, match="hostPath type check failed: /nope is not a directory"):
        check_type_internal(fs, "/nope", "Directory")
    check_type_internal(fs, "/data/new", "DirectoryOrCreate")
    assert fs.is_dir("/data/new") and fs.is_dir("/data")
    check_type_internal(fs, "/etc/app.conf", "FileOrCreate")
    with pytest.raises(ValueError, match=r"/etc/app\.conf is not a directory"):
        check_type_internal(fs, "/etc/app.conf", "Directory")
    with pytest.raises(ValueError, match="Weird is an invalid volume type"):
        check_type_internal(fs, "/etc", "Weird")


def test_a_bad_volumes_annotation_names_where():
    p = pod(
        [{"name": "data", "emptyDir": {}}],
        ["data"],
        {"minikubelet.dev/volumes": "data: {fail: often}"},
    )
    with pytest.raises(ScenarioError, match=r"annotation minikubelet\.dev/volumes: data: fail"):
        VolumeScenario().script(p, "data")
    p.metadata.annotations["minikubelet.dev/volumes"] = "data: {tearDownFail: -1}"
    with pytest.raises(ScenarioError, match=r"volumes: data: tearDownFail: expected a count"):
        VolumeScenario().script(p, "data")
    p.metadata.annotations["minikubelet.dev/volumes"] = "data: {tearDownError: 5}"
    with pytest.raises(ScenarioError, match=r"volumes: data: tearDownError: expected a string"):
        VolumeScenario().script(p, "data")


def test_a_scripted_tear_down_fails_as_many_times_as_it_says():
    p = pod(
        [{"name": "data", "emptyDir": {}}],
        ["data"],
        {"minikubelet.dev/volumes": 'data: {tearDownFail: 2, tearDownError: "busy"}'},
    )
    scenario = VolumeScenario()
    scenario.tear_down(p.metadata.uid, "data")  # never set up here: no script
    go.run(scenario.play, p, "data")
    outcomes = []
    for _ in range(4):
        try:
            scenario.tear_down(p.metadata.uid, "data")
            outcomes.append("ok")
        except MountError as err:
            outcomes.append(str(err))
    assert outcomes == ["busy", "busy", "ok", "ok"]


def test_a_missing_config_map_makes_the_pod_wait_with_repeated_events(tmp_path):
    out = run(
        POD.format(
            annotations="",
            mounts="{name: config, mountPath: /etc/app}",
            volumes="{name: config, configMap: {name: app-config}}",
        ),
        tmp_path,
        "2m10s",
        "-v",
        "3",
    )
    got = events(out)
    msg = 'MountVolume.SetUp failed for volume \\"config\\" : configmap \\"app-config\\" not found'
    # The first SetUp at 200 ms (attach at 100 ms, mount the next pass), then 0.5 s, 1 s, 2 s …
    # after each failure, each on the next 100 ms pass.
    assert [t for t, m in got if m == msg] == [
        "00:00.2",
        "00:00.8",
        "00:01.9",
        "00:04.0",
        "00:08.1",
        "00:16.2",
        "00:32.3",
        "01:04.4",
        "02:08.5",
    ]
    timeout = [(t, m) for t, m in got if m.startswith("Unable to attach")]
    assert timeout == [
        (
            "02:03.1",
            "Unable to attach or mount volumes: unmounted volumes=[config], "
            "unattached volumes=[config]: timed out waiting for the condition",
        )
    ]
    assert "pod default/web is Pending at" in out
    assert "Running" not in out.split("after 2m10s")[1]


def test_the_pod_starts_once_the_config_map_appears(tmp_path):
    script = (
        POD.format(
            annotations="",
            mounts="{name: config, mountPath: /etc/app}, {name: cache, mountPath: /cache}",
            volumes="{name: config, configMap: {name: app-config}}, {name: cache, emptyDir: {}}",
        )
        + """
- at: 10s
  type: ADDED
  object:
    kind: ConfigMap
    metadata: {name: app-config, namespace: default}
    data: {app.conf: "x = 1"}
"""
    )
    out = run(script, tmp_path, "1m")
    # The retry after the 8 s back-off (failed at 8.1 s) is the first to find it: mounted at
    # 16.2 s, seen by the next 300 ms poll of the wait, the containers started.
    assert re.search(r"00:00:16\.2\d+ .*\] MountVolume.SetUp succeeded for volume \"config\"", out)
    assert "pod default/web is Pending → Running at 17s" in out


def test_slow_and_failing_mounts_follow_the_annotation(tmp_path):
    ann = ', annotations: {minikubelet.dev/volumes: "data: {setUpTime: 3s}\\nlogs: {fail: 2}"}'
    out = run(
        POD.format(
            annotations=ann,
            mounts="{name: data, mountPath: /data}, {name: logs, mountPath: /logs}",
            volumes="{name: data, emptyDir: {}}, {name: logs, hostPath: {path: /var/log}}",
        ),
        tmp_path,
        "30s",
        "-v",
        "3",
    )
    got = events(out)
    msg = 'MountVolume.SetUp failed for volume \\"logs\\" : mount failed: exit status 32'
    assert [t for t, m in got] == ["00:00.2", "00:00.8"]
    assert all(m == msg for _, m in got)
    # logs mounts on its third try (1.9 s); data after its 3 s SetUp (started at 0.2 s).
    assert re.search(r"00:00:03\.2\d+ .*\] MountVolume.SetUp succeeded for volume \"data\"", out)
    assert "Pending → Running at 4s" in out


def test_a_volume_no_plugin_supports_fails_the_sync_at_once(tmp_path):
    out = run(
        POD.format(
            annotations="",
            mounts="{name: disk, mountPath: /disk}",
            volumes="{name: disk, nfs: {server: nfs.local, path: /x}}",
        ),
        tmp_path,
        "5s",
        "-v",
        "3",
    )
    assert (
        'message="Unable to attach or mount volumes: unmounted volumes=[disk], unattached '
        'volumes=[disk]: failed to get Plugin from volumeSpec for volume \\"disk\\" err=no '
        'volume plugin matched"' in out
    )


def test_a_deleted_pod_is_removed_only_after_its_volumes_are_unmounted(tmp_path):
    script = (
        POD.format(
            annotations="",
            mounts="{name: cache, mountPath: /cache}",
            volumes="{name: cache, emptyDir: {}}",
        )
        + """
- at: 10s
  type: DELETED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: default}
    spec: {containers: [{name: app, image: "nginx:1.21"}]}
"""
    )
    out = run(script, tmp_path, "30s", "-v", "3")
    assert "UnmountVolume.TearDown succeeded for volume" in out
    assert '"Volume detached for volume' in out
