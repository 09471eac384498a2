"""What ch10/probe-thresholds checks in your ``do_probe``: kubelet runs a pod with scripted
probes (the fake prober's minikubelet.dev/probes annotation) and the checks read its events and
log."""

from __future__ import annotations

import io

from minikubelet.k8s_io.klog.v2 import klog
from walkthrough.examples import run_kubelet
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import recorded_events

#: liveness fails once the container has run 12 s; the container needs 20 s to stop (grace 30).
LIVENESS = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata:
      name: web
      namespace: default
      annotations:
        minikubelet.dev/scenario: "app: {runFor: forever, stopTime: 20s}"
        minikubelet.dev/probes: |
          app:
            liveness: {failAfter: 12s}
    spec:
      containers:
        - name: app
          image: nginx:1.21
          livenessProbe:
            httpGet: {path: /healthz, port: 80}
            periodSeconds: 5
            failureThreshold: 3
"""

#: readiness: success, success, fail, success, fail, fail, fail, success, success (then success);
#: successThreshold 2, failureThreshold 3.
READINESS = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata:
      name: web
      namespace: default
      annotations:
        minikubelet.dev/probes: |
          app:
            readiness: {results: [success, success, fail, success, fail, fail, fail, success, success]}
    spec:
      containers:
        - name: app
          image: nginx:1.21
          readinessProbe:
            httpGet: {path: /ready, port: 80}
            periodSeconds: 5
            successThreshold: 2
            failureThreshold: 3
"""


def run(script: str, until: float) -> tuple[list[tuple[str, str]], str]:
    out = io.StringIO()
    klog.configure(verbosity=3, out=out)
    try:
        kl = run_kubelet(script, seed=1, until=until, out=out)
    finally:
        klog.configure(verbosity=0, out=None)
    assert kl is not None
    return [(e.reason, e.message) for e in recorded_events(kl.recorder)], out.getvalue()


def before(events: list[tuple[str, str]], reason: str, message_part: str) -> list[tuple[str, str]]:
    """The events before the first one with that reason whose message holds ``message_part``."""
    for i, (r, m) in enumerate(events):
        if r == reason and message_part in m:
            return events[:i]
    return events


def check_a_liveness_failure_needs_failure_threshold_in_a_row() -> None:
    events, _ = run(LIVENESS, until=60.0)
    killed = [m for r, m in events if r == "Killing" and "failed liveness probe" in m]
    expect(
        len(killed) >= 1,
        en="The liveness probe fails from 12 s on: after failureThreshold (3) failures in a row "
        "the result must be reported, and kubelet restarts the container.",
        zh="liveness 探针从 12 秒起失败：连续失败 failureThreshold（3）次之后必须报告结果，kubelet 随即重启容器。",
    )
    failures = [m for r, m in before(events, "Killing", "failed liveness") if r == "Unhealthy"]
    expect_equal(
        len(failures),
        3,
        en="Exactly failureThreshold (3) failed probes come before the restart: the worker "
        "reports a failure when the third failure in a row happens, not before, not after.",
        zh="在重启之前恰好有 failureThreshold（3）次探测失败：worker 在第三次连续失败发生时报告失败，不早也不晚。",
    )


def check_nothing_is_probed_while_the_container_is_killed() -> None:
    events, _ = run(LIVENESS, until=60.0)
    i = next(
        (i for i, (r, m) in enumerate(events) if r == "Killing" and "failed liveness" in m), None
    )
    after = events[i + 1 :] if i is not None else []
    j = next((k for k, (r, _) in enumerate(after) if r == "Started"), len(after))
    expect_equal(
        [m for r, m in after[:j] if r == "Unhealthy"],
        [],
        en="While kubelet stops the failed container (it takes 20 s here), the liveness worker "
        "must not probe it: after reporting a liveness failure it waits, on hold, for the new "
        "container.",
        zh="kubelet 停止这个失败的容器期间（这里要 20 秒），liveness worker 不能再探测它：报告 liveness 失败之后，它要暂停，等待新的容器。",
    )


def check_readiness_needs_success_threshold_in_a_row() -> None:
    _, log = run(READINESS, until=60.0)
    lines = [line for line in log.splitlines() if '"SyncLoop (probe)" probe="readiness"' in line]
    statuses = [line.split('status="')[1].split('"')[0] for line in lines]
    expect_equal(
        statuses,
        ["", "ready", "", "ready"],
        en="Readiness goes success, success, fail, success, fail, fail, fail, success, success, "
        "with successThreshold 2 and failureThreshold 3. The container is first not ready (the "
        "worker's initial value), ready after two successes in a row, not ready after three "
        "failures in a row, and ready again after two more successes: a lone failure or success "
        "changes nothing, and a readiness failure never stops the worker.",
        zh="readiness 依次为成功、成功、失败、成功、失败、失败、失败、成功、成功，successThreshold 为 2，"
        "failureThreshold 为 3。容器先是未就绪（worker 的初始值），连续两次成功后就绪，连续三次失败后未就绪，"
        "再连续两次成功后重新就绪：单独一次失败或成功什么都不改变，readiness 失败也从不让 worker 停下。",
    )
