"""What ch02/pleg-events checks in your ``generate_events``."""

from __future__ import annotations

from minikubelet.pleg import generic
from minikubelet.pleg.generic import PlegContainerState
from walkthrough.expect import expect_equal

RUNNING = PlegContainerState.RUNNING
EXITED = PlegContainerState.EXITED
UNKNOWN = PlegContainerState.UNKNOWN
GONE = PlegContainerState.NON_EXISTENT


def events(old: PlegContainerState, new: PlegContainerState) -> list[tuple[str, str]]:
    return [(str(e.type), e.data) for e in generic.generate_events("uid-web", "c1", old, new)]


def check_a_container_that_starts() -> None:
    expect_equal(
        events(GONE, RUNNING),
        [("ContainerStarted", "c1")],
        en="A container that is running now and was not before: one ContainerStarted event.",
        zh="容器现在在运行而之前没有：一个 ContainerStarted 事件。",
    )


def check_a_container_that_exits_died() -> None:
    expect_equal(
        events(RUNNING, EXITED),
        [("ContainerDied", "c1")],
        en="A running container that has exited: one ContainerDied event, with the container's "
        "ID as its data.",
        zh="原来在运行、现在已退出的容器：一个 ContainerDied 事件，data 是容器 ID。",
    )


def check_an_unknown_state_is_a_change() -> None:
    expect_equal(
        events(RUNNING, UNKNOWN),
        [("ContainerChanged", "c1")],
        en="A container whose state kubelet cannot tell (unknown, or created but not started): "
        "one ContainerChanged event. The PLEG does not send it to the loop, but it is an event.",
        zh="kubelet 看不出状态的容器（unknown，或者已创建但还没启动）：一个 ContainerChanged 事件。"
        "PLEG 不会把它发给主循环，但它仍是一个事件。",
    )


def check_an_exited_container_that_is_gone_was_removed() -> None:
    expect_equal(
        events(EXITED, GONE),
        [("ContainerRemoved", "c1")],
        en="A container that had exited and is now gone: only ContainerRemoved (its death was "
        "reported by an earlier relist).",
        zh="已经退出、现在不见了的容器：只有 ContainerRemoved（它的退出在之前的某次 relist 中已经报告过）。",
    )


def check_a_running_container_that_is_gone_died_and_was_removed() -> None:
    expect_equal(
        events(RUNNING, GONE),
        [("ContainerDied", "c1"), ("ContainerRemoved", "c1")],
        en="A container that was running and is now gone died and was removed between two "
        "relists: two events, ContainerDied then ContainerRemoved.",
        zh="原来在运行、现在不见了的容器在两次 relist 之间退出并被删除了：两个事件，先 ContainerDied，"
        "再 ContainerRemoved。",
    )


def check_no_change_no_event() -> None:
    for state in (RUNNING, EXITED, UNKNOWN, GONE):
        expect_equal(
            events(state, state),
            [],
            en=f"A container still {state}: no event.",
            zh=f"容器仍然是 {state}：没有事件。",
        )
