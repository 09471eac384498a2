"""What the chapter examples share: named breakpoint spots, a kubelet run, their command line.

Every ``walkthrough/chNN/example.py`` runs one deterministic scenario (a seed, the virtual clock)
and names good places to stop in the port as :class:`Spot`\\ s. Line numbers are computed from
the source each time, never written down, so they stay right when the port changes::

    python walkthrough/ch03/example.py --breakpoints   # the spots, as pdb "break" commands
    python walkthrough/ch03/example.py --break select  # run, stop in pdb at that spot
    python -m pdb walkthrough/ch03/example.py          # or drive pdb yourself
"""

from __future__ import annotations

import argparse
import ast
import bdb
import contextlib
import importlib
import inspect
import pdb
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.base.i18n import language_of, text
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.go.duration import parse_duration
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet, make_pod_source_config, new_main_kubelet
from minikubelet.sim.argparse_messages import speak
from minikubelet.sim.cli import duration_arg
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.dependencies import new_dependencies
from minikubelet.sim.phase_reporter import PhaseReporter
from minikubelet.sim.scripted_watch import load_script, load_script_file, start_scripted_cluster
from walkthrough.catalog import CatalogError, chapter_title
from walkthrough.text import reader_has_gone


@dataclass(frozen=True)
class Spot:
    """A good place to stop: a line of a port function, and what to look at there."""

    name: str
    #: ``module:Qualified.name`` of the function.
    target: str
    #: Text of the line to stop at (its first line in the function containing it); None: the
    #: function's first statement.
    anchor: str | None
    en: str
    zh: str

    def function(self) -> Any:
        module_name, _, qualname = self.target.partition(":")
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
        return obj

    def location(self) -> tuple[str, int]:
        """The absolute file and the line number of the spot, read from the source now."""
        fn = self.function()
        file = inspect.getsourcefile(fn)
        lines, start = inspect.getsourcelines(fn)
        assert file is not None
        if self.anchor is None:
            return file, first_statement_line(fn)
        for offset, line in enumerate(lines):
            if self.anchor in line:
                return file, start + offset
        raise LookupError(f"{self.target}: no line contains {self.anchor!r}")


def first_statement_line(fn: Any) -> int:
    """The line of the first statement of ``fn``'s body, its docstring left out."""
    lines, start = inspect.getsourcelines(fn)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    body = node.body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return start + body[0].lineno - 1


def relative(file: str) -> str:
    """``file`` relative to the current folder when it is below it."""
    path = Path(file)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def print_spots(spots: list[Spot], lang: str, out: TextIO) -> None:
    """The spots as pdb commands, with what to look at (for ``--breakpoints``)."""
    out.write(
        text(
            "# Good places to stop, as pdb commands (python -m pdb … then paste one):\n",
            "# 适合停下来的地方，写成 pdb 命令（python -m pdb … 之后粘贴其中一条）：\n",
            lang,
        )
    )
    for spot in spots:
        file, line = spot.location()
        out.write(f"break {file}:{line}\n")
        out.write(f"#   {spot.name} ({relative(file)}:{line}): {text(spot.en, spot.zh, lang)}\n")


class QuitRun(BaseException):
    """The learner typed ``quit``: the run ends, wherever the debugger stopped.

    pdb raises ``bdb.BdbQuit``, an ``Exception``: in a pod worker the port catches it, as kubelet
    catches a failed sync ("Error syncing pod, skipping"), and the run would go on without the
    debugger. A ``BaseException`` is caught by no port code; the runtime ends the run with it.
    """


class _StopAtBreakpoints(pdb.Pdb):
    """A pdb that starts running at once, first stops at a breakpoint, and ends the run on quit."""

    def __init__(self) -> None:
        super().__init__()
        self._started = False

    def trace_dispatch(self, frame: Any, event: str, arg: Any) -> Any:
        try:
            return super().trace_dispatch(frame, event, arg)
        except bdb.BdbQuit:
            raise QuitRun from None

    def interaction(self, frame: Any, traceback: Any) -> None:
        if not self._started:  # the stop that set_trace asks for: go on, silently
            self._started = True
            self.set_continue()
            return
        super().interaction(frame, traceback)


def run_under_pdb(run: Callable[[], Any], spot: Spot) -> Any:
    """Run ``run()`` with pdb watching, and stop at ``spot`` (then it is yours)."""
    file, line = spot.location()
    debugger = _StopAtBreakpoints()
    error = debugger.set_break(file, line)
    if error:
        raise RuntimeError(error)
    debugger.set_trace(sys._getframe())
    try:
        return run()
    except (bdb.BdbQuit, QuitRun):  # the learner typed "quit"
        return None
    finally:
        debugger.set_continue()
        sys.settrace(None)


def run_kubelet(
    script: str | Path,
    *,
    seed: int,
    until: float,
    scenario: dict[str, Any] | None = None,
    max_pods: int = 110,
    cpu: str = "4",
    memory: str = "8Gi",
    out: TextIO | None = None,
    lang: str = "en",
    setup: Callable[[Kubelet], None] | None = None,
) -> Kubelet | None:
    """Run the port's kubelet on the fake runtime, pods from a scripted API server.

    ``script`` is the API server's script: a file (``walkthrough/chNN/pods/example.yaml``, the
    ``--api-script`` format of ``minikubelet run``) or, in a check, its YAML text.

    ``setup(kl)``, if given, is called with the new kubelet before it runs (an example uses it to
    watch a part of it).
    """
    out = out if out is not None else sys.stdout
    recorder = Recorder()
    runtime = new_fake_runtime(scenario=scenario, seed=seed, recorder=recorder)
    machine = MachineInfo(cpu=Quantity.parse(cpu), memory=Quantity.parse(memory))
    cfg = KubeletConfiguration(max_pods=max_pods)
    reporter = PhaseReporter(out, lang)
    holder: dict[str, Kubelet] = {}

    async def kubelet_main() -> None:
        events = (
            load_script_file(str(script))
            if isinstance(script, Path)
            else load_script(script, "example")
        )
        kube_client = start_scripted_cluster(events, "example", "node-1")
        pod_cfg = make_pod_source_config(cfg, recorder, "node-1", lambda: True, kube_client)
        kl = new_main_kubelet(
            cfg,
            new_dependencies(runtime, machine, pod_cfg, kube_client),
            hostname="node-1",
            node_name="node-1",
            machine_info=machine,
        )
        kl.start_garbage_collection()  # as kubelet's main does, before Run
        kl.status_manager.on_status_change = reporter.on_status_change
        reporter.kubelet = kl
        holder["kl"] = kl
        if setup is not None:
            setup(kl)
        await kl.run(pod_cfg.updates())

    go.run(kubelet_main, seed=seed, until=until)
    reporter.summary(until)
    return holder.get("kl")


def example_main(
    doc: str,
    spots: list[Spot],
    run: Callable[[argparse.Namespace, str], Any],
    argv: list[str] | None = None,
    *,
    until: str = "10s",
) -> int:
    """The command line every example shares; ``run(args, lang)`` runs the scenario."""
    argv = sys.argv[1:] if argv is None else argv
    lang = language_of(argv)

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    folder = Path(inspect.getfile(run)).parent
    description = doc.splitlines()[0]
    if lang == "zh":
        # The docstring is English; a Chinese reader gets the chapter's Chinese title.
        with contextlib.suppress(CatalogError):
            number = folder.name.removeprefix("ch").lstrip("0")
            description = f"第 {number} 章示例：{chapter_title(folder)['zh']}"
    speak(lang)
    parser = argparse.ArgumentParser(
        prog=f"python walkthrough/{folder.name}/example.py",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--lang", choices=["en", "zh"], help=t("language of the output", "输出语言")
    )
    parser.add_argument(
        "--seed", type=int, default=1, help=t("seed of every random choice", "所有随机选择的种子")
    )
    parser.add_argument(
        "--until",
        type=duration_arg(lang),
        default=parse_duration(until),
        help=t(f"virtual time to run (default {until})", f"运行的虚拟时长（默认 {until}）"),
    )
    parser.add_argument(
        "-v", dest="verbosity", type=int, default=2, help=t("klog verbosity", "klog 日志级别")
    )
    parser.add_argument(
        "--breakpoints",
        action="store_true",
        help=t("print the good places to stop and exit", "列出值得停下来的位置后退出"),
    )
    parser.add_argument(
        "--break",
        dest="stop_at",
        choices=[s.name for s in spots],
        help=t("run under pdb, stopped at this spot", "在 pdb 中运行，停在这个位置"),
    )
    args = parser.parse_args(argv)
    if args.breakpoints:
        try:
            print_spots(spots, lang, sys.stdout)
            sys.stdout.flush()
        except OSError as err:  # `--breakpoints | head`
            if not reader_has_gone(err):
                raise
        return 0
    klog.configure(verbosity=args.verbosity, out=sys.stdout)
    try:
        if args.stop_at:
            spot = next(s for s in spots if s.name == args.stop_at)
            run_under_pdb(lambda: run(args, lang), spot)
        else:
            run(args, lang)
    except OSError as err:  # `example.py | head`: the reader has what it wanted
        if not reader_has_gone(err):
            raise
    finally:
        klog.configure(verbosity=0, out=None)
    return 0
