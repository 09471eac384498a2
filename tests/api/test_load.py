"""Loading pod manifests: decoding, API defaulting, validation and the errors it reports."""

import json
import textwrap
from fractions import Fraction

import pytest

from minikubelet.config import common
from minikubelet.config.common import load_pod_file
from minikubelet.config.manifest import (
    ManifestError,
    load_pods,
    pod_from_dict,
    pod_to_dict,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import Pod, PullPolicy, RestartPolicy

SRC = "manifests/web.yaml"


def pod_yaml(spec: str = "", *, name: str = "web", extra_meta: str = "") -> str:
    """A minimal valid pod; ``spec`` replaces the containers when given."""
    spec = spec or "containers:\n  - name: app\n    image: nginx:1.21\n"
    meta = f"name: {name}\n{extra_meta}" if name else extra_meta
    return (
        "apiVersion: v1\nkind: Pod\nmetadata:\n"
        + textwrap.indent(meta or "{}\n", "  ")
        + "spec:\n"
        + textwrap.indent(textwrap.dedent(spec), "  ")
    )


def load_one(text: str) -> Pod:
    """The one pod of ``text``, checked to survive ``pod_to_dict`` and loading back."""
    pods, errors = load_pods(text, SRC)
    assert errors == []
    assert len(pods) == 1
    assert pod_from_dict(pod_to_dict(pods[0])) == pods[0]
    return pods[0]


def messages(text: str) -> list[str]:
    pods, errors = load_pods(text, SRC, allow_pod_list=True)
    assert pods == []
    return [str(e) for e in errors]


# --- good manifests ------------------------------------------------------------------------


def test_single_pod_with_defaults():
    pod = load_one(
        pod_yaml(
            """\
            containers:
              - name: nginx
                image: nginx:1.21
                command: [nginx, -g, daemon off;]
                ports: [{containerPort: 80, name: http}]
                env: [{name: MODE, value: prod}]
                resources:
                  limits: {cpu: 500m, memory: 128Mi}
                readinessProbe:
                  httpGet: {port: http}
            """,
            extra_meta="labels: {app: web}\n",
        )
    )
    assert pod.api_version == "v1" and pod.kind == "Pod"
    assert pod.metadata.name == "web"
    assert pod.metadata.namespace == ""  # kubelet's config layer defaults it, not the loader
    assert pod.metadata.labels == {"app": "web"}
    spec = pod.spec
    assert spec.restart_policy is RestartPolicy.ALWAYS
    assert spec.termination_grace_period_seconds == 30
    assert spec.dns_policy is v1.DNSClusterFirst
    (c,) = spec.containers
    assert c.command == ["nginx", "-g", "daemon off;"]
    assert c.image_pull_policy is PullPolicy.IF_NOT_PRESENT
    assert c.termination_message_path == "/dev/termination-log"
    assert c.termination_message_policy is v1.TerminationMessageReadFile
    assert c.ports == [v1.ContainerPort(container_port=80, name="http", protocol=v1.ProtocolTCP)]
    assert c.env == [v1.EnvVar(name="MODE", value="prod")]
    # requests default to limits
    assert c.resources.requests == c.resources.limits
    assert c.resources.cpu_millis() == 500 and c.resources.cpu_millis("limits") == 500
    assert c.resources.memory_bytes() == 128 * 2**20
    probe = c.readiness_probe
    assert probe is not None and probe.http_get is not None
    assert (probe.http_get.path, probe.http_get.port, probe.http_get.scheme) == (
        "/",
        "http",
        "HTTP",
    )
    assert (probe.initial_delay_seconds, probe.timeout_seconds, probe.period_seconds) == (0, 1, 10)
    assert (probe.success_threshold, probe.failure_threshold) == (1, 3)
    assert probe.handler == v1.Handler(http_get=probe.http_get)
    assert pod.status == v1.PodStatus()


@pytest.mark.parametrize(
    ("image", "policy"),
    [
        ("nginx", PullPolicy.ALWAYS),
        ("nginx:latest", PullPolicy.ALWAYS),
        ("nginx:1.21", PullPolicy.IF_NOT_PRESENT),
        ("localhost:5000/app", PullPolicy.ALWAYS),
        ("registry.example.com:5000/team/app:v2", PullPolicy.IF_NOT_PRESENT),
        ("nginx@sha256:" + "a" * 64, PullPolicy.IF_NOT_PRESENT),
        ("nginx:1.21@sha256:" + "a" * 64, PullPolicy.IF_NOT_PRESENT),
        ("NGINX", PullPolicy.IF_NOT_PRESENT),  # not a valid reference: no tag found
    ],
)
def test_image_pull_policy_defaults_from_the_tag(image, policy):
    pod = load_one(pod_yaml(f"containers: [{{name: app, image: {json.dumps(image)}}}]\n"))
    assert pod.spec.containers[0].image_pull_policy is policy


def test_explicit_values_are_kept_and_zeros_mean_unset():
    pod = load_one(
        pod_yaml(
            """\
            restartPolicy: Never
            terminationGracePeriodSeconds: 0
            activeDeadlineSeconds: 60
            dnsPolicy: ""
            containers:
              - name: app
                image: nginx
                imagePullPolicy: Never
                livenessProbe:
                  exec: {command: [true]}
                  periodSeconds: 0
                  timeoutSeconds: 5
                  failureThreshold: 0
            """
        ).replace("[true]", '["true"]')
    )
    assert pod.spec.restart_policy is v1.RestartPolicyNever
    assert pod.spec.termination_grace_period_seconds == 0  # a set 0 stays 0
    assert pod.spec.active_deadline_seconds == 60
    assert pod.spec.dns_policy is v1.DNSClusterFirst  # "" means unset
    c = pod.spec.containers[0]
    assert c.image_pull_policy is v1.PullNever
    assert c.liveness_probe == v1.Probe(exec=v1.ExecAction(command=["true"]), timeout_seconds=5)


def test_host_network_ports_and_volumes_default():
    pod = load_one(
        pod_yaml(
            """\
            hostNetwork: true
            volumes: [{name: scratch}, {name: logs, hostPath: {path: /var/log}}]
            containers:
              - name: app
                image: nginx:1.21
                ports: [{containerPort: 8080, protocol: UDP}, {containerPort: 80, hostPort: 81}]
                volumeMounts: [{name: logs, mountPath: /logs, readOnly: true}]
            """
        )
    )
    ports = pod.spec.containers[0].ports
    assert [(p.container_port, p.host_port, p.protocol) for p in ports] == [
        (8080, 8080, "UDP"),
        (80, 81, "TCP"),
    ]
    assert pod.spec.volumes == [
        v1.Volume(name="scratch", volume_source={"emptyDir": {}}),
        v1.Volume(name="logs", volume_source={"hostPath": {"path": "/var/log"}}),
    ]
    assert pod.spec.containers[0].volume_mounts == [
        v1.VolumeMount(name="logs", mount_path="/logs", read_only=True)
    ]


def test_quantities_in_manifests():
    pod = load_one(
        pod_yaml(
            """\
            containers:
              - name: app
                image: nginx:1.21
                resources:
                  requests: {cpu: 0.25, memory: 1e6, ephemeral-storage: " 1Gi "}
                  limits: {cpu: 1, memory: 1G, example.com/gpu: 2}
            """
        )
    )
    r = pod.spec.containers[0].resources
    assert r.cpu_millis() == 250 and r.cpu_millis("limits") == 1000
    assert r.memory_bytes() == 10**6 and r.memory_bytes("limits") == 10**9
    assert r.requests["ephemeral-storage"].value() == 2**30
    assert r.requests["example.com/gpu"].value() == 2  # requests default to limits
    # quantities are rounded up to a thousandth, as the API server does
    tiny = load_one(
        pod_yaml("containers: [{name: a, image: b, resources: {requests: {cpu: 0.1m}}}]\n")
    )
    assert tiny.spec.containers[0].resources.requests["cpu"].amount == Fraction(1, 1000)


def test_init_containers_and_lifecycle():
    pod = load_one(
        pod_yaml(
            """\
            initContainers:
              - {name: setup, image: "busybox:1.33", command: [sh, -c, "echo hi"]}
            containers:
              - name: app
                image: nginx:1.21
                lifecycle:
                  postStart: {exec: {command: [touch, /ready]}}
                  preStop: {httpGet: {port: 80, path: /quit}}
            """
        )
    )
    assert [c.name for c in pod.spec.init_containers] == ["setup"]
    lifecycle = pod.spec.containers[0].lifecycle
    assert lifecycle is not None and lifecycle.post_start is not None
    assert lifecycle.post_start.exec == v1.ExecAction(command=["touch", "/ready"])
    assert lifecycle.pre_stop == v1.Handler(http_get=v1.HTTPGetAction(path="/quit", port=80))


def test_annotations_are_kept_as_strings_including_minikubelet_ones():
    pod = load_one(
        pod_yaml(
            extra_meta=(
                "annotations:\n"
                '  minikubelet.dev/scenario: "exit 1 after 5s"\n'
                '  example.com/count: "3"\n'
            )
        )
    )
    assert pod.metadata.annotations == {
        v1.MinikubeletScenarioAnnotation: "exit 1 after 5s",
        "example.com/count": "3",
    }


def test_scalars_read_as_kubelet_reads_them():
    # Dates and base-60 numbers stay strings (PyYAML alone would make a date and the int 90).
    pod = load_one(
        pod_yaml(
            """\
            containers:
              - name: app
                image: nginx:1.21
                env: [{name: DAY, value: 2021-07-15}, {name: TIME, value: 1:30}]
            """
        )
    )
    assert [e.value for e in pod.spec.containers[0].env] == ["2021-07-15", "1:30"]


def test_unknown_fields_are_ignored():
    pod = load_one(
        pod_yaml(
            """\
            schedulerName: mine
            containers:
              - name: app
                image: nginx:1.21
                imagePulPolicy: Never
                securityContext: {privileged: true}
            """,
            extra_meta="finalizers: [x]\n",
        )
    )
    assert pod.spec.containers[0].image_pull_policy is v1.PullIfNotPresent


def test_times_and_status():
    pod = load_one(
        pod_yaml(
            extra_meta='creationTimestamp: "2021-07-15T00:00:00Z"\ndeletionGracePeriodSeconds: 30\n'
        )
        + textwrap.dedent(
            """\
            status:
              phase: Running
              podIP: 10.0.0.5
              startTime: "2021-07-15T00:00:01Z"
              conditions: [{type: Ready, status: "True"}]
              containerStatuses:
                - name: app
                  ready: true
                  restartCount: 2
                  started: true
                  state: {running: {startedAt: "2021-07-15T00:00:02Z"}}
                  lastState: {terminated: {exitCode: 137, reason: OOMKilled}}
            """
        )
    )
    epoch = 1626307200.0  # 2021-07-15T00:00:00Z
    assert pod.metadata.creation_timestamp == epoch
    assert pod.metadata.deletion_grace_period_seconds == 30
    status = pod.status
    assert status.phase is v1.PodRunning and status.pod_ip == "10.0.0.5"
    assert status.start_time == epoch + 1
    assert status.conditions == [v1.PodCondition(type=v1.PodReady, status=v1.ConditionTrue)]
    (cs,) = status.container_statuses
    assert cs.state.running == v1.ContainerStateRunning(started_at=epoch + 2)
    assert cs.last_state.terminated == v1.ContainerStateTerminated(
        exit_code=137, reason="OOMKilled"
    )
    assert (cs.ready, cs.restart_count, cs.started) == (True, 2, True)


def test_pod_list_and_only_the_first_document():
    text = textwrap.dedent(
        """\
        # a comment before the document
        apiVersion: v1
        kind: PodList
        items:
          - metadata: {name: b}
            spec: {containers: [{name: app, image: x}]}
          - apiVersion: v1
            kind: Pod
            metadata: {name: c}
            spec: {containers: [{name: app, image: x}]}
        ---
        """
    ) + pod_yaml(name="d")
    pods, errors = load_pods(text, SRC, allow_pod_list=True)
    assert errors == []
    assert [p.metadata.name for p in pods] == ["b", "c"]  # "d" is in a later document
    assert all(p.kind == "Pod" and p.api_version == "v1" for p in pods)


def test_json_is_accepted():
    data = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "j"},
        "spec": {"containers": [{"name": "app", "image": "nginx:1.21"}]},
    }
    pods, errors = load_pods(json.dumps(data, indent=2), "http://example.com/pods")
    assert errors == [] and pods[0].metadata.name == "j"
    assert pod_from_dict(data) == pods[0]


# --- bad manifests: every class of error, with its exact message -----------------------------

BAD = [
    pytest.param(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {}\n",
        [
            "manifests/web.yaml: not valid YAML: mapping values are not allowed in this "
            "context (line 5, column 10)"
        ],
        id="not-yaml",
    ),
    pytest.param(
        '{"apiVersion": "v1", "kind": "Pod",}',
        [
            "manifests/web.yaml: not valid JSON (the text starts with '{', so it is read as JSON, "
            "as kubelet does): Expecting property name enclosed in double quotes "
            "(line 1, column 36)"
        ],
        id="not-json",
    ),
    pytest.param(
        "- just\n- a list\n",
        ["manifests/web.yaml: document 1: expected a mapping (a Pod object), got a list"],
        id="not-a-mapping",
    ),
    pytest.param(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
        [
            'manifests/web.yaml: document 1: apiVersion: unsupported apiVersion "apps/v1": '
            'a Pod\'s apiVersion is "v1"',
            'manifests/web.yaml: document 1: kind: unsupported kind "Deployment": '
            'must be "Pod" or "PodList" (kubelet runs pods only)',
        ],
        id="not-a-pod",
    ),
    pytest.param(
        "metadata: {name: x}\n",
        [
            'manifests/web.yaml: document 1: apiVersion: required: must be "v1"',
            'manifests/web.yaml: document 1: kind: required: must be "Pod" or "PodList"',
        ],
        id="no-type-meta",
    ),
    pytest.param(
        pod_yaml(name=""),
        ["manifests/web.yaml: document 1: metadata.name: required"],
        id="missing-name",
    ),
    pytest.param(
        "apiVersion: v1\nkind: Pod\nspec: {containers: [{name: a, image: b}]}\n",
        ["manifests/web.yaml: document 1: metadata: required: a pod needs a name"],
        id="missing-metadata",
    ),
    pytest.param(
        pod_yaml(name="Web_1"),
        [
            'manifests/web.yaml: document 1: metadata.name: invalid name "Web_1": must be at '
            "most 253 characters of lowercase letters, digits, '-' and '.', starting and "
            "ending with a letter or digit (a DNS-1123 subdomain)"
        ],
        id="bad-name",
    ),
    pytest.param(
        pod_yaml(extra_meta="namespace: kube.system\n"),
        [
            "manifests/web.yaml: document 1: metadata.namespace: invalid namespace "
            '"kube.system": must be at most 63 characters of lowercase letters, digits and '
            "'-', starting and ending with a letter or digit (a DNS-1123 label)"
        ],
        id="bad-namespace",
    ),
    pytest.param(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n",
        ["manifests/web.yaml: document 1: spec: required: a pod needs a spec with containers"],
        id="missing-spec",
    ),
    pytest.param(
        pod_yaml("containers: []\n"),
        [
            "manifests/web.yaml: document 1: spec.containers: required: a pod needs at least "
            "one container"
        ],
        id="no-containers",
    ),
    pytest.param(
        pod_yaml("containers: [{image: nginx}]\n"),
        ["manifests/web.yaml: document 1: spec.containers[0].name: required"],
        id="container-without-name",
    ),
    pytest.param(
        pod_yaml("containers: [{name: a, image: x}, {name: app}]\n"),
        ["manifests/web.yaml: document 1: spec.containers[1].image: required"],
        id="container-without-image",
    ),
    pytest.param(
        pod_yaml("containers: [{name: app, image: x}, {name: app, image: y}]\n"),
        ['manifests/web.yaml: document 1: spec.containers[1].name: duplicate name "app"'],
        id="duplicate-container",
    ),
    pytest.param(
        pod_yaml(
            "initContainers: [{name: app, image: y}, {name: init, image: y}, "
            "{name: init, image: y}]\ncontainers: [{name: app, image: x}]\n"
        ),
        [
            'manifests/web.yaml: document 1: spec.initContainers[2].name: duplicate name "init"',
            'manifests/web.yaml: document 1: spec.initContainers[0].name: duplicate name "app"',
        ],
        id="duplicate-init-container",
    ),
    pytest.param(
        pod_yaml("containers: [{name: My_App, image: x}]\n"),
        [
            'manifests/web.yaml: document 1: spec.containers[0].name: invalid name "My_App": '
            "must be at most 63 characters of lowercase letters, digits and '-', starting and "
            "ending with a letter or digit (a DNS-1123 label)"
        ],
        id="bad-container-name",
    ),
    pytest.param(
        pod_yaml("containers: [{name: app, image: 1.21}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].image: expected a string, "
            "got a number (1.21) (put it in quotes)"
        ],
        id="image-is-a-number",
    ),
    pytest.param(
        pod_yaml("containers: [{name: app, image: x, env: [{name: DEBUG, value: yes}]}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].env[0].value: expected a "
            "string, got a boolean (true) (YAML reads yes/no/true/false/on/off unquoted as "
            "booleans: quote it)"
        ],
        id="env-value-is-a-boolean",
    ),
    pytest.param(
        pod_yaml("containers: {name: app, image: x}\n"),
        ["manifests/web.yaml: document 1: spec.containers: expected a list, got a mapping"],
        id="containers-not-a-list",
    ),
    pytest.param(
        pod_yaml("containers: [app]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0]: expected a mapping, "
            'got a string ("app")'
        ],
        id="container-not-a-mapping",
    ),
    pytest.param(
        pod_yaml("hostNetwork: 'yes'\ncontainers: [{name: a, image: b, command: sh}]\n"),
        [  # in the order of the fields in Go's PodSpec
            "manifests/web.yaml: document 1: spec.containers[0].command: expected a list, "
            'got a string ("sh")',
            "manifests/web.yaml: document 1: spec.hostNetwork: expected a boolean (true or "
            'false), got a string ("yes")',
        ],
        id="several-type-errors-all-reported",
    ),
    pytest.param(
        pod_yaml("terminationGracePeriodSeconds: 1.5\ncontainers: [{name: a, image: b}]\n"),
        [
            "manifests/web.yaml: document 1: spec.terminationGracePeriodSeconds: expected an "
            "integer, got a number (1.5)"
        ],
        id="int-is-a-float",
    ),
    pytest.param(
        pod_yaml("containers: [{name: a, image: b, ports: [{containerPort: 4294967296}]}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].ports[0].containerPort: "
            "4294967296 is out of range (a 32-bit integer)"
        ],
        id="int32-overflow",
    ),
    pytest.param(
        pod_yaml(extra_meta="annotations: {replicas: 3}\n"),
        [
            "manifests/web.yaml: document 1: metadata.annotations[replicas]: expected a "
            "string, got an integer (3) (put it in quotes)"
        ],
        id="annotation-not-a-string",
    ),
    pytest.param(
        pod_yaml(extra_meta="labels: {app: -web-}\n"),
        [
            'manifests/web.yaml: document 1: metadata.labels[app]: invalid label value "-web-": '
            "must be empty or at most 63 characters of letters, digits, '-', '_' and '.', "
            "starting and ending with a letter or digit"
        ],
        id="bad-label-value",
    ),
    pytest.param(
        pod_yaml("restartPolicy: always\ncontainers: [{name: a, image: b}]\n"),
        [
            'manifests/web.yaml: document 1: spec.restartPolicy: unsupported value "always": '
            'must be one of "Always", "OnFailure", "Never"'
        ],
        id="bad-restart-policy",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, ports: [{containerPort: 0}, "
            "{containerPort: 70000}, {containerPort: 80, hostPort: -1}]}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].ports[0].containerPort: required",
            "manifests/web.yaml: document 1: spec.containers[0].ports[1].containerPort: "
            "invalid port 70000: must be between 1 and 65535",
            "manifests/web.yaml: document 1: spec.containers[0].ports[2].hostPort: "
            "invalid port -1: must be between 1 and 65535",
        ],
        id="bad-ports",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, ports: [{containerPort: 80, hostPort: 80}]},"
            " {name: c, image: d, ports: [{containerPort: 81, hostPort: 80}]}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[1].ports[0].hostPort: duplicate "
            "host port TCP//80"
        ],
        id="host-port-conflict",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, readinessProbe: {periodSeconds: -1, "
            "initialDelaySeconds: -5, tcpSocket: {port: 80}}}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].readinessProbe."
            "initialDelaySeconds: must not be negative, got -5",
            "manifests/web.yaml: document 1: spec.containers[0].readinessProbe.periodSeconds: "
            "must not be negative, got -1",
        ],
        id="negative-probe-numbers",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, livenessProbe: {successThreshold: 2, "
            "exec: {command: [x]}, tcpSocket: {port: 1}}}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].livenessProbe.tcpSocket: "
            "may not specify more than 1 handler type",
            "manifests/web.yaml: document 1: spec.containers[0].livenessProbe.successThreshold: "
            "must be 1 for liveness and startup probes, got 2",
        ],
        id="bad-liveness-probe",
    ),
    pytest.param(
        pod_yaml("containers: [{name: a, image: b, startupProbe: {periodSeconds: 3}}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].startupProbe: must specify a "
            "handler type: exec, httpGet or tcpSocket"
        ],
        id="probe-without-handler",
    ),
    pytest.param(
        pod_yaml(
            "initContainers: [{name: i, image: b, readinessProbe: {exec: {command: [x]}}}]"
            "\ncontainers: [{name: a, image: b}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.initContainers[0].readinessProbe: must not "
            "be set for init containers"
        ],
        id="probe-on-init-container",
    ),
    pytest.param(
        pod_yaml("containers: [{name: a, image: b, resources: {limits: {memory: 128MB}}}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].resources.limits[memory]: "
            'invalid quantity "128MB": expected a number and an optional suffix (examples: '
            '"500m", "0.5", "128Mi", "1G", "1e3")'
        ],
        id="bad-quantity",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, resources: {requests: {cpu: '2'}, "
            "limits: {cpu: '1'}}}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].resources.requests[cpu]: must "
            'be less than or equal to the cpu limit (request "2", limit "1")'
        ],
        id="request-above-limit",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, resources: {requests: {cpu: -1, gpu: 1, "
            "example.com/gpu: 0.5}}}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].resources.requests[cpu]: must "
            'not be negative, got "-1"',
            "manifests/web.yaml: document 1: spec.containers[0].resources.requests[gpu]: "
            'unsupported resource "gpu": a container may ask for cpu, memory, '
            "ephemeral-storage, hugepages-<size> or an extended resource such as "
            "example.com/gpu",
            "manifests/web.yaml: document 1: spec.containers[0].resources.requests"
            '[example.com/gpu]: must be a whole number, got "0.5"',
            "manifests/web.yaml: document 1: spec.containers[0].resources.limits"
            "[example.com/gpu]: required: a request for example.com/gpu needs a limit (and "
            "they must match)",
        ],
        id="bad-resources",
    ),
    pytest.param(
        pod_yaml(
            "containers: [{name: a, image: b, volumeMounts: [{name: data, mountPath: /d}]}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.containers[0].volumeMounts[0].name: not "
            'found: the pod has no volume named "data"'
        ],
        id="mount-of-missing-volume",
    ),
    pytest.param(
        pod_yaml(
            "volumes: [{name: v, emptyDir: {}, hostPath: {path: /}}]\n"
            "containers: [{name: a, image: b}]\n"
        ),
        [
            "manifests/web.yaml: document 1: spec.volumes[0]: may not specify more than 1 "
            "volume type (got hostPath, emptyDir)"
        ],
        id="two-volume-types",
    ),
    pytest.param(
        pod_yaml("containers: [{name: a, image: b, env: [{name: 1ABC}]}]\n"),
        [
            "manifests/web.yaml: document 1: spec.containers[0].env[0].name: invalid "
            "environment variable name \"1ABC\": must consist of letters, digits, '_', '-' "
            "and '.', and must not start with a digit"
        ],
        id="bad-env-name",
    ),
    pytest.param(
        pod_yaml(extra_meta='creationTimestamp: "yesterday"\n'),
        [
            "manifests/web.yaml: document 1: metadata.creationTimestamp: expected an RFC 3339 "
            'time such as "2021-07-15T00:00:00Z", got a string ("yesterday")'
        ],
        id="bad-time",
    ),
    pytest.param(
        pod_yaml("activeDeadlineSeconds: 0\ncontainers: [{name: a, image: b}]\n"),
        [
            "manifests/web.yaml: document 1: spec.activeDeadlineSeconds: must be between 1 "
            "and 2147483647, got 0"
        ],
        id="bad-active-deadline",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BAD)
def test_bad_manifests(text, expected):
    assert messages(text) == expected


def test_error_attributes():
    text = pod_yaml("containers: [{name: app, image: x}, {name: b}]\n")
    pods, errors = load_pods(text, SRC)
    assert pods == []
    (error,) = errors
    assert isinstance(error, ManifestError) and isinstance(error, Exception)
    assert (error.source, error.document, error.field) == (SRC, 1, "spec.containers[1].image")
    assert error.message == "required"
    assert str(error) == "manifests/web.yaml: document 1: spec.containers[1].image: required"
    assert error == ManifestError(SRC, 1, "spec.containers[1].image", "required")


def test_a_bad_item_rejects_the_whole_pod_list():
    text = textwrap.dedent(
        """\
        apiVersion: v1
        kind: PodList
        items:
          - metadata: {name: good}
            spec: {containers: [{name: app, image: x}]}
          - metadata: {name: bad}
            spec: {containers: [{name: app}]}
          - kind: Service
            metadata: {name: odd}
            spec: {containers: [{name: app, image: x}]}
        """
    )
    pods, errors = load_pods(text, SRC, allow_pod_list=True)
    assert pods == []
    assert [str(e) for e in errors] == [
        "manifests/web.yaml: document 1: items[1].spec.containers[0].image: required",
        'manifests/web.yaml: document 1: items[2].kind: must be "Pod" (or left out)',
    ]


def test_a_yaml_error_rejects_the_whole_text():
    text = "key: [unclosed\n---\n" + pod_yaml(name="a")
    pods, errors = load_pods(text, SRC)
    assert pods == []
    assert [(e.document, e.field) for e in errors] == [(None, None)]
    assert str(errors[0]).startswith("manifests/web.yaml: not valid YAML: ")


# --- as kubelet reads ------------------------------------------------------------------------


def test_only_the_first_document_is_read():
    text = pod_yaml(name="first") + "---\n" + pod_yaml(name="second") + "---\n: [not yaml\n"
    pods, errors = load_pods(text, SRC)
    assert errors == [] and [p.metadata.name for p in pods] == ["first"]


def test_a_pod_list_is_refused_from_a_file_but_not_from_a_url():
    text = "apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: a}\n  spec: {containers: [{name: c, image: i}]}\n"
    pods, errors = load_pods(text, SRC)
    assert pods == []
    assert [str(e) for e in errors] == [
        'manifests/web.yaml: document 1: kind: unsupported kind "PodList": must be "Pod" '
        "(kubelet reads one Pod per file; it accepts a PodList only from a URL)"
    ]
    pods, errors = load_pods(text, "http://host/pods", allow_pod_list=True)
    assert errors == [] and [p.metadata.name for p in pods] == ["a"]


def test_an_empty_text_is_an_error():
    assert load_pods("", SRC) == (
        [],
        [ManifestError(SRC, 1, None, "no pod: the text is empty")],
    )


# --- files -----------------------------------------------------------------------------------


def test_load_pod_file(tmp_path):
    path = tmp_path / "web.yaml"
    path.write_text(pod_yaml(name="a") + "---\n" + pod_yaml(name="b"))
    pods, errors = load_pod_file(str(path))
    assert errors == [] and [p.metadata.name for p in pods] == ["a"]


def test_load_pod_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(pod_yaml("containers: []\n"))
    _, errors = load_pod_file(bad)
    assert [str(e) for e in errors] == [
        f"{bad}: document 1: spec.containers: required: a pod needs at least one container"
    ]
    missing = tmp_path / "missing.yaml"
    _, errors = load_pod_file(missing)
    assert [str(e) for e in errors] == [f"{missing}: cannot read: No such file or directory"]
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xffkind: Pod")
    _, errors = load_pod_file(binary)
    # Not UTF-8, so not YAML, as go-yaml says; the same text from the file source fails alike.
    assert [str(e) for e in errors] == [
        f"{binary}: not valid YAML: invalid leading UTF-8 octet at byte 0"
    ]


def test_load_pod_file_refuses_a_file_larger_than_kubelet_reads(tmp_path, monkeypatch):
    assert common.maxConfigLength == 10 * 2**20
    monkeypatch.setattr(common, "maxConfigLength", 100)
    path = tmp_path / "big.yaml"
    path.write_text(pod_yaml())
    assert len(path.read_bytes()) > 100
    pods, errors = load_pod_file(path)
    assert pods == []
    assert [str(e) for e in errors] == [f"{path}: too large: kubelet reads at most 100 bytes"]


def test_pod_from_dict_raises_the_first_error():
    with pytest.raises(ManifestError) as info:
        pod_from_dict({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}, "spec": {}})
    assert (
        str(info.value) == "<dict>: spec.containers: required: a pod needs at least one container"
    )


def test_default_fn_runs_after_api_defaults_and_before_validation():
    seen = []

    def node_defaults(pod: Pod) -> None:
        seen.append(pod.spec.containers[0].image_pull_policy)  # API defaults are already in
        pod.metadata.name = f"{pod.metadata.name}-{'n' * 250}"
        pod.metadata.namespace = "default"

    text = pod_yaml(name="web")
    pods, errors = load_pods(text, SRC, default_fn=node_defaults)
    assert seen == [PullPolicy.IF_NOT_PRESENT]
    assert pods == []
    assert [e.field for e in errors] == ["metadata.name"]  # 254 characters: too long
    pods, errors = load_pods(text, SRC)
    assert errors == [] and pods[0].metadata.name == "web"
