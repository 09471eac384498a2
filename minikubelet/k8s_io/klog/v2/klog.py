"""Structured logging in klog's shape, so the port's log reads like a real kubelet's.

It stands in for Go's k8s.io/klog/v2 (``klog.InfoS``, ``klog.ErrorS``, ``klog.V(n).InfoS``,
``klog.KObj``), which is not part of the kubernetes repository.

A line looks like klog's text format::

    I0715 00:00:01.000000       1 kubelet.py:412] "SyncLoop ADD" source="file" pods=[default/nginx]

Severity and date, time (from the runtime's clock, virtual or real), a thread id (always 1: one
thread runs every goroutine here), the Python file:line that logged, the quoted message, then
``key=value`` pairs formatted as klog does (strings quoted, object references as
``namespace/name``, lists in brackets). Only messages at or below the verbosity (``-v``) print.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from minikubelet.base import trace
from minikubelet.go import fmt as go_fmt
from minikubelet.go.fmt import quote
from minikubelet.go.runtime import current_runtime_or_none


@dataclass(frozen=True)
class ObjectRef:
    """A reference to an object by namespace and name (klog's ObjectRef).

    A Go Stringer: klog quotes it (``pod="default/nginx"``), but not inside a list
    (``pods=[default/nginx default/web]``).
    """

    go_stringer = True

    name: str
    namespace: str = ""

    def __str__(self) -> str:
        return f"{self.namespace}/{self.name}" if self.namespace else self.name


def kobj(obj: Any) -> ObjectRef:
    """The reference klog logs for an object with ``metadata`` (klog's KObj)."""
    return ObjectRef(obj.metadata.name, obj.metadata.namespace)


class _Logger:
    """Where lines go and how verbose they are (klog's flags ``-v`` and its output)."""

    def __init__(self) -> None:
        self.verbosity = 0
        self.out: TextIO | None = None
        self.observer: Callable[[str, dict[str, Any]], None] | None = None

    def write(
        self, severity: str, depth: int, msg: str, kv: dict[str, Any], printf: bool = False
    ) -> None:
        frame = sys._getframe(depth + 1)
        where = f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno}"
        stamp = datetime.fromtimestamp(_now(), UTC).strftime("%m%d %H:%M:%S.%f")
        pairs = "".join(f" {k}={format_value(v)}" for k, v in kv.items())
        text = msg if printf else quote(msg)
        line = f"{severity}{stamp}       1 {where}] {text}{pairs}\n"
        _write(self.out or sys.stderr, line)
        if self.observer is not None:
            self.observer(msg, kv)
        trace.log(severity, msg, pairs.lstrip())


_logger = _Logger()


def _write(out: TextIO, line: str) -> None:
    """Write a line as Go writes it: a byte that is not UTF-8 (kept in a ``str`` by
    ``surrogateescape``, e.g. a hook's output printed with ``%s``) goes out as that byte, even on
    a stream whose encoding would refuse it."""
    try:
        out.write(line)
    except UnicodeEncodeError:
        buffer = getattr(out, "buffer", None)
        if buffer is None:
            out.write(line.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
            return
        out.flush()
        buffer.write(line.encode("utf-8", "surrogateescape"))
        buffer.flush()


def _now() -> float:
    """The running runtime's clock if there is one (virtual time in a virtual run)."""
    runtime = current_runtime_or_none()
    return runtime.clock.now() if runtime is not None else time.time()


def format_value(value: Any) -> str:
    """One value as klog v2.8.0 (the one Kubernetes v1.21 vendors) prints it after ``key=``.

    klog quotes strings, errors and ``fmt.Stringer`` values (``%q``) and prints everything
    else with ``%+v`` (see [`minikubelet.go.fmt`][minikubelet.go.fmt] for how a port value stands
    for a Go one). Only a plain ``str`` is Go's ``string``: an enum of the port (Go's named
    types such as ``type PodPhase string``) prints unquoted, as klog prints those.
    """
    if type(value) is str or go_fmt.is_stringer(value):
        return quote(go_fmt.sprint(value))
    return go_fmt.sprint(value, plus=True)


def configure(
    verbosity: int | None = None,
    out: TextIO | None = None,
    observer: Callable[[str, dict[str, Any]], None] | None = None,
) -> None:
    """Set the verbosity (klog's ``-v``) and the stream lines are written to (default stderr).

    ``observer`` (ours) is called with the message and the key/value pairs of every line
    written, so that ``minikubelet run`` can retell some of them in the user's language.
    """
    if verbosity is not None:
        _logger.verbosity = verbosity
    _logger.out = out
    _logger.observer = observer


def info_s(msg: str, **kv: Any) -> None:
    """Log at verbosity 0 (klog's InfoS)."""
    _logger.write("I", 1, msg, kv)


def error_s(err: BaseException | None, msg: str, **kv: Any) -> None:
    """Log an error (klog's ErrorS): the error, if any, as ``err="..."`` after the message."""
    pairs = {"err": err, **kv} if err is not None else kv
    _logger.write("E", 1, msg, pairs)


def error_depth(depth: int, *args: Any) -> None:
    """Log an error line naming the caller ``depth`` frames above the caller (klog's
    ErrorDepth): the arguments as ``fmt.Sprint`` joins them, not quoted, no pairs."""
    text = "".join(go_fmt.sprint(a) for a in args)
    _logger.write("E", depth + 1, text, {}, printf=True)


def infof(fmt: str, *args: Any) -> None:
    """Log at verbosity 0 the old way (klog's Infof): ``fmt`` with Go's verbs filled in
    ([`sprintf`][minikubelet.go.fmt.sprintf]), not quoted, no pairs."""
    _logger.write("I", 1, go_fmt.sprintf(fmt, *args) if args else fmt, {}, printf=True)


def warningf(fmt: str, *args: Any) -> None:
    """Log a warning line the old way (klog's Warningf): as [`infof`][], at severity W."""
    _logger.write("W", 1, go_fmt.sprintf(fmt, *args) if args else fmt, {}, printf=True)


def errorf(fmt: str, *args: Any) -> None:
    """Log an error line the old way (klog's Errorf): as [`infof`][], at severity E."""
    _logger.write("E", 1, go_fmt.sprintf(fmt, *args) if args else fmt, {}, printf=True)


class Verbose:
    """The result of [`v`][]: logs only when the level is enabled (klog's Verbose)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def info_s(self, msg: str, **kv: Any) -> None:
        """Log if this verbosity is enabled (klog's Verbose.InfoS)."""
        if self.enabled:
            _logger.write("I", 1, msg, kv)

    def infof(self, fmt: str, *args: Any) -> None:
        """Log as [`infof`][] if this verbosity is enabled (klog's Verbose.Infof)."""
        if self.enabled:
            _logger.write("I", 1, go_fmt.sprintf(fmt, *args) if args else fmt, {}, printf=True)

    def error_s(self, err: BaseException | None, msg: str, **kv: Any) -> None:
        """Log an error line if this verbosity is enabled (klog's Verbose.ErrorS)."""
        if self.enabled:
            pairs = {"err": err, **kv} if err is not None else kv
            _logger.write("E", 1, msg, pairs)


#: Ours: the two values [`v`][] returns, made once. Go's ``Verbose`` is a value, not an
#: allocation; kubelet calls ``V(n)`` for every line it might log, most of them suppressed.
_ENABLED = Verbose(True)
_DISABLED = Verbose(False)


def v(level: int) -> Verbose:
    """A logger for verbosity ``level`` (klog's V): ``klog.v(4).info_s(...)``."""
    return _ENABLED if level <= _logger.verbosity else _DISABLED
