"""What ch01/deliver-incremental expects of your ``PodStorage.merge``: what changed, in order."""

from __future__ import annotations

from typing import Any

from minikubelet.config.config import PodConfigNotificationMode
from minikubelet.k8s_io.api.core.v1 import Pod, PodPhase, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.sim.go import make_chan
from minikubelet.types import PodOperation, PodUpdate
from walkthrough.expect import expect_equal
from walkthrough.fixtures import make_pod, run_go

Incremental = PodConfigNotificationMode.INCREMENTAL


def sets(ex: Any, *lists: list[Pod], source: str = "api") -> list[list[tuple[str, list[str]]]]:
    """Merge each list as a SET; what went out on the channel after each."""
    sent: list[list[tuple[str, list[str]]]] = []

    async def main() -> None:
        updates = make_chan(50, name="updates")
        storage = ex.PodStorage(updates, Incremental, Recorder())
        for pods in lists:
            await storage.merge(source, PodUpdate(pods=pods, op=PodOperation.SET))
            out = []
            while len(updates) > 0:
                u, _ = await updates.recv()
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


def test_new_pods_are_sent_as_an_add(ex: Any) -> None:
    got = sets(ex, [make_pod("a"), make_pod("b")])
    expect_equal(
        got[0],
        [("ADD", ["a", "b"])],
        en="New pods must reach kubelet: send the ADD on self.updates when it has pods.",
        zh="新 Pod 必须送到 kubelet：ADD 里有 Pod 时，把它发到 self.updates 上。",
    )


def test_each_kind_of_change_is_sent_in_order(ex: Any) -> None:
    got = sets(
        ex,
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


def test_empty_updates_are_not_sent(ex: Any) -> None:
    got = sets(ex, [make_pod("a")], [make_pod("a")], [])
    expect_equal(
        got[1:],
        [[], [("REMOVE", ["a"])]],
        en="An update with no pods is not sent: the same SET again sends nothing, and a SET "
        "that only drops a pod sends only the REMOVE.",
        zh="没有 Pod 的更新不发送：重复相同的 SET 什么都不发；只去掉一个 Pod 的 SET 只发一条 REMOVE。",
    )


def test_a_source_first_seen_with_no_pods_sends_an_empty_add(ex: Any) -> None:
    got = sets(ex, [], [], source="file")
    expect_equal(
        got,
        [[("ADD", [])], []],
        en="The first SET of a source with no pods still sends one empty ADD: kubelet then "
        "knows the source is ready (housekeeping waits for every source). Only the first.",
        zh="来源的第一个 SET 即使没有 Pod，也要发一条空的 ADD：这样 kubelet 才知道这个来源已就绪"
        "（清理要等所有来源就绪）。只有第一次才发。",
    )
