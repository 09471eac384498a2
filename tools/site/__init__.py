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
    {{ trace("minikubelet run --manifests examples/static-pods --until 8s", focus=["(*Kubelet).syncLoopIteration"]) }}

Arguments are Python literals (strings, numbers, booleans), positional or by keyword.

``sidebyside(go_path, go_symbol, py=None, doc=False)``
    The Go declaration (from the source, Pygments-highlighted, with its real line numbers and
    permalinks at ``v1.21.3``, which open in a new tab) beside the Python that ports it
    (`tools.xref` finds it by the ``Go:`` docstring line; ``py="Class.method"`` picks one when
    several port the same symbol).  ``doc=True`` also shows the Go doc comment above the
    declaration (and the header's line range then starts there).  Without the source
    (link-only mode) the Go pane is a notice with permalinks, and the view's blocks stay
    listed, each linked to its lines and lighting up its Python twin.

Views: what every chapter page gets
===================================

*Line links.*  A view is made of *blocks*: the ``select``/``switch`` cases the port anchors
(``# Go: case …:``), the statements it anchors (``# Go: <statement>``, see `tools.xref`), and,
for a type, the members that map on their own (an interface's methods).  Each block starts on the
same row in both panes (the shorter side is padded), and pointing at a block, clicking or
tapping it (it stays lit), or focusing it with the keyboard lights up its twin.  Anchor comments
are left out of the Python pane (the view draws the link); an omission (``# Go omitted: …``)
stays, beside the Go it leaves out.  Every view must be *line-linked*: at least 85 % of the lines
inside the declaration in a block (``tests/site/test_views_linked.py`` checks every view of
every page).  To link a view, add ``# Go: <statement>`` comments above the Python of its main
statements (a few per function: each block runs on to the next anchor), then ``python -m
tools.xref lock`` with the source, so that link-only builds know them.

*Phones.*  A view narrower than 44rem (where two panes cannot hold about 60 characters each)
shows one pane at a time, with a Go | Python switch; switching scrolls the lit block's twin into
view.  The hint says "tap" on touch screens ``(hover: none)``, "point at" elsewhere.  Full
screen is there at every width; its button says how to leave it (Esc too).

*Copying.*  Each pane has a copy button (the code of that pane, without padding or line
numbers); a selection started in one pane does not take the other pane's lines with it.

*Where it lives.*  The view's markup is ``templates/sidebyside.html.j2``, its behaviour
``assets/sidebyside.js``, its style ``assets/sidebyside.css``; nothing else on the page depends on
them, so other features (a trace player) bring their own files to ``assets/``, which the hook
publishes as ``assets/minikubelet/``.  A view is kept out of the search index: the hook puts it into
the page after the search plugin has read it (``on_post_page``).

Pages
=====

*Diagrams* (below) and *exercises* (``{{ exercises() }}``): each chapter page has at least one
diagram and lists its exercises.  *Search* is per language (`tools.site.search`); the index
loads when the reader first goes to the search box (``assets/search-on-demand.js``, loaded in
``<head>`` by ``overrides/main.html``), so a chapter's first load stays small
(``bench/bench_page_weight.py`` measures it).  The *404 page* exists per language
(``overrides/404.html``; root English, ``zh/404.html`` Chinese), the *language switch* keeps
the ``#section`` (``assets/site.js``).  Chinese pages are not hard-wrapped (``python -m
tools.i18n`` fails on a line break between Chinese characters).

``run(command, grep=None, head=None, tail=None)``
    Runs a ``minikubelet …`` command in-process (the virtual clock and the seed make it
    deterministic) and inserts the command and its real output as a console block.  ``grep``
    keeps the lines matching a regular expression (``grep -E``), ``head``/``tail`` the first or
    last lines; the command shown is the exact pipeline that gives the output shown.  On a
    Chinese page ``--lang zh`` is added (and shown).

``pdb(script, *targets)``
    A console block: ``PYTHONPATH=. python -m pdb <script>`` (as typed from the repository's
    top) and a ``break <file>:<line>`` for each target (a dotted name of a function or method
    of the port, resolved to its first statement after the docstring at build time), then
    ``continue``.

``exercises(chapter=None)``
    A table of the chapter's exercises, read from the walkthrough's catalogue
    (``walkthrough/chNN/``): each exercise's name, its title in the page's language, and the
    command that starts it (``python -m walkthrough watch <name>``).  On a chapter page
    (``docs/chapters/NN-*.md``) the chapter is the page's.  Every chapter page has an
    ``## Exercises`` section with this directive (a test holds each page to it).

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

``trace(command, id=None, kinds=None, within=None, focus=None, start=None, end=None,
grep=None, channels=None, limit=400)``
    Records ``command`` at build time (``minikubelet run …``, or ``python
    walkthrough/chNN/example.py …``; see `tools.trace` and, for the trace format,
    `minikubelet.sim.trace`) and embeds a player: play/pause, step, a timeline with markers
    (selects, a red one where several cases were ready; runtime calls; pod workers; statuses),
    keys (← → Space Home End), a sentence per step in the page's language, the Go and the Python
    with the current line lit (following the function each step runs in), and the state:
    channels with their buffered items, pod workers, pods.  ``#trace-<id>-step-<n>`` links to a
    step (``id`` defaults to the player's number on the page; the step counter is that link).
    The options choose the steps shown: ``kinds`` (``select``, ``wait``, ``send``, ``recv``,
    ``close``, ``sleep``, ``go``, ``exit``, ``worker``, ``cri``, ``status``, ``log``),
    ``within`` (a Go symbol or Python qualname anywhere on the step's stack), ``focus`` (the
    function the step happens in), ``start``/``end`` (virtual time, ``"6.3s"``), ``grep`` (a
    regular expression the kept log messages match), ``channels`` (the channels the state panel
    shows, by their Go name), ``limit`` (steps).  The player's data (at most 200 KB: narrow the
    options when the build says so) is a script beside the page, ``trace-<id>.js``, which the
    player loads when it comes near the screen: a chapter's first load does not carry it.

``book()``
    The links to the PDF of each language (`tools.site.book`, ``make pdf``), on the home pages.

Environment
===========

``K8S_SRC`` / ``K8S_SRC_VERSION``: where the Go source is (see `tools.xref`).  Without one the
build is link-only.  ``MINIKUBELET_REQUIRE_SOURCE=1`` makes a link-only build an error (the
deploy workflow sets it).
``MINIKUBELET_REPOSITORY`` (``https://github.com/OWNER/NAME``) and ``MINIKUBELET_BRANCH``:
where each page's "edit this page" link goes (`tools.site.edit_link`; the clone's GitHub
``origin`` without them).
"""
