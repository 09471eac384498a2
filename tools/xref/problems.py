"""Problems found while cross-linking: where (file:line), what was looked for, how bad."""

from __future__ import annotations

from dataclasses import asdict, dataclass

ERROR = "error"  # `check` fails
WARNING = "warning"  # printed, does not fail
NOTE = "note"


@dataclass(frozen=True)
class Problem:
    severity: str
    code: str  # e.g. unresolved-symbol, missing-case, drift-lines, malformed-annotation
    file: str  # repository-relative path of the Python side, or the Go path / lock file
    line: int  # 1-based, 0 when the problem is about a whole file
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message} [{self.code}]"

    def to_json(self) -> dict:
        return asdict(self)


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == ERROR]
