"""What ch14/wait-for-mount checks in your ``wait_for_attach_and_mount``: syncPod's wait."""

from __future__ import annotations

from walkthrough.ch14.mounts import Mounts, run_mounts, when
from walkthrough.expect import expect, expect_equal


def ready() -> Mounts:
    """Both volumes can be mounted at once."""
    return run_mounts("web-ready", until=5.0)


def slow() -> Mounts:
    """The configMap exists, but each SetUp of the volume takes a minute."""
    return run_mounts("web-slow", until=70.0)


def last_moment() -> Mounts:
    """Each SetUp of the volume ends 50 ms before the wait's time-out, after its last look."""
    return run_mounts("web-last-moment", until=150.0)


def missing(until: float) -> Mounts:
    """The configMap never appears."""
    return run_mounts("web-missing", until=until)


def check_a_pod_whose_volumes_are_ready_starts_at_once() -> None:
    run = ready()
    started = run.started("web")
    expect(
        started is not None and started < 1,
        en="web's volumes (an emptyDir, a configMap that exists) are mounted 200 ms after the "
        "pod arrives. syncPod's wait must see that soon and let the containers start within a "
        f"second. web's first container started: {when(started, 'en')}.",
        zh="web 的卷（一个 emptyDir、一个存在的 ConfigMap）在 Pod 到达后 200 毫秒就挂载好了。syncPod 的等待必须很快"
        f"看到这一点，让容器在一秒之内启动。web 的第一个容器启动于：{when(started, 'zh')}。",
    )


def check_the_pod_waits_until_its_volumes_are_mounted() -> None:
    run = slow()
    started = run.started("web")
    expect(
        started is not None and 60.2 <= started <= 60.6,
        en="Each SetUp of web's volume config takes a minute: it is mounted at 60.2 s. The "
        "containers must not start before (they would find an empty directory), and must start "
        "at the next look of the wait, which looks every 300 ms. web's first container started: "
        f"{when(started, 'en')}.",
        zh="web 的卷 config 每次 SetUp 要花一分钟：它在 60.2 秒挂载好。容器不能在那之前启动（它们会看到一个空目录），"
        f"而且必须在等待的下一次查看时启动，等待每 300 毫秒查看一次。web 的第一个容器启动于：{when(started, 'zh')}。",
    )


def check_the_wait_gives_up_after_2m3s() -> None:
    run = missing(until=130.0)
    waits = run.of("wait", "web")
    gave_up = run.of("gave-up", "web")
    took = round(gave_up[0].at - waits[0].at, 3) if waits and gave_up else None
    expect(
        took == 123.0,
        en="The configMap of web's volume config never appears. The first wait of syncPod "
        "(from 0.1 s) must give up after 2 minutes 3 seconds, with an error, so that the pod "
        "worker can try the whole sync again. It "
        + ("never gave up." if took is None else f"gave up after {took:g} s."),
        zh="web 的卷 config 所用的 ConfigMap 一直没有出现。syncPod 的第一次等待（从 0.1 秒开始）必须在 2 分 3 秒后以一个"
        "错误放弃，好让 pod worker 之后把整个同步重试一遍。它"
        + ("一直没有放弃。" if took is None else f"在 {took:g} 秒后放弃。"),
    )


def check_a_volume_mounted_at_the_last_moment_is_no_failure() -> None:
    run = last_moment()
    gave_up = [s.detail for s in run.of("gave-up", "web")]
    started = run.started("web")
    expect(
        not gave_up and started is not None and started < 124,
        en="web's volume config is mounted at 2 min 3.05 s: after the last look of syncPod's wait "
        "(2 min 2.8 s), before its time-out (2 min 3.1 s). When the wait times out, nothing is "
        "left unmounted, so the pod must go on at once, with no error and no FailedMount event. "
        f"The wait gave up with: {gave_up[0] if gave_up else 'nothing'}; web's first container "
        f"started: {when(started, 'en')}.",
        zh="web 的卷 config 在 2 分 3.05 秒挂载好：在 syncPod 的等待最后一次查看（2 分 2.8 秒）之后，"
        "超时（2 分 3.1 秒）之前。等待超时的时候，已经没有未挂载的卷了，所以 Pod 必须立刻继续，"
        f"不报错，也没有 FailedMount 事件。等待放弃时的错误：{gave_up[0] if gave_up else '无'}；"
        f"web 的第一个容器启动于：{when(started, 'zh')}。",
    )


def check_the_error_says_which_volumes_are_missing() -> None:
    run = missing(until=130.0)
    errors = [s.detail for s in run.of("gave-up", "web")]
    expect_equal(
        errors[:1],
        [
            "unmounted volumes=[config], unattached volumes=[cache config]: timed out waiting "
            "for the condition"
        ],
        en="The error (kubelet puts it in the pod's event \"Unable to attach or mount volumes: "
        '…") must name the volumes still not mounted (cache is mounted: only config), then the '
        "unattached ones as the volume manager reports them, then why the wait ended.",
        zh="这个错误（kubelet 把它放进 Pod 的事件 “Unable to attach or mount volumes: …”）必须列出仍未挂载的卷"
        "（cache 已经挂载：只有 config），然后是卷管理器报告的未挂接的卷，最后是等待结束的原因。",
    )


def check_a_pod_never_starts_without_its_volumes() -> None:
    run = missing(until=200.0)
    started = run.started("web")
    expect(
        started is None,
        en="web's volume config is never mounted: its containers must never start, however "
        f"long the wait lasts. web's first container started: {when(started, 'en')}.",
        zh="web 的卷 config 一直没有挂载：无论等多久，它的容器都不能启动。"
        f"web 的第一个容器启动于：{when(started, 'zh')}。",
    )
