"""How long a failed volume operation waits before it may run again: 0.5 s, doubling, ≤ 2m2s.

Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go
"""

from __future__ import annotations

from dataclasses import dataclass

from minikubelet.go import Millisecond, Minute, Second, now, since
from minikubelet.go import fmt as go_fmt
from minikubelet.go.clock import Time
from minikubelet.go.duration import format_duration

#: Go: initialDurationBeforeRetry
initialDurationBeforeRetry = 500 * Millisecond
#: Go: maxDurationBeforeRetry
maxDurationBeforeRetry = 2 * Minute + 2 * Second


@dataclass
class ExponentialBackoff:
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go type ExponentialBackoff"""

    last_error: BaseException | None = None
    #: ``None`` is Go's zero time: no error yet.
    last_error_time: Time | None = None
    duration_before_retry: float = 0.0

    def safe_to_retry(self, operation_name: str) -> ExponentialBackoffError | None:
        """The error to return while the back-off lasts, else ``None``.

        Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go (*ExponentialBackoff).SafeToRetry
        """
        # Go's time.Since of the zero time is some two thousand years: always safe. Go compares
        # whole nanoseconds, so a retry exactly one back-off later is still refused; the port
        # rounds both sides to nanoseconds to keep that tie a tie.
        if self.last_error_time is not None and _nanos(since(self.last_error_time)) <= _nanos(
            self.duration_before_retry
        ):
            return ExponentialBackoffError(operation_name, self)
        return None

    def update(self, err: BaseException) -> None:
        """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go (*ExponentialBackoff).Update"""
        # Go: if expBackoff.durationBeforeRetry == 0 {
        if self.duration_before_retry == 0:
            self.duration_before_retry = initialDurationBeforeRetry
        else:
            self.duration_before_retry = 2 * self.duration_before_retry
            if self.duration_before_retry > maxDurationBeforeRetry:
                self.duration_before_retry = maxDurationBeforeRetry
        self.last_error = err
        self.last_error_time = now()

    def generate_no_retries_permitted_msg(self, operation_name: str) -> str:
        """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go (*ExponentialBackoff).GenerateNoRetriesPermittedMsg"""
        assert self.last_error_time is not None  # called after Update only
        return go_fmt.sprintf(
            "Operation for %q failed. No retries permitted until %v (durationBeforeRetry %v). "
            "Error: %q",
            operation_name,
            go_fmt.Time(self.last_error_time.add(self.duration_before_retry)),
            format_duration(self.duration_before_retry),
            self.last_error,
        )


class ExponentialBackoffError(Exception):
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go type exponentialBackoffError"""

    def __init__(self, operation_name: str, exp_backoff: ExponentialBackoff) -> None:
        t = exp_backoff.last_error_time
        assert t is not None  # only made while a back-off lasts
        super().__init__(
            go_fmt.sprintf(
                "Failed to create operation with name %q. An operation with that name failed at "
                "%v. No retries permitted until %v (%v). Last error: %q.",
                operation_name,
                go_fmt.Time(t),
                go_fmt.Time(t.add(exp_backoff.duration_before_retry)),
                format_duration(exp_backoff.duration_before_retry),
                exp_backoff.last_error,
            )
        )


def _nanos(d: float) -> int:
    return round(d * 1_000_000_000)


def is_exponential_backoff(err: BaseException | None) -> bool:
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go IsExponentialBackoff"""
    match err:
        # Go: case exponentialBackoffError:
        case ExponentialBackoffError():
            return True
        # Go: default:
        case _:
            return False
