"""The operation executor, its generator and the pending-operations table against the Go of
v1.21.4 (pkg/volume/util/...): which operations record events, which errors are only logged,
the order of the table, and the messages' verbs."""

from __future__ import annotations

import io

from minikubelet import go
from minikubelet.k8s_io.api.core.v1 import Volume
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import VolumePluginMgr, new_spec_from_volume
from minikubelet.k8s_io.kubernetes.pkg.volume.util.nestedpendingoperations.nestedpendingoperations import (
    NestedPendingOperations,
    Operation,
    OperationKey,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    MountedVolume,
    OperationExecutor,
    VolumeToMount,
    generate_volume_msg_detailed,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_generator import (
    OperationGenerator,
)
from tests.conftest import ROOT
from tests.kubelet.volume_runs import POD, events, pod, run


class _Plugin:
    """A plugin that supports every volume, to reach the operation bodies."""

    def init(self, host):
        pass

    def get_plugin_name(self):
        return "kubernetes.io/test"

    def can_support(self, spec):
        return True

    def new_unmounter(self, vol_name, pod_uid):
        return _Unmounter()


class _Unmounter:
    def tear_down(self):
        pass


class _RefusingState:
    """An actual state of the world whose updates fail."""

    def mark_volume_as_attached(self, volume_name, volume_spec, node_name, device_path):
        raise ValueError("attach refused")

    def mark_volume_as_unmounted(self, pod_name, volume_name):
        raise ValueError(f'no volume with the name "{volume_name}" exists')


def _volume_to_mount(plugins: VolumePluginMgr) -> VolumeToMount:
    p = pod([{"name": "data", "emptyDir": {}}], ["data"])
    return VolumeToMount(
        volume_name="kubernetes.io/test/uid-web-data",
        pod_name="uid-web",
        pod=p,
        volume_spec=new_spec_from_volume(Volume(name="data", volume_source={"emptyDir": {}})),
        outer_volume_spec_name="data",
    )


def _run_op(executor_call) -> list[str]:
    """Run an executor call and the operation it starts; klog's lines."""
    out = io.StringIO()
    klog.configure(verbosity=0, out=out)
    errs: list = []

    async def main() -> None:
        errs.append(executor_call())
        await go.sleep(0.01)

    try:
        go.run(main)
    finally:
        klog.configure(verbosity=0, out=None)
    return [errs[0], out.getvalue()]


def _plugins(*plugins) -> VolumePluginMgr:
    mgr = VolumePluginMgr()
    mgr.plugins = {p.get_plugin_name(): p for p in plugins}
    return mgr


def test_verify_attached_records_no_event_when_it_fails():
    # operation_generator.go:1370-1432: GenerateVerifyControllerAttachedVolumeFunc returns
    # EventRecorderFunc nil, so a failed MarkVolumeAsAttached is logged but not recorded.
    plugins = _plugins(_Plugin())
    recorder = Recorder()
    executor = OperationExecutor(OperationGenerator(plugins, recorder))
    vtm = _volume_to_mount(plugins)
    err, log = _run_op(
        lambda: executor.verify_controller_attached_volume(vtm, "node", _RefusingState())
    )
    assert err is None
    assert recorder.events == []
    assert "VerifyControllerAttachedVolume.MarkVolumeAsAttachedByUniqueVolumeName failed" in log


def test_verify_attached_without_a_plugin_is_refused_before_it_runs():
    # operation_generator.go:1374-1378: FindPluginBySpec fails, and the executor returns the
    # detailed error (operation_executor.go:918-922) without starting an operation.
    executor = OperationExecutor(OperationGenerator(_plugins(), Recorder()))
    vtm = _volume_to_mount(_plugins())
    err, _ = _run_op(lambda: executor.verify_controller_attached_volume(vtm, "node", None))
    assert str(err) == (
        'VerifyControllerAttachedVolume.FindPluginBySpec failed for volume "data" '
        '(UniqueName: "kubernetes.io/test/uid-web-data") pod "web" (UID: "uid-web") '
        ": no volume plugin matched"
    )
    assert executor.pending_operations.operations == []


def _mounted(plugin_name: str) -> MountedVolume:
    return MountedVolume(
        pod_name="uid-web",
        volume_name="kubernetes.io/test/uid-web-data",
        inner_volume_spec_name="data",
        outer_volume_spec_name="data",
        plugin_name=plugin_name,
        pod_uid="uid-web",
        mounter=None,
        volume_spec=new_spec_from_volume(Volume(name="data", volume_source={"emptyDir": {}})),
    )


def test_unmount_logs_a_failed_state_update_and_still_succeeds():
    # operation_generator.go:829-846: TearDown succeeded is logged with %q verbs; a failure of
    # MarkVolumeAsUnmounted is only logged (klog.Errorf) and the operation returns no error.
    executor = OperationExecutor(OperationGenerator(_plugins(_Plugin()), Recorder()))
    err, log = _run_op(
        lambda: executor.unmount_volume(_mounted("kubernetes.io/test"), _RefusingState(), "/pods")
    )
    assert err is None
    assert (
        'UnmountVolume.TearDown succeeded for volume "kubernetes.io/test/uid-web-data" '
        '(OuterVolumeSpecName: "data") pod "uid-web" (UID: "uid-web"). InnerVolumeSpecName '
        '"data". PluginName "kubernetes.io/test", VolumeGidValue ""'
    ) in log
    assert "UnmountVolume.MarkVolumeAsUnmounted failed for volume" in log
    # The operation succeeded: it is gone from the table, no back-off.
    assert executor.pending_operations.operations == []


def test_unmount_with_an_unknown_plugin_says_which_name():
    # operation_generator.go:799-802 with plugins.go:718's "no volume plugin matched name: %s".
    executor = OperationExecutor(OperationGenerator(_plugins(), Recorder()))
    err, _ = _run_op(lambda: executor.unmount_volume(_mounted("kubernetes.io/gone"), None, "/p"))
    assert str(err).endswith(": no volume plugin matched name: kubernetes.io/gone")
    assert str(err).startswith('UnmountVolume.FindPluginByName failed for volume "data" ')


def test_deleting_an_operation_moves_the_last_one_into_its_place():
    # nestedpendingoperations.go:246-268 deleteOperation: "without preserving order". A key with
    # an empty pod name then finds the moved operation first (isOperationExists, :205-230).
    ops = NestedPendingOperations()
    keys = [OperationKey("vol", pod, "") for pod in ("a", "b", "c")]
    ops.operations = [
        Operation(k, "volume_mount", operation_pending=k.pod_name != "b") for k in keys
    ]
    ops.delete_operation(keys[0])
    assert [op.key.pod_name for op in ops.operations] == ["c", "b"]
    assert ops.is_operation_exists(OperationKey("vol", "", "")) == (True, 0)
    assert ops.is_operation_pending("vol", "", "")


def test_a_missing_operation_is_named_with_percent_plus_v():
    # nestedpendingoperations.go:243: fmt.Errorf("operation %+v not found", key).
    _, err = NestedPendingOperations().get_operation(OperationKey("vol", "pod", ""))
    assert str(err) == "operation {volumeName:vol podName:pod nodeName:} not found"


def test_volume_messages_quote_names_as_go_does():
    # operation_executor.go:272-274: "%v for volume %q %v %v"; %q escapes what it must.
    assert generate_volume_msg_detailed("MountVolume.SetUp failed", ": x", 'a"b\t', "(d)") == (
        'MountVolume.SetUp failed for volume "a\\"b\\t" (d) : x'
    )


def test_a_huge_page_medium_is_hugepages_or_its_prefix(tmp_path):
    # empty_dir.go SetUpAt's switch: v1helper.IsHugePageMedium (pkg/apis/core/v1/helper/
    # helpers.go:105-110) takes "HugePages" or "HugePages-<size>"; "HugePagesX" falls to the
    # default case, fmt.Errorf("unknown storage medium %q", ...).
    out = run(
        POD.format(
            annotations="",
            mounts="{name: a, mountPath: /a}, {name: b, mountPath: /b}",
            volumes="{name: a, emptyDir: {medium: HugePages-2Mi}}, "
            "{name: b, emptyDir: {medium: HugePagesX}}",
        ),
        tmp_path,
        "1s",
        "-v",
        "3",
    )
    messages = {message for _, message in events(out)}
    assert messages == {
        'MountVolume.SetUp failed for volume \\"b\\" : unknown storage medium \\"HugePagesX\\"'
    }


def test_the_populators_next_retry_time_keeps_the_monotonic_reading(tmp_path):
    # desired_state_of_world_populator.go populatorLoop logs timeOfLastGetPodStatus.Add(...):
    # a time.Now() keeps its monotonic reading through Add, and klog prints it (time.Time's
    # String, "m=+<seconds>"). The runtime was last asked at 11.1 s, after the deletion at 10 s.
    script = (ROOT / "examples/api/busy-volume.yaml").read_text()
    out = run(script, tmp_path, "11300ms", "-v", "5")
    skips = [
        line.split("] ", 1)[1] for line in out.splitlines() if "Skipping findAndRemove" in line
    ]
    assert skips[0] == (
        '"Skipping findAndRemoveDeletedPods(). " nextRetryTime="2021-07-15 00:00:13.1 +0000 UTC'
        ' m=+13.100000000" retryDuration="2s"'
    )
