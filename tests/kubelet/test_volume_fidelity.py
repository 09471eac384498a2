"""The volume path against the Go of v1.21.4: messages, the back-off's tie, hostPath's makeFile,
and the scenario knobs for slow, failing and late mounts."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

from minikubelet import go
from minikubelet.k8s_io.kubernetes.pkg.util.goroutinemap.exponentialbackoff.exponential_backoff import (
    ExponentialBackoff,
    ExponentialBackoffError,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.hostpath.host_path import check_type_internal
from minikubelet.sim.cli import main
from minikubelet.sim.cri.scenario import load_scenario_file, parse_scenario
from minikubelet.sim.cri.scenario_values import ScenarioError
from minikubelet.sim.volume_fs import PathError, SimFS
from minikubelet.sim.volume_scenario import MountError, VolumeScenario, VolumeScript
from tests.conftest import ROOT
from tests.kubelet.volume_runs import POD, pod, run


def _in_run(body):
    out: list = []

    async def main_() -> None:
        out.append(await body())

    go.run(main_)
    return out[0]


def test_no_retries_message_quotes_the_error_and_shows_the_monotonic_reading():
    # exponential_backoff.go:72-78 GenerateNoRetriesPermittedMsg prints the time with %v (a time
    # from time.Now() keeps its monotonic reading: " m=+<s>.<9 digits>", time/format.go:511) and
    # the error with %q, so the error's own quotes come out escaped.
    async def body():
        await go.sleep(0.2)
        b = ExponentialBackoff()
        b.update(
            Exception('MountVolume.SetUp failed for volume "config" : configmap "x" not found')
        )
        return b.generate_no_retries_permitted_msg("{volumeName:v podName:p nodeName:}")

    msg = _in_run(body)
    assert msg == (
        'Operation for "{volumeName:v podName:p nodeName:}" failed. No retries permitted until '
        "2021-07-15 00:00:00.7 +0000 UTC m=+0.700000000 (durationBeforeRetry 500ms). Error: "
        '"MountVolume.SetUp failed for volume \\"config\\" : configmap \\"x\\" not found"'
    )


def test_a_retry_exactly_one_back_off_later_is_still_refused():
    # exponential_backoff.go:51: time.Since(lastErrorTime) <= durationBeforeRetry, in whole
    # nanoseconds: a tie refuses. The virtual clock's float seconds must not turn a tie into a pass.
    async def body():
        b = ExponentialBackoff()
        for _ in range(17):  # a float noise-prone start: 1.7 s of 0.1 s steps
            await go.sleep(0.1)
        b.update(Exception("x"))
        seen = []
        for _ in range(6):
            await go.sleep(0.1)
            seen.append(b.safe_to_retry("op") is None)
        return seen

    # 0.5 s back-off: refused at +0.1 … +0.5, allowed at +0.6.
    assert _in_run(body) == [False, False, False, False, False, True]


def test_the_back_off_error_names_the_operation_with_percent_q():
    async def body():
        b = ExponentialBackoff()
        b.update(Exception('a "quoted" error'))
        return str(ExponentialBackoffError("op", b))

    assert _in_run(body) == (
        'Failed to create operation with name "op". An operation with that name failed at '
        "2021-07-15 00:00:00 +0000 UTC m=+0.000000000. No retries permitted until "
        "2021-07-15 00:00:00.5 +0000 UTC m=+0.500000000 (500ms). "
        'Last error: "a \\"quoted\\" error".'
    )


def test_file_or_create_does_not_make_the_directory():
    # host_path.go:447-452 FileOrCreate → makeFile (host_path.go:491): os.OpenFile(O_CREATE), which
    # makes no parent directory; DirectoryOrCreate → makeDir: os.MkdirAll, which does.
    fs = SimFS()
    with pytest.raises(PathError, match=r"^open /var/log/app/out\.log: no such file or directory$"):
        check_type_internal(fs, "/var/log/app/out.log", "FileOrCreate")
    assert not fs.exists("/var/log/app")
    check_type_internal(fs, "/var/log/out.log", "FileOrCreate")
    assert fs.is_file("/var/log/out.log")
    with pytest.raises(PathError, match=r"^open /var/log/out\.log/x: not a directory$"):
        check_type_internal(fs, "/var/log/out.log/x", "FileOrCreate")
    with pytest.raises(PathError, match=r"^mkdir /var/log/out\.log: not a directory$"):
        check_type_internal(fs, "/var/log/out.log/x", "DirectoryOrCreate")


def test_a_missing_claim_says_it_could_not_fetch_it(tmp_path):
    # desired_state_of_world_populator.go:615 getPVCExtractPV wraps the API error, and
    # createVolumeSpec wraps that again with "error processing PVC <ns>/<claim>".
    out = run(
        POD.format(
            annotations="",
            mounts="{name: data, mountPath: /data}",
            volumes="{name: data, persistentVolumeClaim: {claimName: data-0}}",
        ),
        tmp_path,
        "3s",
        "-v",
        "3",
    )
    assert (
        "unmounted volumes=[data], unattached volumes=[data]: error processing PVC "
        'default/data-0: failed to fetch PVC from API server: persistentvolumeclaims \\"data-0\\" '
        "not found" in out
    )


def test_configmap_and_secret_setups_log_what_they_received(tmp_path):
    # configmap.go:212 and secret.go:207, at verbosity 3: the pieces of data and their bytes.
    script = (
        POD.format(
            annotations="",
            mounts="{name: c, mountPath: /c}, {name: s, mountPath: /s}",
            volumes="{name: c, configMap: {name: cm}}, {name: s, secret: {secretName: sec}}",
        )
        + """
- at: 0s
  type: ADDED
  object: {kind: ConfigMap, metadata: {name: cm}, data: {a: "héllo", b: "xy"}}
- at: 0s
  type: ADDED
  object: {kind: Secret, metadata: {name: sec}, stringData: {password: "s3cr3t"}}
"""
    )
    out = run(script, tmp_path, "2s", "-v", "3")
    assert "] Received configMap default/cm containing (2) pieces of data, 8 total bytes\n" in out
    assert "] Received secret default/sec containing (1) pieces of data, 6 total bytes\n" in out


def test_the_summary_shows_why_a_pending_pod_waits(tmp_path):
    out = run(
        POD.format(
            annotations="",
            mounts="{name: c, mountPath: /c}",
            volumes="{name: c, configMap: {name: nowhere}}",
        ),
        tmp_path,
        "10s",
    )
    assert out.rstrip().endswith(
        "default/web                              Pending    ready 0/1  restarts 0  IP -  "
        "QoS BestEffort  waiting: ContainerCreating"
    )


def test_the_scenario_file_scripts_volumes_and_the_annotation_wins(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "volumes": {
                    "default/web": {
                        "config": {"setUpTime": "3m"},
                        "data": {"fail": "always", "error": "nfs: server not responding"},
                    }
                }
            }
        )
    )
    sc = load_scenario_file(path)
    assert sc.volumes["default/web"]["config"] == VolumeScript(set_up_time=180.0)
    vs = VolumeScenario(sc.volumes)
    annotated = pod([], [], annotations={"minikubelet.dev/volumes": "config: {fail: 1}"})
    assert vs.script(pod([], []), "config").set_up_time == 180.0
    assert vs.script(annotated, "config") == VolumeScript(fail=1)
    # A volume the annotation does not name falls back to the file.
    assert vs.script(annotated, "data").error == "nfs: server not responding"
    assert vs.script(pod([], [], name="other"), "config") == VolumeScript()

    async def body():
        with pytest.raises(MountError, match="nfs: server not responding"):
            await vs.play(pod([], []), "data")
        start = go.now()
        await vs.play(pod([], []), "config")
        return go.since(start)

    assert _in_run(body) == 180.0


@pytest.mark.parametrize(
    ("volumes", "message"),
    [
        ({"web": {}}, r"scenario: volumes: 'web': expected namespace/name"),
        (
            {"default/web": {"data": {"fail": -1}}},
            r"volumes of pod default/web: data: fail: expected a count \(0, 1, 2 …\) or always, "
            r"got -1",
        ),
        (
            {"default/web": {"data": {"setUpTime": "soon"}}},
            r"volumes of pod default/web: data: setUpTime: .*soon",
        ),
        (
            {"default/web": {"data": {"error": ""}}},
            r"volumes of pod default/web: data: error: expected the message of the failure",
        ),
        (
            {"default/web": {"data": {"setUptime": "1s"}}},
            r"volumes of pod default/web: data: unknown field 'setUptime'",
        ),
        ({"default/web": ["data"]}, r"volumes of pod default/web: expected a mapping"),
    ],
)
def test_bad_volume_scripts_in_a_scenario_file_say_where(volumes, message):
    with pytest.raises(ScenarioError, match=message):
        parse_scenario({"volumes": volumes})


def test_run_refuses_a_bad_volume_script_before_it_starts(tmp_path):
    scenario = tmp_path / "slow.yaml"
    scenario.write_text("volumes:\n  default/web:\n    data: {fail: sometimes}\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(
            [
                "run",
                "--manifests",
                str(ROOT / "examples/static-pods"),
                "--scenario",
                str(scenario),
                "--lang",
                "en",
            ],
            out=out,
        )
    assert code == 2
    assert re.search(
        r"slow\.yaml: volumes of pod default/web: data: fail: expected a count", err.getvalue()
    )
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""


def test_a_scenario_file_slows_a_mount_past_the_wait(tmp_path):
    scenario = tmp_path / "slow.yaml"
    scenario.write_text("volumes:\n  default/web:\n    data: {setUpTime: 2m10s}\n")
    out = run(
        POD.format(
            annotations="",
            mounts="{name: data, mountPath: /data}",
            volumes="{name: data, emptyDir: {}}",
        ),
        tmp_path,
        "2m30s",
        "--scenario",
        str(scenario),
        "-v",
        "3",
    )
    assert re.search(
        r"I0715 00:02:03\.1\d+ .*reason=\"FailedMount\" message=\"Unable to attach or mount "
        r"volumes: unmounted volumes=\[data\], unattached volumes=\[data\]: timed out waiting "
        r"for the condition\"",
        out,
    )
    assert 'message="MountVolume.SetUp failed' not in out
    assert re.search(r"00:02:10\.2\d+ .*\] MountVolume.SetUp succeeded for volume \"data\"", out)
    assert "pod default/web is Pending → Running at" in out


@pytest.mark.parametrize(
    ("example", "until", "expected"),
    [
        (
            "missing-configmap.yaml",
            "5m",
            [
                "unmounted volumes=[config], unattached volumes=[cache config]: timed out "
                "waiting for the condition",
                "pod default/web is Pending → Running at 4m11s",
            ],
        ),
        (
            "slow-mount.yaml",
            "4m",
            [
                "unmounted volumes=[data], unattached volumes=[data]: timed out",
                "pod default/report is Pending → Running at 2m31s",
            ],
        ),
        (
            "secret-later.yaml",
            "1m",
            [
                'MountVolume.SetUp failed for volume \\"db\\" : secret \\"db-password\\" not found',
                "pod shop/api is Pending → Running at 33s",
            ],
        ),
    ],
)
def test_the_volume_examples_do_what_their_header_says(example, until, expected):
    out = io.StringIO()
    code = main(
        [
            "run",
            "--api-script",
            str(ROOT / "examples/volumes" / example),
            "--until",
            until,
            "--lang",
            "en",
            "-v",
            "3",
        ],
        out=out,
    )
    assert code == 0
    for text in expected:
        assert text in out.getvalue(), text


# --- emptyDir as v1.21 sets it up and tears it down (found by the oracle's volume level) -----

SECRET_AND_CACHE = """
- at: 0s
  type: ADDED
  object: {kind: Secret, metadata: {name: db}, stringData: {password: s3cr3t}}
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: default, uid: uid-web}
    spec:
      containers:
        - name: app
          image: "nginx:1.21"
          volumeMounts: [{name: db, mountPath: /db}, {name: cache, mountPath: /cache}]
      volumes: [{name: db, secret: {secretName: db}}, {name: cache, emptyDir: {}}]
- at: 5s
  type: DELETED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: default, uid: uid-web}
    spec: {containers: [{name: app, image: "nginx:1.21"}]}
"""


def _lines(out: str, text: str) -> list[str]:
    return [line.split("] ", 1)[1] for line in out.splitlines() if text in line]


def test_a_disk_emptydir_asks_for_quotas_once_and_a_secret_mounts_a_tmpfs_once(tmp_path):
    # empty_dir.go:257 a SetUp that finds its ready file (left at :291) does nothing: the first
    # SetUp asks fsquota.SupportsQuotas (:295; quota_linux.go:270 says no at -v 3), later ones
    # (the remounts of the secret, at every sync) do not. A secret wraps a Memory emptyDir
    # named "wrapped_<volume>" (volume_host.go:198), mounted as a tmpfs once (:335), after
    # statfs said what is there (empty_dir_linux.go:98).
    out = run(SECRET_AND_CACHE, tmp_path, "4s", "-v", "3")
    assert _lines(out, "SupportsQuotas") == ["SupportsQuotas called, but quotas disabled"]
    assert _lines(out, "mounting tmpfs") == ["pod uid-web: mounting tmpfs for volume wrapped_db"]
    statfs = _lines(out, "Statfs_t of")
    assert statfs and statfs[0].startswith(
        "Statfs_t of /var/lib/kubelet/pods/uid-web/volumes/kubernetes.io~secret/db: {Type:61267 "
    )


def test_tearing_down_a_disk_emptydir_fails_to_clear_its_quota(tmp_path):
    # empty_dir.go:520 teardownDefault logs a warning when ClearQuota fails, and with the quota
    # gate off (quota_linux.go:398) it always does; a tmpfs is unmounted instead.
    out = run(SECRET_AND_CACHE, tmp_path, "20s", "-v", "3")
    cache_dir = "/var/lib/kubelet/pods/uid-web/volumes/kubernetes.io~empty-dir/cache"
    assert _lines(out, "Failed to clear quota") == [
        f"Warning: Failed to clear quota on {cache_dir}: clearQuota called, but quotas disabled"
    ]
    assert f"ClearQuota {cache_dir}" in out
    assert "Tearing down volume db for pod uid-web at" in out
    assert "UnmountVolume.TearDown succeeded for volume" in out
