"""``{{ kubelet_logs() }}``: what a real node prints, found in the port's code at build time.

Each entry names a message a reader meets in ``journalctl -u kubelet`` or ``kubectl get
events``; the table says where the port writes it (the call, its ``-v`` level or that it is an
event), the Go function it ports (from the enclosing docstring's ``Go:`` line, linked at the
tag) and the chapter that explains it. A message no longer in the port fails the build.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tools.xref.paths import permalink

from .directives import DirectiveError
from .render import render
from .runner import port_fingerprint

LOG_CALLS = {"info_s", "error_s", "info", "infof", "error", "errorf", "warning"}


@dataclass(frozen=True)
class Entry:
    needle: str  # a piece of the message's text, as the port writes it
    chapter: str  # docs/chapters/NN-….md
    en: str
    zh: str


ENTRIES = [
    Entry("SyncLoop ADD", "03-sync-loop-iteration.md", "a pod reached the node",
          "一个 Pod 到了这个节点"),
    Entry("Skipping pod synchronization", "02-sync-loop.md",
          "the runtime or the PLEG is unhealthy: the loop waits", "运行时或 PLEG 不健康：主循环在等待"),
    Entry("pleg was last seen active", "09-pleg.md",
          "PLEG is not healthy: no relist finished within 3 minutes",
          "PLEG is not healthy：3 分钟内没有一次 relist 完成"),
    Entry("Unable to attach or mount volumes", "14-volumes.md",
          "ContainerCreating for long: syncPod waited 2m3s for the volumes in vain",
          "长时间 ContainerCreating：syncPod 为卷白等了 2 分 3 秒"),
    Entry("MountVolume.SetUp failed", "14-volumes.md",
          "FailedMount: one SetUp of a volume failed (a missing configMap or secret …)",
          "FailedMount：卷的一次 SetUp 失败了（ConfigMap 或 Secret 缺失等）"),
    Entry("No retries permitted until", "14-volumes.md",
          "a volume operation failed; the next try waits its back-off (0.5 s … 2m2s)",
          "一个卷操作失败了；下一次尝试要等退避结束（0.5 秒……2 分 2 秒）"),
    Entry("Node didn't have enough resource", "04-handle-pod-additions.md",
          "OutOfcpu, OutOfmemory: admission refused the pod", "OutOfcpu、OutOfmemory：准入拒绝了这个 Pod"),
    Entry("Error syncing pod, skipping", "05-pod-workers.md",
          "a sync failed; the worker tries again later", "一次同步失败了；worker 稍后重试"),
    Entry("Failed to pull image", "08-start-container.md", "ErrImagePull", "ErrImagePull（拉取镜像失败）"),
    Entry("Back-off pulling image", "08-start-container.md", "ImagePullBackOff",
          "ImagePullBackOff（镜像拉取退避）"),
    Entry("Back-off restarting failed container", "08-start-container.md",
          "CrashLoopBackOff: the restart waits its back-off", "CrashLoopBackOff：重启要等退避结束"),
    Entry("failed liveness probe", "10-status-and-probes.md",
          "a liveness probe failed: the container is restarted", "存活探针失败：容器被重启"),
    Entry("Killing container with a grace period", "11-end-of-a-pod.md",
          "a container is stopped: SIGTERM, then SIGKILL after the grace period",
          "停止一个容器：先 SIGTERM，宽限期过后 SIGKILL"),
    Entry("start failed in pod", "08-start-container.md",
          "a container did not start: the line holds the whole container spec "
          "(`&Container{Name:…}`), then the reason and the message",
          "一个容器没能启动：这一行先是整个容器定义（`&Container{Name:…}`），然后是原因和消息"),
    Entry("Exec lifecycle hook", "08-start-container.md",
          "a postStart or preStop exec hook failed: its command, the error, its output",
          "postStart 或 preStop 的 exec 钩子失败：命令、错误和它的输出"),
    Entry("CreateContainer in sandbox from runtime service failed", "07-compute-pod-actions.md",
          "the runtime refused to create a container (its sandbox died, say)",
          "运行时拒绝创建容器（例如它的沙箱已经死了）"),
    Entry("ExecSync cmd from runtime service failed", "11-end-of-a-pod.md",
          "the runtime refused to run a hook's command (the container no longer runs, say)",
          "运行时拒绝执行钩子的命令（例如容器已经不在运行）"),
    Entry("Probe failed", "10-status-and-probes.md",
          "a probe failed: `probeType=\"Liveness\"` (or Readiness, Startup) and its output",
          "一次探测失败：`probeType=\"Liveness\"`（或 Readiness、Startup）以及它的输出"),
]  # fmt: skip


@dataclass
class Site:
    """Where the port writes a message."""

    py_file: str
    line: int
    how: str  # "-v 2", "error", "event", "message"
    go_path: str | None
    go_symbol: str | None


def _strings(node: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _how(call: ast.Call) -> str:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if name == "eventf" or name == "event":
        return "event"
    if name == "handle_error":  # utilruntime.HandleError: an error line of its own
        return "error"
    if name in LOG_CALLS:
        inner = call.func.value if isinstance(call.func, ast.Attribute) else None
        if isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") == "v" and inner.args:
            level = inner.args[0]
            if isinstance(level, ast.Constant) and isinstance(level.value, int):
                return f"-v {level.value}"
        return "-v 0" if name.startswith("info") else "error"
    return "message"


def _go_line(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str | None, str | None]:
    doc = ast.get_docstring(fn) or ""
    for line in doc.splitlines():
        if line.strip().startswith("Go: "):
            path, _, symbol = line.strip()[4:].partition(" ")
            return path, symbol.strip() or None
    return None, None


@cache
def _calls(root: Path, _port: tuple) -> list[tuple[tuple[str, ...], int, Site]]:
    """Every call, return and assignment of the port's functions, with its strings, rank and
    place, in the order the port is read; once per version of the port (ours: each of the
    table's messages, in each language, is then a scan of these strings, not of the port's
    syntax trees)."""
    out = []
    for path in sorted((root / "minikubelet").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call | ast.Return | ast.Assign):
                    continue
                strings = tuple(_strings(call))
                if not strings:
                    continue
                how = _how(call) if isinstance(call, ast.Call) else "message"
                go_path, go_symbol = _go_line(fn)
                site = Site(path.relative_to(root).as_posix(), call.lineno, how, go_path,
                            go_symbol)  # fmt: skip
                # An error line (always printed) before a -v line, a log line before the rest.
                rank = {"error": -1, "message": 2, "event": 1}.get(how, 0)
                out.append((strings, rank, site))
    return out


def find_site(root: Path, needle: str) -> Site:
    """The first call in the port whose text holds ``needle`` (a log call before any other)."""
    found = [
        (rank, site)
        for strings, rank, site in _calls(root, port_fingerprint(root))
        if any(needle in s for s in strings)
    ]
    if not found:
        raise DirectiveError(f"kubelet_logs: no call in the port writes {needle!r}")
    return min(found, key=lambda f: f[0])[1]


def kubelet_logs_table(root: Path, lang: str) -> str:
    """The Markdown table of ``ENTRIES`` in ``lang``, every row read from the port now."""
    rows = []
    for e in ENTRIES:
        site = find_site(root, e.needle)
        go = "—"
        if site.go_path and site.go_symbol:
            go = f"[`{site.go_symbol}`]({permalink(site.go_path)})"
        chapter = f"[{int(e.chapter[:2])}](chapters/{e.chapter})"
        how = {"event": "事件" if lang == "zh" else "event", "error": "错误（error）" if lang == "zh"
               else "error", "message": "状态消息" if lang == "zh" else "status message"}.get(
            site.how, site.how)  # fmt: skip
        rows.append((e.needle, e.zh if lang == "zh" else e.en, how, go,
                     f"`{site.py_file}:{site.line}`", chapter))  # fmt: skip
    return render("kubelet-logs.md.j2", rows=rows, lang=lang) + "\n"
