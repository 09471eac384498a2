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

4. **Statement anchors.**  The same ``# Go: <text>`` comment, on its own line, directly above
   the Python that ports a Go *statement* of the enclosing def's mapped function (at any depth,
   ``else if`` included), names that statement by the start of its first line, whitespace
   normalised: ``# Go: syncTicker := time.NewTicker(time.Second)``, or just ``# Go: if err :=
   kl.runtimeState.runtimeErrors()`` for a long one.  Anchors with the same text take the
   matching statements in order.  A ``# Go:`` comment that starts no statement is a remark, not
   an anchor (``# Go: utilruntime.HandleError(err), which logs the error.``); one whose
   statements all have anchors already is a warning.  The Python lines an anchor covers run
   from the comment (and the plain comments right above it) to the end of the last statement
   before the next anchor of the same block, or before a statement holding anchors of its own,
   or to the block's end: one Go statement may take several Python ones; above
   ``elif``/``else`` it covers that branch.  On the Go side, likewise, the block is the
   statement (with the ``//`` comment right above it) and the statements after it in the same
   list up to the next anchored one: a few anchors link a whole function.  Side-by-side views
   align and link these blocks like cases; the lock records their lines for link-only builds
   (``lock`` after adding one; ``check`` with the source says when it lacks one).  Statement
   anchors are not part of fidelity.

5. **Struct fields.**  A class mapped to a Go struct (``Go: <path> type Name``) needs no anchor
   for its fields: the port keeps Go's names, so each attribute links to the Go field of its
   name, compared without case, underscores or a leading ``_`` (``SandboxID`` ↔ ``sandbox_id``,
   ``mu`` ↔ ``_mu``; an embedded field is named after its type: ``sync.Mutex`` ↔ ``_mutex``).
   The attributes are the annotated names of the class body (a dataclass's fields) and what its
   ``__init__`` assigns to ``self.<name>`` in its own body (the first such statement).  The
   Python lines run from the plain comments right above (``#:`` documentation) to the end of
   the statement; the Go lines from the ``//`` comment right above the field to its end.  A name
   two fields (or two attributes) share links nothing, and a field or attribute without a twin
   stays unlinked: nothing fails, the view shows it alone.  Views light these like statements;
   the lock records the linked fields' lines (``lock`` after adding or renaming one; ``check``
   with the source says when it must).  Fields are not part of fidelity.

6. **Omission.**  ``# Go omitted: <case text> -- <reason>`` marks a case deliberately not
   ported, ``# Go omitted: <statement> -- <reason>`` Go statements the port leaves out (the view
   shows them with nothing beside them; they end the run of the anchor before).  The reason is
   required, and an omission must name a case or statement that is there.  ``report`` lists a
   function's omitted statements under it, with their reasons.

7. **Fidelity.**  For every mapped Go function, every select/switch case tree-sitter finds must
   be ported (an anchor) or omitted.  ``report`` lists each case with its status; ``check``
   fails on missing ones (``check --no-fidelity`` makes them warnings, for work in progress).

Decorators are not used.  Every mapping must resolve: ``check`` fails, with the Python
file:line and what was looked for, on a Go file, symbol or case that is not there.

The source, the cache, the lock
===============================

The Go source is read from ``K8S_SRC`` (a git checkout, read at the tag, or a directory,
identified by its files' git blob ids against the lock: an exact copy of v1.21.4 is called
v1.21.4; ``K8S_SRC_VERSION`` names what the lock cannot identify), else from the download cache
``.cache/xref/src/``, else downloaded: just the mapped files, at the release *commit*
(``tools.xref.paths.COMMIT``), over https only, size-capped, each checked against the sha256
the lock read off v1.21.3 where it has one (`tools.xref.download`, `tools.xref.source`).
``python -m tools.xref fetch`` fills the cache (``make serve`` and ``make build`` run it with
``--offline-ok``: offline, one line says so and the site links to GitHub instead).  Without
any source, builds are *link-only*: the committed lock file (`tools.xref.lock`, facts only —
paths, line ranges, hashes, git blob ids, symbol names, case headers, and the release each was
read from) gives the permalinks
``https://github.com/kubernetes/kubernetes/blob/v1.21.3/<path>#L<a>-L<b>``.  ``check`` with a
source compares the lock with it and fails on drift; ``--require-source`` makes the absence of a
source an error.  The deploy workflow (``.github/workflows/docs.yml``) fetches v1.21.3, writes
the lock that fetch gives (``read_from: v1.21.3``) and offers it to be committed; from then on
every fetch is checked against it.  Go index records are cached by content hash under
``.cache/xref/go/`` (`tools.xref.cache`); a cache file that does not verify is discarded and
rebuilt, with a note.

Python API (for the mkdocs hook)
================================

``build_index(root=REPO_ROOT, *, src=None, source_version=None, offline=False,
require_source=False, …) -> Index`` (`tools.xref.index`).  ``Index.mappings`` is a list of
`Mapping` (``py_file``, ``py_qualname``, ``py_start``/``py_end``, ``py_line``, ``go_path``,
``go_symbol``, ``go_kind``, ``go_start``/``go_end``, ``permalink``, ``file_permalink``,
``verified``, ``read_from``, ``blocks`` — each a `Block` with the case text (a statement's
anchor, a struct field's name), Go and Python lines and a permalink —, ``go_text`` when the
source is at hand).  ``Index.fidelity``, ``Index.problems``, ``Index.mode`` (``source`` or
``link-only``), ``Index.go_source(path)``, ``Index.to_json()``.
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
