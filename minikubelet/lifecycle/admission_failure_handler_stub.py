"""An admission failure handler that handles nothing: a rejected pod stays rejected.

Go: pkg/kubelet/lifecycle/admission_failure_handler_stub.go

``NewMainKubelet`` does not use it: it gives the predicate handler the critical-pod handler
([`minikubelet.preemption.preemption`][minikubelet.preemption.preemption]). Tests use the stub to see the predicates' own
verdict.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.lifecycle.predicate import PredicateFailureReason

__all__ = ["AdmissionFailureHandlerStub", "new_admission_failure_handler_stub"]


class AdmissionFailureHandlerStub:
    """Passes admission failures on unchanged.

    Go: pkg/kubelet/lifecycle/admission_failure_handler_stub.go type AdmissionFailureHandlerStub
    """

    async def handle_admission_failure(
        self, admit_pod: Pod, failure_reasons: list[PredicateFailureReason]
    ) -> list[PredicateFailureReason]:
        """Return ``failure_reasons`` as they are.

        Go: pkg/kubelet/lifecycle/admission_failure_handler_stub.go (*AdmissionFailureHandlerStub).HandleAdmissionFailure
        """
        return failure_reasons


def new_admission_failure_handler_stub() -> AdmissionFailureHandlerStub:
    """Go: pkg/kubelet/lifecycle/admission_failure_handler_stub.go NewAdmissionFailureHandlerStub"""
    return AdmissionFailureHandlerStub()
