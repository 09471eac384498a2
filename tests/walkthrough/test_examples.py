"""The chapter examples: deterministic, debugger-ready, and a scripted pdb session through them."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from minikubelet.kubelet import Kubelet
from minikubelet.sim.scripted_watch import load_script_file
from walkthrough import vscode
from walkthrough.catalog import PACKAGE_DIR, discover
from walkthrough.examples import first_statement_line
from walkthrough.vscode import LAUNCH_JSON, launch_json

ROOT = PACKAGE_DIR.parent
#: The chapters that have an example, with the lines each prints (their chapter.yaml says).
SHOWS = {c.slug: c.shows for c in discover() if c.example is not None}
CHAPTERS = list(SHOWS)


def example(chapter: str):
    return importlib.import_module(f"walkthrough.{chapter}.example")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_example_runs_the_same_every_time(chapter: str, capsys) -> None:
    outputs = []
    for _ in range(2):
        assert example(chapter).main(["--seed", "1", "--lang", "en"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    for text in SHOWS[chapter]:
        assert text in outputs[0], text


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_example_names_its_breakpoints(chapter: str, capsys) -> None:
    module = example(chapter)
    assert len(module.SPOTS) >= 3
    assert example(chapter).main(["--breakpoints", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    for spot in module.SPOTS:
        file, line = spot.location()
        assert f"break {file}:{line}\n" in out
        text = Path(file).read_text().splitlines()[line - 1]
        if spot.anchor is not None:
            assert spot.anchor in text
        assert spot.zh in out
    source = Path(module.__file__).read_text()
    assert "# BREAKPOINT:" in source


@pytest.mark.parametrize("until", ["banana", "0s"])
def test_an_example_refuses_a_bad_duration_without_a_traceback(until: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        example("ch05").main(["--until", until, "--lang", "en"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "python walkthrough/ch05/example.py: error: argument --until: " in err
    assert "Traceback" not in err


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_an_examples_help_speaks_chinese_to_a_chinese_reader(chapter: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        example(chapter).main(["--help", "--lang", "zh"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    number = int(chapter.removeprefix("ch"))
    title = yaml.safe_load((PACKAGE_DIR / chapter / "chapter.yaml").read_text())["title"]["zh"]
    assert f"第 {number} 章示例：{title}" in out
    assert out.startswith("用法：")
    assert "seed of every" not in out and "show this help" not in out


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_an_examples_pods_are_not_inside_it(chapter: str) -> None:
    # The API server's script is a file (walkthrough/chNN/pods/, or examples/ when the page runs
    # the same one), never YAML inside the example.
    source = Path(example(chapter).__file__).read_text()
    assert not re.search(r"^\s*-?\s*type: (ADDED|MODIFIED|DELETED)\b", source, re.MULTILINE)


def test_each_pod_script_names_itself_in_its_command_line() -> None:
    scripts = sorted(PACKAGE_DIR.glob("ch[0-9][0-9]/pods/*.yaml"))
    assert len(scripts) >= 10
    for script in scripts:
        relative = script.relative_to(ROOT).as_posix()
        assert f"minikubelet run --api-script {relative}\n" in script.read_text(), relative
        assert load_script_file(str(script)), relative


def test_the_first_statement_skips_the_docstring() -> None:
    line = first_statement_line(Kubelet.sync_loop_iteration)
    text = Path(inspect.getsourcefile(Kubelet.sync_loop_iteration) or "").read_text()
    assert text.splitlines()[line - 1].strip().startswith("match await select(")


def test_vscode_has_one_configuration_per_chapter() -> None:
    raw = (ROOT / ".vscode" / "launch.json").read_text()
    assert raw == launch_json(discover()), "stale: run python -m walkthrough.vscode"
    config = json.loads(re.sub(r"^\s*//.*$", "", raw, flags=re.MULTILINE))
    configurations = [c for c in config["configurations"] if "program" in c]
    assert len(configurations) == len(CHAPTERS) >= 11
    checks = [c for c in config["configurations"] if c.get("module") == "walkthrough"]
    assert [c["args"] for c in checks] == [["check"]] and checks[0]["subProcess"] is True
    for chapter, c in zip(CHAPTERS, configurations, strict=True):
        assert c["type"] == "debugpy" and c["request"] == "launch" and c["justMyCode"] is True
        assert c["program"] == f"${{workspaceFolder}}/walkthrough/{chapter}/example.py"
        assert (ROOT / "walkthrough" / chapter / "example.py").is_file()
        assert c["name"].startswith(chapter)


def test_the_launch_check_fails_on_a_stale_file(tmp_path, monkeypatch, capsys) -> None:
    stale = tmp_path / "launch.json"
    stale.write_text(LAUNCH_JSON.read_text().replace("ch02", "ch22"))
    monkeypatch.setattr(vscode, "LAUNCH_JSON", stale)
    assert vscode.main(["--check"]) == 1
    assert "run python -m walkthrough.vscode" in capsys.readouterr().err
    assert vscode.main([]) == 0
    assert stale.read_text() == LAUNCH_JSON.read_text()
    assert vscode.main(["--check"]) == 0


def _line_of(fn, predicate) -> int:
    """The line in ``fn``'s file of the first node of ``fn`` that ``predicate`` accepts."""
    lines, start = inspect.getsourcelines(fn)
    for node in ast.walk(ast.parse(textwrap.dedent("".join(lines)))):
        if predicate(node):
            return start + node.lineno - 1
    raise LookupError(fn)


def _pdb(script: str, commands: list[str], *args: str) -> str:
    env = {
        **os.environ,
        # pdb puts the script's folder first on sys.path: the repository makes
        # "break minikubelet/kubelet.py:N" resolve, as from a checkout.
        "PYTHONPATH": str(ROOT),
        "MINIKUBELET_LANG": "en",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pdb", script, *args],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    return done.stdout


def test_a_scripted_pdb_session_steps_from_the_loop_into_handle_pod_additions() -> None:
    select_line = first_statement_line(Kubelet.sync_loop_iteration)
    add_line = _line_of(
        Kubelet.sync_loop_iteration,
        lambda n: (
            isinstance(n, ast.Await)
            and isinstance(n.value, ast.Call)
            and getattr(n.value.func, "attr", "") == "handle_pod_additions"
        ),
    )
    first_line = first_statement_line(Kubelet.handle_pod_additions)
    out = _pdb(
        "walkthrough/ch03/example.py",
        [
            f"break minikubelet/kubelet.py:{select_line}",
            "continue",
            "disable 1",
            f"break minikubelet/kubelet.py:{add_line}",
            "continue",
            "p u.op.name",
            "step",
            "step",
            "p pods[0].metadata.name",
            "quit",
        ],
        "--until",
        "3s",
    )
    kubelet = str(ROOT / "minikubelet" / "kubelet.py")
    stops = re.findall(r"^(?:\(Pdb\) )?> (.+?)\((\d+)\)(<?\w+>?)\(\)$", out, flags=re.MULTILINE)
    # pdb stops first on the example's first line, then where the session took it.
    assert stops[0] == (str(ROOT / "walkthrough" / "ch03" / "example.py"), "1", "<module>")
    assert stops[1:] == [
        (kubelet, str(select_line), "sync_loop_iteration"),
        (kubelet, str(add_line), "sync_loop_iteration"),
        (
            kubelet,
            str(inspect.getsourcelines(Kubelet.handle_pod_additions)[1]),
            "handle_pod_additions",
        ),
        (kubelet, str(first_line), "handle_pod_additions"),
    ], out
    assert "-> match await select(" in out
    assert "-> await handler.handle_pod_additions(u.pods)" in out
    assert "(Pdb) 'ADD'" in out
    assert "--Call--" in out
    assert "(Pdb) 'web'" in out


def test_an_example_stops_at_a_named_spot() -> None:
    done = subprocess.run(
        [sys.executable, "walkthrough/ch04/example.py", "--break", "reject", "-v", "0"],
        input="p pod.metadata.name, reason\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MINIKUBELET_LANG": "en"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^> .+kubelet\.py\(\d+\)reject_pod\(\)$", done.stdout, flags=re.MULTILINE)
    assert "('late', 'OutOfpods')" in done.stdout


def test_quit_in_a_pod_worker_ends_the_run() -> None:
    done = subprocess.run(
        [sys.executable, "walkthrough/ch04/example.py", "--break", "sync-pod", "--until", "10s"],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MINIKUBELET_LANG": "en"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^> .+kubelet\.py\(\d+\)sync_pod\(\)$", done.stdout, flags=re.MULTILINE)
    assert "Error syncing pod" not in done.stdout  # not swallowed as a failed sync
    assert "SyncLoop" not in done.stdout.split("(Pdb)")[-1]  # the loop did not go on
    assert "after 10s" not in done.stdout


def test_stepping_over_the_select_lands_in_the_chosen_case() -> None:
    """What the select spot says: seven recv() arguments, the match, then the case that ran."""
    done = subprocess.run(
        [sys.executable, "walkthrough/ch03/example.py", "--break", "select", "--until", "3s"],
        input="next\n" * 9 + "quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MINIKUBELET_LANG": "en"},
        timeout=120,
        check=False,
    )
    steps = [line for line in done.stdout.splitlines() if line.startswith("-> ")]
    assert [s.strip() for s in steps[1:8]] == [
        f"-> recv({channel})," for channel in ("config_ch", "pleg_ch", "sync_ch")
    ] + [
        f"-> recv(self.{probe}_manager.updates()),"
        for probe in ("liveness", "readiness", "startup")
    ] + ["-> recv(housekeeping_ch),"]
    assert steps[9].startswith("-> case ")


@pytest.mark.parametrize("page", ["debugging.md", "debugging.zh.md"])
def test_the_debugging_page_names_every_spot(page: str) -> None:
    from tools.site.recipes import spots_table

    text = (ROOT / "docs" / page).read_text()
    assert "{{ spots() }}" in text  # the table is made from the examples' SPOTS
    table = spots_table("zh" if page.endswith(".zh.md") else "en")
    for chapter in CHAPTERS:
        for spot in example(chapter).SPOTS:
            assert f"| `{spot.name}` |" in table, (page, spot.name)


@pytest.mark.parametrize(("args", "first"), [("--breakpoints", "# "), ("", "I0715 ")])
def test_an_example_into_a_closed_pipe_says_nothing(args: str, first: str) -> None:
    # `--breakpoints | head -1` is how a reader takes the first spot, `example.py | head` a
    # look at the start of a run: no BrokenPipeError, no traceback.
    done = subprocess.run(
        f"{sys.executable} walkthrough/ch03/example.py {args} --lang en | head -1",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.stdout.startswith(first) and done.stderr == ""
