"""What ch14/mount-back-off checks in your ``ExponentialBackoff.update``: the mount retries."""

from __future__ import annotations

import itertools

from walkthrough.ch14.mounts import run_mounts
from walkthrough.expect import expect_equal


def failures(until: float) -> list[float]:
    """When each SetUp of web's volume config failed (its FailedMount events)."""
    run = run_mounts("web-missing", until=until)
    return [s.at for s in run.of("failed", "web", "config")]


def gaps(times: list[float]) -> list[float]:
    return [round(b - a, 1) for a, b in itertools.pairwise(times)]


def check_the_first_retry_comes_half_a_second_later() -> None:
    times = failures(until=1.5)
    expect_equal(
        times[:2],
        [0.2, 0.8],
        en="The configMap of web's volume config does not exist: the SetUp fails at 0.2 s. "
        "Retries are refused for half a second after a first failure; the reconciler's next "
        "pass after that, at 0.8 s, tries again (and fails again). When the first two "
        "FailedMount events came:",
        zh="web 的卷 config 所用的 ConfigMap 不存在：SetUp 在 0.2 秒失败。第一次失败后，重试会被拒绝半秒；"
        "那之后调谐器的下一轮，即 0.8 秒，会再试一次（又失败）。前两个 FailedMount 事件出现的时间：",
    )


def check_each_failure_doubles_the_wait() -> None:
    times = failures(until=70.0)
    expect_equal(
        gaps(times),
        [0.6, 1.1, 2.1, 4.1, 8.1, 16.1, 32.1],
        en="Each failure refuses retries twice as long as the one before: 0.5 s, 1 s, 2 s, 4 s "
        "… The gaps between the FailedMount events are those, plus up to the 100 ms until the "
        "reconciler's next pass. The gaps in the first 70 s:",
        zh="每次失败让重试被拒绝的时长是上一次的两倍：0.5 秒、1 秒、2 秒、4 秒……FailedMount 事件之间的间隔就是这些，"
        "再加上等调谐器下一轮的至多 100 毫秒。前 70 秒里的间隔：",
    )


def check_the_wait_stops_growing_at_2m2s() -> None:
    times = failures(until=260.0)
    expect_equal(
        gaps(times)[-2:],
        [64.1, 122.1],
        en="After 64 s, doubling would give 128 s, more than the longest back-off of 2 minutes "
        "2 seconds: from then on, retries are 2m2s apart (plus the reconciler's pass). The last "
        "two gaps between FailedMount events in 260 s:",
        zh="64 秒之后，翻倍会得到 128 秒，超过了最长的退避 2 分 2 秒：从此以后，重试间隔都是 2 分 2 秒（再加上等调谐器下一轮的时间）。"
        "260 秒内最后两个 FailedMount 事件间隔：",
    )
