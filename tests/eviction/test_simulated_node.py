"""The simulated node's usage: the scenario's knobs, their errors, and the summary it measures."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.base.i18n import in_language
from minikubelet.eviction.helpers import make_signal_observations
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.sim.cri.fake_runtime import FakeRuntimeService
from minikubelet.sim.cri.fake_stats import SimulatedNode
from minikubelet.sim.cri.scenario import parse_scenario
from minikubelet.sim.cri.scenario_values import ScenarioError
from minikubelet.sim.cri.usage_scenario import parse_level

GI, MI = 1024**3, 1024**2


def test_a_level_is_a_quantity_or_steps_in_time():
    assert parse_level("300Mi", "x").at(0) == 300 * MI
    assert parse_level(1500, "x").at(99) == 1500
    steps = parse_level({"10s": "1Gi", "0s": "100Mi", "1m": 0}, "x")
    assert [steps.at(t) for t in (0, 9.9, 10, 59, 60, 1e9)] == [100 * MI, 100 * MI, GI, GI, 0, 0]
    # Before the first time, nothing is used.
    assert parse_level({"5s": "1Gi"}, "x").at(4) == 0


@pytest.mark.parametrize(
    ("scenario", "en", "zh"),
    [
        (
            {"node": {"memory": "lots"}},
            "scenario: node: memory: ",
            "scenario: node: memory：",
        ),
        (
            {"node": {"memory": {"0s": "-1Gi"}}},
            "scenario: node: memory: 0s: an amount cannot be negative ('-1Gi')",
            "数量不能为负数",
        ),
        (
            {"node": {"memory": {"soon": "1Gi"}}},
            "scenario: node: memory: soon: ",
            "应为 5s 或 1m30s 这样的时长",
        ),
        (
            {"node": {"memory": {}}},
            "expected at least one time: quantity pair",
            "至少要有一对“时间: 数量”",
        ),
        ({"node": {"swap": "1Gi"}}, "scenario: node: unknown field 'swap'", "未知字段 'swap'"),
        (
            {"node": {"nodefs": {"capacity": 0}}},
            "scenario: node: nodefs: capacity and inodes must be more than 0",
            "必须大于 0",
        ),
        (
            {"usage": {"web": {"app": {"memory": "1Gi"}}}},
            "scenario: usage: 'web': expected namespace/name",
            "应为“命名空间/名称”的形式",
        ),
        (
            {"usage": {"default/web": {"app": {"cpu": "1"}}}},
            "scenario: usage of pod default/web: app: unknown field 'cpu'",
            "未知字段 'cpu'",
        ),
        (
            {"node": {"memory": True}},
            "scenario: node: memory: expected a quantity like 300Mi or 1Gi, got True",
            "应为 300Mi 或 1Gi 这样的数量",
        ),
    ],
)
def test_bad_values_name_where_they_are_in_both_languages(scenario, en, zh):
    with pytest.raises(ScenarioError) as err:
        parse_scenario(scenario)
    assert en in str(err.value)
    assert zh in in_language(err.value, "zh")


def sandbox_config(name: str, annotations: dict[str, str]) -> runtimeapi.PodSandboxConfig:
    return runtimeapi.PodSandboxConfig(
        metadata=runtimeapi.PodSandboxMetadata(name=name, namespace="default", uid=f"uid-{name}"),
        labels={"io.kubernetes.pod.uid": f"uid-{name}"},
        annotations=annotations,
    )


def container_config(name: str) -> runtimeapi.ContainerConfig:
    return runtimeapi.ContainerConfig(
        metadata=runtimeapi.ContainerMetadata(name=name),
        image=runtimeapi.ImageSpec(image="busybox"),
    )


def test_the_summary_counts_running_containers_and_the_nodes_own_use():
    scenario = parse_scenario(
        {
            "node": {
                "memory": {"0s": "1Gi", "30s": "2Gi"},
                "nodefs": {"capacity": "10Gi", "used": "1Gi"},
            },
            "usage": {
                "default/db": {"postgres": {"memory": "500Mi", "logs": "100Mi", "rootfs": "1Gi"}}
            },
        }
    )
    measured = {}

    async def main() -> None:
        rt = FakeRuntimeService(scenario=scenario)
        node = SimulatedNode(rt, 4 * GI)
        web = await rt.run_pod_sandbox(
            sandbox_config(
                "web", {"minikubelet.dev/usage": "nginx: {memory: {0s: 100Mi, 10s: 300Mi}}"}
            ),
            "",
        )
        db = await rt.run_pod_sandbox(sandbox_config("db", {}), "")
        for sandbox, name in ((web, "nginx"), (db, "postgres")):
            cid = await rt.create_container(
                sandbox, container_config(name), sandbox_config(name, {})
            )
            await rt.start_container(cid)
        measured["start"] = node.get(True)
        await go.sleep(30)
        measured["later"] = node.get(True)
        await rt.stop_pod_sandbox(db)
        measured["db stopped"] = node.get(True)

    go.run(main)

    start = make_signal_observations(measured["start"])[0]
    # 1Gi of the node's own, 100Mi of nginx, 500Mi of postgres.
    assert start["memory.available"].available.value() == 4 * GI - GI - 600 * MI
    assert start["allocatableMemory.available"].available.value() == 4 * GI - 600 * MI
    # One disk: the node's 1Gi, and postgres's logs and writable layer.
    assert start["nodefs.available"].available.value() == 10 * GI - GI - 100 * MI - GI
    assert (
        start["imagefs.available"].available.value() == start["nodefs.available"].available.value()
    )

    later = make_signal_observations(measured["later"])[0]
    assert later["memory.available"].available.value() == 4 * GI - 2 * GI - 800 * MI
    assert {p.pod_ref.name for p in measured["later"].pods} == {"web", "db"}

    # A stopped sandbox's containers use nothing any more.
    stopped = measured["db stopped"]
    assert {p.pod_ref.name for p in stopped.pods} == {"web"}
    assert (
        make_signal_observations(stopped)[0]["memory.available"].available.value()
        == 4 * GI - 2 * GI - 300 * MI
    )


def test_a_bad_usage_annotation_fails_the_sandbox():
    async def main() -> None:
        rt = FakeRuntimeService()
        with pytest.raises(Exception, match=r"annotation minikubelet\.dev/usage: app: memory"):
            await rt.run_pod_sandbox(
                sandbox_config("web", {"minikubelet.dev/usage": "app: {memory: much}"}), ""
            )

    go.run(main)


def test_a_dedicated_image_filesystem_takes_the_writable_layers():
    scenario = parse_scenario({"node": {"imagefs": {"capacity": "50Gi", "used": "5Gi"}}})

    async def main() -> SimulatedNode:
        return SimulatedNode(FakeRuntimeService(scenario=scenario), GI)

    node = go.run(main)
    assert node.has_dedicated_image_fs()
    summary = go.run(lambda: _get(node))
    observations = make_signal_observations(summary)[0]
    assert observations["imagefs.available"].available.value() == 45 * GI
    assert observations["nodefs.available"].available.value() == 90 * GI  # the default nodefs


async def _get(node: SimulatedNode):
    return node.get(True)
