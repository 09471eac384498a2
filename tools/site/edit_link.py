"""Where each page's "edit this page" link goes: its own source file on the repository's host.

mkdocs-material shows the link when a page has an ``edit_url``, which mkdocs makes from
``edit_uri`` and the page's source path (``x.md``, and ``x.zh.md`` for a Chinese page, so each
language's page opens its own file). ``edit_uri`` is an absolute URL here, without ``repo_url``:
with ``repo_url`` material would fetch the repository's facts from the host's API on every page
load, and the site makes no third-party request.

The repository is the one the build is told (``MINIKUBELET_REPOSITORY``: the deploy workflow
passes its own), else the clone's ``origin`` when that is a GitHub repository. Without either
(a copy with no remote) the pages have no edit link, and the build says so in one line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tools.site.repo import git_output

#: ``https://github.com/OWNER/NAME``: the repository the pages' edit links open.
REPOSITORY_ENV = "MINIKUBELET_REPOSITORY"
#: The branch the links edit (the deploy workflow passes the one it built).
BRANCH_ENV = "MINIKUBELET_BRANCH"
DEFAULT_BRANCH = "main"

GITHUB_REMOTE = re.compile(
    r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)"
    r"(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)(?:\.git)?/?$"
)


def github_repository(remote: str) -> str | None:
    """``https://github.com/OWNER/NAME`` for a GitHub remote URL (https or ssh), else None."""
    found = GITHUB_REMOTE.match(remote.strip())
    if found is None:
        return None
    return f"https://github.com/{found['owner']}/{found['name']}"


def edit_uri(root: Path, env: dict[str, str] | os._Environ[str] = os.environ) -> str | None:
    """The ``edit_uri`` of the site built from ``root``: ``<repository>/edit/<branch>/docs/``."""
    repository = env.get(REPOSITORY_ENV, "").strip().rstrip("/") or github_repository(
        git_output(root, "remote", "get-url", "origin")
    )
    if not repository:
        return None
    branch = env.get(BRANCH_ENV, "").strip() or DEFAULT_BRANCH
    return f"{repository}/edit/{branch}/docs/"
