"""generateAPIPodStatus keeps a terminal phase, and logs the status it refused as kubelet does.

Go: pkg/kubelet/kubelet_pods.go (*Kubelet).generateAPIPodStatus. klog prints ``apiStatus`` by the
``String()`` generated for ``*v1.PodStatus`` (quoted, as klog quotes every ``fmt.Stringer``):
readers grep real logs for this line, so it must read as kubelet's.
"""

from __future__ import annotations

import io

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.config.config import PodConfig, PodConfigNotificationIncremental
from minikubelet.container import runtime as kubecontainer
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.k8s_io.api.core.v1 import Container, Pod, PodPhase, PodSpec, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import new_main_kubelet
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.dependencies import new_dependencies

STARTED = 1626307201.5  # 2021-07-15 00:00:01.5 UTC


def generate(pod: Pod, runtime_status: kubecontainer.PodStatus) -> tuple[PodStatus, str]:
    """The API status kubelet generates for ``pod``, and what it logged meanwhile."""
    holder: dict[str, PodStatus] = {}
    log = io.StringIO()

    async def main() -> None:
        recorder = Recorder()
        machine = MachineInfo(cpu=Quantity.parse("2"), memory=Quantity.parse("4Gi"))
        kl = new_main_kubelet(
            KubeletConfiguration(),
            new_dependencies(
                new_fake_runtime(recorder=recorder),
                machine,
                PodConfig(PodConfigNotificationIncremental, recorder),
                None,
            ),
            hostname="node-a",
            node_name="node-a",
            machine_info=machine,
        )
        klog.configure(verbosity=0, out=log)
        holder["status"] = kl.generate_api_pod_status(pod, runtime_status)

    try:
        go.run(main, until=0.1)
    finally:
        klog.configure(verbosity=0, out=None)
    return holder["status"], log.getvalue()


def test_a_failed_pod_stays_failed_and_the_refused_status_is_logged_as_kubelet_prints_it():
    pod = Pod(
        metadata=ObjectMeta(name="web", namespace="default", uid="uid-web"),
        spec=PodSpec(containers=[Container(name="app", image="nginx:1.21")]),
        status=PodStatus(phase=PodPhase.FAILED, reason="Preempting"),
    )
    running = kubecontainer.Status(
        id=kubecontainer.ContainerID(type="fake", id="c1"),
        name="app",
        state=kubecontainer.State.RUNNING,
        created_at=STARTED - 1,
        started_at=STARTED,
        image="nginx:1.21",
        image_id="fake://sha256:nginx",
    )
    runtime_status = kubecontainer.PodStatus(
        id="uid-web",
        name="web",
        namespace="default",
        ips=["10.88.0.7"],
        container_statuses=[running],
    )
    status, log = generate(pod, runtime_status)
    assert status.phase == PodPhase.FAILED
    lines = [line for line in log.splitlines() if "illegal phase transition" in line]
    assert len(lines) == 1, log
    assert lines[0].startswith("E")
    assert lines[0].split("] ", 1)[1] == (
        '"Pod attempted illegal phase transition" originalStatusPhase=Failed '
        'apiStatusPhase=Running apiStatus="&PodStatus{Phase:Running,Conditions:[]PodCondition{},'
        "Message:,Reason:,HostIP:,PodIP:10.88.0.7,StartTime:<nil>,"
        "ContainerStatuses:[]ContainerStatus{ContainerStatus{Name:app,"
        "State:ContainerState{Waiting:nil,Running:&ContainerStateRunning{"
        "StartedAt:2021-07-15 00:00:01.5 +0000 UTC,},Terminated:nil,},"
        "LastTerminationState:ContainerState{Waiting:nil,Running:nil,Terminated:nil,},"
        "Ready:false,RestartCount:0,Image:nginx:1.21,ImageID:fake://sha256:nginx,"
        "ContainerID:fake://c1,Started:nil,},},QOSClass:BestEffort,"
        "InitContainerStatuses:[]ContainerStatus{},NominatedNodeName:,"
        'PodIPs:[]PodIP{PodIP{IP:10.88.0.7,},},EphemeralContainerStatuses:[]ContainerStatus{},}"'
    )
