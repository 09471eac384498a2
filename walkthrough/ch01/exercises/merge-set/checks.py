"""What ch01/merge-set checks in your ``PodStorage._merge``: each pod sorted by what changed."""

from __future__ import annotations

from typing import Any

from minikubelet.config.config import PodConfigNotificationMode, PodStorage
from minikubelet.go import make_chan
from minikubelet.k8s_io.api.core.v1 import Pod, PodPhase, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.types import ConfigFirstSeenAnnotationKey, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import make_pod, run_go

Incremental = PodConfigNotificationMode.INCREMENTAL


def sets(*lists: list[Pod]) -> list[list[tuple[str, list[str]]]]:
    """Merge each list as a SET from the API source; what went out on the channel after each."""
    sent: list[list[tuple[str, list[str]]]] = []
    state: dict[str, Any] = {}

    async def main() -> None:
        updates = make_chan(50, name="updates")
        storage = PodStorage(updates, Incremental, Recorder())
        for pods in lists:
            await storage.merge("api", PodUpdate(pods=pods, op=PodOperation.SET))
            out = []
            while len(updates) > 0:
                u, _ = await updates.recv()
                assert u is not None  # the channel is open and holds updates
                out.append((u.op.name, [p.metadata.name for p in u.pods]))
                state.setdefault("pods", []).extend(u.pods)
            sent.append(out)

    run_go(main)
    sets.last_pods = state.get("pods", [])  # type: ignore[attr-defined]
    return sent


def changed(name: str, image: str = "nginx:1.21", **fields: Any) -> Pod:
    pod = make_pod(name)
    pod.spec.containers[0].image = image
    for key, value in fields.items():
        if key == "status":
            pod.status = value
        else:
            setattr(pod.metadata, key, value)
    return pod


def check_new_pods_are_an_add() -> None:
    got = sets([make_pod("a"), make_pod("b")])
    expect_equal(
        got[0],
        [("ADD", ["a", "b"])],
        en="The first SET of a source holds pods kubelet has never seen: they are one ADD "
        "with both pods.",
        zh="来源的第一个 SET 里都是 kubelet 从没见过的 Pod：它们合成一个 ADD，包含这两个 Pod。",
    )


def check_a_new_pod_is_stamped_with_when_it_was_first_seen() -> None:
    sets([make_pod("a")])
    pods = sets.last_pods  # type: ignore[attr-defined]
    expect(
        bool(pods) and ConfigFirstSeenAnnotationKey in (pods[0].metadata.annotations or {}),
        en=f"A new pod gets the annotation {ConfigFirstSeenAnnotationKey}, the time kubelet "
        "first saw it (kubelet reports how long a pod took to start from that time).",
        zh=f"新 Pod 要加上注解 {ConfigFirstSeenAnnotationKey}，记录 kubelet 第一次看到它的时间："
        "（kubelet 从这个时间起计算一个 Pod 花了多久才启动）。",
    )


def check_a_pod_left_out_is_a_remove() -> None:
    got = sets([make_pod("a"), make_pod("b")], [make_pod("a")])
    expect_equal(
        got[1],
        [("REMOVE", ["b"])],
        en="A SET is the source's whole list: a pod in the old list and not in the new one is "
        "gone from the source, a REMOVE.",
        zh="SET 是来源的完整列表：在旧列表里、却不在新列表里的 Pod 已经从来源中消失了，这是 REMOVE。",
    )


def check_a_changed_spec_is_an_update() -> None:
    got = sets([make_pod("a")], [changed("a", image="nginx:1.22")])
    expect_equal(
        got[1],
        [("UPDATE", ["a"])],
        en="The same pod (same UID) with a different spec (a new image) is an UPDATE.",
        zh="同一个 Pod（UID 相同）但 spec 不同（换了镜像）是一次 UPDATE。",
    )


def check_a_new_status_only_is_a_reconcile() -> None:
    got = sets([make_pod("a")], [changed("a", status=PodStatus(phase=PodPhase.RUNNING))])
    expect_equal(
        got[1],
        [("RECONCILE", ["a"])],
        en="The same pod with only its status changed is a RECONCILE: kubelet owns the status, "
        "it only reconciles with what the API server says.",
        zh="只有 status 变化的同一个 Pod 是一次 RECONCILE：status 由 kubelet 负责，它只需要与 "
        "API Server 的说法对齐。",
    )


def check_a_pod_being_deleted_is_a_delete() -> None:
    got = sets([make_pod("a")], [changed("a", deletion_timestamp=1626307200.0)])
    expect_equal(
        got[1],
        [("DELETE", ["a"])],
        en="The same pod with a deletion timestamp is a graceful DELETE.",
        zh="带上删除时间戳的同一个 Pod 是一次优雅删除，即 DELETE。",
    )


def check_nothing_changed_nothing_sent() -> None:
    got = sets([make_pod("a")], [make_pod("a")])
    expect_equal(
        got[1],
        [],
        en="The same SET again changes nothing, and nothing is sent.",
        zh="再次收到相同的 SET 不会带来任何变化，什么都不发送。",
    )


def check_one_set_can_hold_every_kind_of_change() -> None:
    got = sets(
        [make_pod("a"), make_pod("b"), make_pod("c"), make_pod("d")],
        [
            changed("a", image="nginx:1.22"),
            make_pod("c"),
            changed("d", status=PodStatus(phase=PodPhase.RUNNING)),
            make_pod("e"),
        ],
    )
    expect_equal(
        got[1],
        [("REMOVE", ["b"]), ("ADD", ["e"]), ("UPDATE", ["a"]), ("RECONCILE", ["d"])],
        en="One SET can bring every kind of change at once, each sent as its own update.",
        zh="一个 SET 可以同时带来各种变化，每种变化作为单独的一条更新发出。",
    )
