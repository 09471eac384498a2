"""What ch01/deliver-incremental checks in your ``PodStorage.merge``: what changed, in order."""

from __future__ import annotations

from typing import Any

from minikubelet.config.config import PodConfigNotificationMode, PodStorage
from minikubelet.go import make_chan
from minikubelet.k8s_io.api.core.v1 import Pod, PodPhase, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.types import PodOperation, PodUpdate
from walkthrough.expect import expect_equal
from walkthrough.fixtures import make_pod, run_go

Incremental = PodConfigNotificationMode.INCREMENTAL


def sets(
    *steps: list[Pod] | tuple[PodOperation, list[Pod]], source: str = "api"
) -> list[list[tuple[str, list[str]]]]:
    """Merge each step (a list: a SET; else an operation and its pods); what went out after each."""
    sent: list[list[tuple[str, list[str]]]] = []

    async def main() -> None:
        updates = make_chan(50, name="updates")
        storage = PodStorage(updates, Incremental, Recorder())
        for step in steps:
            op, pods = step if isinstance(step, tuple) else (PodOperation.SET, step)
            await storage.merge(source, PodUpdate(pods=pods, op=op))
            out = []
            while len(updates) > 0:
                u, _ = await updates.recv()
                assert u is not None  # the channel is open and holds updates
                out.append((u.op.name, [p.metadata.name for p in u.pods]))
            sent.append(out)

    run_go(main)
    return sent


def changed(name: str, **fields: Any) -> Pod:
    pod = make_pod(name)
    for key, value in fields.items():
        if key == "image":
            pod.spec.containers[0].image = value
        elif key == "status":
            pod.status = value
        else:
            setattr(pod.metadata, key, value)
    return pod


def check_new_pods_are_sent_as_an_add() -> None:
    got = sets([make_pod("a"), make_pod("b")])
    expect_equal(
        got[0],
        [("ADD", ["a", "b"])],
        en="New pods must reach kubelet: the ADD that holds them goes out on the updates channel.",
        zh="新 Pod 必须送到 kubelet：装着它们的 ADD 要发到 updates 通道上。",
    )


def check_each_kind_of_change_is_sent_in_order() -> None:
    got = sets(
        [make_pod("a"), make_pod("b"), make_pod("c"), make_pod("d")],
        [
            changed("a", image="nginx:1.22"),
            changed("c", deletion_timestamp=1626307200.0),
            changed("d", status=PodStatus(phase=PodPhase.RUNNING)),
            make_pod("e"),
        ],
    )
    expect_equal(
        got[1],
        [
            ("REMOVE", ["b"]),
            ("ADD", ["e"]),
            ("UPDATE", ["a"]),
            ("DELETE", ["c"]),
            ("RECONCILE", ["d"]),
        ],
        en="Send what changed in kubelet's order: REMOVE, ADD, UPDATE, DELETE, then RECONCILE.",
        zh="按 kubelet 规定的顺序发送变化：REMOVE、ADD、UPDATE、DELETE，最后 RECONCILE。",
    )


def check_empty_updates_are_not_sent() -> None:
    got = sets([make_pod("a")], [make_pod("a")], [])
    expect_equal(
        got[1:],
        [[], [("REMOVE", ["a"])]],
        en="An update with no pods is not sent: the same SET again sends nothing, and a SET "
        "that only drops a pod sends only the REMOVE.",
        zh="没有 Pod 的更新不发送：重复相同的 SET 什么都不发；只去掉一个 Pod 的 SET 只发一条 REMOVE。",
    )


def check_a_source_first_seen_with_no_pods_sends_an_empty_add() -> None:
    got = sets([], [], source="file")
    expect_equal(
        got,
        [[("ADD", [])], []],
        en="The first SET of a source with no pods still sends one empty ADD: kubelet then "
        "knows the source is ready (housekeeping waits for every source). Only the first.",
        zh="来源的第一个 SET 即使没有 Pod，也要发一条空的 ADD：这样 kubelet 才知道这个来源已就绪"
        "（清理要等所有来源就绪）。只有第一次才发。",
    )


def check_the_empty_add_is_only_for_a_source_that_brought_nothing() -> None:
    updated = sets(
        (PodOperation.ADD, [make_pod("a")]), [changed("a", image="nginx:1.22")], source="file"
    )
    deleted = sets(
        (PodOperation.ADD, [make_pod("a")]),
        [changed("a", deletion_timestamp=1626307200.0)],
        source="file",
    )
    expect_equal(
        [updated[1], deleted[1]],
        [[("UPDATE", ["a"])], [("DELETE", ["a"])]],
        en="A source's first SET that brings an update or a graceful deletion (its pods came "
        "earlier as an ADD) sends only that: kubelet hears from the source already, so no "
        "empty ADD follows.",
        zh="如果来源的第一个 SET 带来的是更新或优雅删除（它的 Pod 之前已经通过 ADD 发过了），"
        "那就只发送这些：kubelet 已经收到这个来源的消息了，不需要再发空的 ADD。",
    )
