"""How kubelet names pods in its logs.

Go: pkg/kubelet/util/format/pod.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.klog.v2.klog import ObjectRef, kobj


def pod(p: Pod | None) -> str:
    """``name_namespace(uid)``.

    Go: pkg/kubelet/util/format/pod.go Pod
    """
    if p is None:
        return "<nil>"
    return pod_desc(p.metadata.name, p.metadata.namespace, p.metadata.uid)


def pod_desc(pod_name: str, pod_namespace: str, pod_uid: str) -> str:
    """Go: pkg/kubelet/util/format/pod.go PodDesc"""
    # Underscore as the delimiter: it is not allowed in a pod name (DNS subdomain format).
    return f"{pod_name}_{pod_namespace}({pod_uid})"


def pods(ps: list[Pod]) -> list[ObjectRef]:
    """The pods as klog object references (``[default/nginx ...]`` in a log line).

    Go: pkg/kubelet/util/format/pod.go Pods
    """
    return [kobj(p) for p in ps if p is not None]
