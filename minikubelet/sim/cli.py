"""The ``minikubelet`` command line: ``minikubelet run`` starts the port's kubelet;
``minikubelet trace show FILE`` prints the trace ``run --trace FILE`` wrote (ours).

``run`` wires the pieces as kubelet's ``NewMainKubelet`` and ``makePodSourceConfig`` do, runs
``Kubelet.Run`` (the sync loop) under the chosen clock until ``--until``, and prints the log in
klog's format. Lines starting with ``minikubelet:`` are ours, not kubelet's: the phase changes
of each pod's status, and a summary at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any, TextIO

from minikubelet import KUBERNETES_VERSION, __version__
from minikubelet.base.i18n import in_language, language_of, os_error, text
from minikubelet.sim.argparse_messages import speak
from minikubelet.sim.cli_eviction import add_eviction_flags, configure_eviction
from minikubelet.sim.cli_trace import add_trace_commands, trace_show

# `--version` and `--help` import nothing more than the lines above: the port (and asyncio
# under it) is imported by `run` only, so that they answer at once.


def duration_arg(lang: str) -> Callable[[str], float]:
    """An argparse type for Go durations (``30s``, ``2m``) that refuses others in ``lang``."""

    def parse(value: str) -> float:
        from minikubelet.go.duration import parse_duration

        try:
            seconds = parse_duration(value)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        if seconds <= 0:
            raise argparse.ArgumentTypeError(
                text(
                    f"{value!r} is not a positive duration",
                    f"{value!r} 不是一个正的时长",
                    lang,
                )
            )
        return seconds

    return parse


def build_parser(lang: str) -> argparse.ArgumentParser:
    """The argument parser, with its help written in ``lang``."""

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    speak(lang)
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
    run.add_argument(
        "--hostname-override",
        "--node-name",
        dest="hostname_override",
        default="minikubelet",
        metavar="NAME",
        help=t(
            "the node's name (kubelet's --hostname-override; kubelet lower-cases it)",
            "节点名称（即 kubelet 的 --hostname-override；kubelet 会把它转成小写）",
        ),
    )
    run.add_argument(
        "--node-ip",
        default="",
        metavar="IP[,IP]",
        help=t(
            "the node's IP, or an IPv4 and an IPv6 one (kubelet's flag); its family decides "
            "which of a pod's IPs is its pod IP",
            "节点 IP，或一个 IPv4 加一个 IPv6（kubelet 的同名参数）；它的地址族决定 Pod 的哪个 IP "
            "作为 Pod IP",
        ),
    )
    run.add_argument(
        "--node-labels",
        action="append",
        default=[],
        metavar="KEY=VALUE[,…]",
        help=t(
            "labels for the node, on top of the hostname/os/arch ones kubelet sets (kubelet's "
            "flag; may be repeated); admission checks nodeSelector and node affinity against them",
            "节点的标签，附加在 kubelet 自动设置的 hostname/os/arch 标签之上（kubelet 的同名参数，"
            "可多次给出）；准入时用它们检查 nodeSelector 与节点亲和性",
        ),
    )
    run.add_argument(
        "--allowed-unsafe-sysctls",
        default="",
        metavar="NAME[,NAME*…]",
        help=t(
            "unsafe sysctls (names, or prefixes ending in *) pods may set, beyond the safe ones "
            "(kubelet's flag)",
            "除安全的 sysctl 之外，Pod 还可以设置的非安全 sysctl（名字，或以 * 结尾的前缀；kubelet 的同名参数）",
        ),
    )
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
        "--maximum-dead-containers-per-container",
        type=int,
        default=1,
        metavar="N",
        help=t(
            "dead instances to keep of each container (kubelet's flag; at least 1 is kept)",
            "每个容器保留多少个已退出的实例（kubelet 的同名参数；至少保留 1 个）",
        ),
    )
    add_eviction_flags(run, lang)
    run.add_argument(
        "--cgroup-driver",
        choices=["cgroupfs", "systemd"],
        default="cgroupfs",
        help=t(
            "how the pods' cgroups are named (kubelet's flag): /kubepods/burstable/pod<uid> or "
            "/kubepods.slice/kubepods-burstable.slice/…",
            "Pod 的 cgroup 如何命名（kubelet 的同名参数）：/kubepods/burstable/pod<uid> 或 "
            "/kubepods.slice/kubepods-burstable.slice/…",
        ),
    )
    run.add_argument(
        "--cgroups-per-qos",
        choices=["true", "false"],
        default="true",
        help=t(
            "make the QoS cgroup tree and a cgroup per pod (kubelet's flag, default true)",
            "创建 QoS cgroup 树，并为每个 Pod 创建一个 cgroup（kubelet 的同名参数，默认 true）",
        ),
    )
    run.add_argument(
        "--show-cgroups",
        action="store_true",
        help=t(
            "at the end, print the node's cgroup tree with the CPU and memory files kubelet "
            "wrote (ours: kubelet has no such flag)",
            "结束时打印节点的 cgroup 树，以及 kubelet 写入的 CPU 与内存文件（我们加的：kubelet 没有这个参数）",
        ),
    )
    run.add_argument(
        "--seed", type=int, default=0, help=t("seed of every random choice", "所有随机选择的种子")
    )
    run.add_argument(
        "--until",
        type=duration_arg(lang),
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
    add_trace_commands(commands, lang, lang_help, duration_arg(lang))
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
    lang = language_of(argv)
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    args.argv = argv
    if args.command == "run":
        return run(args, lang, out, parser)
    if args.command == "trace":  # its only action, `show`, is required
        return trace_show(args, lang, out)
    parser.print_help(out)
    return 0


def _node_problem(args: argparse.Namespace, lang: str) -> str | None:
    """What is wrong with the node's flags, if anything (ours: kubelet finds a bad node name
    only when the API server refuses its node)."""
    from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity, QuantityError
    from minikubelet.k8s_io.apimachinery.pkg.util.validation.validation import is_dns1123_subdomain

    if args.max_pods > 2**31 - 1:
        # The flag is an int32 in kubelet; these are pflag's words for a value that overflows it.
        value = args.max_pods
        return (
            f'invalid argument "{value}" for "--max-pods" flag: strconv.ParseInt: '
            f'parsing "{value}": value out of range'
        )
    if args.eviction_max_pod_grace_period > 2**31 - 1 or args.eviction_max_pod_grace_period < -(
        2**31
    ):
        value = args.eviction_max_pod_grace_period
        return (
            f'invalid argument "{value}" for "--eviction-max-pod-grace-period" flag: '
            f'strconv.ParseInt: parsing "{value}": value out of range'
        )
    if args.max_pods < 0:
        # kubelet's own words (pkg/kubelet/apis/config/validation), which a reader can grep.
        return f"invalid configuration: maxPods (--max-pods) {args.max_pods} must not be a negative number"
    name = args.hostname_override.strip().lower()  # as GetHostname will make it
    if name and (reason := is_dns1123_subdomain(name)):
        return text(
            f"--hostname-override: {args.hostname_override!r} is not a valid node name: {reason}",
            f"--hostname-override：{args.hostname_override!r} 不是合法的节点名称：{reason.zh}",
            lang,
        )
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
    from minikubelet import go
    from minikubelet.apis.config.types import KubeletConfiguration
    from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
    from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
    from minikubelet.k8s_io.client_go.tools.record.event import Recorder
    from minikubelet.k8s_io.klog.v2 import klog
    from minikubelet.k8s_io.kubernetes.pkg.util.node.node import get_hostname
    from minikubelet.kubelet import make_pod_source_config, new_main_kubelet
    from minikubelet.sim import trace
    from minikubelet.sim.cgroup_fs import SimCgroupFS
    from minikubelet.sim.container_runtime import new_fake_runtime
    from minikubelet.sim.cri.scenario import ScenarioError
    from minikubelet.sim.dependencies import new_dependencies
    from minikubelet.sim.phase_reporter import PhaseReporter
    from minikubelet.sim.scripted_watch import ScriptError, load_script_file, start_scripted_cluster
    from minikubelet.sysctl.whitelist import new_whitelist

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
        api_script = load_script_file(args.api_script) if args.api_script else None
        # Nothing here reads events back (the fake API server takes none): they are logged and
        # not kept, or a long run would hold every one.
        recorder = Recorder(keep=False)
        runtime = new_fake_runtime(scenario=args.scenario, seed=args.seed, recorder=recorder)
        # As kubelet's RunKubelet: the hostname first; without a cloud provider the node name
        # is the hostname.
        hostname = get_hostname(args.hostname_override)
        node_name = hostname
        node_ips = parse_node_ips(args.node_ip)
        node_labels = parse_node_labels(args.node_labels)
        allowed_unsafe_sysctls = [s for s in args.allowed_unsafe_sysctls.split(",") if s]
        # kubelet refuses to start on a bad pattern: check them before anything runs.
        new_whitelist(allowed_unsafe_sysctls)
        machine_info = MachineInfo(
            cpu=Quantity.parse(args.node_cpu), memory=Quantity.parse(args.node_memory)
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
        cgroup_driver=args.cgroup_driver,
        cgroups_per_qos=args.cgroups_per_qos == "true",
    )
    try:
        configure_eviction(kube_cfg, args)
    except ValueError as err:
        print(f"minikubelet: {in_language(err, lang)}", file=sys.stderr)
        return 2
    reporter = PhaseReporter(out, lang)

    async def kubelet_main() -> None:
        reporter.begin()
        # With a script, the pods come from a fake API server, which kubelet also writes to
        # (ours: the script's events are the rest of the cluster).
        kube_client = (
            start_scripted_cluster(api_script, args.api_script, node_name)
            if api_script is not None
            else None
        )
        # The node informer of the fake API server syncs at once.
        pod_cfg = make_pod_source_config(kube_cfg, recorder, node_name, lambda: True, kube_client)
        kl = new_main_kubelet(
            kube_cfg,
            new_dependencies(runtime, machine_info, pod_cfg, kube_client, cgroup_fs),
            hostname=hostname,
            node_name=node_name,
            machine_info=machine_info,
            node_ips=node_ips,
            node_labels=node_labels,
            allowed_unsafe_sysctls=allowed_unsafe_sysctls,
            max_per_pod_container_count=args.maximum_dead_containers_per_container,
        )
        kl.start_garbage_collection()  # as kubelet's main does, before Run
        kl.status_manager.on_status_change = reporter.on_status_change
        reporter.kubelet = kl
        await kl.run(pod_cfg.updates())

    cgroup_fs = SimCgroupFS()
    klog.configure(verbosity=args.verbosity, out=out, observer=reporter.on_log)
    try:
        with trace.recording() if args.trace else contextlib.nullcontext() as rec:
            go.run(kubelet_main, seed=args.seed, clock=args.clock, until=args.until)
    except KeyboardInterrupt:
        return 130
    finally:
        klog.configure(verbosity=0, out=None)
    reporter.summary(args.until)
    if args.show_cgroups:
        out.write(
            text(
                "minikubelet: the node's cgroups (huge page limits left out):\n",
                "minikubelet: 节点的 cgroup（未列出大页上限）：\n",
                lang,
            )
        )
        for line in cgroup_fs.render(hide=("hugetlb.",)):
            out.write(f"  {line}\n")
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
        reason = os_error(err)
        print(
            text(
                f"minikubelet: cannot write the trace to {args.trace}: {reason}",
                f"minikubelet: 无法把 trace 写到 {args.trace}：{reason.zh}",
                lang,
            ),
            file=sys.stderr,
        )
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


def parse_node_ips(value: str) -> list[str]:
    """``--node-ip``: one address, or an IPv4 and an IPv6 one, comma-separated.

    Ours, modelled on kubelet's own check of the flag (cmd/kubelet/app, outside the Go files
    the port reads); raises ValueError with kubelet's message.
    """
    node_ips: list[str] = []
    if value != "":
        for ip in value.split(","):
            try:
                node_ips.append(str(ipaddress.ip_address(ip.strip())))
            except ValueError:
                raise ValueError(f"could not parse --node-ip {ip.strip()!r}") from None
    families = {ipaddress.ip_address(ip).version for ip in node_ips}
    if len(node_ips) > 2 or (len(node_ips) == 2 and len(families) == 1):
        raise ValueError(
            f'bad --node-ip "{value}"; must contain either a single IP or a dual-stack pair of IPs'
        )
    return node_ips


def parse_node_labels(values: list[str]) -> dict[str, str]:
    """``--node-labels``: ``key=value`` pairs, comma-separated; the flag may be repeated.

    Ours, read as kubelet reads a map flag (component-base's ``MapStringString.Set``: empty
    pairs skipped, key and value trimmed, a later key wins) and checked as kubelet checks the
    flag (valid label keys and values; cmd/kubelet/app, outside the Go files the port reads).
    Raises ValueError naming the pair.
    """
    from minikubelet.k8s_io.apimachinery.pkg.util.validation.validation import (
        is_qualified_name,
        is_valid_label_value,
    )

    labels: dict[str, str] = {}
    for value in values:
        for pair in value.split(","):
            if pair == "":
                continue
            k, eq, v = pair.partition("=")
            if not eq:
                raise ValueError(
                    f"invalid argument {value!r} for --node-labels: malformed pair, "
                    "expect string=string"
                )
            labels[k.strip()] = v.strip()
    for k, v in labels.items():
        if problem := is_qualified_name(k) or is_valid_label_value(v):
            raise ValueError(f"invalid node labels: {problem}")
    return labels


if __name__ == "__main__":
    sys.exit(main())
