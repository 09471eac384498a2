"""postStart hooks that fail or hang, run from examples/hooks through ``minikubelet run``: the
FailedPostStartHook event, the kill, PostStartHookError, and the back-off and restart after it.

Go (v1.21.4 lines): pkg/kubelet/kuberuntime/kuberuntime_container.go L221-236 (startContainer
step 4: the event at L229, the kill with the message "FailedPostStartHook" at L230, the error
"PostStartHookError: …" at L234); pkg/kubelet/lifecycle/handlers.go L64-66 (the exec hook, run
with a timeout of 0, and its message), L73 and L131 (the HTTP hook's message and URL);
pkg/kubelet/cri/remote/remote_runtime.go L374-383 (a timeout of 0 sets no deadline) and L408
(the error of a non-zero exit); kuberuntime_manager.go L921-927 (doBackOff: the BackOff event).
"""

from __future__ import annotations

import re

import pytest

from tests.test_cli import EXAMPLES, run_cli

_EVENT = (
    '"Event occurred" object="{pod}" kind="Pod" apiVersion="v1" type="{type}" reason="{reason}"'
)


def _event(pod: str, type_: str, reason: str) -> str:
    return _EVENT.format(pod=pod, type=type_, reason=reason)


@pytest.fixture(scope="module")
def run() -> str:
    code, out = run_cli("--manifests", EXAMPLES + "/hooks", "--until", "4m", "-v", "3")
    assert code == 0
    return out


def _uid(out: str, pod: str) -> str:
    m = re.search(rf'pod="default/{pod}-minikubelet" podUID=([0-9a-f]+)', out)
    assert m
    return m.group(1)


def test_a_failing_exec_hook_is_reported_the_container_killed_and_restarted_after_a_backoff(
    run: str,
):
    pod = "default/migrate-minikubelet"
    uid = _uid(run, "migrate")
    lines = run.splitlines()
    started = run.index(_event(pod, "Normal", "Started") + ' message="Started container app"')
    message = (
        'Exec lifecycle hook ([sh -c /app/migrate --wait]) for Container \\"app\\" in Pod '
        f'\\"migrate-minikubelet_default({uid})\\" failed - error: command '
        "'sh -c /app/migrate --wait' exited with 2: database is not ready, "
        'message: \\"database is not ready\\""'
    )
    failed = run.index(_event(pod, "Warning", "FailedPostStartHook") + f' message="{message}')
    killing = run.index(_event(pod, "Normal", "Killing") + ' message="FailedPostStartHook"')
    error = run.index(
        '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with '
        "PostStartHookError: command 'sh -c /app/migrate --wait' exited with 2: database is not "
        'ready: \\"Exec lifecycle hook'
    )
    assert started < failed < killing < error
    # The hook's failure is logged as kubelet's V(1) ErrorS.
    assert any(
        '"Exec lifecycle hook for Container in Pod failed" err="command ' in ln
        and 'execCommand=[sh -c /app/migrate --wait] containerName="app" '
        f'pod="{pod}" message="database is not ready"'
        in ln
        for ln in lines
    )
    # Restarted at once the first time, then the back-off: 10 s, then 20 s.
    after = run[error:]
    assert (
        _event(pod, "Warning", "BackOff") + ' message="Back-off restarting failed container"'
        in after
    )
    assert (
        f"back-off 10s restarting failed container=app pod=migrate-minikubelet_default({uid})"
        in after
    )
    assert (
        f"back-off 20s restarting failed container=app pod=migrate-minikubelet_default({uid})"
        in after
    )
    assert after.count(_event(pod, "Warning", "FailedPostStartHook")) >= 3


def test_a_hanging_exec_hook_holds_the_start_past_the_runtime_request_timeout(run: str):
    """No time-out cuts the hook (timeout 0, handlers.go L64; no deadline, remote_runtime.go
    L374-383): kubelet waits the whole 2m30s, longer than its 2-minute runtime request
    timeout, and only then records the failure and kills the container."""
    pod = "default/warmup-minikubelet"
    lines = [ln for ln in run.splitlines() if pod in ln or "warmup-minikubelet" in ln]
    started = next(ln for ln in lines if 'message="Started container cache"' in ln)
    assert started.startswith("I0715 00:00:00.100000")
    failed = [ln for ln in lines if 'reason="FailedPostStartHook"' in ln]
    assert failed and failed[0].startswith("I0715 00:02:30.100000")
    killing = next(ln for ln in lines if 'reason="Killing" message="FailedPostStartHook"' in ln)
    assert killing.startswith("I0715 00:02:30.100000")
    # The pod worker waited inside startContainer: no other sync of the pod in between.
    between = [
        ln
        for ln in lines
        if ln[:21] > "I0715 00:00:00.100000"
        and ln[:21] < "I0715 00:02:30.100000"
        and "computePodActions" in ln
    ]
    assert between == []
    assert "minikubelet: pod default/warmup-minikubelet is Pending → Running at 2m31s" in run


def test_a_refused_http_hook_reads_as_kubelets(run: str):
    pod = "default/notify-minikubelet"
    uid = _uid(run, "notify")
    m = re.search(
        r'Get \\"http://(10\.88\.0\.\d+):9000//started\\": dial tcp \1:9000: connect: '
        r"connection refused",
        run,
    )
    assert m
    url_error = m.group(0)
    message = (
        f'HTTP lifecycle hook (/started) for Container \\"web\\" in Pod '
        f'\\"notify-minikubelet_default({uid})\\" failed - error: {url_error}, message: \\"\\""'
    )
    assert _event(pod, "Warning", "FailedPostStartHook") + f' message="{message}' in run
    assert _event(pod, "Normal", "Killing") + ' message="FailedPostStartHook"' in run
