"""The errors an API server returns, and the questions kubelet asks of them.

Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go

kubelet's status manager, mirror-pod client, node registration and volume plugins each ask
"was this a NotFound / AlreadyExists / Conflict?" of an error from the API client. The port's
client is the in-memory API server of the simulation
([`minikubelet.sim.fake_apiserver`][minikubelet.sim.fake_apiserver]); it raises these errors,
and kubelet's code asks these predicates, as in Go.
"""

from __future__ import annotations

#: Go: ``metav1.StatusReasonUnknown``: the server gave no reason (or the error is not an API one).
StatusReasonUnknown = ""
#: Go: ``metav1.StatusReasonNotFound``.
StatusReasonNotFound = "NotFound"
#: Go: ``metav1.StatusReasonAlreadyExists``.
StatusReasonAlreadyExists = "AlreadyExists"
#: Go: ``metav1.StatusReasonConflict``.
StatusReasonConflict = "Conflict"


class StatusError(Exception):
    """An error the API server returned: its reason and message.

    Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go type StatusError

    Go's error holds a whole ``metav1.Status`` (code, details, causes); kubelet's path reads
    only the reason and the message, so the port keeps those two.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def reason_for_error(err: BaseException | None) -> str:
    """The API reason an error carries, ``StatusReasonUnknown`` for any other error.

    Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go ReasonForError

    Go unwraps with ``errors.As``; the port follows the exception's cause (``raise … from``),
    its way of wrapping an error.
    """
    while err is not None:
        if isinstance(err, StatusError):
            return err.reason
        err = err.__cause__
    return StatusReasonUnknown


def is_not_found(err: BaseException | None) -> bool:
    """Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go IsNotFound"""
    return reason_for_error(err) == StatusReasonNotFound


def is_already_exists(err: BaseException | None) -> bool:
    """Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go IsAlreadyExists"""
    return reason_for_error(err) == StatusReasonAlreadyExists


def is_conflict(err: BaseException | None) -> bool:
    """Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go IsConflict"""
    return reason_for_error(err) == StatusReasonConflict
