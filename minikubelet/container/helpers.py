"""Helpers around the runtime: should a container be restarted, a container's hash, a pod status
turned into a running pod, the event recorder that hides implicit containers.

Go: pkg/kubelet/container/helpers.go
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any, Protocol

from minikubelet.container.ref import ImplicitContainerPrefix
from minikubelet.container.runtime import (
    Container,
    ContainerID,
    ContainerStateCreated,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    EnvVar,
    Pod,
    PodStatus,
    PortMapping,
    RunContainerOptions,
    State,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import ObjectReference, go_json
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.hash import hash as hashutil
from minikubelet.k8s_io.kubernetes.pkg.util.hash.hash import Fnv32a
from minikubelet.k8s_io.kubernetes.third_party.forked.golang.expansion import (
    expand as expansion,
)


class HandlerRunner(Protocol):
    """Runs a lifecycle handler (postStart, preStop) of a container.

    Go: pkg/kubelet/container/helpers.go type HandlerRunner
    """

    async def run(
        self, container_id: ContainerID, pod: v1.Pod, container: v1.Container, handler: v1.Handler
    ) -> tuple[str, Exception | None]:
        """Run the handler; return (message for an event, error) — Go's ``(string, error)``.

        Go: pkg/kubelet/container/helpers.go HandlerRunner.Run
        """
        ...


class RuntimeHelper(Protocol):
    """What the runtime asks of kubelet while it creates a pod: options, DNS, hostname, cgroup.

    Go: pkg/kubelet/container/helpers.go type RuntimeHelper

    Go's ``(T, error)`` results are returned as ``T`` here, and errors raised.
    """

    def generate_run_container_options(
        self, pod: v1.Pod, container: v1.Container, pod_ip: str, pod_ips: list[str]
    ) -> tuple[RunContainerOptions, Callable[[], None] | None]:
        """Go: pkg/kubelet/container/helpers.go RuntimeHelper.GenerateRunContainerOptions"""
        ...

    def get_pod_dns(self, pod: v1.Pod) -> runtimeapi.DNSConfig:
        """Go: pkg/kubelet/container/helpers.go RuntimeHelper.GetPodDNS"""
        ...

    def get_pod_cgroup_parent(self, pod: v1.Pod) -> str:
        """Go: pkg/kubelet/container/helpers.go RuntimeHelper.GetPodCgroupParent"""
        ...

    def generate_pod_host_name_and_domain(self, pod: v1.Pod) -> tuple[str, str]:
        """Go: pkg/kubelet/container/helpers.go RuntimeHelper.GeneratePodHostNameAndDomain"""
        ...


def should_container_be_restarted(
    container: v1.Container, pod: v1.Pod, pod_status: PodStatus
) -> bool:
    """Whether a container that is not running should be (re)started, by the restart policy.

    Go: pkg/kubelet/container/helpers.go ShouldContainerBeRestarted
    """
    # Go: if pod.DeletionTimestamp != nil {
    if pod.metadata.deletion_timestamp is not None:
        return False
    status = pod_status.find_container_status_by_name(container.name)
    # No status: never started, or every old run was removed; either way, start it.
    if status is None:
        return True
    if status.state == ContainerStateRunning:
        return False
    # Created or unknown never ran to an end: the restart policy does not apply yet.
    if status.state in (ContainerStateUnknown, ContainerStateCreated):
        return True
    # Go: if pod.Spec.RestartPolicy == v1.RestartPolicyNever {
    if pod.spec.restart_policy == v1.RestartPolicyNever:
        klog.v(4).info_s(
            "Already ran container, do nothing", pod=klog.kobj(pod), containerName=container.name
        )
        return False
    if pod.spec.restart_policy == v1.RestartPolicyOnFailure:
        if status.exit_code == 0:
            klog.v(4).info_s(
                "Already successfully ran container, do nothing",
                pod=klog.kobj(pod),
                containerName=container.name,
            )
            return False
    return True


def hash_container(container: v1.Container) -> int:
    """A hash of the container's spec, to tell whether a running container still matches it.

    Go: pkg/kubelet/container/helpers.go HashContainer

    As in Go: FNV-32a over ``DeepHashObject`` of the container's JSON, which is Go's
    ``json.Marshal`` of the Go struct ([`go_json`][minikubelet.k8s_io.api.core.v1.go_json]), so
    the hash is the one kubelet writes.
    """
    hash = Fnv32a()
    container_json = go_json.container_json(container)
    known = _HASH_BY_JSON.get(container_json)
    if known is not None:
        return known
    hashutil.deep_hash_object(hash, container_json)
    if len(_HASH_BY_JSON) >= _HASH_MEMO_SIZE:
        _HASH_BY_JSON.clear()
    _HASH_BY_JSON[container_json] = hash.sum32()
    return hash.sum32()


#: Ours, not kubelet's: the hash of each container JSON already hashed. kubelet hashes every
#: container of a pod at each sync (every minute, and on every change); in Python the FNV-1a
#: loop over spew's printing (about four bytes per byte of JSON) cost as much as the JSON itself.
#: The hash is a function of the JSON bytes alone, so a JSON seen before gives the hash it gave
#: then; the JSON is still made at each call, as Go makes it. Emptied when full.
#: ``tests/container/test_hash_memo.py`` holds it to a fresh computation.
_HASH_BY_JSON: dict[bytes, int] = {}
_HASH_MEMO_SIZE = 4096


def env_vars_to_map(envs: list[EnvVar]) -> dict[str, str]:
    """Go: pkg/kubelet/container/helpers.go envVarsToMap"""
    return {env.name: env.value for env in envs}


def v1_env_vars_to_map(envs: list[v1.EnvVar]) -> dict[str, str]:
    """Go: pkg/kubelet/container/helpers.go v1EnvVarsToMap"""
    return {env.name: env.value for env in envs}


def expand_container_command_only_static(
    container_command: list[str], envs: list[v1.EnvVar]
) -> list[str]:
    """``container_command`` with ``$(VAR)`` replaced from the container's own ``env`` values.

    Only ``value`` counts: a variable set by ``valueFrom`` has an empty ``value`` here, so it
    expands to ``""``; a name ``env`` does not have stays ``$(NAME)``; when a name is listed twice
    the last one wins. The prober runs exec probe commands through this.

    Go: pkg/kubelet/container/helpers.go ExpandContainerCommandOnlyStatic
    """
    mapping = expansion.mapping_func_for(v1_env_vars_to_map(envs))
    return [expansion.expand(cmd, mapping) for cmd in container_command]


def expand_container_command_and_args(
    container: v1.Container, envs: list[EnvVar]
) -> tuple[list[str], list[str]]:
    """The container's command and args with ``$(VAR)`` references replaced from ``envs``.

    Go: pkg/kubelet/container/helpers.go ExpandContainerCommandAndArgs
    """
    mapping = expansion.mapping_func_for(env_vars_to_map(envs))
    command = [expansion.expand(cmd, mapping) for cmd in container.command]
    args = [expansion.expand(arg, mapping) for arg in container.args]
    return command, args


def filter_event_recorder(recorder: EventRecorder) -> EventRecorder:
    """A recorder that drops events about implicitly started containers (and non-references).

    Go: pkg/kubelet/container/helpers.go FilterEventRecorder
    """
    return InnerEventRecorder(recorder)


class InnerEventRecorder:
    """Go: pkg/kubelet/container/helpers.go type innerEventRecorder"""

    def __init__(self, recorder: EventRecorder) -> None:
        self.recorder = recorder

    def should_record_event(self, obj: Any) -> tuple[ObjectReference | None, bool]:
        """Go: pkg/kubelet/container/helpers.go (*innerEventRecorder).shouldRecordEvent"""
        if isinstance(obj, ObjectReference) and not obj.field_path.startswith(
            ImplicitContainerPrefix
        ):
            return obj, True
        return None, False

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Go: pkg/kubelet/container/helpers.go (*innerEventRecorder).Eventf"""
        ref, ok = self.should_record_event(obj)
        if ok:
            self.recorder.eventf(ref, event_type, reason, message_fmt, *args)

    def annotated_eventf(
        self,
        obj: Any,
        annotations: dict[str, str] | None,
        event_type: str,
        reason: str,
        message_fmt: str,
        *args: Any,
    ) -> None:
        """Go: pkg/kubelet/container/helpers.go (*innerEventRecorder).AnnotatedEventf"""
        ref, ok = self.should_record_event(obj)
        if ok:
            self.recorder.annotated_eventf(ref, annotations, event_type, reason, message_fmt, *args)


def is_host_network_pod(pod: v1.Pod) -> bool:
    """Go: pkg/kubelet/container/helpers.go IsHostNetworkPod"""
    return pod.spec.host_network


def convert_pod_status_to_running_pod(runtime_name: str, pod_status: PodStatus) -> Pod:
    """The running containers and all sandboxes of a pod status, as a [`Pod`][].

    Go: pkg/kubelet/container/helpers.go ConvertPodStatusToRunningPod
    """
    running_pod = Pod(id=pod_status.id, name=pod_status.name, namespace=pod_status.namespace)
    for container_status in pod_status.container_statuses:
        if container_status.state != ContainerStateRunning:
            continue
        container = Container(
            id=container_status.id,
            name=container_status.name,
            image=container_status.image,
            image_id=container_status.image_id,
            hash=container_status.hash,
            state=container_status.state,
        )
        running_pod.containers.append(container)

    for sandbox in pod_status.sandbox_statuses:
        running_pod.sandboxes.append(
            Container(
                id=ContainerID(runtime_name, sandbox.id),
                state=sandbox_to_container_state(sandbox.state),
            )
        )
    return running_pod


def sandbox_to_container_state(state: runtimeapi.PodSandboxState) -> State:
    """A sandbox's state as a container state (ready → running, not ready → exited).

    Go: pkg/kubelet/container/helpers.go SandboxToContainerState
    """
    match state:
        # Go: case runtimeapi.PodSandboxState_SANDBOX_READY:
        case runtimeapi.PodSandboxState_SANDBOX_READY:
            return ContainerStateRunning
        # Go: case runtimeapi.PodSandboxState_SANDBOX_NOTREADY:
        case runtimeapi.PodSandboxState_SANDBOX_NOTREADY:
            return ContainerStateExited
    return ContainerStateUnknown


def get_container_spec(pod: v1.Pod, container_name: str) -> v1.Container | None:
    """The spec of the (init) container with that name.

    Go: pkg/kubelet/container/helpers.go GetContainerSpec
    """
    # Go: podutil.VisitContainers visits init containers first, then containers (then
    # ephemeral containers, which the API here does not have).
    for c in pod.spec.init_containers:
        if c.name == container_name:
            return c
    for c in pod.spec.containers:
        if c.name == container_name:
            return c
    return None


def has_privileged_container(pod: v1.Pod) -> bool:
    """Go: pkg/kubelet/container/helpers.go HasPrivilegedContainer"""
    # The API here has no securityContext, so no container can be privileged.
    return False


def make_port_mappings(container: v1.Container) -> list[PortMapping]:
    """The container's ports as port mappings, without duplicates.

    Go: pkg/kubelet/container/helpers.go MakePortMappings
    """
    ports: list[PortMapping] = []
    names: set[str] = set()
    for p in container.ports:
        pm = PortMapping(
            host_port=p.host_port,
            container_port=p.container_port,
            protocol=p.protocol,
            host_ip=p.host_ip,
        )

        # The address family is part of the generated name: the same port and protocol may be
        # mapped once for IPv4 and once for IPv6 without the two names clashing.
        family = "any"
        if p.host_ip != "":
            family = "v6" if _is_ipv6_string(p.host_ip) else "v4"

        name = p.name
        if name == "":
            name = f"{family}-{p.protocol}-{p.host_ip}:{p.container_port}:{p.host_port}"

        if name in names:
            klog.info_s("Port name conflicted, it is defined more than once", portName=name)
            continue
        ports.append(pm)
        names.add(name)
    return ports


def _is_ipv6_string(s: str) -> bool:
    """Whether ``s`` is an IPv6 address (Go's ``utilsnet.IsIPv6String``, k8s.io/utils/net)."""
    try:
        return ipaddress.ip_address(s).version == 6
    except ValueError:
        return False
