"""What ch06/network-gate checks in your ``sync_pod``: pods wait for the network plugin."""

from __future__ import annotations

from minikubelet.kubelet import Kubelet
from walkthrough.ch06.syncs import network_not_ready_until, run_syncs
from walkthrough.expect import expect

SCRIPT = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, uid: 3b7d9a10-0000-4000-8000-0000000000eb}
    spec:
      containers: [{name: web, image: "registry.example/shop/web:2.0"}]
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: cni-agent, uid: 3b7d9a10-0000-4000-8000-0000000000c1}
    spec:
      hostNetwork: true
      containers: [{name: agent, image: "registry.example/net/cni-agent:1.4"}]
"""


def not_ready_at_first():
    """The network plugin comes up at 3 s; kubelet sees it at its runtime check at 5 s."""

    def setup(kl: Kubelet) -> None:
        network_not_ready_until(kl, 3.0)

    return run_syncs(SCRIPT, until=20.0, setup=setup)


def started(run, pod: str) -> str:
    times = [t for t, p, _ in run.starts if p == pod]
    return f"{times[0]:g} s" if times else "never"


def check_a_pod_waits_for_the_network_then_starts() -> None:
    run = not_ready_at_first()
    web = [t for t, p, _ in run.starts if p == "web"]
    expect(
        bool(web) and 5 <= web[0] <= 8,
        en="The network plugin is not ready until kubelet's runtime check at 5 s. web needs the "
        "network: it must not start before then, and must start soon after (its worker keeps "
        f"retrying). web started at: {started(run, 'web')}.",
        zh="在 kubelet 5 秒时的运行时检查之前，网络插件一直没有就绪。web 需要网络：在那之前它不能启动，之后又必须"
        f"很快启动（它的 worker 一直在重试）。web 启动的时间：{started(run, 'web')}。",
    )


def check_a_host_network_pod_does_not_wait() -> None:
    run = not_ready_at_first()
    agent = [t for t, p, _ in run.starts if p == "cni-agent"]
    expect(
        bool(agent) and agent[0] < 2,
        en="cni-agent uses the host's network (hostNetwork: true): it needs no network plugin, "
        "and must start at once even though the network is not ready. Pods like it are often "
        "the ones that bring the network up. cni-agent started at: "
        f"{started(run, 'cni-agent')}.",
        zh="cni-agent 使用主机网络（hostNetwork: true）：它不需要网络插件，即使网络没有就绪，也必须立即启动。"
        f"把网络带起来的，往往正是这样的 Pod。cni-agent 启动的时间：{started(run, 'cni-agent')}。",
    )


def check_the_wait_is_retried_within_a_second_or_two() -> None:
    run = not_ready_at_first()
    waits = [s for s in run.of("web") if s.error is not None and s.at < 5]
    texts = sorted({s.error.split(":")[0] for s in waits if s.error})
    expect(
        len(waits) >= 3 and texts == ["network is not ready"],
        en='While it waits, each sync of web must fail with an error that starts with "network '
        'is not ready": the pod worker recognises those words and retries within a second or '
        "two instead of 10 s. Syncs of web that failed before 5 s: "
        f"{len(waits)}, their errors: {texts}.",
        zh='等待期间，web 的每次同步都必须以一个以 "network is not ready" 开头的错误失败：pod worker 认得这几个词，'
        f"会在一两秒内重试，而不是 10 秒。web 在 5 秒前失败的同步：{len(waits)} 次，错误：{texts}。",
    )


def check_the_pod_shows_why_it_waits() -> None:
    run = not_ready_at_first()
    reasons = sorted(
        {reason for reason, message in run.events if "network is not ready" in message}
    )
    expect(
        reasons == ["NetworkNotReady"],
        en="kubectl describe pod must show why web waits: an event with the reason "
        "NetworkNotReady and the error as its message. Reasons of the events about the "
        f"network: {reasons or 'none'}.",
        zh="kubectl describe pod 必须显示 web 为什么在等：一个原因为 NetworkNotReady、消息就是那个错误的事件。"
        f"与网络有关的事件的原因：{reasons or '没有'}。",
    )
