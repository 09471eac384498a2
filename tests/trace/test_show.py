"""``minikubelet trace show FILE``: a trace a learner can follow in the terminal, in both
languages, with filters; a bad file gets one line naming it and status 2, never a traceback."""

from __future__ import annotations

import copy
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from minikubelet.sim import cli, cli_trace
from minikubelet.sim.trace import dumps, replay
from minikubelet.sim.trace.schema import problem
from tests.conftest import ROOT

SCHEMA = json.loads((ROOT / "minikubelet/sim/trace/schema.json").read_text(encoding="utf-8"))
RUN = ["run", "--manifests", "examples/static-pods", "--until", "3s"]
NGINX, WEB = "default/nginx-minikubelet", "default/web-with-setup-minikubelet"
#: A line of the plain listing: time, then the other columns two spaces apart.
LINE = re.compile(r"^ *\d+\.\d{3}s  ")


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory) -> str:
    """A trace written as a user writes one: ``minikubelet run … --trace FILE``."""
    path = tmp_path_factory.mktemp("trace") / "t.json"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert cli.main(["--lang", "en", *RUN, "--trace", str(path)], out=io.StringIO()) == 0
    finally:
        os.chdir(cwd)
    return str(path)


def load(path: str) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def show(*args: str, lang: str = "en", out: io.StringIO | None = None) -> tuple[int, str]:
    out = out or io.StringIO()
    code = cli.main(["--lang", lang, "trace", "show", *args], out=out)
    return code, out.getvalue()


def steps(listing: str) -> list[str]:
    return [line for line in listing.splitlines() if LINE.match(line)]


def index(lines: list[str], *parts: str, start: int = 0) -> int:
    """The first line at or after ``start`` holding every part."""
    for i in range(start, len(lines)):
        if all(p in lines[i] for p in parts):
            return i
    raise AssertionError(f"no line with {parts} after line {start}:\n" + "\n".join(lines))


def test_the_listing_follows_a_pod_from_syncloop_add_to_its_containers(trace_file):
    code, listing = show(trace_file)
    assert code == 0
    head = listing.splitlines()[:3]
    assert (
        head[0] == "trace of: minikubelet --lang en run --manifests examples/static-pods --until 3s"
    )
    assert "not kubelet output" in head[2]
    lines = steps(listing)
    add = index(lines, "syncLoopIteration", 'log: "SyncLoop ADD" source="file"')
    assert re.match(r"^0\.100s  1 main ", lines[add])
    # syncLoop ADD → the pod worker gets the pod → syncPod → the runtime creates the container.
    work = index(lines, f"the pod worker of {NGINX} gets work", start=add)
    sync = index(lines, " podWorker", NGINX, "syncPod › ", start=work)
    worker = lines[sync].split()[1]
    sandbox = index(lines, "syncPod › SyncPod › createPodSandbox", "RunPodSandbox", start=sync)
    create = index(
        lines, "SyncPod › startContainer", f"CreateContainer nginx for {NGINX}", start=sandbox
    )
    start = index(lines, f"StartContainer nginx for {NGINX}", start=create)
    assert lines[create].split()[1:3] == [worker, "podWorker"]  # the pod's own goroutine
    # Later, the PLEG sees the container start and the sync loop takes its event.
    pleg = index(lines, "relist", f"it sends ContainerStarted {NGINX}", start=start)
    index(lines, "syncLoopIteration", f"plegCh is ready (ContainerStarted {NGINX})", start=pleg)
    assert listing.endswith(f"{len(lines)} of {len(load(trace_file)['steps'])} steps shown\n")


def test_the_listing_speaks_chinese(trace_file, monkeypatch):
    code, listing = show(trace_file, lang="zh")
    assert code == 0
    assert "这是 minikubelet 自己对这次运行的记录（不是 kubelet 的输出）" in listing
    assert f"容器运行时：为 {NGINX} 执行 CreateContainer nginx" in listing
    assert "select：只有 configCh 就绪，执行它" in listing
    assert "container runtime:" not in listing
    # Without --lang, the language comes from the environment, as for every command.
    monkeypatch.setenv("MINIKUBELET_LANG", "zh")
    out = io.StringIO()
    assert cli.main(["trace", "show", trace_file, "--kind", "cri"], out=out) == 0
    assert f"容器运行时：为 {NGINX} 执行 CreateContainer nginx" in out.getvalue()


def test_pod_filter_keeps_the_steps_about_that_pod(trace_file):
    code, listing = show(trace_file, "--pod", "web-with-setup-minikubelet")
    assert code == 0
    lines = steps(listing)
    assert lines and all(WEB in line for line in lines)
    assert not any(f"for {NGINX}" in line for line in lines)
    index(lines, f"CreateContainer fetch-content for {WEB}")
    # namespace/name works as well, and gives the same lines.
    assert show(trace_file, "--pod", WEB)[1] == listing


def test_a_pod_the_trace_does_not_have_is_refused_with_the_pods_it_has(trace_file, capsys):
    code, listing = show(trace_file, "--pod", "nope")
    assert (code, listing) == (2, "")
    assert capsys.readouterr().err == (
        f"minikubelet: --pod nope: the trace has no such pod; its pods: {NGINX}, {WEB}\n"
    )


def test_kind_and_time_filters(trace_file):
    trace = load(trace_file)
    cri = [s for s in trace["steps"] if s["k"] == "cri"]
    code, listing = show(trace_file, "--kind", "cri")
    lines = steps(listing)
    assert len(lines) == len(cri) > 0
    assert all("container runtime: " in line for line in lines)
    # Kinds combine, by comma or by repeating the flag.
    both = steps(show(trace_file, "--kind", "cri,worker")[1])
    assert both == steps(show(trace_file, "--kind", "cri", "--kind", "worker")[1])
    assert any("the pod worker of" in line for line in both) and len(both) > len(lines)
    # close and exit are left out unless asked for.
    closing = re.compile(r"  close killContainersWithSyncResult\.containerResults$", re.M)
    assert not closing.search(show(trace_file)[1])
    assert closing.search(show(trace_file, "--kind", "all")[1])
    early = steps(show(trace_file, "--since", "100ms", "--until", "500ms")[1])
    times = [float(line.split("s", 1)[0]) for line in early]
    assert early and min(times) >= 0.1 and max(times) <= 0.5
    assert "SyncLoop ADD" in "\n".join(early)
    code, listing = show(trace_file, "--until", "1ms", "--kind", "cri")
    assert code == 0 and listing.endswith(
        f"no step of the {len(trace['steps'])} matches the filters\n"
    )


def test_an_unknown_kind_is_an_argument_error(trace_file, capsys):
    with pytest.raises(SystemExit) as exc:
        show(trace_file, "--kind", "cri,bogus")
    assert exc.value.code == 2
    assert (
        "'cri,bogus': no such kind of step; the kinds are select, wait" in capsys.readouterr().err
    )


def test_on_a_terminal_the_listing_is_coloured(trace_file, monkeypatch):
    pytest.importorskip("rich")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for columns in ("100", "240"):  # two lines a step, or one row a step
        monkeypatch.setenv("COLUMNS", columns)
        code, listing = show(trace_file, "--kind", "cri", out=Terminal())
        assert code == 0
        assert "\x1b[" in listing
        plain = re.sub(r"\x1b\[[0-9;]*m", "", listing)
        assert f"container runtime: CreateContainer nginx for {NGINX}" in plain
        assert "SyncPod › startContainer › " in plain


def test_the_cli_knows_the_kinds_without_loading_the_port():
    assert cli_trace.step_kinds() == replay.KINDS
    assert cli_trace.HIDDEN_KINDS == replay.HIDDEN


def test_python_dash_m_minikubelet_runs_the_cli():
    done = subprocess.run(
        [sys.executable, "-m", "minikubelet", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("minikubelet ")


# -- bad files -------------------------------------------------------------------------------


def _corrupt_middle(text: str) -> str:
    # Between two elements of an array, past the middle: never inside a string, where the
    # garbage would still be valid JSON.
    at = text.index("},{", len(text) // 2) + 1
    return text[:at] + "}}garbage{{" + text[at:]


def _newer(text: str) -> str:
    trace = json.loads(text)
    trace["version"] = 3
    return json.dumps(trace)


def _bad_step(text: str) -> str:
    trace = json.loads(text)
    trace["steps"][3]["t"] = -1
    return dumps(trace)


def _dangling(text: str) -> str:
    trace = json.loads(text)
    trace["steps"][0]["at"] = [len(trace["locations"])]
    return dumps(trace)


BAD = {
    "not a trace": (
        lambda _: '{"pods": []}',
        'is JSON but not a minikubelet trace (no "format": "minikubelet-trace"); write one '
        "with minikubelet run … --trace FILE",
    ),
    "a list": (lambda _: "[1, 2]", 'is JSON but not a minikubelet trace (no "format"'),
    "cut off": (
        lambda text: text[: len(text) * 2 // 3],
        "ends before the trace does: the file is cut off",
    ),
    "damaged": (_corrupt_middle, "is not valid JSON (line "),
    "empty": (lambda _: "", "is empty"),
    "binary": (lambda _: "\udcff", "is not text (not UTF-8 at byte 0), so not a trace"),
    "newer": (
        _newer,
        "is a trace of format version 3, newer than this minikubelet reads (version 2)",
    ),
    "breaks the schema": (_bad_step, "is not a well-formed trace: steps[3].t is -1, below 0"),
    "dangling": (_dangling, "is not a well-formed trace: steps[0].at names location"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_file_is_one_line_naming_it_and_status_2(trace_file, tmp_path, capsys, case):
    make, says = BAD[case]
    text = Path(trace_file).read_text(encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_bytes(make(text).encode("utf-8", "surrogateescape"))
    code, listing = show(str(bad))
    err = capsys.readouterr().err
    assert (code, listing) == (2, "")
    assert err.startswith(f"minikubelet: {bad}: {says}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_files_in_chinese(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert show(str(bad), lang="zh") == (2, "")
    assert capsys.readouterr().err.startswith(
        f"minikubelet: {bad}：是 JSON，但不是 minikubelet 的 trace"
    )


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo"])
def test_a_path_that_is_no_file_is_refused_without_waiting(tmp_path, kind):
    path = tmp_path / "t.json"
    says = {
        "missing": "cannot read: No such file or directory",
        "directory": "is a directory, not a trace file",
        "fifo": "is a FIFO (named pipe), not a trace file",
    }[kind]
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    # A child process with a time limit: a reader that opened the FIFO would wait forever.
    done = subprocess.run(
        [sys.executable, "-m", "minikubelet", "--lang", "en", "trace", "show", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == f"minikubelet: {path}: {says}\n"
    assert done.stdout == ""


# -- the schema check agrees with jsonschema -----------------------------------------------


def _mutations(trace: dict) -> list[tuple[str, dict]]:
    out = []

    def mutate(name, change):
        t = copy.deepcopy(trace)
        change(t)
        out.append((name, t))

    mutate("format", lambda t: t.update(format="other"))
    mutate("extra field", lambda t: t.update(extra=1))
    mutate("missing steps", lambda t: t.pop("steps"))
    mutate("clock", lambda t: t.update(clock="wall"))
    mutate("seed type", lambda t: t.update(seed="0"))
    mutate("kind", lambda t: t["steps"][0].update(k="teleport"))
    mutate("t type", lambda t: t["steps"][0].update(t=1.5))
    mutate("g bool", lambda t: t["steps"][0].update(g=True))
    mutate("at too long", lambda t: t["steps"][0].update(at=[0] * 7))
    select = next(s for s in trace["steps"] if s["k"] == "select")
    i = trace["steps"].index(select)
    mutate("select chosen", lambda t: t["steps"][i].pop("chosen"))
    mutate("select case kind", lambda t: t["steps"][i]["cases"][0].__setitem__(0, "x"))
    mutate("case extra item", lambda t: t["steps"][i]["cases"][0].append(1))
    status = next(s for s in trace["steps"] if s["k"] == "status")
    j = trace["steps"].index(status)
    mutate("container state", lambda t: t["steps"][j]["containers"][0].__setitem__(1, "zombie"))
    mutate("location path", lambda t: t["locations"][0].update(py="elsewhere.py"))
    mutate("go line", lambda t: t["locations"][0]["go"].update(line=0))
    mutate("xref tag", lambda t: t["xref"].update(tag="v1.22.0"))
    return out


def test_the_schema_check_agrees_with_jsonschema(trace_file):
    trace = load(trace_file)
    jsonschema.validate(trace, SCHEMA)
    assert problem(trace) is None
    assert "go" in trace["locations"][0]  # the mutation of a Go line has something to mutate
    for name, bad in _mutations(trace):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)
        assert problem(bad) is not None, name


# -- what the pages print ------------------------------------------------------------------


@pytest.mark.parametrize("page", ["how-to-use.md", "how-to-use.zh.md"])
def test_the_commands_the_how_to_page_prints_run_as_printed(tmp_path, page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text[text.index("--trace FILE") :]
    block = section[
        section.index("```bash\n") + 8 : section.index("\n```", section.index("```bash"))
    ]
    commands = block.splitlines()
    assert [c.split()[1] for c in commands] == ["run", "trace"]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    outputs = []
    for command in commands:
        argv = command.split()
        assert argv[0] == "minikubelet"
        done = subprocess.run(
            [sys.executable, "-m", "minikubelet", *argv[1:]],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "MINIKUBELET_LANG": "en"},
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    lines = steps(outputs[-1])
    create = index(lines, f"CreateContainer nginx for {NGINX}")
    assert index(lines, 'log: "SyncLoop ADD"') < create
    assert not any(WEB in line and NGINX not in line for line in lines)  # --pod kept one pod


def test_every_player_gives_trace_show_flags_the_cli_takes():
    from tools.site.directives import find
    from tools.site.trace import terminal

    parser = cli.build_parser("en")
    seen = 0
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for d in find(page.read_text(encoding="utf-8")):
            if d.name != "trace":
                continue
            run, show_ = terminal(d.args[0], d)
            assert run == f"{d.args[0]} --trace trace.json"
            args = parser.parse_args(show_.split()[1:])
            assert (args.command, args.trace_command, args.file) == ("trace", "show", "trace.json")
            if "kinds" in d.kwargs:
                assert [k for ks in args.kind for k in ks] == d.kwargs["kinds"]
            if "end" in d.kwargs:
                assert args.until is not None
            seen += 1
    assert seen >= 10
