"""Faults a reader can script: a sandbox that dies, a container the OOM killer ends, and what
kubelet does about them, run from the examples through ``minikubelet run`` (issue #29 items 2
and 4; examples/sandbox-death, examples/scenarios/start-in-dead-sandbox.yaml, examples/oom-kill).

Go (v1.21.4 lines): pkg/kubelet/kuberuntime/kuberuntime_manager.go L478-480 (podSandboxChanged:
a sandbox not READY, "No ready sandbox …", attempt + 1), L704-727 (SyncPod step 1, the
SandboxChanged event at L712; step 2, killPodWithSyncResult at L726), L916-927 (doBackOff: the
BackOff event and CrashLoopBackOff); pkg/kubelet/kuberuntime/kuberuntime_container.go L179-183
(startContainer: a refused CreateContainer, the event "Error: %v" and ErrCreateContainer),
L194-198 (a refused StartContainer: the event and ErrRunContainer), L515-520
(toKubeContainerStatus: an exited container keeps the runtime's reason and exit code);
pkg/kubelet/cri/remote/remote_runtime.go L227-230, L252-255 (the CRI client logs each refusal);
pkg/kubelet/kubelet_pods.go L1684-1692 (convertToAPIContainerStatuses: ContainerStateTerminated);
pkg/kubelet/status/status_manager.go L451 (the -v 5 line that prints the status).
"""

from __future__ import annotations

import re

from tests.test_cli import EXAMPLES, run_cli

_EVENT = (
    '"Event occurred" object="{pod}" kind="Pod" apiVersion="v1" type="{type}" reason="{reason}"'
)


def _event(pod: str, type_: str, reason: str) -> str:
    return _EVENT.format(pod=pod, type=type_, reason=reason)


def test_a_dead_sandbox_is_replaced_and_its_containers_killed():
    """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go podSandboxChanged L478-480 ("No ready
    sandbox for pod can be found", Attempt = the old one's + 1) and SyncPod L704-727 (the
    SandboxChanged event, then killPodWithSyncResult: "Stopping container app")."""
    code, out = run_cli("--manifests", EXAMPLES + "/sandbox-death", "--until", "40s", "-v", "4")
    assert code == 0
    web = "default/web-minikubelet"
    line = next(
        ln
        for ln in out.splitlines()
        if "No ready sandbox for pod can be found" in ln and f'pod="{web}"' in ln
    )
    assert line.startswith("I0715 00:00:21")  # the first relist after the sandbox's 20 s
    died = out.index(line)
    rest = out[died:]
    assert re.search(
        r"computePodActions got for pod\" podActions=\{KillPod:true CreateSandbox:true "
        r"SandboxID:[0-9a-f]{64} Attempt:1 ",
        rest,
    )
    changed = rest.index(_event(web, "Normal", "SandboxChanged"))
    killing = rest.index(_event(web, "Normal", "Killing") + ' message="Stopping container app"')
    started = rest.index(_event(web, "Normal", "Started") + ' message="Started container app"')
    assert changed < killing < started
    summary = out.split("minikubelet: after 40s, 2 pod(s):\n")[1]
    assert re.search(r"default/web-minikubelet +Running +ready 1/1  restarts 1", summary)


def test_no_container_is_created_in_a_sandbox_that_died_during_the_pull():
    """Go: pkg/kubelet/cri/remote/remote_runtime.go CreateContainer L227-230 (the refusal's
    line), pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer L179-183 (the
    FailedToCreateContainer event "Error: %v" with the runtime's message); the runtime's text is
    containerd 1.4/1.5's CreateContainer (pkg/cri/server/container_create.go)."""
    code, out = run_cli("--manifests", EXAMPLES + "/sandbox-death", "--until", "40s", "-v", "4")
    assert code == 0
    pod = "default/slow-pull-minikubelet"
    failed = out.index(
        _event(pod, "Warning", "Failed")
        + ' message="Error: failed to get sandbox container task: no running task found: task '
    )
    assert "CreateContainerError" in out[failed:].splitlines()[2]
    # kubelet's CRI client logged the refusal first, naming the dead sandbox.
    refused = out.rindex('] "CreateContainer in sandbox from runtime service failed"', 0, failed)
    line = out[refused : out.index("\n", refused)]
    assert re.search(
        r'err="rpc error: code = NotFound desc = failed to get sandbox container task: no running '
        r'task found: task ([0-9a-f]{64}) not found: not found" podSandboxID="\1"$',
        line,
    )
    assert out.index(_event(pod, "Normal", "SandboxChanged")) > failed
    summary = out.split("minikubelet: after 40s, 2 pod(s):\n")[1]
    assert re.search(r"default/slow-pull-minikubelet +Running +ready 1/1  restarts 0", summary)


def test_no_container_is_started_in_a_sandbox_that_died_during_the_start():
    """Go: pkg/kubelet/cri/remote/remote_runtime.go StartContainer L252-255 (the refusal's
    line), pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer L194-198 (the
    FailedToStartContainer event "Error: %v", ErrRunContainer); the runtime's text is containerd
    1.4/1.5's StartContainer (pkg/cri/server/container_start.go)."""
    code, out = run_cli(
        "--manifests", EXAMPLES + "/static-pods",
        "--scenario", EXAMPLES + "/scenarios/start-in-dead-sandbox.yaml",
        "--until", "20s", "-v", "4",
    )  # fmt: skip
    assert code == 0
    pod = "default/nginx-minikubelet"
    m = re.search(
        r'^E0715 00:00:03\.000000 .*\] "StartContainer from runtime service failed" '
        r'err="rpc error: code = Unknown desc = sandbox container \\"([0-9a-f]{64})\\" is not '
        r'running" containerID="[0-9a-f]{64}"$',
        out,
        re.M,
    )
    assert m, "the CRI client did not log the refusal"
    sandbox = m.group(1)
    rest = out[m.end() :]
    failed = rest.index(
        _event(pod, "Warning", "Failed")
        + f' message="Error: sandbox container \\"{sandbox}\\" is not running"'
    )
    error = rest.index('for \\"nginx\\" with RunContainerError: ')
    changed = rest.index(_event(pod, "Normal", "SandboxChanged"))
    assert failed < error < changed
    summary = out.split("minikubelet: after 20s, 2 pod(s):\n")[1]
    assert re.search(r"default/nginx-minikubelet +Running +ready 1/1  restarts 1", summary)


def test_an_oom_killed_container_ends_137_oomkilled_and_backs_off():
    """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go toKubeContainerStatus L515-520 (the
    runtime's reason and exit code), pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses
    L1684-1692 (ContainerStateTerminated), kuberuntime_manager.go doBackOff L916-927 (the
    BackOff event)."""
    code, out = run_cli("--manifests", EXAMPLES + "/oom-kill", "--until", "30s", "-v", "5")
    assert code == 0
    assert "Terminated:&ContainerStateTerminated{ExitCode:137,Signal:0,Reason:OOMKilled," in out
    pod = "default/hungry-minikubelet"
    assert (
        _event(pod, "Warning", "BackOff") + ' message="Back-off restarting failed container"'
    ) in out
    assert "with CrashLoopBackOff" in out
