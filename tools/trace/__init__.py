"""tools.trace — recording traces of the port for the site and the tests, with their Go lines.

The recorder is the port's (`minikubelet.sim.trace`, where the format is described); this
package runs a command under it and resolves every location to Go through `tools.xref`
(`resolve`).  ``record("minikubelet run --manifests examples/static-pods --until 5s")`` returns
the resolved trace; ``python -m tools.trace "<command>" -o FILE`` writes it.  Commands are
``minikubelet …`` (the CLI, in-process) or ``python walkthrough/chNN/example.py …`` (a chapter
example); paths in them are relative to the repository root.

`player` turns a trace into what the page's player loads (``tools/site`` embeds it).
"""

from __future__ import annotations

from .record import TraceError, record
from .resolve import resolve

__all__ = ["TraceError", "record", "resolve"]
