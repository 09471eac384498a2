"""Defaulting a whole pod: every defaulting function, on every part of the pod it applies to.

Go: pkg/apis/core/v1/zz_generated.defaults.go

Go generates this walk from the types; the port writes it out for the fields it has. The
functions it calls are in [`defaults`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults].
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod, Protocol
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults import (
    set_defaults_container,
    set_defaults_http_get_action,
    set_defaults_object_field_selector,
    set_defaults_pod,
    set_defaults_pod_spec,
    set_defaults_probe,
    set_defaults_resource_list,
    set_defaults_volume,
)


def set_object_defaults_pod(pod: Pod) -> None:
    """Fill in every field the API server defaults, in place (what decoding a pod does in Go).

    Go: pkg/apis/core/v1/zz_generated.defaults.go SetObjectDefaults_Pod
    """
    set_defaults_pod(pod)
    set_defaults_pod_spec(pod.spec)
    for volume in pod.spec.volumes:
        set_defaults_volume(volume)
    for container in [*pod.spec.init_containers, *pod.spec.containers]:
        set_defaults_container(container)
        for port in container.ports:
            if not port.protocol:
                port.protocol = Protocol.TCP
        for env in container.env:
            field_ref = (env.value_from or {}).get("fieldRef")
            if isinstance(field_ref, dict):
                set_defaults_object_field_selector(field_ref)
        container.resources.limits = set_defaults_resource_list(container.resources.limits)
        container.resources.requests = set_defaults_resource_list(container.resources.requests)
        for probe in (container.liveness_probe, container.readiness_probe, container.startup_probe):
            if probe is not None:
                set_defaults_probe(probe)
                if probe.http_get is not None:
                    set_defaults_http_get_action(probe.http_get)
        if container.lifecycle is not None:
            for hook in (container.lifecycle.post_start, container.lifecycle.pre_stop):
                if hook is not None and hook.http_get is not None:
                    set_defaults_http_get_action(hook.http_get)
