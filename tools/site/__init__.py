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

Diagrams
========

A picture of what a page explains is a Graphviz ``dot`` source we write, one per language::

    docs/diagrams/<name>.en.dot     labels in English
    docs/diagrams/<name>.zh.dot     the same graph, labels in Chinese

``python -m tools.site.diagrams`` (or ``make diagrams``, which installs Debian's ``graphviz``)
renders each to ``docs/assets/diagrams/<name>.<lang>.svg``; commit the sources and the SVGs
together.  ``<name>`` is lower-case letters, digits and ``-``.  A page, in both languages,
embeds it with ordinary Markdown and the *same* path without the language::

    ![What the picture shows, in a sentence (the alt text, in the page's language)](../assets/diagrams/<name>.svg)

mkdocs-static-i18n resolves ``<name>.svg`` to ``<name>.en.svg`` on English pages and to
``<name>.zh.svg`` on Chinese ones.  The site needs no Graphviz to build: the SVGs are committed,
and ``python -m tools.site.diagrams --check`` (in ``make lint``; ``tests/site/test_diagrams.py``)
fails when an SVG is missing, stale (each carries the sha256 of the source it was rendered from)
or left without a source.  The tool sets the font to ``sans-serif`` and refuses a diagram that
would link to or load anything (``URL``, ``href``, ``image``).  Every chapter page shows at
least one diagram (a test holds each ``docs/chapters/NN-*.md`` to it).  Keep a graph narrow
(``rankdir=TB``, short labels broken with ``\n``): at 390 px an SVG wider than about 500 pt
shrinks to unreadable text.  No JavaScript diagram library, and no mermaid (it would load one).

Environment
===========

``K8S_SRC`` / ``K8S_SRC_VERSION``: where the Go source is (see `tools.xref`).  Without one the
build is link-only.  ``MINIKUBELET_REQUIRE_SOURCE=1`` makes a link-only build an error (the
deploy workflow sets it).
"""
