"""The prober and its fake probes: the annotation ``minikubelet.dev/probes``, its errors, the
handlers (exec, HTTP, TCP), ports, retries and events."""

from __future__ import annotations

import io

import pytest

from minikubelet import go
from minikubelet.container.runtime import parse_container_id
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    ContainerPort,
    EnvVar,
    ExecAction,
    HTTPGetAction,
    HTTPHeader,
    PodStatus,
    Probe,
    TCPSocketAction,
)
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.prober.prober import (
    MinikubeletProbesAnnotation,
    ProbeAnnotationError,
    ProbeResult,
    ProbeScript,
    build_header,
    extract_port,
    format_url,
    parse_probes_annotation,
)
from minikubelet.prober.prober_manager import liveness, readiness, startup
from minikubelet.prober.results.results_manager import Result
from tests.prober.harness import POD_IP, Harness, http_probe, make_pod, running

ID1 = "containerd://nginx-1"


@pytest.fixture
def klog_out():
    buf = io.StringIO()
    klog.configure(out=buf)
    yield buf
    klog.configure(out=None)


# --- the annotation --------------------------------------------------------------------------


def test_parse_all_three_kinds_of_script():
    pod = make_pod(
        scripts="""
nginx:
  startup:   {succeedAfter: 1m30s}
  readiness: {results: [fail, warning, success]}
  liveness:  {failAfter: 45}
"""
    )
    assert parse_probes_annotation(pod) == {
        "nginx": {
            startup: ProbeScript(succeed_after=90.0),
            readiness: ProbeScript(
                results=(ProbeResult.FAILURE, ProbeResult.WARNING, ProbeResult.SUCCESS)
            ),
            liveness: ProbeScript(fail_after=45.0),
        }
    }
    assert str(ProbeScript(succeed_after=90.0)) == "succeedAfter 1m30s"
    assert str(ProbeScript(results=(ProbeResult.FAILURE,))) == "results [fail]"


@pytest.mark.parametrize("text", [None, "", "# nothing\n", "{}"])
def test_no_scripts(text):
    assert parse_probes_annotation(make_pod(scripts=text)) == {}


@pytest.mark.parametrize(
    ("text", "field", "problem"),
    [
        ("nginx: {readiness: [", "", "not valid YAML or JSON"),
        ("nginx: " + "[" * 3000 + "]" * 3000, "", "exceeded maximum nesting depth"),
        ("nginx: &n {readiness: *n}", "", "an anchor's value contains itself"),
        ("[nginx]", "", "must be a mapping of container name to probe type to script, not a list"),
        ("ngnix: {}", "ngnix", 'the pod has no container "ngnix" (its containers: nginx)'),
        ("nginx: [readiness]", "nginx", "must be a mapping of probe type"),
        ("nginx: {livenes: {failAfter: 1s}}", "nginx.livenes", "unknown probe type"),
        ("nginx: {liveness: fail}", "nginx.liveness", 'not a string ("fail")'),
        ("nginx: {liveness: {failafter: 1s}}", "nginx.liveness.failafter", "unknown key"),
        (
            "nginx: {liveness: {failAfter: 1s, succeedAfter: 2s}}",
            "nginx.liveness",
            "has failAfter and succeedAfter; give exactly one of",
        ),
        ("nginx: {liveness: {}}", "nginx.liveness", "has nothing; give exactly one of"),
        (
            "nginx: {readiness: {succeedAfter: ten}}",
            "nginx.readiness.succeedAfter",
            'time: invalid duration "ten"',
        ),
        ("nginx: {readiness: {succeedAfter: 10}}", None, None),  # a number is seconds: fine
        ("nginx: {readiness: {succeedAfter: -5s}}", "nginx.readiness.succeedAfter", "negative"),
        ("nginx: {readiness: {succeedAfter: true}}", "nginx.readiness.succeedAfter", "boolean"),
        ("nginx: {startup: {results: []}}", "nginx.startup.results", "non-empty list"),
        (
            "nginx: {startup: {results: [success, sucess]}}",
            "nginx.startup.results[1]",
            "'sucess' is not a result; expected success, fail or warning",
        ),
    ],
)
def test_bad_annotations_name_the_pod_the_annotation_and_the_field(text, field, problem):
    pod = make_pod(scripts=text)
    if field is None:
        parse_probes_annotation(pod)
        return
    with pytest.raises(ProbeAnnotationError) as e:
        parse_probes_annotation(pod)
    assert e.value.field == field
    assert problem in e.value.problem
    assert str(e.value).startswith(f'pod default/web: annotation "{MinikubeletProbesAnnotation}"')
    if field:
        assert f'field "{field}"' in str(e.value)


def test_a_bad_annotation_fails_every_probe_is_logged_once_and_crashes_nothing(klog_out):
    pod = make_pod(
        scripts="nginx: {readiness: {succeedAfter: ten}}",
        readiness=http_probe(period_seconds=5, failure_threshold=1),
        liveness=http_probe(period_seconds=5, failure_threshold=100),
    )

    async def main():
        h = Harness()
        await go.sleep(100)
        h.add(pod)
        await go.sleep(22)
        assert h.manager.worker_count() == 2  # both workers still going
        return h

    h = go.run(main, seed=1)
    message = (
        f'pod default/web: annotation "{MinikubeletProbesAnnotation}", field '
        '"nginx.readiness.succeedAfter": time: invalid duration "ten" (write a duration such as '
        "10s or 1m30s)"
    )
    # Never ready: every readiness probe fails with the error as its output ...
    assert [r for _, r, _ in h.of("readiness")] == [Result.FAILURE]
    readiness_events = [m for _, m in h.events("Unhealthy") if m.startswith("Readiness")]
    assert len(readiness_events) == 6  # 0 s twice (the triggered run), 5, 10, 15, 20
    assert set(readiness_events) == {f"Readiness probe failed: {message}"}
    # ... and so does every other probe of the pod: nothing of the annotation is applied.
    assert any(m == f"Liveness probe failed: {message}" for _, m in h.events())
    # One error in the log, however many probes ran.
    log = klog_out.getvalue()
    assert log.count("Invalid probe scripts") == 1
    escaped = message.replace('"', '\\"')
    assert log.startswith("E0715 ")
    assert (
        f'"Invalid probe scripts: every probe of the pod fails" err="{escaped}" pod="default/web" '
        f'annotation="{MinikubeletProbesAnnotation}"'
    ) in log


# --- the handlers ------------------------------------------------------------------------------


def probe_once(probe: Probe, scripts: str | None = None, container: Container | None = None):
    """Run one readiness probe through the prober; (result, err, events)."""
    pod = make_pod(scripts=scripts, readiness=probe)
    if container is not None:
        pod.spec.containers[0] = container

    async def main():
        h = Harness(kubelet=False)
        c = pod.spec.containers[0]
        status = PodStatus(pod_ip=POD_IP, container_statuses=[running(c.name, ID1, 0.0)])
        calls = []
        run_probe = h.manager.prober.run_probe

        def counting(*args):
            calls.append(args[0])
            return run_probe(*args)

        h.manager.prober.run_probe = counting
        result, err = h.manager.prober.probe(readiness, pod, status, c, parse_container_id(ID1))
        return result, err, h.recorder.events, len(calls)

    return go.run(main, seed=1)


def test_exec_and_tcp_probes_say_what_kubelet_would_have_done():
    scripts = "nginx: {readiness: {results: [fail]}}"
    exec_probe = Probe(exec=ExecAction(command=["cat", "/tmp/healthy file"]))
    result, err, events, _ = probe_once(exec_probe, scripts)
    assert (result, err) == (Result.FAILURE, None)
    assert events[0].message.startswith(
        "Readiness probe failed: exec cat '/tmp/healthy file': scripted failure"
    )
    tcp = Probe(tcp_socket=TCPSocketAction(port="http"))
    _, _, events, _ = probe_once(tcp, scripts)
    assert events[0].message.startswith(f"Readiness probe failed: TCP dial {POD_IP}:8080: ")


def test_an_exec_probe_runs_its_command_expanded_from_the_container_env():
    # As prober.go's runProbe: ExpandContainerCommandOnlyStatic with the container's env.
    scripts = "nginx: {readiness: {results: [fail]}}"
    exec_probe = Probe(exec=ExecAction(command=["cat", "$(DIR)/healthy", "$$(DIR)", "$(NONE)"]))
    c = Container(
        name="nginx",
        image="nginx:1.21",
        env=[EnvVar(name="DIR", value="/tmp/app")],
        readiness_probe=exec_probe,
    )
    result, _, events, _ = probe_once(exec_probe, scripts, container=c)
    assert result == Result.FAILURE
    assert events[0].message.startswith(
        "Readiness probe failed: exec cat /tmp/app/healthy '$(DIR)' '$(NONE)': scripted failure"
    )


def test_probes_without_a_script_succeed_quietly():
    result, err, events, calls = probe_once(http_probe())
    assert (result, err, events, calls) == (Result.SUCCESS, None, [], 1)


def test_a_port_that_cannot_be_found_is_an_error_retried_three_times():
    result, err, events, calls = probe_once(http_probe(port="metrics"))
    assert result == Result.FAILURE and calls == 3
    assert str(err) == 'strconv.Atoi: parsing "metrics": invalid syntax'
    assert [(e.type, e.reason, e.message) for e in events] == [
        (
            "Warning",
            "Unhealthy",
            'Readiness probe errored: strconv.Atoi: parsing "metrics": invalid syntax',
        )
    ]


def test_an_erroring_probe_leaves_the_result_as_it_was():
    """doProbe throws away a result that came with an error: the container stays unready."""
    pod = make_pod(readiness=http_probe(port=0, period_seconds=5, failure_threshold=1))

    async def main():
        h = Harness()
        await go.sleep(100)
        h.add(pod)
        await go.sleep(12)
        return h

    h = go.run(main, seed=1)
    assert h.of("readiness") == [(0, Result.FAILURE, ID1)]
    assert {m for _, m in h.events()} == {"Readiness probe errored: invalid port number: 0"}


def test_a_probe_without_a_handler_is_an_error():
    result, err, _, calls = probe_once(Probe())
    assert result == Result.FAILURE and calls == 3
    assert str(err) == "missing probe handler for web_default(uid-web):nginx"


def test_extract_port():
    c = Container(name="c", image="i", ports=[ContainerPort(container_port=9090, name="metrics")])
    assert extract_port(8080, c) == (8080, None)
    assert extract_port("metrics", c) == (9090, None)
    assert extract_port("8081", c) == (8081, None)  # an int stored as a string
    port, err = extract_port("web", c)
    assert str(err) == 'strconv.Atoi: parsing "web": invalid syntax'
    port, err = extract_port(70000, c)
    assert port == 70000 and str(err) == "invalid port number: 70000"


def test_format_url_and_headers():
    assert (
        format_url("http", "10.0.0.5", 80, "/healthz?full=1") == "http://10.0.0.5:80/healthz?full=1"
    )
    assert format_url("https", "fd00::5", 443, "/") == "https://[fd00::5]:443/"
    headers = [HTTPHeader(name="X-A", value="1"), HTTPHeader(name="X-A", value="2")]
    assert build_header(headers) == {"X-A": ["1", "2"]}


def test_http_probe_url_uses_the_probe_host_and_scheme():
    probe = Probe(
        http_get=HTTPGetAction(port="http", path="/ready", host="example.test", scheme="HTTPS")
    )
    _, _, events, _ = probe_once(probe, "nginx: {readiness: {results: [fail]}}")
    assert events[0].message.startswith(
        "Readiness probe failed: HTTP GET https://example.test:8080/ready: scripted failure"
    )
