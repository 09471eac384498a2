"""How long a failed volume operation waits before it may run again: 0.5 s, doubling, ≤ 2m2s.

Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go
"""

from __future__ import annotations

from dataclasses import dataclass

from minikubelet.go import Millisecond, Minute, Second, now
from minikubelet.go import fmt as go_fmt
from minikubelet.go.duration import format_duration

#: Go: initialDurationBeforeRetry
initialDurationBeforeRetry = 500 * Millisecond
#: Go: maxDurationBeforeRetry
maxDurationBeforeRetry = 2 * Minute + 2 * Second


@dataclass
class ExponentialBackoff:
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go type ExponentialBackoff"""

    last_error: BaseException | None = None
    last_error_time: float = 0.0
    duration_before_retry: float = 0.0

    def safe_to_retry(self, operation_name: str) -> ExponentialBackoffError | None:
        """The error to return while the back-off lasts, else ``None``.

        Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go (*ExponentialBackoff).SafeToRetry
        """
        if float(now()) - self.last_error_time <= self.duration_before_retry:
            return ExponentialBackoffError(operation_name, self)
        return None

    def update(self, err: BaseException) -> None:
        """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go (*ExponentialBackoff).Update"""
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
        return go_fmt.sprintf(
            "Operation for %q failed. No retries permitted until %v (durationBeforeRetry %v). "
            "Error: %q",
            operation_name,
            go_fmt.Time(self.last_error_time + self.duration_before_retry),
            format_duration(self.duration_before_retry),
            self.last_error,
        )


class ExponentialBackoffError(Exception):
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go type exponentialBackoffError"""

    def __init__(self, operation_name: str, exp_backoff: ExponentialBackoff) -> None:
        t = exp_backoff.last_error_time
        super().__init__(
            go_fmt.sprintf(
                "Failed to create operation with name %q. An operation with that name failed at "
                "%v. No retries permitted until %v (%v). Last error: %q.",
                operation_name,
                go_fmt.Time(t),
                go_fmt.Time(t + exp_backoff.duration_before_retry),
                format_duration(exp_backoff.duration_before_retry),
                exp_backoff.last_error,
            )
        )


def is_exponential_backoff(err: BaseException | None) -> bool:
    """Go: pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go IsExponentialBackoff"""
    match err:
        # Go: case exponentialBackoffError:
        case ExponentialBackoffError():
            return True
        # Go: default:
        case _:
            return False
