"""What ch04/sort-and-admit expects of your ``handle_pod_additions``."""

from __future__ import annotations

from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import make_pod, new_kubelet, run_go


def add(ex: Any, *batches: list[Pod], max_pods: int = 110, cpu: str = "4") -> dict[str, Any]:
    """Hand each batch of pods to the learner's handle_pod_additions, on one node."""
    state: dict[str, Any] = {}

    async def main() -> None:
        kl = new_kubelet(ex.Kubelet, max_pods=max_pods, cpu=cpu)
        for batch in batches:
            await kl.handle_pod_additions(batch)
        state["dispatched"] = [name for name, _ in kl.pod_workers.updates]
        state["types"] = sorted({kind for _, kind in kl.pod_workers.updates})
        state["probed"] = list(kl.probe_manager.added)
        state["known"] = sorted(p.metadata.name for p in kl.pod_manager.get_pods())
        state["rejected"] = {}
        for pod in kl.pod_manager.get_pods():
            status, ok = kl.status_manager.get_pod_status(pod.metadata.uid)
            if ok and status.phase == "Failed":
                state["rejected"][pod.metadata.name] = status.reason
        state["events"] = [(e.object.name, e.type, e.reason) for e in kl.recorder.events]

    run_go(main)
    return state


def pods(*spec: tuple[str, float], cpu: str | None = None) -> list[Pod]:
    return [make_pod(name, created=created, cpu=cpu) for name, created in spec]


def test_pods_are_handled_oldest_first(ex: Any) -> None:
    state = add(ex, pods(("c", 30), ("a", 10), ("b", 20)))
    expect_equal(
        state["dispatched"],
        ["a", "b", "c"],
        en="HandlePodAdditions must handle the oldest pod first: sort the batch by creation "
        "time (sort_pods_by_creation_time) before the loop. Then, when the node is nearly "
        "full, the pods that were there first win.",
        zh="HandlePodAdditions 要先处理最早创建的 Pod：在循环之前按创建时间排序"
        "（sort_pods_by_creation_time）。这样当节点快满时，先来的 Pod 优先。",
    )
    expect_equal(
        state["types"],
        ["create"],
        en="Each new pod goes to its worker as a create (SyncPodType.CREATE).",
        zh="每个新 Pod 都以 create 类型（SyncPodType.CREATE）交给它的 worker。",
    )


def test_every_pod_is_remembered(ex: Any) -> None:
    state = add(ex, pods(("a", 10), ("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["known"],
        ["a", "b", "c"],
        en="Every new pod, admitted or not, must be added to the pod manager: it is kubelet's "
        "record of the pods it should have.",
        zh="每个新 Pod，无论是否通过准入，都要加入 pod manager：它记录着 kubelet 应有的全部 Pod。",
    )


def test_a_pod_that_does_not_fit_is_rejected(ex: Any) -> None:
    state = add(ex, pods(("a", 10), ("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["rejected"],
        {"c": "OutOfpods"},
        en="On a node that takes 2 pods, the third (the youngest) must be rejected: ask "
        "await self.can_admit_pod(active_pods, pod) and, when it says no, call "
        "self.reject_pod(pod, reason, message), which marks the pod Failed with the reason.",
        zh="节点最多容纳 2 个 Pod 时，第三个（最晚创建的）应当被拒绝：调用 "
        "await self.can_admit_pod(active_pods, pod)，它说不行时调用 self.reject_pod(pod, reason, "
        "message)，这会把 Pod 标记为 Failed 并写上原因。",
    )
    expect_equal(
        state["dispatched"],
        ["a", "b"],
        en="A rejected pod must not be handed to a pod worker (continue with the next pod).",
        zh="被拒绝的 Pod 不能交给 pod worker（直接 continue 处理下一个）。",
    )
    expect_equal(
        state["probed"],
        ["a", "b"],
        en="Nor must it be given to the probe manager.",
        zh="也不能交给 probe manager。",
    )
    expect(
        ("c", "Warning", "OutOfpods") in state["events"],
        en="The rejection is told as a Warning event with the reason (reject_pod does it).",
        zh="拒绝时要记录一个带原因的 Warning 事件（reject_pod 会做）。",
    )


def test_a_pod_does_not_compete_with_itself(ex: Any) -> None:
    state = add(ex, pods(("only", 10)), max_pods=1)
    expect_equal(
        state["rejected"],
        {},
        en="On a node that takes 1 pod, the first pod must be admitted. Take the list of "
        "existing pods before the pod itself joins the pod manager, or it counts against "
        "itself.",
        zh="节点最多容纳 1 个 Pod 时，第一个 Pod 应当被接纳。要在这个 Pod 加入 pod manager "
        "之前取出已有 Pod 的列表，否则它会把自己也算进去。",
    )


def test_admission_counts_the_pods_already_there(ex: Any) -> None:
    state = add(ex, pods(("a", 10)), pods(("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["rejected"],
        {"c": "OutOfpods"},
        en="Pods admitted by an earlier ADD count too: with a on the node and room for 2, "
        "b fits and c does not. Take the existing pods from self.pod_manager.get_pods().",
        zh="之前的 ADD 已接纳的 Pod 也要算上：节点上已有 a、最多容纳 2 个时，b 能进，c 不能。"
        "已有的 Pod 从 self.pod_manager.get_pods() 取。",
    )


def test_rejected_pods_take_no_room(ex: Any) -> None:
    big = make_pod("big", created=5, cpu="64")
    state = add(ex, [big, *pods(("a", 10), ("b", 20))], max_pods=2)
    expect_equal(
        state["rejected"],
        {"big": "OutOfcpu"},
        en="A pod that asks for more CPU than the node has is rejected (OutOfcpu), and then it "
        "takes no room: only pods still alive compete (self.filter_out_terminated_pods), so "
        "a and b both fit on a node of 2 pods.",
        zh="申请的 CPU 超过节点容量的 Pod 会被拒绝（OutOfcpu），之后它就不再占位置：只有仍然存活的 "
        "Pod 参与竞争（self.filter_out_terminated_pods），所以 a 和 b 都能进入容量为 2 的节点。",
    )
