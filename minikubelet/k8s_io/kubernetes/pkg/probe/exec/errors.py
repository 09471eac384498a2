"""The error of an exec that ran out of time.

Go: pkg/probe/exec/errors.go
"""

from __future__ import annotations


class TimeoutError(Exception):
    """An exec cut at its time-out; the text is the wrapped error's.

    Go: pkg/probe/exec/errors.go type TimeoutError
    """

    def __init__(self, err: BaseException, timeout: float) -> None:
        super().__init__(str(err))
        self.err = err
        self._timeout = timeout

    def timeout(self) -> float:
        """Go: pkg/probe/exec/errors.go (*TimeoutError).Timeout"""
        return self._timeout


def new_timeout_error(err: BaseException, timeout: float) -> TimeoutError:
    """Go: pkg/probe/exec/errors.go NewTimeoutError"""
    return TimeoutError(err, timeout)
