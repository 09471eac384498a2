"""tools.site — the mkdocs hook that turns the cross-reference into pages.

``mkdocs.yml`` names ``tools/site/hooks.py`` under ``hooks:``; mkdocs loads it as a plain file,
and the hook puts the repository root on ``sys.path`` so that ``tools`` and ``minikubelet``
import from the working tree.

Directives
==========

A directive is a line of its own, outside fenced code, written the same way on a page and on
its Chinese twin::

    {{ sidebyside("pkg/kubelet/kubelet.go", "(*Kubelet).syncLoopIteration") }}
    {{ run("minikubelet run --manifests examples/static-pods --until 5s", grep="SyncLoop") }}
    {{ pdb("walkthrough/ch03/example.py", "minikubelet.kubelet.Kubelet.sync_loop_iteration") }}

Arguments are Python literals (strings, numbers, booleans), positional or by keyword.

``sidebyside(go_path, go_symbol, py=None, doc=False)``
    The Go declaration (from the source, Pygments-highlighted, with its real line numbers and
    permalinks at ``v1.21.3``) beside the Python that ports it (`tools.xref` finds it by the
    ``Go:`` docstring line; ``py="Class.method"`` picks one when several port the same
    symbol).  Every ``select``/``switch`` case the port anchors (``# Go: case …:``) is a
    *block*: the two panes are padded so that each block starts on the same row, and pointing
    at a block (or clicking it, or focusing it with the keyboard) lights up its twin.
    ``doc=True`` also shows the Go doc comment above the declaration.  Without the source
    (link-only mode) the Go pane is a visible notice with permalinks, and the cases stay
    listed, each linked to its lines and still lighting up its Python twin.

``run(command, grep=None, head=None, tail=None)``
    Runs a ``minikubelet …`` command in-process (the virtual clock and the seed make it
    deterministic) and inserts the command and its real output as a console block.  ``grep``
    keeps the lines matching a regular expression (``grep -E``), ``head``/``tail`` the first or
    last lines; the command shown is the exact pipeline that gives the output shown.  On a
    Chinese page ``--lang zh`` is added (and shown).

``pdb(script, *targets)``
    A console block: ``python -m pdb <script>`` and a ``break <file>:<line>`` for each target
    (a dotted name of a function or method of the port, resolved to its first statement after
    the docstring at build time), then ``continue``.

Environment
===========

``K8S_SRC`` / ``K8S_SRC_VERSION``: where the Go source is (see `tools.xref`).  Without one the
build is link-only.  ``MINIKUBELET_REQUIRE_SOURCE=1`` makes a link-only build an error (the
deploy workflow sets it).
"""
