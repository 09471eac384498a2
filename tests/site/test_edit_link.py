"""tools.site.edit_link: which repository the pages' edit links open."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tools.site.edit_link import edit_uri, github_repository


def test_github_remotes_of_every_form_name_the_repository():
    for remote in (
        "https://github.com/example/minikubelet.git\n",
        "https://github.com/example/minikubelet",
        "git@github.com:example/minikubelet.git",
        "ssh://git@github.com/example/minikubelet/",
    ):
        assert github_repository(remote) == "https://github.com/example/minikubelet", remote
    for remote in ("/work/main", "https://gitlab.example.org/a/b.git", "", "https://github.com/a"):
        assert github_repository(remote) is None, remote


def test_the_build_is_told_the_repository_or_reads_the_clones_origin(tmp_path: Path):
    told = {"MINIKUBELET_REPOSITORY": "https://github.com/o/n/", "MINIKUBELET_BRANCH": "dev"}
    assert edit_uri(tmp_path, told) == "https://github.com/o/n/edit/dev/docs/"
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert edit_uri(tmp_path, {}) is None, "a clone without a remote has no edit links"
    subprocess.run(
        ["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:o/n.git"],
        check=True,
    )
    assert edit_uri(tmp_path, {}) == "https://github.com/o/n/edit/main/docs/"
