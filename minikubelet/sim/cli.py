"""The ``minikubelet`` command line: ``minikubelet run`` starts the port's kubelet.

``run`` wires the pieces as kubelet's ``NewMainKubelet`` and ``makePodSourceConfig`` do, runs
``Kubelet.Run`` (the sync loop) under the chosen clock until ``--until``, and prints the log in
klog's format. Lines starting with ``minikubelet:`` are ours, not kubelet's: the phase changes
of each pod's status, and a summary at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
from typing import Any, TextIO

from minikubelet import KUBERNETES_VERSION, __version__
from minikubelet.sim.i18n import in_language, language, text

# `--version` and `--help` import nothing more than the lines above: the port (and asyncio
# under it) is imported by `run` only, so that they answer at once.


def duration_arg(value: str) -> float:
    """An argparse type for Go durations (``30s``, ``2m``)."""
    from minikubelet.sim.go.duration import parse_duration

    try:
        seconds = parse_duration(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive duration")
    return seconds


def build_parser(lang: str) -> argparse.ArgumentParser:
    """The argument parser, with its help written in ``lang``."""

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    parser = argparse.ArgumentParser(
        prog="minikubelet",
        description=t(
            f"A runnable Python port of kubelet's pod-creation path, as in Kubernetes "
            f"{KUBERNETES_VERSION}.",
            f"kubelet 创建 Pod 这条路径的 Python 移植，可以直接运行，对应 Kubernetes "
            f"{KUBERNETES_VERSION}。",
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"minikubelet {__version__} (Kubernetes {KUBERNETES_VERSION})",
        help=t("print the version and exit", "显示版本后退出"),
    )
    lang_help = t(
        "language of messages (default: from MINIKUBELET_LANG or the locale)",
        "输出语言（默认读取 MINIKUBELET_LANG 或系统 locale）",
    )
    parser.add_argument("--lang", choices=["en", "zh"], help=lang_help)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help=t(
            "run kubelet's sync loop on a fake runtime", "在模拟的容器运行时上运行 kubelet 主循环"
        ),
        description=t(
            "Run the port's kubelet: pods from the given sources go through syncLoop, the pod "
            "workers and the runtime's SyncPod, on a fake container runtime.",
            "运行移植版 kubelet：来自各个配置源的 Pod 依次经过 syncLoop、pod worker 和运行时的 "
            "SyncPod，容器运行时是模拟的。",
        ),
    )
    run.add_argument("--lang", choices=["en", "zh"], help=lang_help)
    run.add_argument(
        "--manifests",
        metavar="DIR",
        help=t(
            "directory of static pod manifests (kubelet's --pod-manifest-path)",
            "静态 Pod 清单所在目录（即 kubelet 的 --pod-manifest-path）",
        ),
    )
    run.add_argument(
        "--manifest-url",
        metavar="URL",
        help=t(
            "URL to poll for pods (kubelet's --manifest-url)",
            "轮询获取 Pod 的 URL（即 kubelet 的 --manifest-url）",
        ),
    )
    run.add_argument(
        "--api-script",
        metavar="FILE",
        help=t(
            "a scripted watch of pods standing in for the API server (YAML or JSON lines)",
            "代替 API Server 的 Pod watch 事件脚本（YAML 或 JSON lines）",
        ),
    )
    run.add_argument(
        "--scenario",
        metavar="FILE",
        help=t(
            "how the fake runtime behaves: container lifetimes, image pulls, runtime outages",
            "模拟运行时的行为：容器运行多久、镜像拉取、运行时故障",
        ),
    )
    run.add_argument("--node-name", default="minikubelet", help=t("the node's name", "节点名称"))
    run.add_argument(
        "--node-cpu", default="4", help=t("the node's allocatable CPU", "节点可分配的 CPU")
    )
    run.add_argument(
        "--node-memory", default="8Gi", help=t("the node's allocatable memory", "节点可分配的内存")
    )
    run.add_argument(
        "--max-pods",
        type=int,
        default=110,
        help=t("the most pods the node admits", "节点最多接纳的 Pod 数"),
    )
    run.add_argument(
        "--seed", type=int, default=0, help=t("seed of every random choice", "所有随机选择的种子")
    )
    run.add_argument(
        "--until",
        type=duration_arg,
        default=30.0,
        metavar="DURATION",
        help=t(
            "stop after this long, e.g. 30s or 2m (default 30s)",
            "运行多久后停止，例如 30s 或 2m（默认 30s）",
        ),
    )
    run.add_argument(
        "--clock",
        choices=["virtual", "real"],
        default="virtual",
        help=t(
            "virtual: time jumps ahead, runs repeat exactly (default); real: wall-clock time",
            "virtual：时间直接跳到下一个事件，每次运行完全相同（默认）；real：真实时间",
        ),
    )
    run.add_argument(
        "--trace",
        metavar="FILE",
        help=t(
            "record every step of the run (selects, channels, pod workers, runtime calls) to "
            "FILE as JSON, with the Go line of each step",
            "把这次运行的每一步（select、通道、pod worker、运行时调用）连同对应的 Go 代码行，"
            "以 JSON 格式记录到 FILE",
        ),
    )
    run.add_argument(
        "-v",
        "--v",
        dest="verbosity",
        type=int,
        default=2,
        help=t(
            "log verbosity, as kubelet's -v (default 2)", "日志详细程度，同 kubelet 的 -v（默认 2）"
        ),
    )
    return parser


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of the ``minikubelet`` console script; Ctrl+C ends it with status 130."""
    try:
        return _main(argv, out)
    except KeyboardInterrupt:
        return 130


def _main(argv: list[str] | None, out: TextIO | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = out if out is not None else sys.stdout
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", choices=["en", "zh"])
    known, _ = pre.parse_known_args(argv)
    lang = language(known.lang)
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    args.argv = argv
    if args.command == "run":
        return run(args, lang, out, parser)
    parser.print_help(out)
    return 0


def _node_problem(args: argparse.Namespace, lang: str) -> str | None:
    """What is wrong with the node's flags, if anything; ``--node-name`` is normalised as
    kubelet normalises its host name (trimmed, lowercase)."""
    from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity, QuantityError
    from minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation import (
        dns1123_subdomain_problem,
    )

    if args.max_pods > 2**31 - 1:
        # The flag is an int32 in kubelet; these are pflag's words for a value that overflows it.
        value = args.max_pods
        return (
            f'invalid argument "{value}" for "--max-pods" flag: strconv.ParseInt: '
            f'parsing "{value}": value out of range'
        )
    if args.max_pods < 0:
        # kubelet's own words (pkg/kubelet/apis/config/validation), which a reader can grep.
        return f"invalid configuration: maxPods (--max-pods) {args.max_pods} must not be a negative number"
    name = args.node_name.strip().lower()
    if not name:
        return "--node-name: empty hostname is invalid"  # kubelet's words (GetHostname)
    if reason := dns1123_subdomain_problem(name):
        return text(
            f"--node-name: {args.node_name!r} is not a valid node name: {reason}",
            f"--node-name：{args.node_name!r} 不是合法的节点名称：{reason.zh}",
            lang,
        )
    args.node_name = name
    for flag, value in (("--node-cpu", args.node_cpu), ("--node-memory", args.node_memory)):
        try:
            quantity = Quantity.parse(value)
        except QuantityError as err:
            return text(f"{flag}: {err}", f"{flag}：{in_language(err, 'zh')}", lang)
        if quantity.sign() < 0:
            return text(f"{flag}: {value!r} is negative", f"{flag}：{value!r} 是负数", lang)
    return None


def run(args: argparse.Namespace, lang: str, out: TextIO, parser: argparse.ArgumentParser) -> int:
    """``minikubelet run``: check every input first, then run kubelet until ``--until``."""
    from minikubelet.apis.config.types import KubeletConfiguration
    from minikubelet.k8s_io.client_go.tools.record.event import Recorder
    from minikubelet.kubelet import make_pod_source_config, new_main_kubelet
    from minikubelet.kuberuntime.fake_kuberuntime_manager import new_fake_runtime
    from minikubelet.sim import go, klog, trace
    from minikubelet.sim.cri.scenario import ScenarioError
    from minikubelet.sim.node import new_node
    from minikubelet.sim.phase_reporter import PhaseReporter
    from minikubelet.sim.scripted_watch import ScriptError, load_script_file

    if not (args.manifests or args.manifest_url or args.api_script):
        parser.error(
            text(
                "give at least one pod source: --manifests, --manifest-url or --api-script",
                "请至少指定一个 Pod 来源：--manifests、--manifest-url 或 --api-script",
                lang,
            )
        )
    # Bad input is refused before anything runs: nothing is left half-done.
    problem = _node_problem(args, lang)
    if problem:
        print(f"minikubelet: {problem}", file=sys.stderr)
        return 2
    try:
        api_script = (
            (load_script_file(args.api_script), args.api_script) if args.api_script else None
        )
        recorder = Recorder()
        runtime = new_fake_runtime(scenario=args.scenario, seed=args.seed, recorder=recorder)
        node = new_node(
            args.node_name, cpu=args.node_cpu, memory=args.node_memory, pods=args.max_pods
        )
        if args.trace:
            check_writable(args.trace, lang)
    except (ScriptError, ScenarioError, ValueError, OSError) as err:
        print(f"minikubelet: {in_language(err, lang)}", file=sys.stderr)
        return 2
    kube_cfg = KubeletConfiguration(
        static_pod_path=args.manifests or "",
        static_pod_url=args.manifest_url or "",
        max_pods=args.max_pods,
    )
    reporter = PhaseReporter(out, lang)

    async def kubelet_main() -> None:
        pod_cfg = make_pod_source_config(
            kube_cfg, recorder, args.node_name, lambda: True, api_script
        )
        kl = new_main_kubelet(kube_cfg, node, recorder, pod_cfg, runtime)
        kl.start_garbage_collection()  # as kubelet's main does, before Run
        kl.status_manager.on_status_change = reporter.on_status_change
        reporter.kubelet = kl
        await kl.run(pod_cfg.updates())

    klog.configure(verbosity=args.verbosity, out=out, observer=reporter.on_log)
    try:
        with trace.recording() if args.trace else contextlib.nullcontext() as rec:
            go.run(kubelet_main, seed=args.seed, clock=args.clock, until=args.until)
    except KeyboardInterrupt:
        return 130
    finally:
        klog.configure(verbosity=0, out=None)
    reporter.summary(args.until)
    if rec is not None:
        return write_trace(rec, args, lang)
    return 0


def check_writable(path: str, lang: str) -> None:
    """Refuse a trace file that could not be written, before the run (ValueError)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise ValueError(
            text(
                f"cannot write the trace to {path}: no such writable directory {folder}",
                f"无法把 trace 写到 {path}：目录 {folder} 不存在或不可写",
                lang,
            )
        )


def write_trace(rec: Any, args: argparse.Namespace, lang: str) -> int:
    """Resolve the recorded trace to Go lines (when the cross-linker is at hand) and write it."""
    from minikubelet.sim import trace

    argv = list(args.argv)
    at = argv.index("--trace") if "--trace" in argv else -1
    command = [a for a in argv if not a.startswith("--trace=")]
    if at >= 0:
        command = argv[:at] + argv[at + 2 :]
    recorded = rec.trace(shlex.join(["minikubelet", *command]))
    why = trace.with_go_lines(recorded)
    if why is not None:
        print(
            text(
                f"minikubelet: the trace has no Go lines: {why}",
                f"minikubelet: trace 中没有 Go 代码行：{why}",
                lang,
            ),
            file=sys.stderr,
        )
    try:
        trace.write(recorded, args.trace)
    except OSError as err:
        print(f"minikubelet: {err}", file=sys.stderr)
        return 2
    steps = len(recorded["steps"])
    print(
        text(
            f"minikubelet: trace of {steps} steps written to {args.trace}",
            f"minikubelet: 已把 {steps} 步的 trace 写入 {args.trace}",
            lang,
        ),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
