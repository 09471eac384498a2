"""What ch04/sort-and-admit checks in your ``handle_pod_additions``."""

from __future__ import annotations

from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import make_pod, new_kubelet, recorded_events, recorders, run_go


def add(*batches: list[Pod], max_pods: int = 110, cpu: str = "4") -> dict[str, Any]:
    """Hand each batch of pods to the learner's handle_pod_additions, on one node."""
    state: dict[str, Any] = {}

    async def main() -> None:
        kl = new_kubelet(max_pods=max_pods, cpu=cpu)
        for batch in batches:
            await kl.handle_pod_additions(batch)
        workers, probes = recorders(kl)
        state["dispatched"] = [name for name, _ in workers.updates]
        state["types"] = sorted({kind for _, kind in workers.updates})
        state["probed"] = list(probes.added)
        state["known"] = sorted(p.metadata.name for p in kl.pod_manager.get_pods())
        state["rejected"] = {}
        for pod in kl.pod_manager.get_pods():
            status, ok = kl.status_manager.get_pod_status(pod.metadata.uid)
            if ok and status.phase == "Failed":
                state["rejected"][pod.metadata.name] = status.reason
        state["events"] = [(e.object.name, e.type, e.reason) for e in recorded_events(kl.recorder)]

    run_go(main)
    return state


def pods(*spec: tuple[str, float], cpu: str | None = None) -> list[Pod]:
    return [make_pod(name, created=created, cpu=cpu) for name, created in spec]


def check_pods_are_handled_oldest_first() -> None:
    state = add(pods(("c", 30), ("a", 10), ("b", 20)))
    expect_equal(
        state["dispatched"],
        ["a", "b", "c"],
        en="HandlePodAdditions must handle the oldest pod of a batch first, whatever order the "
        "batch came in: when the node is nearly full, the pods that were there first win.",
        zh="HandlePodAdditions 要先处理一批 Pod 中最早创建的那个，不管这批 Pod 到达时是什么顺序："
        "这样当节点快满时，先来的 Pod 优先。",
    )
    expect_equal(
        state["types"],
        ["create"],
        en="Each new pod goes to its worker as a create.",
        zh="每个新 Pod 都以 create 类型交给它的 worker。",
    )


def check_every_pod_is_remembered() -> None:
    state = add(pods(("a", 10), ("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["known"],
        ["a", "b", "c"],
        en="Every new pod, admitted or not, must be added to the pod manager: it is kubelet's "
        "record of the pods it should have.",
        zh="每个新 Pod，无论是否通过准入，都要加入 pod manager：它记录着 kubelet 应有的全部 Pod。",
    )


def check_a_pod_that_does_not_fit_is_rejected() -> None:
    state = add(pods(("a", 10), ("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["rejected"],
        {"c": "OutOfpods"},
        en="On a node that takes 2 pods, the third (the youngest) must be rejected: marked "
        "Failed, with the reason admission gave (OutOfpods).",
        zh="节点最多容纳 2 个 Pod 时，第三个（最晚创建的）应当被拒绝：标记为 Failed，"
        "并写上准入给出的原因（OutOfpods）。",
    )
    expect_equal(
        state["dispatched"],
        ["a", "b"],
        en="A rejected pod must not be handed to a pod worker: the loop goes on with the next pod.",
        zh="被拒绝的 Pod 不能交给 Pod worker：循环直接处理下一个 Pod。",
    )
    expect_equal(
        state["probed"],
        ["a", "b"],
        en="Nor must it be given to the probe manager.",
        zh="也不能交给 probe manager。",
    )
    expect(
        ("c", "Warning", "OutOfpods") in state["events"],
        en="The rejection is told as a Warning event with the reason.",
        zh="拒绝时要记录一个带原因的 Warning 事件。",
    )


def check_a_pod_does_not_compete_with_itself() -> None:
    state = add(pods(("only", 10)), max_pods=1)
    expect_equal(
        state["rejected"],
        {},
        en="On a node that takes 1 pod, the first pod must be admitted. Take the list of "
        "existing pods before the pod itself joins the pod manager, or it counts against "
        "itself.",
        zh="节点最多容纳 1 个 Pod 时，第一个 Pod 应当被接纳。要在这个 Pod 加入 pod manager "
        "之前取出已有 Pod 的列表，否则它会把自己也算进去。",
    )


def check_admission_counts_the_pods_already_there() -> None:
    state = add(pods(("a", 10)), pods(("b", 20), ("c", 30)), max_pods=2)
    expect_equal(
        state["rejected"],
        {"c": "OutOfpods"},
        en="Pods admitted by an earlier ADD count too: with a on the node and room for 2, "
        "b fits and c does not. The existing pods are the ones the pod manager has.",
        zh="之前的 ADD 已接纳的 Pod 也要算上：节点上已有 a、最多容纳 2 个时，b 能进，c 不能。"
        "已有的 Pod 就是 pod manager 里的那些。",
    )


def check_rejected_pods_take_no_room() -> None:
    big = make_pod("big", created=5, cpu="64")
    state = add([big, *pods(("a", 10), ("b", 20))], max_pods=2)
    expect_equal(
        state["rejected"],
        {"big": "OutOfcpu"},
        en="A pod that asks for more CPU than the node has is rejected (OutOfcpu), and then it "
        "takes no room: only pods still alive compete, so a and b both fit on a node of 2 "
        "pods.",
        zh="申请的 CPU 超过节点容量的 Pod 会被拒绝（OutOfcpu），之后它就不再占位置：只有仍然存活的 "
        "Pod 参与竞争，所以 a 和 b 都能进入容量为 2 的节点。",
    )
