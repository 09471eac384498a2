"""What ch08/backoff-next checks in your ``Backoff.next``: kubelet's 10 s to 5 min sequence."""

from __future__ import annotations

from minikubelet.go import VirtualClock
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_fake_back_off
from walkthrough.expect import expect_equal

KEY = "crasher_default_uid_app_1a2b3c"


def failing(times: list[float], key: str = KEY) -> list[float]:
    """A back-off like kubelet's (10 s to 300 s); a failure at each of ``times`` (seconds):
    the delay after each."""
    clock = VirtualClock()
    back_off = new_fake_back_off(10.0, 300.0, clock)
    delays = []
    for t in times:
        clock.advance_to(t)
        back_off.next(key, clock.now())
        delays.append(back_off.get(key))
    return delays


def check_the_first_failure_starts_at_ten_seconds() -> None:
    expect_equal(
        failing([0.0]),
        [10.0],
        en="A key the back-off has never seen starts at the initial delay: the first crash of "
        "a container sets its back-off to 10 s (kubelet's backOffPeriod). Delay after one "
        "failure:",
        zh="退避从没见过的键，从初始延迟开始：容器第一次崩溃，把它的退避设为 10 秒（kubelet 的 "
        "backOffPeriod）。一次失败之后的延迟：",
    )


def check_each_failure_doubles_the_delay_up_to_five_minutes() -> None:
    times = [0.0, 15.0, 40.0, 85.0, 170.0, 335.0, 640.0, 945.0]
    expect_equal(
        failing(times),
        [10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0, 300.0],
        en="A container that keeps crashing: each failure doubles its delay, and the delay stops "
        "at the maximum, 300 s (kubelet's MaxContainerBackOff). Delays after eight failures:",
        zh="一个不停崩溃的容器：每次失败都让延迟翻倍，延迟到最大值 300 秒（kubelet 的 MaxContainerBackOff）"
        "就不再增长。八次失败之后各自的延迟：",
    )


def check_keys_do_not_share_their_delays() -> None:
    clock = VirtualClock()
    back_off = new_fake_back_off(10.0, 300.0, clock)
    for t in (0.0, 15.0, 40.0):
        clock.advance_to(t)
        back_off.next("crasher/app", clock.now())
    back_off.next("web/nginx", clock.now())
    expect_equal(
        [back_off.get("crasher/app"), back_off.get("web/nginx")],
        [40.0, 10.0],
        en="Each container has its own key. crasher/app failed three times (40 s); web/nginx "
        "fails for the first time and starts at 10 s. Delays of the two keys:",
        zh="每个容器有自己的键。crasher/app 失败了三次（40 秒）；web/nginx 第一次失败，从 10 秒开始。"
        "两个键的延迟：",
    )


def check_ten_quiet_minutes_start_the_delay_again() -> None:
    long_after = failing([0.0, 15.0, 40.0, 85.0, 170.0, 335.0, 936.0])
    not_yet = failing([0.0, 15.0, 40.0, 85.0, 170.0, 335.0, 934.0])
    expect_equal(
        [long_after[-1], not_yet[-1]],
        [10.0, 300.0],
        en="After the sixth failure (at 335 s) the delay is 300 s. A failure more than ten minutes "
        "later (twice the maximum: 936 s) means the container had run fine: the delay starts "
        "again at 10 s. One a little less than ten minutes later (934 s) keeps 300 s. Delays "
        "after the failures at 936 s and at 934 s:",
        zh="第六次失败（335 秒时）之后，延迟是 300 秒。如果下一次失败在十分钟（最大值的两倍）之后（936 秒），"
        "说明容器运行正常过：延迟重新从 10 秒开始。如果下一次失败比十分钟稍早（934 秒），延迟保持 300 秒。"
        "936 秒和 934 秒失败之后的延迟：",
    )
