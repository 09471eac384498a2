"""The node's name, labels and addresses, and what they change in pods' status.

Go (v1.21.4 lines): pkg/util/node/node.go L53-70 (GetHostname);
pkg/kubelet/config/common.go L54-56, L74, L83 (static pods take the node name);
pkg/kubelet/kubelet_node_status.go L287-440 (initialNode);
pkg/kubelet/kubelet_pods.go L1581-1614 (convertStatusToAPIStatus: pod IPs, QoS class).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.config.config import PodConfig, PodConfigNotificationIncremental
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import get_hostname
from minikubelet.kubelet import new_main_kubelet
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.dependencies import new_dependencies
from tests.test_cli import EXAMPLES, run_cli


def test_get_hostname_trims_and_lower_cases():
    assert get_hostname("  Node-A\n") == "node-a"
    with pytest.raises(ValueError, match=r"^empty hostname is invalid$"):
        get_hostname("   ")


def test_an_upper_case_node_name_runs_its_static_pods(capsys):
    """GetHostname lower-cases --hostname-override, so the static pods' names and nodeName
    are valid, and they run; before, every manifest failed validation on spec.nodeName."""
    code, out = run_cli(
        "--manifests", EXAMPLES + "/static-pods", "--node-name", "Node-A", "--until", "5s"
    )
    assert code == 0
    assert (
        '"SyncLoop ADD" source="file" pods=[default/nginx-node-a default/web-with-setup-node-a]'
        in out
    )
    assert "Could not process manifest file" not in out
    summary = out.split("minikubelet: after 5s, 2 pod(s):\n")[1]
    assert "default/nginx-node-a                     Running" in summary
    # A name that is empty once trimmed is refused before anything runs.
    code, out = run_cli("--manifests", EXAMPLES + "/static-pods", "--node-name", " ")
    assert (code, out) == (2, "")
    assert "minikubelet: empty hostname is invalid" in capsys.readouterr().err


def test_a_pod_dropped_by_validation_is_reported(tmp_path: Path):
    """A manifest kubelet cannot use is logged with the file and the field (file.go's
    "Could not process manifest file"), and the others still run."""
    (tmp_path / "good.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: good}\n"
        "spec: {containers: [{name: app, image: 'busybox:1.33'}]}\n"
    )
    (tmp_path / "bad.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: Bad}\n"
        "spec: {containers: [{name: app, image: 'busybox:1.33'}]}\n"
    )
    code, out = run_cli("--manifests", str(tmp_path), "--until", "3s")
    assert code == 0
    assert f'"Could not process manifest file" err="{tmp_path}/bad.yaml: document 1: ' in out
    assert 'metadata.name: invalid name \\"Bad-minikubelet\\"' in out
    assert "default/good-minikubelet                 Running" in out


def initial_node(**kw):
    holder = {}

    async def main() -> None:
        recorder = Recorder()
        cfg = KubeletConfiguration(max_pods=30)
        machine = MachineInfo(cpu=Quantity.parse("3"), memory=Quantity.parse("6Gi"))
        kl = new_main_kubelet(
            cfg,
            new_dependencies(
                new_fake_runtime(recorder=recorder),
                machine,
                PodConfig(PodConfigNotificationIncremental, recorder),
                None,
            ),
            hostname="node-a",
            node_name="node-a",
            machine_info=machine,
            **kw,
        )
        holder["node"] = kl.get_node_any_way()

    go.run(main, until=0.1)
    return holder["node"]


def test_the_node_kubelet_admits_against():
    """initialNode: the well-known labels, --node-labels on top, capacity from the machine and
    maxPods, addresses from --node-ip then the hostname."""
    node = initial_node(node_ips=["10.0.0.10"], node_labels={"disktype": "ssd"})
    assert node.metadata.name == "node-a"
    assert node.metadata.labels == {
        "kubernetes.io/hostname": "node-a",
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": "amd64",
        "disktype": "ssd",
    }
    assert {k: str(v) for k, v in node.status.allocatable.items()} == {
        "cpu": "3",
        "memory": "6Gi",
        "pods": "30",
    }
    assert [(a.type, a.address) for a in node.status.addresses] == [
        ("InternalIP", "10.0.0.10"),
        ("Hostname", "node-a"),
    ]


DUAL = "network:\n  ipFamilies: [IPv4, IPv6]\n"


@pytest.mark.parametrize(
    ("node_ip", "first", "second"),
    [
        ("", "10.88.0.2", "fd00:10:88::2"),  # no --node-ip: IPv4 first
        ("10.0.0.10", "10.88.0.2", "fd00:10:88::2"),
        ("fd00::10", "fd00:10:88::2", "10.88.0.2"),  # the node's family first
        ("fd00::10,10.0.0.10", "fd00:10:88::2", "10.88.0.2"),
    ],
)
def test_the_pod_ip_has_the_node_ip_family(tmp_path: Path, node_ip, first, second):
    """The runtime reports IPv4 then IPv6; kubelet puts the node's family first
    (kubelet_pods.go L1584-1611)."""
    scenario = tmp_path / "dual.yaml"
    scenario.write_text(DUAL)
    args = ["--manifests", EXAMPLES + "/static-pods", "--scenario", str(scenario)]
    if node_ip:
        args += ["--node-ip", node_ip]
    code, out = run_cli(*args, "--until", "3s")
    assert code == 0
    assert (
        f"default/nginx-minikubelet                Running    ready 0/1  restarts 0  IP {first},{second}  QoS Burstable"
        in out
    )


def test_single_stack_and_the_qos_class(tmp_path: Path):
    """Without a dual-stack network a pod has one IP; every status carries the QoS class
    (kubelet_pods.go L1614): nginx requests less than its limits (Burstable), the other pod
    asks for nothing (BestEffort)."""
    code, out = run_cli("--manifests", EXAMPLES + "/static-pods", "--until", "3s")
    assert code == 0
    assert (
        "default/nginx-minikubelet                Running    ready 0/1  restarts 0  IP 10.88.0.2  QoS Burstable"
        in out
    )
    assert (
        "default/web-with-setup-minikubelet       Running    ready 1/1  restarts 0  IP 10.88.0.3  QoS BestEffort"
        in out
    )


def test_bad_node_ips_are_refused(capsys):
    code, _ = run_cli("--manifests", EXAMPLES + "/static-pods", "--node-ip", "10.0.0.1,10.0.0.2")
    assert code == 2
    assert (
        'minikubelet: bad --node-ip "10.0.0.1,10.0.0.2"; must contain either a single IP or a '
        "dual-stack pair of IPs"
    ) in capsys.readouterr().err
    code, _ = run_cli("--manifests", EXAMPLES + "/static-pods", "--node-ip", "ten")
    assert code == 2
    assert "minikubelet: could not parse --node-ip 'ten'" in capsys.readouterr().err
