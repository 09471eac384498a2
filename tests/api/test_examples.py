"""The example manifests shipped in examples/: the good ones load, the bad ones fail as named."""

from pathlib import Path

import pytest

from minikubelet.config.common import load_pod_file
from minikubelet.k8s_io.api.core.v1 import PullPolicy, RestartPolicy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOOD = EXAMPLES / "static-pods"
HTTP = EXAMPLES / "http-pods"
BAD = EXAMPLES / "bad-manifests"


def test_example_pods_load():
    names = {}
    for path in sorted([*GOOD.glob("*.yaml"), *HTTP.glob("*.yaml")]):
        pods, errors = load_pod_file(path, allow_pod_list=path.parent == HTTP)
        assert errors == [], path
        names[path.name] = [p.metadata.name for p in pods]
    assert names == {
        "init-container.yaml": ["web-with-setup"],
        "nginx.yaml": ["nginx"],
        "pod-list.yaml": ["redis", "worker"],
    }


def test_static_pods_content():
    (nginx,) = load_pod_file(GOOD / "nginx.yaml")[0]
    (c,) = nginx.spec.containers
    assert c.image_pull_policy is PullPolicy.IF_NOT_PRESENT
    assert (c.resources.cpu_millis(), c.resources.cpu_millis("limits")) == (100, 500)
    assert c.resources.memory_bytes("limits") == 128 * 2**20
    assert c.readiness_probe is not None and c.readiness_probe.period_seconds == 5
    (web,) = load_pod_file(GOOD / "init-container.yaml")[0]
    assert web.spec.restart_policy is RestartPolicy.ON_FAILURE
    assert [c.name for c in web.spec.init_containers] == ["fetch-content"]


def test_a_manifest_file_holds_single_pods_only():
    # A PodList is for a URL (examples/http-pods), not for a manifest file.
    pods, errors = load_pod_file(HTTP / "pod-list.yaml")
    assert pods == [] and [e.field for e in errors] == ["kind"]


#: file → (names of the pods that still load, the first error without the file name)
BAD_CASES = {
    "annotation-not-a-string.yaml": (
        [],
        "document 1: metadata.annotations[example.com/replicas]: expected a string, got an "
        "integer (3) (put it in quotes)",
    ),
    "bad-quantity.yaml": (
        [],
        'document 1: spec.containers[0].resources.limits[memory]: invalid quantity "128MB": '
        'expected a number and an optional suffix (examples: "500m", "0.5", "128Mi", "1G", '
        '"1e3")',
    ),
    "bad-restart-policy.yaml": (
        [],
        'document 1: spec.restartPolicy: unsupported value "always": must be one of "Always", '
        '"OnFailure", "Never"',
    ),
    "duplicate-container-name.yaml": (
        [],
        'document 1: spec.containers[1].name: duplicate name "app"',
    ),
    "image-not-a-string.yaml": (
        [],
        "document 1: spec.containers[0].image: expected a string, got a number (1.21) "
        "(put it in quotes)",
    ),
    "missing-name.yaml": ([], "document 1: metadata.name: required"),
    "no-containers.yaml": (
        [],
        "document 1: spec.containers: required: a pod needs at least one container",
    ),
    "not-a-pod.yaml": (
        [],
        'document 1: apiVersion: unsupported apiVersion "apps/v1": a Pod\'s apiVersion is "v1"',
    ),
    "not-yaml.yaml": (
        [],
        "not valid YAML: mapping values are not allowed in this context (line 6, column 10)",
    ),
    "port-out-of-range.yaml": (
        [],
        "document 1: spec.containers[0].ports[0].containerPort: invalid port 80800: must be "
        "between 1 and 65535",
    ),
    "request-above-limit.yaml": (
        [],
        "document 1: spec.containers[0].resources.requests[cpu]: must be less than or equal to "
        'the cpu limit (request "2", limit "1")',
    ),
}


def test_every_bad_manifest_has_a_case():
    assert sorted(p.name for p in BAD.glob("*.yaml")) == sorted(BAD_CASES)


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_manifests(name):
    path = BAD / name
    pods, errors = load_pod_file(path)
    loaded, first_error = BAD_CASES[name]
    assert [p.metadata.name for p in pods] == loaded
    assert str(errors[0]) == f"{path}: {first_error}"
