"""What ch13/qos-class checks in your ``get_pod_qos``: the QoS class of a pod, and where its cgroup goes."""

from __future__ import annotations

from functools import cache

from walkthrough.ch13.cgroups import Tree, run_cgroups
from walkthrough.expect import expect_equal


@cache
def pods() -> Tree:
    """Every shape of requests and limits, one pod each (scripts/qos-pods.yaml)."""
    return run_cgroups("qos-pods", until=2.0)


def classes(names: list[str]) -> dict[str, tuple[str, str | None]]:
    """Each pod's QoS class in its status, and the cgroup kubelet made for it."""
    tree = pods()
    kl = tree.run.kubelet if tree.run else None
    assert kl is not None
    found: dict[str, tuple[str, str | None]] = {}
    for pod in kl.pod_manager.get_pods():
        name, uid = pod.metadata.name, pod.metadata.uid
        if name in names:
            status, _ = kl.status_manager.get_pod_status(uid)
            found[name] = (str(status.qos_class), tree.pod_cgroup(uid))
    return found


def expected(cls: str, names: list[str]) -> dict[str, tuple[str, str | None]]:
    parent = {"Guaranteed": "/kubepods", "Burstable": "/kubepods/burstable"}.get(
        cls, "/kubepods/besteffort"
    )
    return {name: (cls, f"{parent}/pod{name}-13") for name in names}


def check_a_pod_that_asks_for_nothing_is_best_effort() -> None:
    names = ["plain", "zero"]
    expect_equal(
        classes(names),
        expected("BestEffort", names),
        en="plain sets no requests or limits; zero requests 0 CPU and 0 memory, and an amount "
        "of zero asks for nothing. Both are BestEffort: kubelet puts their cgroups under "
        "kubepods/besteffort, with the least CPU weight, and they are the first to go when the "
        "node runs short of memory. (Each pod: its QoS class, its cgroup.)",
        zh="plain 没有设置任何 requests 或 limits；zero 请求 0 CPU 和 0 内存，数量为零就等于什么都没请求。两者都是 "
        "BestEffort：kubelet 把它们的 cgroup 放在 kubepods/besteffort 下，CPU 权重最小，节点内存不够时它们最先被清理。"
        "（每个 Pod：它的 QoS 类、它的 cgroup。）",
    )


def check_requests_equal_to_limits_make_a_pod_guaranteed() -> None:
    names = ["db", "pair", "limitsonly"]
    expect_equal(
        classes(names),
        expected("Guaranteed", names),
        en="db's one container and both of pair's containers limit CPU and memory and request "
        "exactly their limits; limitsonly sets only limits, and the API server copied them into "
        "its requests. All three are Guaranteed: their cgroups go straight under kubepods, capped "
        "at their limits. (Each pod: its QoS class, its cgroup.)",
        zh="db 的唯一容器和 pair 的两个容器都限制了 CPU 与内存，且请求量正好等于限制；limitsonly 只设置了 limits，API "
        "Server 把它们复制成了 requests。三者都是 Guaranteed：它们的 cgroup 直接放在 kubepods 下，以各自的 limits "
        "为上限。（每个 Pod：它的 QoS 类、它的 cgroup。）",
    )


def check_a_pod_that_can_use_more_than_it_asks_is_burstable() -> None:
    names = ["under", "memonly", "half"]
    expect_equal(
        classes(names),
        expected("Burstable", names),
        en="under requests less than it limits; memonly limits its memory but not its CPU; half "
        "has one container with equal requests and limits and one with none. Each can use more "
        "than it asked for, so each is Burstable: its cgroup goes under kubepods/burstable. "
        "(Each pod: its QoS class, its cgroup.)",
        zh="under 请求的少于它的限制；memonly 限制了内存却没有限制 CPU；half 有一个容器 requests 等于 limits，另一个"
        "容器什么都没设。它们都可能用得比请求的多，所以都是 Burstable：cgroup 放在 kubepods/burstable 下。"
        "（每个 Pod：它的 QoS 类、它的 cgroup。）",
    )


def check_init_containers_count_too() -> None:
    names = ["initonly", "initg", "initbe"]
    expect_equal(
        classes(names),
        {
            "initonly": expected("Burstable", ["initonly"])["initonly"],
            "initg": expected("Guaranteed", ["initg"])["initg"],
            "initbe": expected("Burstable", ["initbe"])["initbe"],
        },
        en="A pod's init containers run in its cgroup too, so they count for its class: "
        "initonly's app container sets nothing but its init container requests CPU (Burstable); "
        "initg's init and app containers both request what they limit (Guaranteed); initbe's "
        "app container does, but its init container sets nothing (Burstable). (Each pod: its QoS "
        "class, its cgroup.)",
        zh="Pod 的 Init 容器也在它的 cgroup 里运行，所以也算进它的类别：initonly 的应用容器什么都没设，但 Init 容器请求了 "
        "CPU（Burstable）；initg 的 Init 容器和应用容器都请求了等于限制的量（Guaranteed）；initbe 的应用容器也是如此，"
        "但它的 Init 容器什么都没设（Burstable）。（每个 Pod：它的 QoS 类、它的 cgroup。）",
    )
