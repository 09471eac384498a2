"""The port prints kubelet's values as Go's fmt and klog print them.

tests/oracle/fmt.golden is the output of tools/oracle/go/hack/fmtcheck, a Go program of ours built
against kubelet v1.21.4's own packages: each line is one value of kubelet's types, printed the way
a kubelet log line or error message prints it. Here the port builds the same values and prints
them through minikubelet.go.fmt and klog; the lines must be equal, except the addresses Go prints
for pointers it does not follow (they change from run to run in Go too).
"""

from __future__ import annotations

import io
import re

import pytest
import yaml

from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.runtime import ContainerID, ContainerStateExited, PodStatus, Status
from minikubelet.go import fmt
from minikubelet.go.clock import Time
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.lifecycle.handlers import resolve_port
from minikubelet.pleg.pleg import ContainerStarted, PodLifecycleEvent
from tools.oracle.compare import FMT_GOLDEN

_ADDRESS = re.compile(r"0xc0[0-9a-f]{8}")


def golden(label: str) -> list[str]:
    """The golden lines with this label, without it; addresses made uniform."""
    text = FMT_GOLDEN.read_bytes().decode("utf-8", "surrogateescape")
    return [
        _ADDRESS.sub("0xADDR", line[len(label) + 1 :])
        for line in text.splitlines()
        if line.startswith(label + " ")
    ]


def same(mine: str) -> str:
    return _ADDRESS.sub("0xADDR", mine)


def klog_line(log) -> str:
    """What one klog call writes after its header (``] ``), as fmtcheck's klogLine prints it."""
    out = io.StringIO()
    klog.configure(verbosity=0, out=out)
    try:
        log()
    finally:
        klog.configure(verbosity=0, out=None)
    line = out.getvalue().rstrip("\n")
    return line[line.index("] ") + 2 :]


POD = yaml.safe_load(
    """
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, uid: uid-web}
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [sh, -c, 'echo "hi"']
    args: ["a b"]
    workingDir: /w
    ports: [{name: http, containerPort: 8080}]
    env:
    - {name: A, value: "1"}
    - name: B
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: C
      valueFrom: {resourceFieldRef: {resource: limits.cpu}}
    - name: D
      valueFrom: {configMapKeyRef: {name: cm, key: k, optional: true}}
    resources:
      limits: {cpu: 500m, memory: 128Mi}
      requests: {cpu: "0.25"}
    volumeMounts: [{name: data, mountPath: /data, readOnly: true}]
    livenessProbe:
      httpGet: {path: /healthz, port: http}
    lifecycle:
      postStart: {exec: {command: [sh, -c, x]}}
    imagePullPolicy: IfNotPresent
  volumes: [{name: data, emptyDir: {}}]
"""
)


@pytest.fixture(scope="module")
def container():
    # Loaded as kubelet loads a pod: the API server's defaults make the rest of Go's literal.
    return pod_from_dict(POD).spec.containers[0]


def test_quantities_print_their_go_struct():
    # A ResourceList holds Quantity values, whose String() has a pointer receiver: fmt prints
    # the struct ParseQuantity filled in (quantity.go ParseQuantity, the int64 or inf.Dec form).
    lines = FMT_GOLDEN.read_text().splitlines()
    cases = [line.split(" ", 2)[1:] for line in lines if line.startswith("quantity ")]
    assert len(cases) >= 15
    for text, go in cases:
        assert same(fmt.sprint(Quantity.parse(text))) == _ADDRESS.sub("0xADDR", go), text


def test_a_failed_start_prints_the_whole_container(container):
    # kuberuntime_manager.go:864: HandleError(fmt.Errorf("%v %+v start failed in pod %v: %v: %s", ...))
    mine = fmt.sprintf(
        "%v %+v start failed in pod %v: %v: %s",
        "container",
        fmt.Ptr(container),
        "web_default(uid-web)",
        RuntimeError("ErrImagePull"),
        "boom",
    )
    assert [mine] == golden("start-failed")


def test_klog_quotes_a_container_by_its_string_method(container):
    # kuberuntime_manager.go:854: "container", spec.container (a *v1.Container, a Stringer)
    line = klog_line(
        lambda: klog.info_s(
            "Creating container in pod", containerType="container", container=fmt.Ptr(container)
        )
    )
    assert [line] == golden("klog-container")


def test_a_container_id_prints_as_a_struct_unless_through_its_pointer():
    cid = ContainerID("containerd", "abc")
    assert [f"{fmt.sprintf('%+v', cid)}|{fmt.sprint(cid)}|{fmt.sprint(fmt.Ptr(cid))}"] == golden(
        "container-id"
    )
    line = klog_line(
        lambda: klog.info_s("x", containerID=cid, pointer=fmt.Ptr(cid), string=str(cid))
    )
    assert [line] == golden("klog-container-id")


def test_a_pleg_event_prints_as_a_pointer_to_its_struct():
    # kubelet.go:1970: "event", e (a *pleg.PodLifecycleEvent)
    e = PodLifecycleEvent(id="uid-web", type=ContainerStarted, data="abc")
    line = klog_line(lambda: klog.info_s("SyncLoop (PLEG): event for pod", event=fmt.Ptr(e)))
    assert [line] == golden("klog-pleg-event")


def test_a_port_a_hook_cannot_find_prints_the_int_or_string_and_the_container(container):
    # lifecycle/handlers.go:105: fmt.Errorf("couldn't find port: %v in %v", portReference, container)
    _, err = resolve_port("web", container)
    assert [str(err)] == golden("resolve-port")


def run_status() -> Status:
    t0 = 1626307200.1
    return Status(
        id=ContainerID("containerd", "abc"),
        name="app",
        state=ContainerStateExited,
        created_at=t0,
        started_at=t0,
        finished_at=1626307220.0,
        exit_code=137,
        image="busybox",
        image_id="sha256:x",
        hash=123,
        restart_count=1,
        reason="Error",
        message="m",
    )


def test_a_container_status_prints_as_its_struct():
    # kubelet_pods.go:979: statusStr += fmt.Sprintf("%+v ", *status)
    assert [fmt.sprintf("%+v ", run_status())] == golden("status")


def test_a_pod_without_ip_prints_the_runtime_status_as_go_does():
    # lifecycle/handlers.go:117: fmt.Errorf("failed to find networking container: %v", status)
    status = PodStatus(
        id="uid-web",
        name="web",
        namespace="default",
        container_statuses=[run_status()],
        sandbox_statuses=[
            runtimeapi.PodSandboxStatus(
                id="sb1",
                metadata=runtimeapi.PodSandboxMetadata(
                    name="web", uid="uid-web", namespace="default", attempt=1
                ),
                state=runtimeapi.PodSandboxState_SANDBOX_READY,
                created_at=1626307200000000000,
                network=runtimeapi.PodSandboxNetworkStatus(ip=""),
                linux=runtimeapi.LinuxPodSandboxStatus(
                    namespaces=runtimeapi.Namespace(
                        options=runtimeapi.NamespaceOption(network=runtimeapi.NamespaceMode_NODE)
                    )
                ),
                labels={"io.kubernetes.pod.name": "web", "app": "web"},
            )
        ],
    )
    mine = fmt.sprintf("failed to find networking container: %v", fmt.Ptr(status))
    assert [same(mine)] == golden("no-ip")


def test_hook_output_that_is_not_utf8_is_escaped_as_go_escapes_it():
    # lifecycle/handlers.go:66-67: the output is string(bytes); %q and klog write \xfe.
    text = b"out\xfe\n".decode("utf-8", "surrogateescape")
    assert [fmt.sprintf("message: %q", text)] == golden("hook-message")
    err = RuntimeError(fmt.sprintf("command 'x' exited with 2: %s", b"\xff"))
    line = klog_line(
        lambda: klog.error_s(err, "Exec lifecycle hook for Container in Pod failed", message=text)
    )
    assert [line] == golden("klog-hook-output")


def api_status() -> v1.PodStatus:
    t0 = 1626307200.1
    return v1.PodStatus(
        phase=v1.PodRunning,
        conditions=[
            v1.PodCondition(type="Ready", status=v1.ConditionTrue, last_transition_time=t0)
        ],
        host_ip="10.0.0.1",
        pod_ip="10.88.0.2",
        pod_ips=[v1.PodIP(ip="10.88.0.2")],
        start_time=t0,
        container_statuses=[
            v1.ContainerStatus(
                name="app",
                state=v1.ContainerState(running=v1.ContainerStateRunning(started_at=t0)),
                ready=True,
                image="busybox",
                container_id="containerd://abc",
                started=True,
            )
        ],
        qos_class=v1.PodQOSBestEffort,
    )


def test_a_pod_status_value_prints_its_fields_and_a_pointer_its_string_method():
    # status/status_manager.go:437 logs a v1.PodStatus value (%+v of the struct);
    # kubelet_pods.go:1542 a *v1.PodStatus (its generated String()).
    line = klog_line(lambda: klog.info_s("Ignoring same status for pod", status=api_status()))
    assert [same(line)] == golden("klog-api-status")
    line = klog_line(lambda: klog.info_s("x", apiStatus=fmt.Ptr(api_status())))
    assert [line] == golden("klog-api-status-pointer")


def test_a_time_read_from_the_clock_prints_its_monotonic_reading():
    # Go's time.Time.String (src/time/format.go) adds " m=±<seconds>.<9 digits>" to a time
    # that has a monotonic reading, as time.Now() gives: kubelet's back-off lines show it.
    assert str(fmt.Time(Time(1626307211.7, 11.7))) == (
        "2021-07-15 00:00:11.7 +0000 UTC m=+11.700000000"
    )
    assert str(fmt.Time(1626307211.7)) == "2021-07-15 00:00:11.7 +0000 UTC"
    assert str(fmt.Time(None)) == "0001-01-01 00:00:00 +0000 UTC"


def test_a_float_prints_as_go_prints_it_with_v():
    # print.go fmtFloat: %v is %g with the shortest digits, and strconv's ftoa.go
    # formatDigits switches to an exponent when the exponent is < -4 or >= 6 (eprec = 6 when
    # shortest). The right column is what Go 1.19 printed for each value.
    cases = {
        0.1: "0.1",
        100.0: "100",
        123456.7: "123456.7",
        999999.0: "999999",
        1e6: "1e+06",
        12345678.9: "1.23456789e+07",
        1e21: "1e+21",
        0.000123: "0.000123",
        -2.5e-5: "-2.5e-05",
        -0.0: "-0",
        5e-324: "5e-324",
        1.7976931348623157e308: "1.7976931348623157e+308",
    }
    assert {f: fmt.sprint(f) for f in cases} == cases
    assert fmt.sprintf("%+v", 1e6) == "1e+06"
