"""Admission by predicates: does the pod fit this node at all?

Go: pkg/kubelet/lifecycle/predicate.go

kubelet runs, for every new pod, the scheduler's own checks against its node
([`general_predicates`][]): enough CPU, memory, ephemeral storage and pod slots
([`minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.noderesources.fit`][minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.noderesources.fit]),
the right node name, free host ports, a matching ``nodeSelector`` and node affinity. The
scheduler has run them already; kubelet runs them again because a pod can reach it without the
scheduler (a static pod, a pod with ``nodeName`` set) or after the node changed.

A rejection has a one-word reason and a message, which kubelet puts in the pod's status
(phase ``Failed``):

=====================================  ===========================================================
reason                                 message
=====================================  ===========================================================
``OutOfcpu``, ``OutOfmemory``,         ``Node didn't have enough resource: cpu, requested: 1500,
``OutOfpods``, ``OutOfephemeral-…``    used: 1000, capacity: 2000`` (CPU in millicores, memory in
                                       bytes)
``NodeAffinity``                       ``Predicate NodeAffinity failed``
``NodeName``                           ``Predicate NodeName failed``
``NodePorts``                          ``Predicate NodePorts failed``
=====================================  ===========================================================

Only the first failure is reported. Go functions that return an error raise here instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from minikubelet.k8s_io.api.core.v1 import Node, Pod, ResourceDefaultNamespacePrefix
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.helper.node_affinity import (
    pod_matches_node_selector_and_affinity_terms,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.nodeaffinity import (
    node_affinity as nodeaffinity,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.nodename import (
    node_name as nodename,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.nodeports import (
    node_ports as nodeports,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.noderesources import (
    fit as noderesources_fit,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import NodeInfo, new_node_info
from minikubelet.lifecycle.interfaces import PodAdmitAttributes, PodAdmitHandler, PodAdmitResult
from minikubelet.util import format

__all__ = [
    "AdmissionFailureHandler",
    "InsufficientResourceError",
    "PredicateAdmitHandler",
    "PredicateFailureError",
    "PredicateFailureReason",
    "general_predicates",
    "new_predicate_admit_handler",
    "remove_missing_extended_resources",
]

#: Returns the node, from the API server or, failing that, built locally; raises if it cannot.
#: Go: getNodeAnyWayFuncType (``func() (*v1.Node, error)``).
GetNodeAnyWayFuncType = Callable[[], Node]

#: Updates the node info with device-plugin resources for the pod; raises on failure.
#: Go: pluginResourceUpdateFuncType (``func(*schedulerframework.NodeInfo, *PodAdmitAttributes)
#: error``).
PluginResourceUpdateFuncType = Callable[[NodeInfo, PodAdmitAttributes], None]


class PredicateFailureReason(Protocol):
    """Why a predicate failed.

    Go: pkg/kubelet/lifecycle/predicate.go type PredicateFailureReason
    """

    def get_reason(self) -> str:
        """Go: pkg/kubelet/lifecycle/predicate.go PredicateFailureReason.GetReason"""
        ...


class AdmissionFailureHandler(Protocol):
    """What to do when a pod failed admission: e.g. evict other pods to make room (the
    critical-pod handler). Returns the failure reasons that remain; raises on an error.

    Go: pkg/kubelet/lifecycle/predicate.go type AdmissionFailureHandler
    """

    async def handle_admission_failure(
        self, admit_pod: Pod, failure_reasons: list[PredicateFailureReason]
    ) -> list[PredicateFailureReason]:
        """Go: pkg/kubelet/lifecycle/predicate.go AdmissionFailureHandler.HandleAdmissionFailure

        A coroutine: handling a failure may mean waiting for other pods to be killed.
        """
        ...


class PredicateAdmitHandler:
    """An admit handler that runs [`general_predicates`][] against the node.

    Go: pkg/kubelet/lifecycle/predicate.go type predicateAdmitHandler
    """

    def __init__(
        self,
        get_node_any_way_func: GetNodeAnyWayFuncType,
        plugin_resource_update_func: PluginResourceUpdateFuncType,
        admission_failure_handler: AdmissionFailureHandler,
    ) -> None:
        self.get_node_any_way_func = get_node_any_way_func
        self.plugin_resource_update_func = plugin_resource_update_func
        self.admission_failure_handler = admission_failure_handler
        #: The pods of the last admission and their NodeInfo (before the node is set).
        self._last: tuple[list[Pod], NodeInfo] | None = None

    def node_info_for(self, pods: list[Pod]) -> NodeInfo:
        """``NewNodeInfo(pods...)``, reusing the previous admission's work when it can.

        Go builds the NodeInfo from every other pod for each pod it admits: n² for n pods.
        Pods are usually admitted one after another, each time with the same list plus the
        pods admitted since; then the port copies the last NodeInfo and adds only those.
        """
        last = self._last
        if last is not None and len(pods) >= len(last[0]) and pods[: len(last[0])] == last[0]:
            node_info = last[1].clone()
            for pod in pods[len(last[0]) :]:
                node_info.add_pod(pod)
        else:
            node_info = new_node_info(*pods)
        self._last = (list(pods), node_info.clone())
        return node_info

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        """Admit the pod if it fits the node next to the other pods; otherwise the first
        failure's reason and message.

        Go: pkg/kubelet/lifecycle/predicate.go (*predicateAdmitHandler).Admit
        """
        try:
            node = self.get_node_any_way_func()
        except Exception as node_err:
            klog.error_s(node_err, "Cannot get Node info")
            return PodAdmitResult(
                admit=False,
                reason="InvalidNodeInfo",
                message="Kubelet cannot get node info.",
            )
        admit_pod = attrs.pod
        pods = attrs.other_pods
        node_info = self.node_info_for(pods)
        node_info.set_node(node)
        try:
            self.plugin_resource_update_func(node_info, attrs)
        except Exception as update_err:
            message = f"Update plugin resources failed due to {update_err}, which is unexpected."
            klog.info_s("Failed to admit pod", pod=klog.kobj(admit_pod), message=message)
            return PodAdmitResult(
                admit=False,
                reason="UnexpectedAdmissionError",
                message=message,
            )

        # An extended resource the node does not list may be a cluster-level one, which only the
        # scheduler can check: kubelet admits the pod without counting it (so a static pod that
        # asks for a resource the node lacks is admitted anyway).
        pod_without_missing_extended_resources = remove_missing_extended_resources(
            admit_pod, node_info
        )

        reasons: list[PredicateFailureReason] = []
        err: Exception | None = None
        try:
            reasons = general_predicates(pod_without_missing_extended_resources, node_info)
        except Exception as e:
            err = e
        fit = len(reasons) == 0 and err is None
        if err is not None:
            message = f"GeneralPredicates failed due to {err}, which is unexpected."
            klog.info_s(
                "Failed to admit pod, GeneralPredicates failed", pod=klog.kobj(admit_pod), err=err
            )
            return PodAdmitResult(
                admit=fit,
                reason="UnexpectedAdmissionError",
                message=message,
            )
        if not fit:
            try:
                reasons = await self.admission_failure_handler.handle_admission_failure(
                    admit_pod, reasons
                )
            except Exception as e:
                err = e
            fit = len(reasons) == 0 and err is None
            if err is not None:
                message = (
                    f"Unexpected error while attempting to recover from admission failure: {err}"
                )
                klog.info_s(
                    "Failed to admit pod, unexpected error while attempting to recover from "
                    "admission failure",
                    pod=klog.kobj(admit_pod),
                    err=err,
                )
                return PodAdmitResult(
                    admit=fit,
                    reason="UnexpectedAdmissionError",
                    message=message,
                )
        if not fit:
            if len(reasons) == 0:
                message = "GeneralPredicates failed due to unknown reason, which is unexpected."
                klog.info_s(
                    "Failed to admit pod: GeneralPredicates failed due to unknown reason, "
                    "which is unexpected",
                    pod=klog.kobj(admit_pod),
                )
                return PodAdmitResult(
                    admit=fit,
                    reason="UnknownReason",
                    message=message,
                )
            r = reasons[0]  # a pod refused for several reasons shows the first
            # Go switches on r's type; isinstance checks here.
            # Go: case *PredicateFailureError:
            if isinstance(r, PredicateFailureError):
                reason = r.predicate_name
                message = r.error()
                klog.v(2).info_s("Predicate failed on Pod", pod=format.pod(admit_pod), err=message)
            # Go: case *InsufficientResourceError:
            elif isinstance(r, InsufficientResourceError):
                reason = f"OutOf{r.resource_name}"
                message = r.error()
                klog.v(2).info_s("Predicate failed on Pod", pod=format.pod(admit_pod), err=message)
            # Go: default:
            else:
                reason = "UnexpectedPredicateFailureType"
                message = f"GeneralPredicates failed due to {r}, which is unexpected."
                klog.info_s("Failed to admit pod", pod=klog.kobj(admit_pod), err=message)
            return PodAdmitResult(
                admit=fit,
                reason=reason,
                message=message,
            )
        return PodAdmitResult(admit=True)


def new_predicate_admit_handler(
    get_node_any_way_func: GetNodeAnyWayFuncType,
    admission_failure_handler: AdmissionFailureHandler,
    plugin_resource_update_func: PluginResourceUpdateFuncType,
) -> PodAdmitHandler:
    """An admit handler that checks each pod against the node ``get_node_any_way_func`` returns.

    Go: pkg/kubelet/lifecycle/predicate.go NewPredicateAdmitHandler

    kubelet passes its ``getNodeAnyWay``, the critical-pod admission handler
    ([`minikubelet.preemption.preemption`][minikubelet.preemption.preemption]), and the container manager's device-plugin
    update. Without device plugins, a function that does nothing will do for the last.
    """
    return PredicateAdmitHandler(
        get_node_any_way_func,
        plugin_resource_update_func,
        admission_failure_handler,
    )


def _is_extended_resource_name(name: str) -> bool:
    """Whether ``name`` is an extended resource (``example.com/gpu``): a name with a ``/``,
    outside ``kubernetes.io/``, not starting with ``requests.``.

    Simplified from Go's ``v1helper.IsExtendedResourceName`` (pkg/apis/core/v1/helper): Go also
    checks that ``requests.<name>`` is a qualified name, which API validation guarantees.
    """
    is_native = "/" not in name or ResourceDefaultNamespacePrefix in name
    return not is_native and not name.startswith("requests.")


def remove_missing_extended_resources(pod: Pod, node_info: NodeInfo) -> Pod:
    """A copy of the pod without requests for extended resources the node does not have.

    Go: pkg/kubelet/lifecycle/predicate.go removeMissingExtendedResources

    Scalar resources are not modelled (see
    [`minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types`][minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types]),
    so the node never has any, and every extended resource request is dropped, as Go does for a node
    without them.
    """
    pod_copy = deep_copy(pod)
    scalar_resources = node_info.allocatable.scalar_resources or {}
    for i, c in enumerate(pod.spec.containers):
        # Requests only: the resource check that gets this pod never reads limits.
        pod_copy.spec.containers[i].resources.requests = {}
        for r_name, r_quant in c.resources.requests.items():
            if _is_extended_resource_name(r_name) and r_name not in scalar_resources:
                continue
            pod_copy.spec.containers[i].resources.requests[r_name] = r_quant
    return pod_copy


@dataclass
class InsufficientResourceError(Exception):
    """The node lacks a resource: which one, how much the pod requests, how much other pods
    use, how much the node has.

    Go: pkg/kubelet/lifecycle/predicate.go type InsufficientResourceError
    """

    resource_name: str
    requested: int
    used: int
    capacity: int

    def error(self) -> str:
        """Go: pkg/kubelet/lifecycle/predicate.go (*InsufficientResourceError).Error"""
        return (
            f"Node didn't have enough resource: {self.resource_name}, "
            f"requested: {self.requested}, used: {self.used}, capacity: {self.capacity}"
        )

    def __str__(self) -> str:
        return self.error()

    def get_reason(self) -> str:
        """Go: pkg/kubelet/lifecycle/predicate.go (*InsufficientResourceError).GetReason"""
        return f"Insufficient {self.resource_name}"

    def get_insufficient_amount(self) -> int:
        """How much is missing.

        Go: pkg/kubelet/lifecycle/predicate.go (*InsufficientResourceError).GetInsufficientAmount
        """
        return self.requested - (self.capacity - self.used)


@dataclass
class PredicateFailureError(Exception):
    """A predicate other than the resource fit failed: its name and its description.

    Go: pkg/kubelet/lifecycle/predicate.go type PredicateFailureError
    """

    predicate_name: str
    predicate_desc: str

    def error(self) -> str:
        """Go: pkg/kubelet/lifecycle/predicate.go (*PredicateFailureError).Error"""
        return f"Predicate {self.predicate_name} failed"

    def __str__(self) -> str:
        return self.error()

    def get_reason(self) -> str:
        """Go: pkg/kubelet/lifecycle/predicate.go (*PredicateFailureError).GetReason"""
        return self.predicate_desc


def general_predicates(pod: Pod, node_info: NodeInfo) -> list[PredicateFailureReason]:
    """The checks kubelet cares about: resources, node selector, node name, host ports. Returns
    every failure (empty if the pod fits); raises if the node info has no node.

    Go: pkg/kubelet/lifecycle/predicate.go GeneralPredicates
    """
    if node_info.node() is None:
        raise ValueError("node not found")
    node = node_info.node()
    assert node is not None

    reasons: list[PredicateFailureReason] = []
    for r in noderesources_fit.fits(pod, node_info):
        reasons.append(
            InsufficientResourceError(
                resource_name=r.resource_name,
                requested=r.requested,
                used=r.used,
                capacity=r.capacity,
            )
        )

    if not pod_matches_node_selector_and_affinity_terms(pod, node):
        reasons.append(PredicateFailureError(nodeaffinity.Name, nodeaffinity.ErrReasonPod))
    if not nodename.fits(pod, node_info):
        reasons.append(PredicateFailureError(nodename.Name, nodename.ErrReason))
    if not nodeports.fits(pod, node_info):
        reasons.append(PredicateFailureError(nodeports.Name, nodeports.ErrReason))

    return reasons
