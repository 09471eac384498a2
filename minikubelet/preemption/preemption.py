"""The critical-pod admission handler: make room for a critical pod by evicting others.

Go: pkg/kubelet/preemption/preemption.go

``NewMainKubelet`` gives this handler to the predicate admit handler. When a pod fails
admission, the handler looks at it:

* a pod that is not critical ([`is_critical_pod`][minikubelet.types.is_critical_pod]: static pods, mirror
  pods and pods of system-critical priority are) keeps its failures: it is rejected with
  ``OutOfcpu``, ``OutOfmemory``, ``OutOfpods`` …;
* a critical pod that failed for any reason other than resources keeps those other reasons;
* a critical pod that only lacks resources is admitted after kubelet kills enough other pods
  to free them: BestEffort pods first, then Burstable, then Guaranteed, as few as it can. Each
  victim gets a ``Preempting`` event and the status ``Failed``, and is killed through its pod
  worker (``killPodNow``) while admission waits. If all the pods it may preempt together do not
  free enough, the critical pod is rejected with ``UnexpectedAdmissionError``.
"""

from __future__ import annotations

from dataclasses import dataclass

from minikubelet.events import PreemptContainer
from minikubelet.eviction.types import ActivePodsFunc, KillPodFunc
from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    PodPhase,
    PodQOSClass,
    PodStatus,
    ResourceCPU,
    ResourceMemory,
)
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import get_resource_request
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.lifecycle.predicate import InsufficientResourceError, PredicateFailureReason
from minikubelet.types import is_critical_pod, preemptable

__all__ = [
    "CriticalPodAdmissionHandler",
    "get_pods_to_preempt",
    "message",
    "new_critical_pod_admission_handler",
]

#: The message of the event and of the status a preempted pod gets.
message = "Preempted in order to admit critical pod"


class CriticalPodAdmissionHandler:
    """An admission failure handler that preempts pods for a critical pod short of resources.

    Go: pkg/kubelet/preemption/preemption.go type CriticalPodAdmissionHandler
    """

    def __init__(
        self, get_pods_func: ActivePodsFunc, kill_pod_func: KillPodFunc, recorder: EventRecorder
    ) -> None:
        self.get_pods_func = get_pods_func
        self.kill_pod_func = kill_pod_func
        self.recorder = recorder

    async def handle_admission_failure(
        self, admit_pod: Pod, failure_reasons: list[PredicateFailureReason]
    ) -> list[PredicateFailureReason]:
        """The reasons that still stand against ``admit_pod``; empty once room was made.

        Go: pkg/kubelet/preemption/preemption.go (*CriticalPodAdmissionHandler).HandleAdmissionFailure

        A coroutine, where Go blocks: preempting waits for each victim's pod worker to kill it.
        Raises where Go returns an error (no set of pods frees enough).
        """
        if not is_critical_pod(admit_pod):
            return failure_reasons
        # Resource shortfalls become requirements to free; any other reason stands.
        non_resource_reasons: list[PredicateFailureReason] = []
        resource_reasons: list[AdmissionRequirement] = []
        for reason in failure_reasons:
            if isinstance(reason, InsufficientResourceError):
                resource_reasons.append(
                    AdmissionRequirement(
                        resource_name=reason.resource_name,
                        quantity=reason.get_insufficient_amount(),
                    )
                )
            else:
                non_resource_reasons.append(reason)
        if len(non_resource_reasons) > 0:
            # Preempting cannot help: report only what is not about resources.
            return non_resource_reasons
        await self.evict_pods_to_free_requests(
            admit_pod, AdmissionRequirementList(resource_reasons)
        )
        return []

    async def evict_pods_to_free_requests(
        self, admit_pod: Pod, insufficient_resources: AdmissionRequirementList
    ) -> None:
        """Kill the pods [`get_pods_to_preempt`][minikubelet.preemption.preemption.get_pods_to_preempt] picks, one after the other.

        Go: pkg/kubelet/preemption/preemption.go (*CriticalPodAdmissionHandler).evictPodsToFreeRequests
        """
        try:
            pods_to_preempt = get_pods_to_preempt(
                admit_pod, self.get_pods_func(), insufficient_resources
            )
        except ValueError as err:
            raise RuntimeError(
                f"preemption: error finding a set of pods to preempt: {err}"
            ) from err
        # Go logs the []*v1.Pod itself, which klog prints as pointer addresses; the port logs
        # each victim's namespace/name, which says the same to a reader.
        klog.info_s(
            "Attempting to evict pods in order to free up resources",
            pods=[klog.kobj(p) for p in pods_to_preempt],
            insufficientResources=insufficient_resources.to_string(),
        )
        for pod in pods_to_preempt:
            status = PodStatus(phase=PodPhase.FAILED, message=message, reason=PreemptContainer)
            self.recorder.eventf(pod, EventTypeWarning, PreemptContainer, message)
            # Returns once the pod worker has killed the pod (or the kill timed out).
            try:
                await self.kill_pod_func(pod, status, None)
            except Exception as err:
                klog.error_s(err, "Failed to evict pod", pod=klog.kobj(pod))
                # Not fatal: the victim's next syncs retry the kill.
                continue
            # Go counts the preemption in a metric here (metrics.Preemptions): no metrics.
            klog.info_s("Pod evicted successfully", pod=klog.kobj(pod))


def new_critical_pod_admission_handler(
    get_pods_func: ActivePodsFunc, kill_pod_func: KillPodFunc, recorder: EventRecorder
) -> CriticalPodAdmissionHandler:
    """Go: pkg/kubelet/preemption/preemption.go NewCriticalPodAdmissionHandler"""
    return CriticalPodAdmissionHandler(get_pods_func, kill_pod_func, recorder)


def get_pods_to_preempt(
    pod: Pod, pods: list[Pod], requirements: AdmissionRequirementList
) -> list[Pod]:
    """The pods to kill so that ``requirements`` are met, in the order they will be killed.

    Go: pkg/kubelet/preemption/preemption.go getPodsToPreempt

    Guaranteed pods are spared as far as the other classes can cover; then Burstable ones as
    far as BestEffort pods and the chosen Guaranteed ones can; then whatever BestEffort pods are
    still needed. Raises ValueError when even every preemptable pod together is not enough.
    """
    best_effort_pods, burstable_pods, guaranteed_pods = sort_pods_by_qos(pod, pods)

    # Can all the preemptable pods together free enough?
    unable_to_meet_requirements = requirements.subtract(
        *best_effort_pods, *burstable_pods, *guaranteed_pods
    )
    if len(unable_to_meet_requirements) > 0:
        raise ValueError(
            "no set of running pods found to reclaim resources: "
            f"{unable_to_meet_requirements.to_string()}"
        )
    guaranteed_to_evict = get_pods_to_preempt_by_distance(
        guaranteed_pods, requirements.subtract(*best_effort_pods, *burstable_pods)
    )
    burstable_to_evict = get_pods_to_preempt_by_distance(
        burstable_pods, requirements.subtract(*best_effort_pods, *guaranteed_to_evict)
    )
    best_effort_to_evict = get_pods_to_preempt_by_distance(
        best_effort_pods, requirements.subtract(*burstable_to_evict, *guaranteed_to_evict)
    )
    return [*best_effort_to_evict, *burstable_to_evict, *guaranteed_to_evict]


def get_pods_to_preempt_by_distance(
    pods: list[Pod], requirements: AdmissionRequirementList
) -> list[Pod]:
    """Greedily pick the pod closest to covering what is still required, until nothing is.

    Go: pkg/kubelet/preemption/preemption.go getPodsToPreemptByDistance

    Of two pods at the same distance the one with the smaller request wins (memory first, then
    CPU), so large pods are spared when a small one will do. Raises ValueError when the pods run
    out first.
    """
    # Go's swap-remove below writes into the caller's slice; a copy here, since no caller
    # reads its list again.
    pods = list(pods)
    pods_to_evict: list[Pod] = []
    while len(requirements) > 0:
        if len(pods) == 0:
            raise ValueError(
                f"no set of running pods found to reclaim resources: {requirements.to_string()}"
            )
        # Each requirement adds at most 1 to a distance: this is larger than any.
        best_distance = float(len(requirements) + 1)
        best_pod_index = 0
        for i, pod in enumerate(pods):
            dist = requirements.distance(pod)
            if dist < best_distance or (
                best_distance == dist and smaller_resource_request(pod, pods[best_pod_index])
            ):
                best_distance = dist
                best_pod_index = i
        requirements = requirements.subtract(pods[best_pod_index])
        pods_to_evict.append(pods[best_pod_index])
        # Go's swap-remove: the last pod takes the chosen one's place.
        pods[best_pod_index] = pods[-1]
        pods.pop()
    return pods_to_evict


@dataclass(slots=True)
class AdmissionRequirement:
    """How much of one resource must be freed.

    Go: pkg/kubelet/preemption/preemption.go type admissionRequirement
    """

    resource_name: str
    quantity: int


class AdmissionRequirementList(list[AdmissionRequirement]):
    """Go: pkg/kubelet/preemption/preemption.go type admissionRequirementList"""

    def distance(self, pod: Pod) -> float:
        """How far killing ``pod`` leaves us from the requirements: for each one, the square of
        the fraction the pod does not cover. 0 means the pod alone is enough.

        Go: pkg/kubelet/preemption/preemption.go (admissionRequirementList).distance
        """
        dist = 0.0
        for req in self:
            remaining_request = float(req.quantity - get_resource_request(pod, req.resource_name))
            if remaining_request > 0:
                dist += (remaining_request / float(req.quantity)) ** 2
        return dist

    def subtract(self, *pods: Pod) -> AdmissionRequirementList:
        """What would still be required after killing ``pods``.

        Go: pkg/kubelet/preemption/preemption.go (admissionRequirementList).subtract
        """
        new_list = AdmissionRequirementList()
        for req in self:
            new_quantity = req.quantity
            for pod in pods:
                new_quantity -= get_resource_request(pod, req.resource_name)
                if new_quantity <= 0:
                    break
            if new_quantity > 0:
                new_list.append(
                    AdmissionRequirement(resource_name=req.resource_name, quantity=new_quantity)
                )
        return new_list

    def to_string(self) -> str:
        """``[(res: cpu, q: 500), ]``, as kubelet writes it in logs and messages.

        Go: pkg/kubelet/preemption/preemption.go (admissionRequirementList).toString
        """
        s = "["
        for req in self:
            s += f"(res: {req.resource_name}, q: {req.quantity}), "
        return s + "]"


def sort_pods_by_qos(preemptor: Pod, pods: list[Pod]) -> tuple[list[Pod], list[Pod], list[Pod]]:
    """The pods ``preemptor`` may preempt, split by QoS class: BestEffort, Burstable,
    Guaranteed.

    Go: pkg/kubelet/preemption/preemption.go sortPodsByQOS
    """
    best_effort: list[Pod] = []
    burstable: list[Pod] = []
    guaranteed: list[Pod] = []
    for pod in pods:
        if preemptable(preemptor, pod):
            match get_pod_qos(pod):
                # Go: case v1.PodQOSBestEffort:
                case PodQOSClass.BEST_EFFORT:
                    best_effort.append(pod)
                # Go: case v1.PodQOSBurstable:
                case PodQOSClass.BURSTABLE:
                    burstable.append(pod)
                # Go: case v1.PodQOSGuaranteed:
                case PodQOSClass.GUARANTEED:
                    guaranteed.append(pod)
                # Go: default:
                case _:
                    pass
    return best_effort, burstable, guaranteed


def smaller_resource_request(pod1: Pod, pod2: Pod) -> bool:
    """Whether ``pod1`` requests less than ``pod2``: memory decides, CPU breaks a tie; equal
    pods count as smaller.

    Go: pkg/kubelet/preemption/preemption.go smallerResourceRequest
    """
    priority_list = [ResourceMemory, ResourceCPU]
    for res in priority_list:
        req1 = get_resource_request(pod1, res)
        req2 = get_resource_request(pod2, res)
        if req1 < req2:
            return True
        if req1 > req2:
            return False
    return True
