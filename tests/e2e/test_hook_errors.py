"""postStart hooks that fail before they run, run from examples/hook-errors through ``minikubelet
run``: each failure's event and log lines print kubelet's values as Go does.

Go (v1.21.4 lines): pkg/kubelet/lifecycle/handlers.go L66-67 (the exec hook's message and log
line, the output as ``%q``), L73-74 (the HTTP hook's), L105 (``couldn't find port: %v in %v``: the
IntOrString and the whole ``*v1.Container``), L116-117 (``failed to find networking container:
%v`` of the ``*kubecontainer.PodStatus``); pkg/kubelet/cri/remote/remote_runtime.go L394 (``ExecSync
cmd from runtime service failed``) and L406-410 (the exit code's error, stderr with ``%s``);
pkg/kubelet/kuberuntime/kuberuntime_container.go L229 (the FailedPostStartHook event);
pkg/kubelet/kuberuntime/kuberuntime_manager.go L864 (the start that failed, HandleError).
"""

from __future__ import annotations

import re

import pytest

from tests.test_cli import EXAMPLES, run_cli


@pytest.fixture(scope="module")
def run() -> str:
    code, out = run_cli("--manifests", EXAMPLES + "/hook-errors", "--until", "1m", "-v", "3")
    assert code == 0
    return out


def _event(pod: str) -> str:
    return (
        f'"Event occurred" object="default/{pod}-minikubelet" kind="Pod" apiVersion="v1" '
        'type="Warning" reason="FailedPostStartHook" message="'
    )


def _start_failed(run: str, pod: str, container: str) -> str:
    m = re.search(
        rf"^E\S+ \S+ +1 kuberuntime_manager\.py:\d+\] container &Container\{{Name:{container},"
        rf".*\}} start failed in pod {pod}-minikubelet_default\([0-9a-f]+\): "
        r"PostStartHookError: (.*)$",
        run,
        re.M,
    )
    assert m, f"no start-failed line for {pod}"
    return m.group(1)


def test_a_port_name_the_container_lacks(run: str):
    event = run.index(_event("report"))
    line = run[event : run.index("\n", event)]
    assert (
        'message="HTTP lifecycle hook (/ready) for Container \\"app\\" in Pod '
        '\\"report-minikubelet_default(' in line
    )
    assert (
        "failed - error: couldn't find port: {1 0 metrics} in &Container{Name:app,"
        "Image:registry.example/shop/report:2.0,Command:[],Args:[],WorkingDir:,"
        "Ports:[]ContainerPort{ContainerPort{Name:http,HostPort:0,ContainerPort:8080,"
        "Protocol:TCP,HostIP:,},}," in line
    )
    assert "Lifecycle:&Lifecycle{PostStart:&Handler{Exec:nil,HTTPGet:&HTTPGetAction{" in line
    assert line.endswith(',StartupProbe:nil,}, message: \\"\\""')
    assert _start_failed(run, "report", "app").startswith("couldn't find port: {1 0 metrics} in ")


def test_a_host_network_pod_has_no_ip_for_an_http_hook(run: str):
    m = re.search(
        r'"HTTP lifecycle hook for Container in Pod failed" err="failed to find networking '
        r"container: &\{([0-9a-f]+) agent-minikubelet default \[\] \[0xc0[0-9a-f]{8}\] "
        r"\[&PodSandboxStatus\{Id:[0-9a-f]{64},Metadata:&PodSandboxMetadata\{"
        r"Name:agent-minikubelet,Uid:\1,Namespace:default,Attempt:0,\},State:SANDBOX_READY,"
        r"CreatedAt:\d+,Network:&PodSandboxNetworkStatus\{Ip:,AdditionalIps:\[\]\*PodIP\{\},\},"
        r"Linux:&LinuxPodSandboxStatus\{Namespaces:&Namespace\{Options:&NamespaceOption\{"
        r"Network:NODE,Pid:POD,Ipc:POD,TargetId:,\},\},\},Labels:map\[string\]string\{.*\},"
        r'Annotations:map\[string\]string\{.*\},RuntimeHandler:,\}\]\}" path="/registered" '
        r'containerName="agent" pod="default/agent-minikubelet"$',
        run,
        re.M,
    )
    assert m
    assert run.index(_event("agent")) > m.start()


def test_output_that_is_not_utf8_is_escaped(run: str):
    assert (
        '"Exec lifecycle hook for Container in Pod failed" '
        "err=\"command '/bin/check' exited with 3: error: \\xff\\n\" execCommand=[/bin/check] "
        'containerName="app" pod="default/legacy-minikubelet" message="error: \\xff\\n"'
    ) in run
    # The event's message quotes the output (%q); the error in it has the byte itself, which
    # the event's log line quotes again.
    assert (
        "failed - error: command '/bin/check' exited with 3: error: \\xff\\n, "
        'message: \\"error: \\\\xff\\\\n\\""'
    ) in run
    # HandleError writes the error's text as it is: the byte 0xff and a real newline.
    assert _start_failed(run, "legacy", "app") == (
        "command '/bin/check' exited with 3: error: \udcff"
    )


def test_an_exec_into_a_container_that_exited_is_refused_and_logged(run: str):
    refused = run.index(
        '"ExecSync cmd from runtime service failed" err="rpc error: code = Unknown desc = '
        'failed to exec in container: container is in CONTAINER_EXITED state" containerID="'
    )
    line = run[refused : run.index("\n", refused)]
    assert line.endswith('" cmd=[sh -c echo started]')
    event = run.index(_event("oneshot") + "Exec lifecycle hook ([sh -c echo started])")
    assert refused < event
    # The handler's error, then its message with %s (kuberuntime_container.go L234).
    assert _start_failed(run, "oneshot", "job").startswith(
        "rpc error: code = Unknown desc = failed to exec in container: container is in "
        "CONTAINER_EXITED state: Exec lifecycle hook ([sh -c echo started])"
    )
