"""What ch02/runtime-errors checks in your ``RuntimeState.runtime_errors``."""

from __future__ import annotations

from collections.abc import Callable

from minikubelet.go import VirtualClock
from minikubelet.runtime import new_runtime_state
from walkthrough.expect import expect_equal

NOT_YET = "container runtime status check may not have completed yet"
DOWN = "container runtime is down"
THRESHOLD = 30.0


def health_check(ok: bool, message: str) -> Callable[[], tuple[bool, Exception | None]]:
    """A health check that says ``ok``, with ``message`` as its error when not."""
    return lambda: (ok, RuntimeError(message) if not ok else None)


def errors_of(
    *,
    synced: float | None = None,
    now: float = 1000.0,
    checks: tuple[tuple[str, bool, str], ...] = (),
    runtime_error: str | None = None,
) -> str | None:
    """What runtime_errors says, as text (None: no error)."""
    # A virtual clock stands still at its epoch: the time the check is made.
    state = new_runtime_state(VirtualClock(epoch=now), THRESHOLD)
    if synced is not None:
        state.set_runtime_sync(synced)
    for name, ok, message in checks:
        state.add_health_check(name, health_check(ok, message))
    if runtime_error is not None:
        state.set_runtime_state(RuntimeError(runtime_error))
    err = state.runtime_errors()
    return None if err is None else str(err)


def check_a_runtime_never_checked_is_not_ready() -> None:
    expect_equal(
        errors_of(),
        NOT_YET,
        en="Before the first good status check of the runtime, kubelet cannot know that it "
        f"works: runtimeErrors says {NOT_YET!r}.",
        zh=f"在对运行时的第一次成功状态检查之前，kubelet 无法知道它能不能用：runtimeErrors 报告 {NOT_YET!r}。",
    )


def check_a_recent_status_check_means_no_error() -> None:
    expect_equal(
        errors_of(synced=990.0, now=1000.0),
        None,
        en="A runtime whose last good status check was 10 s ago (the threshold is 30 s), with "
        "no health check failing and no runtime error, is fine: no error (None).",
        zh="最近一次成功状态检查在 10 秒前（阈值是 30 秒）、没有健康检查失败、也没有运行时错误的运行时"
        "是正常的：没有错误（None）。",
    )


def check_a_status_check_as_old_as_the_threshold_means_down() -> None:
    at, before = errors_of(synced=970.0, now=1000.0), errors_of(synced=970.001, now=1000.0)
    expect_equal(
        [before, at],
        [None, DOWN],
        en="The runtime is down from the moment its last good status check is as old as the "
        f"threshold (30 s): Go says down when last+threshold is not after now. At 29.999 s: no "
        f"error; at 30 s: {DOWN!r}.",
        zh="从最近一次成功状态检查恰好过去阈值（30 秒）的那一刻起，运行时就算宕掉了：Go 在 "
        f"last+threshold 不晚于 now 时判定宕机。29.999 秒时：没有错误；30 秒时：{DOWN!r}。",
    )


def check_a_failing_health_check_is_an_error() -> None:
    message = "pleg was last seen active 3m5s ago; threshold is 3m0s"
    expect_equal(
        errors_of(synced=990.0, checks=(("PLEG", False, message), ("other", True, ""))),
        f"PLEG is not healthy: {message}",
        en="Each registered health check that fails is an error, named after the check: "
        '"<name> is not healthy: <its error>" (the PLEG registers one, failing when relist '
        "has not run for 3 minutes). Checks that pass add nothing.",
        zh='每个失败的健康检查都是一个错误，以检查的名字开头："<名字> is not healthy: <它的错误>"'
        "（PLEG 登记了一个，relist 3 分钟没运行时它就失败）。通过的检查不增加任何东西。",
    )


def check_the_runtime_error_is_reported_as_it_is() -> None:
    message = "container runtime not ready: RuntimeReady=false reason:DockerDaemonNotReady"
    expect_equal(
        errors_of(synced=990.0, runtime_error=message),
        message,
        en="When the last status check found the runtime not ready, that error is reported "
        "as it is.",
        zh="最近一次状态检查发现运行时没有就绪时，原样报告那个错误。",
    )


def check_every_condition_is_reported_together() -> None:
    got = errors_of(
        checks=(("PLEG", False, "pleg not started yet"), ("disk", False, "disk is full")),
        runtime_error="runtime not ready",
    )
    expect_equal(
        got,
        f"[{NOT_YET}, PLEG is not healthy: pleg not started yet, disk is not healthy: disk is "
        "full, runtime not ready]",
        en="Every condition that holds is reported, in Go's order (the status check, each "
        "health check, the runtime error), as one aggregate error.",
        zh="成立的每个条件都要报告，按 Go 的顺序（状态检查、每个健康检查、运行时错误），合成一个聚合错误。",
    )
