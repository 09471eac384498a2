"""What ch08/crash-loop-back-off checks in your ``do_back_off``: restarts of a crashing container.

The container runs 2 s, then exits with code 1, again and again (restartPolicy Always). Its pod
worker retries a failed sync every 10 to 15 s, so a restart comes up to 16 s after its back-off
has run out; never before.
"""

from __future__ import annotations

from walkthrough.ch08.restarts import crash_loop
from walkthrough.expect import expect

BACK_OFFS = [0.0, 10.0, 20.0, 40.0]
SLACK = 16.0


def shown(gaps: list[float]) -> str:
    """The first six gaps, for a message."""
    text = ", ".join(f"{g:g} s" for g in gaps[:6]) or "-"
    return text + (", …" if len(gaps) > 6 else "")


def check_the_first_restart_comes_at_once() -> None:
    run = crash_loop()
    gaps = run.gaps()
    expect(
        len(gaps) >= 1 and gaps[0] < 2,
        en="The container crashed for the first time at 2.1 s. It has no back-off yet, so it must "
        "be started again at the next sync, within a second or two. Time it stayed down after "
        f"each exit: {shown(gaps)}.",
        zh="容器在 2.1 秒第一次崩溃。它还没有退避，所以必须在下一次同步时再次启动，也就是一两秒之内。"
        f"每次退出后停了多久：{shown(gaps)}。",
    )


def check_each_restart_waits_its_back_off_counted_from_the_exit() -> None:
    run = crash_loop()
    gaps = run.gaps()
    expect(
        len(gaps) >= 4 and all(g >= b for g, b in zip(gaps, BACK_OFFS, strict=False)),
        en="After the first restart the container must wait, after each exit, at least its "
        "back-off: 10 s, then 20 s, then 40 s, counted from when it finished; and it must be "
        "started again once that time has passed (four restarts in four minutes). Time it "
        f"stayed down after each exit: {shown(gaps)}.",
        zh="第一次重启之后，容器每次退出后都必须至少等待它的退避时间：10 秒、20 秒、40 秒，从它结束的时刻"
        "算起；而且等够之后必须再次启动（四分钟里重启四次）。每次退出后停了多久："
        f"{shown(gaps)}。",
    )


def check_the_waits_double_and_no_more() -> None:
    run = crash_loop()
    gaps = run.gaps()[: len(BACK_OFFS)]
    expect(
        len(gaps) == len(BACK_OFFS)
        and all(g < b + SLACK for g, b in zip(gaps, BACK_OFFS, strict=False)),
        en="The back-off doubles once per restart: 10 s, 20 s, 40 s. With the worker's retry "
        "every 10 to 15 s, a restart comes less than 16 s after its back-off has run out. "
        f"Longer waits mean the back-off grew while the container waited. Yours: {shown(gaps)}.",
        zh="退避每重启一次翻倍一次：10 秒、20 秒、40 秒。worker 每 10 到 15 秒重试一次，所以重启会在退避"
        "结束后 16 秒之内到来。等得更久，说明容器在等待期间退避还在增长。你的结果："
        f"{shown(gaps)}。",
    )


def check_the_container_waits_with_crash_loop_back_off() -> None:
    run = crash_loop()
    reasons = [
        (reason, message) for _, reason, message in run.waiting if reason != "ContainerCreating"
    ]
    backoffs = [message for reason, message in run.events if reason == "BackOff"]
    first = reasons[0] if reasons else ("-", "-")
    expect(
        first[0] == "CrashLoopBackOff"
        and first[1].startswith("back-off 10s restarting failed container=app pod=crasher_default(")
        and "Back-off restarting failed container" in backoffs,
        en="While it waits, the container's status must say why: the reason CrashLoopBackOff "
        '(what kubectl get pods shows) and the message "back-off 10s restarting failed '
        'container=app pod=crasher_default(…)"; and a BackOff event "Back-off restarting '
        f'failed container" is recorded. Your first waiting status: {first[0]}: {first[1]}; '
        f"BackOff events: {len(backoffs)}.",
        zh="等待期间，容器的状态必须说明原因：原因是 CrashLoopBackOff（kubectl get pods 显示的就是它），消息是 "
        '"back-off 10s restarting failed container=app pod=crasher_default(…)"；并且要记一个 BackOff 事件 '
        f'"Back-off restarting failed container"。你的第一个等待状态：{first[0]}: {first[1]}；'
        f"BackOff 事件：{len(backoffs)} 个。",
    )
