"""The labels and annotations kubelet puts on sandboxes and containers, and reads back.

Go: pkg/kubelet/kuberuntime/labels.go

Labels identify the pod a container belongs to (kubelet lists a pod's containers by its UID
label); annotations carry what kubelet needs later and cannot get from the runtime: the hash of
the spec, the restart count, grace periods. JSON values (ports, preStop handler) are Go's
``json.Marshal`` bytes ([`go_json`][minikubelet.k8s_io.api.core.v1.go_json]).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from minikubelet.container.helpers import hash_container
from minikubelet.container.runtime import RunContainerOptions
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import go_json
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import unmarshal
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import (
    KubernetesContainerNameLabel,
    KubernetesPodNameLabel,
    KubernetesPodNamespaceLabel,
    KubernetesPodUIDLabel,
)

# Annotations, despite the "Label" in Go's names.
podDeletionGracePeriodLabel = "io.kubernetes.pod.deletionGracePeriod"
podTerminationGracePeriodLabel = "io.kubernetes.pod.terminationGracePeriod"

containerHashLabel = "io.kubernetes.container.hash"
containerRestartCountLabel = "io.kubernetes.container.restartCount"
containerTerminationMessagePathLabel = "io.kubernetes.container.terminationMessagePath"
containerTerminationMessagePolicyLabel = "io.kubernetes.container.terminationMessagePolicy"
containerPreStopHandlerLabel = "io.kubernetes.container.preStopHandler"
containerPortsLabel = "io.kubernetes.container.ports"


@dataclass(slots=True)
class LabeledContainerInfo:
    """Go: pkg/kubelet/kuberuntime/labels.go type labeledContainerInfo"""

    container_name: str = ""
    pod_name: str = ""
    pod_namespace: str = ""
    pod_uid: str = ""


@dataclass(slots=True)
class AnnotatedContainerInfo:
    """Go: pkg/kubelet/kuberuntime/labels.go type annotatedContainerInfo"""

    hash: int = 0
    restart_count: int = 0
    pod_deletion_grace_period: int | None = None
    pod_termination_grace_period: int | None = None
    termination_message_path: str = ""
    termination_message_policy: str = ""
    pre_stop_handler: v1.Handler | None = None
    container_ports: list[v1.ContainerPort] = field(default_factory=list)


def new_pod_labels(pod: v1.Pod) -> dict[str, str]:
    """The pod's labels plus its name, namespace and UID.

    Go: pkg/kubelet/kuberuntime/labels.go newPodLabels
    """
    labels = dict(pod.metadata.labels or {})
    labels[KubernetesPodNameLabel] = pod.metadata.name
    labels[KubernetesPodNamespaceLabel] = pod.metadata.namespace
    labels[KubernetesPodUIDLabel] = pod.metadata.uid
    return labels


def new_pod_annotations(pod: v1.Pod) -> dict[str, str]:
    """Go: pkg/kubelet/kuberuntime/labels.go newPodAnnotations"""
    return pod.metadata.annotations


def new_container_labels(container: v1.Container, pod: v1.Pod) -> dict[str, str]:
    """Go: pkg/kubelet/kuberuntime/labels.go newContainerLabels"""
    return {
        KubernetesPodNameLabel: pod.metadata.name,
        KubernetesPodNamespaceLabel: pod.metadata.namespace,
        KubernetesPodUIDLabel: pod.metadata.uid,
        KubernetesContainerNameLabel: container.name,
    }


def new_container_annotations(
    container: v1.Container, pod: v1.Pod, restart_count: int, opts: RunContainerOptions
) -> dict[str, str]:
    """Go: pkg/kubelet/kuberuntime/labels.go newContainerAnnotations"""
    annotations: dict[str, str] = {}

    # Device plugin annotations first, so that kubelet's own keys below win on a clash.
    for a in opts.annotations:
        annotations[a.name] = a.value

    annotations[containerHashLabel] = format(hash_container(container), "x")
    annotations[containerRestartCountLabel] = str(restart_count)
    annotations[containerTerminationMessagePathLabel] = container.termination_message_path
    annotations[containerTerminationMessagePolicyLabel] = str(container.termination_message_policy)

    if pod.metadata.deletion_grace_period_seconds is not None:
        annotations[podDeletionGracePeriodLabel] = str(pod.metadata.deletion_grace_period_seconds)
    if pod.spec.termination_grace_period_seconds is not None:
        annotations[podTerminationGracePeriodLabel] = str(pod.spec.termination_grace_period_seconds)

    if container.lifecycle is not None and container.lifecycle.pre_stop is not None:
        annotations[containerPreStopHandlerLabel] = go_json.handler_json(
            container.lifecycle.pre_stop
        )

    if len(container.ports) > 0:
        annotations[containerPortsLabel] = go_json.ports_json(container.ports)

    return annotations


def get_container_info_from_labels(labels: dict[str, str]) -> LabeledContainerInfo:
    """Go: pkg/kubelet/kuberuntime/labels.go getContainerInfoFromLabels"""
    return LabeledContainerInfo(
        pod_name=get_string_value_from_label(labels, KubernetesPodNameLabel),
        pod_namespace=get_string_value_from_label(labels, KubernetesPodNamespaceLabel),
        pod_uid=get_string_value_from_label(labels, KubernetesPodUIDLabel),
        container_name=get_string_value_from_label(labels, KubernetesContainerNameLabel),
    )


#: id(annotations) → (annotations, info): the runtime hands back the same annotations object
#: for a container on every list, and the PLEG lists every container every second.
_annotations_memo: dict[int, tuple[dict[str, str], AnnotatedContainerInfo]] = {}


def get_container_info_from_annotations(annotations: dict[str, str]) -> AnnotatedContainerInfo:
    """Go: pkg/kubelet/kuberuntime/labels.go getContainerInfoFromAnnotations

    Not in Go: the result is memoised by the identity of ``annotations`` (callers never change
    either), which saves the PLEG's relist of many pods from parsing them again each second.
    """
    hit = _annotations_memo.get(id(annotations))
    if hit is not None and hit[0] is annotations:
        return hit[1]
    info = _get_container_info_from_annotations(annotations)
    if len(_annotations_memo) >= 100_000:
        _annotations_memo.clear()
    _annotations_memo[id(annotations)] = (annotations, info)
    return info


def _get_container_info_from_annotations(annotations: dict[str, str]) -> AnnotatedContainerInfo:
    info = AnnotatedContainerInfo(
        termination_message_path=get_string_value_from_label(
            annotations, containerTerminationMessagePathLabel
        ),
        termination_message_policy=get_string_value_from_label(
            annotations, containerTerminationMessagePolicyLabel
        ),
    )

    info.hash, err = get_uint64_value_from_label(annotations, containerHashLabel)
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=containerHashLabel,
            annotations=annotations,
        )
    info.restart_count, err = get_int_value_from_label(annotations, containerRestartCountLabel)
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=containerRestartCountLabel,
            annotations=annotations,
        )
    info.pod_deletion_grace_period, err = get_int64_pointer_from_label(
        annotations, podDeletionGracePeriodLabel
    )
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=podDeletionGracePeriodLabel,
            annotations=annotations,
        )
    info.pod_termination_grace_period, err = get_int64_pointer_from_label(
        annotations, podTerminationGracePeriodLabel
    )
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=podTerminationGracePeriodLabel,
            annotations=annotations,
        )

    found, value, err = get_json_object_from_label(
        annotations, containerPreStopHandlerLabel, v1.Handler
    )
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=containerPreStopHandlerLabel,
            annotations=annotations,
        )
    elif found:
        info.pre_stop_handler = value

    found, value, err = get_json_object_from_label(
        annotations, containerPortsLabel, list[v1.ContainerPort]
    )
    if err is not None:
        klog.error_s(
            err,
            "Unable to get label value from annotations",
            label=containerPortsLabel,
            annotations=annotations,
        )
    elif found:
        info.container_ports = value

    return info


class _Problems(list[str]):
    def add(self, path: str | None, message: str) -> None:
        self.append(f"{path}: {message}" if path else message)


def get_string_value_from_label(labels: dict[str, str], label: str) -> str:
    """Go: pkg/kubelet/kuberuntime/labels.go getStringValueFromLabel"""
    value = labels.get(label)
    if value is not None:
        return value
    # Containers made by an older kubelet may lack a label: logged, not an error.
    klog.v(3).info_s(
        "Container doesn't have requested label, it may be an old or invalid container",
        label=label,
    )
    return ""


def get_int_value_from_label(labels: dict[str, str], label: str) -> tuple[int, Exception | None]:
    """Go: pkg/kubelet/kuberuntime/labels.go getIntValueFromLabel"""
    str_value = labels.get(label)
    if str_value is not None:
        try:
            return int(str_value), None
        except ValueError as err:
            return 0, err
    klog.v(3).info_s(
        "Container doesn't have requested label, it may be an old or invalid container",
        label=label,
    )
    return 0, None


def get_uint64_value_from_label(labels: dict[str, str], label: str) -> tuple[int, Exception | None]:
    """The label's value read as hexadecimal.

    Go: pkg/kubelet/kuberuntime/labels.go getUint64ValueFromLabel
    """
    str_value = labels.get(label)
    if str_value is not None:
        try:
            return int(str_value, 16), None
        except ValueError as err:
            return 0, err
    klog.v(3).info_s(
        "Container doesn't have requested label, it may be an old or invalid container",
        label=label,
    )
    return 0, None


def get_int64_pointer_from_label(
    labels: dict[str, str], label: str
) -> tuple[int | None, Exception | None]:
    """Go: pkg/kubelet/kuberuntime/labels.go getInt64PointerFromLabel"""
    str_value = labels.get(label)
    if str_value is not None:
        try:
            return int(str_value), None
        except ValueError as err:
            return None, err
    return None, None


def get_json_object_from_label(
    labels: dict[str, str], label: str, into: Any
) -> tuple[bool, Any, Exception | None]:
    """(found, the value as an ``into``, error). Go unmarshals into a value passed in; the port
    returns it.

    Go: pkg/kubelet/kuberuntime/labels.go getJSONObjectFromLabel
    """
    str_value = labels.get(label)
    if str_value is not None:
        try:
            data = json.loads(str_value)
        except ValueError as err:
            return True, None, err
        problems = _Problems()
        value = unmarshal(data, into, problems)
        if problems:  # Go's json.Unmarshal fails on a value of the wrong type
            return True, None, ValueError(problems[0])
        return True, value, None
    return False, None, None
