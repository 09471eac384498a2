"""Ours: Python's cyclic garbage collector paced for a run (no Go counterpart)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paced_for_a_run() -> Iterator[None]:
    """Ours: Python's cyclic garbage collector tuned for the length of a run.

    Everything that exists when the run starts (the port's modules, the pods a caller built) is
    frozen out of collection, and the youngest generation is collected every 10,000 new objects
    instead of every 700. A run makes many short-lived objects and few reference cycles; with the
    defaults the collector walked every long-lived object again and again, reclaiming nothing,
    and that cost grew faster than the number of pods. (Go's own collector is paced by heap growth
    instead, GOGC.) The settings before the run are put back after it.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
