"""An operation the executor runs: its name, what it does, and the event it records on failure.

Go: pkg/volume/util/types/types.go
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

#: (error for the event, error for the log); both ``None`` on success.
OperationContext = tuple[Exception | None, Exception | None]


@dataclass
class GeneratedOperations:
    """Go: pkg/volume/util/types/types.go type GeneratedOperations"""

    operation_name: str
    operation_func: Callable[[], Awaitable[OperationContext]]
    event_recorder_func: Callable[[Exception | None], None] | None = None

    async def run(self) -> OperationContext:
        """Run the operation, then record its event (if it failed).

        Go: pkg/volume/util/types/types.go (*GeneratedOperations).Run
        """
        event_err, detailed_err = await self.operation_func()
        if self.event_recorder_func is not None:
            self.event_recorder_func(event_err)
        return event_err, detailed_err
