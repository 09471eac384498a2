"""The Kubernetes v1 API subset the port uses, and loading it from YAML manifests.

- [`minikubelet.api.core_v1`][minikubelet.api.core_v1]: the types (``Pod``, ``PodSpec``,
``Container``, ``PodStatus`` …),
  mirroring ``k8s.io/api/core/v1``; import it as ``v1`` to read like Go (``v1.PodPending``);
- [`minikubelet.api.resource`][minikubelet.api.resource]: quantities (``"500m"``, ``"128Mi"``);
- [`minikubelet.api.load`][minikubelet.api.load]: YAML/JSON manifests → pods, with the API server's
defaulting and
  validation, and errors that name the file, the document and the field.

>>> from minikubelet.api import load_pods
>>> pods, errors = load_pods('''
... apiVersion: v1
... kind: Pod
... metadata: {name: web}
... spec:
...   containers: [{name: nginx, image: "nginx:1.21"}]
... ''', "web.yaml")
>>> pods[0].spec.containers[0].image_pull_policy, pods[0].spec.restart_policy, errors
(<PullPolicy.IF_NOT_PRESENT: 'IfNotPresent'>, <RestartPolicy.ALWAYS: 'Always'>, [])
"""

from minikubelet.api import core_v1
from minikubelet.api.core_v1 import (
    ConditionStatus,
    Container,
    ContainerPort,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    DNSPolicy,
    EnvVar,
    ExecAction,
    Handler,
    HTTPGetAction,
    HTTPHeader,
    Lifecycle,
    LocalObjectReference,
    ObjectMeta,
    Pod,
    PodCondition,
    PodConditionType,
    PodIP,
    PodList,
    PodPhase,
    PodQOSClass,
    PodSpec,
    PodStatus,
    Probe,
    Protocol,
    PullPolicy,
    ResourceList,
    ResourceRequirements,
    RestartPolicy,
    TaintEffect,
    TCPSocketAction,
    TerminationMessagePolicy,
    Toleration,
    TolerationOperator,
    URIScheme,
    Volume,
    VolumeMount,
)
from minikubelet.api.load import (
    MAX_CONFIG_LENGTH,
    ManifestError,
    load_pod_file,
    load_pods,
    load_pods_like_kubelet,
    pod_from_dict,
    pod_to_dict,
    set_object_defaults_pod,
)
from minikubelet.api.resource import Format, Quantity, QuantityError, parse_quantity

__all__ = [
    "MAX_CONFIG_LENGTH",
    "ConditionStatus",
    "Container",
    "ContainerPort",
    "ContainerState",
    "ContainerStateRunning",
    "ContainerStateTerminated",
    "ContainerStateWaiting",
    "ContainerStatus",
    "DNSPolicy",
    "EnvVar",
    "ExecAction",
    "Format",
    "HTTPGetAction",
    "HTTPHeader",
    "Handler",
    "Lifecycle",
    "LocalObjectReference",
    "ManifestError",
    "ObjectMeta",
    "Pod",
    "PodCondition",
    "PodConditionType",
    "PodIP",
    "PodList",
    "PodPhase",
    "PodQOSClass",
    "PodSpec",
    "PodStatus",
    "Probe",
    "Protocol",
    "PullPolicy",
    "Quantity",
    "QuantityError",
    "ResourceList",
    "ResourceRequirements",
    "RestartPolicy",
    "TCPSocketAction",
    "TaintEffect",
    "TerminationMessagePolicy",
    "Toleration",
    "TolerationOperator",
    "URIScheme",
    "Volume",
    "VolumeMount",
    "core_v1",
    "load_pod_file",
    "load_pods",
    "load_pods_like_kubelet",
    "parse_quantity",
    "pod_from_dict",
    "pod_to_dict",
    "set_object_defaults_pod",
]
