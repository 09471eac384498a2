"""Build-time runs of the port (``run``) and breakpoints (``pdb``) for the pages."""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
import threading

import pytest

from minikubelet.sim import cli
from tests.conftest import ROOT
from tools.site.breakpoints import locate, pdb_directive
from tools.site.directives import DirectiveError
from tools.site.runner import Runner, fence_for, run_directive

COMMAND = "minikubelet run --manifests examples/static-pods --until 3s"


@pytest.fixture(scope="module")
def runner():
    return Runner(ROOT)


def body(block: str) -> list[str]:
    """The lines inside a fenced block."""
    lines = block.strip().splitlines()
    assert lines[0].startswith("```") and lines[-1].startswith("```")
    return lines[1:-1]


def test_run_shows_the_command_and_its_real_output(runner, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    codes = []
    # A thread of its own: an event loop may be running in this one (the browser tests').
    thread = threading.Thread(target=lambda: codes.append(cli.main(COMMAND.split()[1:], out=out)))
    thread.start()
    thread.join()
    assert codes == [0]
    lines = body(run_directive(runner, COMMAND))
    assert lines[0] == "$ " + COMMAND
    # The page trims trailing blanks (kubelet's MountVolume lines end in one); nothing else.
    assert lines[1:] == [line.rstrip() for line in out.getvalue().rstrip("\n").splitlines()]


def test_run_is_the_same_in_a_fresh_interpreter(runner):
    """What the page shows is what a reader's shell prints."""
    done = subprocess.run(
        [sys.executable, "-m", "minikubelet.sim.cli", *COMMAND.split()[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    shell = [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]
    assert body(run_directive(runner, COMMAND))[1:] == shell


def test_run_filters_like_the_pipeline_it_shows(runner):
    lines = body(run_directive(runner, COMMAND, grep='"SyncLoop|^minikubelet:', head=3))
    assert lines[0] == f"$ {COMMAND} | grep -E '\"SyncLoop|^minikubelet:' | head -n 3"
    assert len(lines) == 4
    assert all('"SyncLoop' in line or line.startswith("minikubelet:") for line in lines[1:])
    tail = body(run_directive(runner, COMMAND, tail=2))
    assert tail[0].endswith("| tail -n 2") and len(tail) == 3


def test_run_on_a_chinese_page_adds_and_shows_lang_zh(runner):
    lines = body(run_directive(runner, COMMAND, lang="zh", grep="^minikubelet:"))
    assert lines[0].startswith(f"$ {COMMAND} --lang zh |")
    assert any("共" in line or "变为" in line for line in lines[1:])


def test_run_is_cached_per_version_of_the_port(runner):
    run_directive(runner, COMMAND)
    cached = len(runner.cache)
    run_directive(runner, COMMAND, grep="SyncLoop")
    assert len(runner.cache) == cached


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("python -c 'print(1)'", "only minikubelet commands"),
        ("minikubelet run --until 1s", "exited with 2"),
        (COMMAND + " --no-such-flag", "exited with 2"),
    ],
)
def test_run_refuses_what_would_put_a_lie_on_the_page(runner, command, message):
    with pytest.raises(DirectiveError, match=message):
        run_directive(runner, command)


def test_run_refuses_an_empty_result(runner):
    with pytest.raises(DirectiveError, match="printed nothing"):
        run_directive(runner, COMMAND, grep="no line says this")


def test_fence_is_longer_than_any_backticks_inside():
    assert fence_for(["a ``` b"]) == "````"
    assert fence_for(["plain"]) == "```"


def test_pdb_breaks_on_the_first_statement_after_the_docstring():
    path, line = locate(ROOT, "minikubelet.kubelet.Kubelet.sync_loop_iteration")
    assert path == "minikubelet/kubelet.py"
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    kubelet = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Kubelet")
    fn = next(n for n in kubelet.body if getattr(n, "name", "") == "sync_loop_iteration")
    assert line == fn.body[1].lineno  # body[0] is the docstring
    lines = body(
        pdb_directive(
            ROOT, "walkthrough/ch03/example.py", "minikubelet.types.pod_update.is_mirror_pod"
        )
    )
    assert lines[0] == "$ PYTHONPATH=. python -m pdb walkthrough/ch03/example.py"
    assert lines[1].startswith("(Pdb) break minikubelet/types/pod_update.py:")
    assert lines[-1] == "(Pdb) continue"


def test_the_printed_pdb_recipe_works_as_printed(tmp_path):
    """The "Debug it" block of a chapter, typed as printed from the top of the repository."""
    target = "minikubelet.kubelet.Kubelet.sync_loop_iteration"
    lines = body(pdb_directive(ROOT, "walkthrough/ch03/example.py", target))
    command = lines[0].removeprefix("$ ").replace("python", sys.executable, 1)
    typed = [line.removeprefix("(Pdb) ") for line in lines[1:]] + ["where", "quit"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        ["bash", "-c", command],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "MINIKUBELET_LANG": "en"},
        timeout=120,
        check=False,
    )
    path, line = locate(ROOT, target)
    assert "not found from sys.path" not in done.stdout, done.stdout
    assert f"Breakpoint 1 at {ROOT / path}:{line}" in done.stdout, done.stdout
    assert f"{ROOT / path}({line})sync_loop_iteration()" in done.stdout, done.stdout


def test_pdb_names_what_it_cannot_find():
    with pytest.raises(DirectiveError, match="no module"):
        locate(ROOT, "nowhere.at.all")
    with pytest.raises(DirectiveError, match="not a function"):
        locate(ROOT, "minikubelet.kubelet.NoSuchThing")
