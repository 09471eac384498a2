"""tools.xref — the cross-linker between the port (``minikubelet/``) and Kubernetes v1.21.3.

Go is read with tree-sitter-go, Python with tree-sitter-python (py-tree-sitter ≥ 0.25: queries
run through ``QueryCursor``).  Run from the repository: ``python -m tools.xref
fetch|index|check|report|lock`` (``--help``).  The site build uses `build_index`.

The annotation convention
=========================

Paths are relative to the root of the kubernetes repository, as at the tag
(``pkg/kubelet/kubelet.go``, ``staging/src/k8s.io/…``).

1. **Module ↔ Go file.**  The module docstring has a line ``Go: <path>`` for each Go file the
   module ports::

       \"\"\"The kubelet's main loop.

       Go: pkg/kubelet/kubelet.go
       \"\"\"

2. **Symbol mapping.**  A function, method or class docstring has a line ``Go: <path> <symbol>``
   (more text may follow on later lines; several such lines map several symbols).  <symbol> is

   - ``Func`` — a top-level function;
   - ``(*Recv).Method`` or ``(Recv).Method`` — a method; the receiver's pointer-ness must be
     the Go one;
   - ``type Name`` — a type declaration (struct, interface, any other);
   - ``Iface.Method`` — a method of an interface type's method set
     (``SyncHandler.HandlePodAdditions``).

   Example::

       async def sync_loop_iteration(self, config_ch, handler, sync_ch, housekeeping_ch,
                                     pleg_ch) -> bool:
           \"\"\"Go: pkg/kubelet/kubelet.go (*Kubelet).syncLoopIteration

           Reads from the channels below and dispatches pods to the handler...
           \"\"\"

   A docstring line ``Go: …`` whose first word is not a path (has no ``/`` and does not end in
   ``.go``) is prose, not an annotation, and is ignored (``Go: `close(ch)`.``).

3. **Block anchors.**  Inside a mapped function, a comment on its own line
   ``# Go: <case text>`` directly above the Python code that ports a Go ``select`` or
   ``switch`` case (type switches included).  <case text> is the case header exactly as in the
   Go source, up to and including its colon, with Go comments dropped and whitespace
   normalised (every run of spaces, tabs and newlines is one space)::

       # Go: case u, open := <-configCh:
       # Go: case kubetypes.ADD:
       # Go: default:

   It is resolved against the cases of the Go function mapped by the *enclosing* Python
   function (the nearest enclosing ``def`` with a ``Go: <path> <symbol>`` docstring line):
   cases of every select/switch of that function, nested ones included, matched by text.  When
   the same text occurs more than once in one Go function, anchors take the occurrences in
   order.  The Python lines an anchor covers run from the comment to the end of the statement
   on the next code line (for ``if``/``elif``, to the end of that branch).  A ``# Go:`` comment
   whose text does not start with ``case`` or ``default`` is prose and is ignored; one that
   does but is not on its own line is an error.

4. **Omission.**  ``# Go omitted: <case text> -- <reason>`` marks a case deliberately not
   ported; the reason is required.  Inside a mapped function, ``# Go omitted: <what> -- <reason>``
   whose text is not a case header marks another part of the Go function left out (a
   statement, a handler it registers); ``report`` lists it under the function, with the reason.

5. **Fidelity.**  For every mapped Go function, every select/switch case tree-sitter finds must
   be ported (an anchor) or omitted.  ``report`` lists each case with its status; ``check``
   fails on missing ones (``check --no-fidelity`` makes them warnings, for work in progress).

Decorators are not used.  Every mapping must resolve: ``check`` fails, with the Python
file:line and what was looked for, on a Go file, symbol or case that is not there.

The source, the cache, the lock
===============================

The Go source is read from ``K8S_SRC`` (a git checkout, read at the tag, or a directory; say
which release a directory holds with ``K8S_SRC_VERSION``), else from the download cache
``.cache/xref/src/``, else downloaded (just the mapped files; `tools.xref.source`).  Without
any, builds are *link-only*: the committed lock file (`tools.xref.lock`, facts only — paths,
line ranges, hashes, symbol names, case headers, and the release each was read from) gives the
permalinks ``https://github.com/kubernetes/kubernetes/blob/v1.21.3/<path>#L<a>-L<b>``.
``check`` with a source compares the lock with it and fails on drift; ``--require-source``
makes the absence of a source an error.  Go index records are cached by content hash under
``.cache/xref/go/`` (`tools.xref.cache`).

Python API (for the mkdocs hook)
================================

``build_index(root=REPO_ROOT, *, src=None, source_version=None, offline=False,
require_source=False, …) -> Index`` (`tools.xref.index`).  ``Index.mappings`` is a list of
`Mapping` (``py_file``, ``py_qualname``, ``py_start``/``py_end``, ``py_line``, ``go_path``,
``go_symbol``, ``go_kind``, ``go_start``/``go_end``, ``permalink``, ``file_permalink``,
``verified``, ``read_from``, ``blocks`` — each a `Block` with the case text, Go and Python
lines and a permalink —, ``go_text`` when the source is at hand).  ``Index.fidelity``,
``Index.problems``, ``Index.mode`` (``source`` or ``link-only``), ``Index.go_source(path)``,
``Index.to_json()``.
"""

from __future__ import annotations

from .index import Index, build_index
from .paths import LOCK_PATH, TAG, permalink
from .problems import Problem
from .resolve import Block, Fidelity, Mapping

__all__ = [
    "LOCK_PATH",
    "TAG",
    "Block",
    "Fidelity",
    "Index",
    "Mapping",
    "Problem",
    "build_index",
    "permalink",
]
