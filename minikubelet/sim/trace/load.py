"""Reading a trace file back: checked whole against the format before anyone shows it. Ours.

[`load`][] returns the trace written by ``minikubelet run --trace FILE`` (or by ``python -m
tools.trace``) as the dict `minikubelet.sim.trace` describes, or raises [`TraceFileError`][]
saying, in both languages, what is wrong with the file: missing, not a regular file (a
directory, a FIFO: never opened, so never waited on), too large, not JSON or cut off, not a
trace, a trace of a newer format, or a trace that breaks ``schema.json``.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from minikubelet.base.files import FileReadError, read_at_most
from minikubelet.base.i18n import Bilingual, both, os_error

from .schema import problem

#: The largest trace file read (a run stops recording at `MAX_STEPS` steps; this leaves room).
LIMIT = 512 * 1024 * 1024


class TraceFileError(ValueError):
    """A trace file that cannot be shown; the message names the file and says why."""

    def __init__(self, path: str, en: str, zh: str) -> None:
        self.path = path
        super().__init__(both(f"{path}: {en}", f"{path}：{zh}"))


def _kind_of(mode: int) -> Bilingual:
    """What a file that is not a regular one is, as in "is a directory"."""
    if stat.S_ISDIR(mode):
        return both("a directory", "是目录")
    if stat.S_ISFIFO(mode):
        return both("a FIFO (named pipe)", "是 FIFO（命名管道）")
    if stat.S_ISSOCK(mode):
        return both("a socket", "是套接字")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return both("a device", "是设备文件")
    return both("a special file", "是特殊文件")


def load(path: str) -> dict[str, Any]:
    """The trace in the file at ``path``, checked against ``schema.json``."""
    from . import FORMAT, VERSION

    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        reason = os_error(err)
        raise TraceFileError(path, f"cannot read: {reason}", f"无法读取：{reason.zh}") from None
    if not stat.S_ISREG(mode):
        kind = _kind_of(mode)
        raise TraceFileError(path, f"is {kind}, not a trace file", f"{kind.zh}，不是 trace 文件")
    try:
        data = read_at_most(path, LIMIT)
    except FileReadError as err:
        raise TraceFileError(path, err.args[0], err.args[0].zh) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise TraceFileError(
            path,
            f"is not text (not UTF-8 at byte {err.start}), so not a trace",
            f"不是文本（第 {err.start} 字节起不是 UTF-8），所以不是 trace",
        ) from None
    try:
        trace = json.loads(text)
    except json.JSONDecodeError as err:
        if not text.strip():
            raise TraceFileError(path, "is empty", "是空文件") from None
        kept = text.rstrip()
        # Cut off: the JSON ends too soon, a string runs to the end, or the last line (a step
        # is one line of a trace file) is where it breaks.
        if (
            err.pos >= len(kept)
            or err.msg.startswith("Unterminated string")
            or err.lineno == kept.count("\n") + 1
        ):
            raise TraceFileError(
                path,
                "ends before the trace does: the file is cut off (was the run stopped while "
                "it was written?)",
                "在 trace 结束之前就断了：文件不完整（写入时运行被中断了吗？）",
            ) from None
        raise TraceFileError(
            path,
            f"is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}): the file "
            "is damaged or not a trace",
            f"不是合法的 JSON（第 {err.lineno} 行第 {err.colno} 列）：文件已损坏，或者根本不是 trace",
        ) from None
    if not isinstance(trace, dict) or trace.get("format") != FORMAT:
        raise TraceFileError(
            path,
            f'is JSON but not a minikubelet trace (no "format": "{FORMAT}"); write one with '
            "minikubelet run … --trace FILE",
            f'是 JSON，但不是 minikubelet 的 trace（没有 "format": "{FORMAT}"）；'
            "可以用 minikubelet run … --trace FILE 生成",
        )
    version = trace.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise TraceFileError(
            path,
            f"is a trace of format version {version}, newer than this minikubelet reads "
            f"(version {VERSION}): show it with the minikubelet that wrote it",
            f"是第 {version} 版格式的 trace，比这个 minikubelet 能读的版本（第 {VERSION} 版）新："
            "请用写出它的那个 minikubelet 查看",
        )
    wrong = problem(trace) or _dangling(trace)
    if wrong is not None:
        raise TraceFileError(
            path, f"is not a well-formed trace: {wrong}", f"不是格式正确的 trace：{wrong.zh}"
        )
    return trace


def _dangling(trace: dict[str, Any]) -> Bilingual | None:
    """A step that refers to a location or a channel the trace does not have (the schema cannot
    say that an index is in range)."""
    locations, channels = len(trace["locations"]), len(trace["channels"])
    for i, step in enumerate(trace["steps"]):
        bad_at = [a for a in step["at"] if a >= locations]
        if bad_at:
            return both(
                f"steps[{i}].at names location {bad_at[0]}; the trace has {locations}",
                f"steps[{i}].at 指向第 {bad_at[0]} 个位置，而 trace 只有 {locations} 个",
            )
        used = [c for _, c in step.get("cases", ()) if c is not None]
        used += [step["ch"]] if "ch" in step else []
        used += [c for c, _ in step.get("bufs", ())]
        bad = [c for c in used if not 0 <= c < channels]
        if bad:
            return both(
                f"steps[{i}] names channel {bad[0]}; the trace has {channels}",
                f"steps[{i}] 指向通道 {bad[0]}，而 trace 只有 {channels} 个通道",
            )
    ids = [ch["id"] for ch in trace["channels"]]
    if ids != list(range(channels)):
        return both(
            "channels are not numbered 0, 1, 2, … in order", "通道没有按 0、1、2……的顺序编号"
        )
    return None
