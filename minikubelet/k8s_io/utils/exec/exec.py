"""The error of a command that exited with a non-zero code.

Go: staging/src/k8s.io/utils/exec/exec.go
"""

from __future__ import annotations


class CodeExitError(Exception):
    """A command's exit code, with the error that says so (its text is the error's).

    Go: staging/src/k8s.io/utils/exec/exec.go type CodeExitError
    """

    def __init__(self, err: BaseException, code: int) -> None:
        super().__init__(str(err))
        self.err = err
        self.code = code

    def exit_status(self) -> int:
        """Go: staging/src/k8s.io/utils/exec/exec.go (CodeExitError).ExitStatus"""
        return self.code
