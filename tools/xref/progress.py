"""Progress bars (rich, on stderr) for downloads and for indexing many files.

Shown when stderr is a terminal, or when asked (``--progress``); never mixed into ``--json``
output, which goes to stdout.  When not shown, or without rich installed, every call is a no-op.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager


class _Task:
    def __init__(self, bar, task_id):
        self._bar, self._id = bar, task_id

    def advance(self, n: float = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._id, n)


def _make_bar():
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as RichProgress

    class CountColumn(ProgressColumn):
        """``12/40`` for files, ``1.2/3.4 MB`` for bytes."""

        def __init__(self):
            super().__init__()
            self._files, self._bytes = MofNCompleteColumn(), DownloadColumn()

        def render(self, task):
            column = self._bytes if task.fields.get("unit") == "bytes" else self._files
            return column.render(task)

    return RichProgress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        CountColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )


class Progress(AbstractContextManager):
    """``with Progress(enabled) as p: t = p.task("indexing", total=n); t.advance()``.

    `enabled` None means: only when stderr is a terminal.
    """

    def __init__(self, enabled: bool | None = None):
        if enabled is None:
            enabled = sys.stderr.isatty()
        self._bar = None
        if enabled:
            try:
                self._bar = _make_bar()
            except ImportError:  # pragma: no cover - rich is in the xref extra
                self._bar = None

    @property
    def enabled(self) -> bool:
        return self._bar is not None

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def task(self, description: str, total: float | None, unit: str = "files") -> _Task:
        """A bar; `unit` is ``files`` or ``bytes``."""
        if self._bar is None:
            return _Task(None, None)
        return _Task(self._bar, self._bar.add_task(description, total=total, unit=unit))


def null() -> Progress:
    """A progress that shows nothing."""
    return Progress(False)
