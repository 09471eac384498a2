"""What the API server fills in when a manifest leaves it out.

Go: pkg/apis/core/v1/defaults.go

kubelet decodes static pods with the same defaulting as the API server, so a pod from a file
has ``restartPolicy: Always``, a 30 s grace period, an image pull policy from its tag and probe
timings, whether the file says so or not. The whole walk over a pod is
[`set_object_defaults_pod`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.zz_generated_defaults.set_object_defaults_pod].
"""

from __future__ import annotations

from typing import Any

from minikubelet.k8s_io.api.core.v1 import (
    Container,
    DefaultTerminationGracePeriodSeconds,
    DNSPolicy,
    HTTPGetAction,
    Pod,
    PodSpec,
    Probe,
    PullPolicy,
    ResourceList,
    RestartPolicy,
    TerminationMessagePathDefault,
    TerminationMessagePolicy,
    URIScheme,
    Volume,
)
from minikubelet.k8s_io.kubernetes.pkg.util.parsers.parsers import parse_image_name


def set_defaults_pod(pod: Pod) -> None:
    """A container with limits but no request for a resource requests its limit.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Pod
    """
    for container in [*pod.spec.containers, *pod.spec.init_containers]:
        resources = container.resources
        for name, limit in resources.limits.items():
            resources.requests.setdefault(name, limit)


def set_defaults_pod_spec(spec: PodSpec) -> None:
    """DNS and restart policy, host ports on the host network, the termination grace period.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_PodSpec
    """
    if not spec.dns_policy:
        spec.dns_policy = DNSPolicy.CLUSTER_FIRST
    if not spec.restart_policy:
        spec.restart_policy = RestartPolicy.ALWAYS
    if spec.host_network:
        # On the host's network a container port *is* a host port.
        for container in [*spec.containers, *spec.init_containers]:
            for port in container.ports:
                if port.host_port == 0:
                    port.host_port = port.container_port
    if spec.termination_grace_period_seconds is None:
        spec.termination_grace_period_seconds = DefaultTerminationGracePeriodSeconds


def set_defaults_container(container: Container) -> None:
    """Image pull policy from the image's tag; where the termination message is read from.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Container

    No tag (or ``:latest``) means the image may change under the same name, so kubelet pulls it
    every time (``Always``); any other tag, or a digest, is pulled only if missing.
    """
    if not container.image_pull_policy:
        try:
            _, tag, _ = parse_image_name(container.image)
        except ValueError:
            tag = ""  # Go ignores the error too: an image it cannot parse is not "latest"
        if tag == "latest":
            container.image_pull_policy = PullPolicy.ALWAYS
        else:
            container.image_pull_policy = PullPolicy.IF_NOT_PRESENT
    if not container.termination_message_path:
        container.termination_message_path = TerminationMessagePathDefault
    if not container.termination_message_policy:
        container.termination_message_policy = TerminationMessagePolicy.READ_FILE


def set_defaults_probe(probe: Probe) -> None:
    """A probe's timings: zero means "not set" and gets the API's default.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Probe
    """
    if probe.timeout_seconds == 0:
        probe.timeout_seconds = 1
    if probe.period_seconds == 0:
        probe.period_seconds = 10
    if probe.success_threshold == 0:
        probe.success_threshold = 1
    if probe.failure_threshold == 0:
        probe.failure_threshold = 3


def set_defaults_http_get_action(action: HTTPGetAction) -> None:
    """An HTTP probe asks for ``/`` over plain HTTP unless told otherwise.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_HTTPGetAction
    """
    if action.path == "":
        action.path = "/"
    if not action.scheme:
        action.scheme = URIScheme.HTTP


def set_defaults_volume(volume: Volume) -> None:
    """A volume that names no source is an empty directory.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Volume
    """
    if not volume.volume_source:
        volume.volume_source = {"emptyDir": {}}


def set_defaults_object_field_selector(selector: dict[str, Any]) -> None:
    """A ``fieldRef`` that names no ``apiVersion`` reads the pod's fields of ``v1``.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_ObjectFieldSelector

    The port keeps an env var's ``valueFrom`` as the manifest wrote it, so the selector is a dict.
    """
    if not selector.get("apiVersion"):
        selector["apiVersion"] = "v1"


def set_defaults_resource_list(resources: ResourceList) -> ResourceList:
    """Every quantity rounded up to a thousandth (``"0.1m"`` of CPU becomes ``"1m"``).

    Go: pkg/apis/core/v1/defaults.go SetDefaults_ResourceList

    Returns the list (a new dict); Go rounds the quantities in place.
    """
    return {name: quantity.round_up(-3) for name, quantity in resources.items()}
