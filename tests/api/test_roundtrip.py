"""Properties: generated valid manifests load into the expected pods, and pods written back with
``pod_to_dict`` load back equal."""

import json

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.config.manifest import load_pods, pod_from_dict, pod_to_dict
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    ContainerPort,
    EnvVar,
    ExecAction,
    HTTPGetAction,
    MinikubeletScenarioAnnotation,
    Pod,
    PodSpec,
    Probe,
    Protocol,
    PullPolicy,
    ResourceRequirements,
    RestartPolicy,
    TCPSocketAction,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import parse_quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

dns_labels = st.from_regex(r"[a-z]([-a-z0-9]{0,8}[a-z0-9])?", fullmatch=True)
env_names = st.from_regex(r"[A-Z_][A-Z0-9_]{0,6}", fullmatch=True)
label_keys = st.from_regex(r"(example\.com/)?[a-z]([-a-z0-9_.]{0,6}[a-z0-9])?", fullmatch=True)
label_values = st.from_regex(r"([A-Za-z0-9]([-A-Za-z0-9_.]{0,6}[A-Za-z0-9])?)?", fullmatch=True)
# Any text YAML can carry: no control characters, no line or paragraph separators.
texts = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), max_size=12
)

#: image → the pull policy the API server would give it
IMAGES = {
    "nginx": PullPolicy.ALWAYS,
    "nginx:1.21": PullPolicy.IF_NOT_PRESENT,
    "busybox:latest": PullPolicy.ALWAYS,
    "registry.local:5000/team/app:v2": PullPolicy.IF_NOT_PRESENT,
    "redis@sha256:" + "0" * 64: PullPolicy.IF_NOT_PRESENT,
}


def optional(strategy):
    return st.one_of(st.none(), strategy)


@st.composite
def quantities(draw, unit: str):
    """(written value, expected millis or bytes) for cpu or memory."""
    if unit == "cpu":
        millis = draw(st.integers(1, 4000))
        written = draw(
            st.sampled_from(
                [f"{millis}m", millis / 1000]
                + ([millis // 1000, str(millis // 1000)] if millis % 1000 == 0 else [])
            )
        )
        return written, millis
    mebibytes = draw(st.integers(1, 4096))
    written = draw(st.sampled_from([f"{mebibytes}Mi", mebibytes * 2**20, str(mebibytes * 2**20)]))
    return written, mebibytes * 2**20


@st.composite
def resources(draw):
    manifest: dict = {}
    expected = ResourceRequirements()
    for unit in ("cpu", "memory"):
        limit = draw(optional(quantities(unit)))
        request = draw(optional(quantities(unit)))
        if limit and request and request[1] > limit[1]:
            limit, request = request, limit
        if limit:
            manifest.setdefault("limits", {})[unit] = limit[0]
            expected.limits[unit] = parse_quantity(str(limit[0]))
        if request:
            manifest.setdefault("requests", {})[unit] = request[0]
        if request or limit:
            # requests default to limits
            expected.requests[unit] = parse_quantity(str((request or limit)[0]))
    return manifest, expected


@st.composite
def probes(draw, liveness: bool):
    kind = draw(st.sampled_from(["exec", "httpGet", "tcpSocket"]))
    port = draw(st.one_of(st.integers(1, 65535), st.sampled_from(["http", "metrics"])))
    if kind == "exec":
        command = draw(st.lists(texts, min_size=1, max_size=3))
        manifest = {"exec": {"command": command}}
        expected = Probe(exec=ExecAction(command=command))
    elif kind == "httpGet":
        path = draw(st.sampled_from([None, "/", "/healthz"]))
        manifest = {"httpGet": {"port": port, **({"path": path} if path else {})}}
        expected = Probe(http_get=HTTPGetAction(port=port, path=path or "/"))
    else:
        manifest = {"tcpSocket": {"port": port}}
        expected = Probe(tcp_socket=TCPSocketAction(port=port))
    defaults = {
        "initialDelaySeconds": 0,
        "timeoutSeconds": 1,
        "periodSeconds": 10,
        "successThreshold": 1,
        "failureThreshold": 3,
    }
    for key, default in defaults.items():
        if key == "successThreshold" and liveness:
            value = draw(st.sampled_from([None, 0, 1]))
        else:
            value = draw(optional(st.integers(0, 100)))
        if value is not None:
            manifest[key] = value
        attr = "".join("_" + c.lower() if c.isupper() else c for c in key)
        setattr(expected, attr, value or default)
    return manifest, expected


@st.composite
def containers(draw, name: str, init: bool):
    image = draw(st.sampled_from(sorted(IMAGES)))
    pull = draw(optional(st.sampled_from(list(PullPolicy))))
    manifest: dict = {"name": name, "image": image}
    expected = Container(name=name, image=image, image_pull_policy=pull or IMAGES[image])
    if pull:
        manifest["imagePullPolicy"] = str(pull)
    command = draw(st.lists(texts, max_size=3))
    if command:
        manifest["command"] = expected.command = command
    args = draw(st.lists(texts, max_size=2))
    if args:
        manifest["args"] = expected.args = args
    for name_, value in draw(st.lists(st.tuples(env_names, texts), max_size=3)):
        manifest.setdefault("env", []).append({"name": name_, "value": value})
        expected.env.append(EnvVar(name=name_, value=value))
    for port, protocol in draw(
        st.lists(
            st.tuples(st.integers(1, 65535), optional(st.sampled_from(list(Protocol)))), max_size=2
        )
    ):
        manifest.setdefault("ports", []).append(
            {"containerPort": port, **({"protocol": str(protocol)} if protocol else {})}
        )
        expected.ports.append(ContainerPort(container_port=port, protocol=protocol or Protocol.TCP))
    res_manifest, expected.resources = draw(resources())
    if res_manifest:
        manifest["resources"] = res_manifest
    if not init:
        for key, attr, liveness in (
            ("livenessProbe", "liveness_probe", True),
            ("readinessProbe", "readiness_probe", False),
            ("startupProbe", "startup_probe", True),
        ):
            probe = draw(optional(probes(liveness)))
            if probe:
                manifest[key] = probe[0]
                setattr(expected, attr, probe[1])
    return manifest, expected


@st.composite
def pod_cases(draw):
    """(manifest dict, expected Pod) for a valid pod."""
    all_names = draw(st.lists(dns_labels, min_size=1, max_size=4, unique=True))
    n_init = draw(st.integers(0, len(all_names) - 1))
    name = draw(dns_labels)
    meta = {"name": name}
    expected = Pod(metadata=ObjectMeta(name=name), spec=PodSpec())
    namespace = draw(optional(dns_labels))
    if namespace:
        meta["namespace"] = expected.metadata.namespace = namespace
    labels = draw(st.dictionaries(label_keys, label_values, max_size=3))
    if labels:
        meta["labels"] = expected.metadata.labels = labels
    annotations = draw(st.dictionaries(label_keys, texts, max_size=2))
    if draw(st.booleans()):
        annotations[MinikubeletScenarioAnnotation] = draw(texts)
    if annotations:
        meta["annotations"] = expected.metadata.annotations = annotations
    spec: dict = {"initContainers": [], "containers": []}
    for i, cname in enumerate(all_names):
        init = i < n_init
        c_manifest, c_expected = draw(containers(cname, init))
        spec["initContainers" if init else "containers"].append(c_manifest)
        (expected.spec.init_containers if init else expected.spec.containers).append(c_expected)
    if not spec["initContainers"]:
        del spec["initContainers"]
    restart = draw(optional(st.sampled_from(list(RestartPolicy))))
    if restart:
        spec["restartPolicy"] = str(restart)
        expected.spec.restart_policy = restart
    grace = draw(optional(st.integers(0, 300)))
    if grace is not None:
        spec["terminationGracePeriodSeconds"] = grace
        expected.spec.termination_grace_period_seconds = grace
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}, expected


@SETTINGS
@given(pod_cases())
def test_generated_manifests_load_as_expected(case):
    manifest, expected = case
    pods, errors = load_pods(yaml.safe_dump(manifest, allow_unicode=True), "gen.yaml")
    assert errors == []
    assert pods == [expected]
    pods, errors = load_pods(json.dumps(manifest), "gen.json")
    assert errors == [] and pods == [expected]


@SETTINGS
@given(pod_cases())
def test_pod_to_dict_loads_back_equal(case):
    _, pod = case
    written = pod_to_dict(pod)
    assert pod_from_dict(written) == pod
    pods, errors = load_pods(yaml.safe_dump(written), "back.yaml")
    assert errors == [] and pods == [pod]
    assert json.loads(json.dumps(written)) == written  # plain data only


@settings(SETTINGS, max_examples=15)
@given(st.lists(pod_cases(), min_size=1, max_size=3), st.data())
def test_one_bad_pod_rejects_a_whole_pod_list(cases, data):
    bad_at = data.draw(st.integers(0, len(cases)))
    items = [manifest for manifest, _ in cases]
    items.insert(bad_at, {"metadata": {"name": "bad"}, "spec": {}})
    text = yaml.safe_dump({"apiVersion": "v1", "kind": "PodList", "items": items})
    pods, errors = load_pods(text, "http://host/pods", allow_pod_list=True)
    assert pods == []
    assert [(e.document, e.field) for e in errors] == [(1, f"items[{bad_at}].spec.containers")]
    del items[bad_at]
    text = yaml.safe_dump({"apiVersion": "v1", "kind": "PodList", "items": items})
    pods, errors = load_pods(text, "http://host/pods", allow_pod_list=True)
    assert errors == [] and pods == [expected for _, expected in cases]
