"""Fixtures shared by the test suite."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (found failures are kept as @example):
# a CI run never fails on an example no one has seen before.
settings.register_profile("minikubelet", derandomize=True, database=None)
settings.load_profile("minikubelet")

ROOT = Path(__file__).resolve().parent.parent
#: The repository the test build's "edit this page" links open (tools/site/edit_link.py).
TEST_REPOSITORY = "https://github.com/example/minikubelet"

# A task left pending in an event loop a test closes fails that test (a leaked goroutine).
pytest_plugins = ["tests.leaks"]


def mkdocs_build(
    config_dir: Path, site_dir: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config_dir/mkdocs.yml`` into ``site_dir`` (in ``env``)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=config_dir,
        capture_output=True,
        text=True,
        env={**(os.environ if env is None else env), "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The site, built once per session by ``mkdocs build --strict`` (warnings fail it)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "MINIKUBELET_REPOSITORY": TEST_REPOSITORY, "MINIKUBELET_BRANCH": "main"}
    result = mkdocs_build(ROOT, out, env)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr}"
    return out
