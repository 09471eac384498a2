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
from minikubelet.container.runtime import ContainerID
from minikubelet.go import fmt
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.klog.v2 import klog
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
