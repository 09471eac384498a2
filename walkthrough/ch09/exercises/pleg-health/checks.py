"""What ch09/pleg-health checks in your ``relist`` and ``healthy``."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.cache import new_cache
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.pleg.generic import new_generic_pleg
from minikubelet.sim.container_runtime import new_fake_runtime
from walkthrough.expect import expect_equal
from walkthrough.fixtures import run_go


def health(at: list[float], scenario: dict[str, Any] | None = None, fail_from: float | None = None):
    """A node with one running pod and a PLEG relisting every second; Healthy's answer at each
    time (seconds after the start). ``fail_from``: every ListPodSandbox fails from then on."""
    answers: list[tuple[bool, str | None]] = []

    async def main() -> None:
        fake = new_fake_runtime(scenario=scenario)
        m = fake.manager
        pod = pod_from_dict(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "web", "namespace": "default", "uid": "uid-web"},
                "spec": {"containers": [{"name": "app", "image": "nginx:1.21"}]},
            }
        )
        status = await m.get_pod_status("uid-web", "web", "default")
        await m.sync_pod(pod, status, [], new_back_off(10, 300))
        pleg = new_generic_pleg(m, 1000, 1.0, new_cache())
        start = go.now()
        answers_before = pleg.healthy()
        pleg.start()
        for t in at:
            if fail_from is not None and go.now() - start < fail_from <= t:
                await go.sleep(fail_from - (go.now() - start))
                fake.runtime_service.inject_error("list_pod_sandbox", times=100_000)
            await go.sleep(t - (go.now() - start))
            ok, err = pleg.healthy()
            answers.append((ok, None if err is None else str(err)))
        answers.insert(
            0, (answers_before[0], None if answers_before[1] is None else str(answers_before[1]))
        )

    run_go(main, until=600.0)
    return answers


def check_a_pleg_that_never_relisted_is_not_healthy() -> None:
    expect_equal(
        health([])[0],
        (False, "pleg has yet to be successful"),
        en='Before its first relist the PLEG is not healthy: "pleg has yet to be successful". '
        "(This is why every kubelet skips its first turns of the sync loop.)",
        zh='在第一次 relist 之前，PLEG 是不健康的："pleg has yet to be successful"。'
        "（这就是每个 kubelet 都会跳过主循环最初几轮的原因。）",
    )


def check_relisting_keeps_it_healthy() -> None:
    expect_equal(
        health([30.0, 300.0])[1:],
        [(True, None), (True, None)],
        en="A PLEG that relists every second is healthy: each relist whose list succeeds records "
        "its time.",
        zh="每秒都在 relist 的 PLEG 是健康的：每次列举成功的 relist 都会记录它的时间。",
    )


def check_three_minutes_without_a_good_relist() -> None:
    got = health([189.0, 189.5], fail_from=9.5)[1:]
    expect_equal(
        got,
        [(True, None), (False, "pleg was last seen active 3m0.5s ago; threshold is 3m0s")],
        en="The runtime's list fails from 9.5 s on, so the last good relist began at 9 s. At "
        "189 s that is exactly 3 minutes ago, still healthy; at 189.5 s it is 3m0.5s ago, more "
        'than the threshold: "pleg was last seen active 3m0.5s ago; threshold is 3m0s".',
        zh="从 9.5 秒起运行时的列举一直失败，所以最近一次成功的 relist 开始于 9 秒。在 189 秒时，那恰好是 3 分钟前，"
        "仍然健康；在 189.5 秒时是 3m0.5s 之前，超过了阈值："
        '"pleg was last seen active 3m0.5s ago; threshold is 3m0s"。',
    )


def check_a_relist_that_hung_is_as_old_as_its_start() -> None:
    hang = {"runtime": {"hang": [{"from": "10s", "until": "200s", "calls": ["ListPodSandbox"]}]}}
    got = health([200.5, 201.5], scenario=hang)[1:]
    expect_equal(
        [ok for ok, _ in got],
        [False, True],
        en="The relist that began at 10 s hangs in its list until 200 s. When it ends, its time "
        "is still 10 s (when it began), so at 200.5 s the PLEG is not healthy; the next relist, "
        "at 201 s, makes it healthy again.",
        zh="10 秒开始的那次 relist 在列举时一直卡到 200 秒。它结束时，它的时间仍然是 10 秒（开始的时间），"
        "所以在 200.5 秒时 PLEG 不健康；下一次 relist（201 秒）才让它重新健康。",
    )
