"""With --api-script, kubelet talks to a (fake) API server as a real one does.

Go (v1.21.4 lines): pkg/kubelet/kubelet.go L1409-1461 (Run: node status sync with a client,
the status manager started); pkg/kubelet/kubelet_node_status.go L52-79 (registerWithAPIServer);
pkg/kubelet/kubelet.go L1659-1687 (syncPod creates the mirror pod of a static pod);
pkg/kubelet/pod/mirror_client.go L69-107 (CreateMirrorPod); pkg/kubelet/status/status_manager.go
L549-617 (syncPod: the patch, the final delete); pkg/util/pod/pod.go L33-70 (PatchPodStatus);
pkg/kubelet/kubelet_pods.go L1559-1572 (hostIP, with a client).
"""

from __future__ import annotations

from pathlib import Path

from tests.test_cli import EXAMPLES, run_cli


def test_kubelet_registers_its_node_and_patches_pod_status(tmp_path: Path):
    code, out = run_cli("--api-script", EXAMPLES + "/api/pods.yaml", "--until", "30s", "-v", "3")
    assert code == 0
    assert "No API server defined" not in out
    assert "Kubernetes client is nil" not in out
    assert '"Starting to sync pod status with apiserver"' in out
    assert '"Successfully registered node" node="minikubelet"' in out
    assert '"Status for pod updated successfully" pod="shop/api-web" statusVersion=1' in out
    # The graceful delete at 20 s: once the containers are gone, kubelet deletes the pod for good,
    # and the watch brings the removal back.
    lines = out.splitlines()
    delete = next(i for i, s in enumerate(lines) if '"SyncLoop DELETE" source="api"' in s)
    gone = next(
        i
        for i, s in enumerate(lines)
        if '"Pod fully terminated and removed from etcd" pod="shop/api-web"' in s
    )
    remove = next(i for i, s in enumerate(lines) if '"SyncLoop REMOVE" source="api"' in s)
    assert delete < gone < remove
    # The node has an address, so every pod gets its host IP.
    assert (
        '"hostIP":"10.0.0.10"'
        in bytes(
            int(b)
            for b in next(s for s in lines if "patchBytes=[" in s)
            .split("patchBytes=[")[1]
            .rstrip("]")
            .split()
        ).decode()
    )


def test_a_static_pod_gets_a_mirror_pod_that_carries_its_status(tmp_path: Path):
    script = tmp_path / "empty.yaml"
    script.write_text("[]\n")
    code, out = run_cli(
        "--api-script",
        str(script),
        "--manifests",
        EXAMPLES + "/static-pods",
        "--until",
        "5s",
        "-v",
        "4",
    )
    assert code == 0
    lines = out.splitlines()
    created = next(
        i
        for i, s in enumerate(lines)
        if '"Creating a mirror pod for static pod" pod="default/nginx-minikubelet"' in s
    )
    # The mirror pod comes back through the API source's watch, and is recognised as a mirror.
    added = next(
        i
        for i, s in enumerate(lines)
        if '"SyncLoop ADD" source="api" pods=[default/nginx-minikubelet]' in s
    )
    assert created < added
    # The static pod's status is written to its mirror pod, which the watch reports back.
    assert '"Patch status for pod" pod="default/nginx-minikubelet"' in out
    assert '"SyncLoop RECONCILE" source="api" pods=[default/nginx-minikubelet]' in out
    # A mirror pod is not a second pod to run.
    assert "minikubelet: after 5s, 2 pod(s):" in out


def test_an_invalid_pod_in_the_script_is_refused_before_the_run(tmp_path: Path, capsys):
    script = tmp_path / "bad.yaml"
    script.write_text(
        "- at: 2s\n  type: ADDED\n  object:\n    apiVersion: v1\n    kind: Pod\n"
        "    metadata: {name: Bad_Name}\n    spec: {containers: [{name: c, image: x}]}\n"
    )
    code, out = run_cli("--api-script", str(script))
    assert (code, out) == (2, "")
    err = capsys.readouterr().err
    assert f'minikubelet: {script}: event 1: object: metadata.name: invalid name "Bad_Name"' in err
    assert "Traceback" not in err
