"""nodeSelector and node affinity, as kubelet's admission checks them against its own node.

Go (v1.21.4 lines): pkg/kubelet/lifecycle/predicate.go L139-143 (the "Predicate failed on Pod"
log), L214-216 (the message), L239-241 (GeneralPredicates asks PodMatchesNodeSelectorAndAffinityTerms);
pkg/kubelet/kubelet.go L1798-1804 (rejectPod: phase Failed, reason, "Pod " + message);
pkg/scheduler/framework/plugins/helper/node_affinity.go L27-70;
staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (terms);
staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Requirement.Matches);
pkg/kubelet/kubelet_node_status.go L287-300 (the node's well-known labels);
pkg/apis/core/validation/validation.go (ValidateNodeSelector…, ValidateLabels of nodeSelector).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from minikubelet.config.manifest import load_pods
from minikubelet.k8s_io.api.core.v1 import (
    Affinity,
    Container,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorOperator,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    Pod,
    PodSpec,
    PreferredSchedulingTerm,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.helper.node_affinity import (
    pod_matches_node_selector_and_affinity_terms,
)
from minikubelet.sim.cli import parse_node_labels
from tests.test_cli import run_cli

SSD = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: needs-ssd}\n"
    "spec:\n  nodeSelector: {disktype: ssd}\n"
    "  containers: [{name: app, image: 'busybox:1.33'}]\n"
)

ZONE_B_OR_ARM = """apiVersion: v1
kind: Pod
metadata: {name: zone-b}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [b]}
        - matchExpressions:
          - {key: kubernetes.io/arch, operator: In, values: [arm64]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        preference:
          matchExpressions: [{key: gpu, operator: Exists}]
  containers: [{name: app, image: 'busybox:1.33'}]
"""


def manifests(tmp_path: Path, **files: str) -> str:
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    return str(tmp_path)


def test_a_pod_whose_node_selector_does_not_match_is_rejected(tmp_path: Path):
    """Static pods are critical, but NodeAffinity is not a resource shortage: the critical-pod
    handler cannot help, and the pod fails with the predicate's reason and message."""
    d = manifests(tmp_path, ssd=SSD, zone=ZONE_B_OR_ARM)
    code, out = run_cli("--manifests", d, "--until", "5s")
    assert code == 0
    assert (
        '"Predicate failed on Pod" pod="needs-ssd-minikubelet_default(' in out
        and '" err="Predicate NodeAffinity failed"' in out
    )
    assert (
        "minikubelet: pod default/needs-ssd-minikubelet is Failed at 100ms "
        "(NodeAffinity: Pod Predicate NodeAffinity failed)" in out
    )
    assert (
        "minikubelet: pod default/zone-b-minikubelet is Failed at 100ms "
        "(NodeAffinity: Pod Predicate NodeAffinity failed)" in out
    )
    assert "Running" not in out.split("minikubelet: after 5s, 2 pod(s):\n")[1]


def test_node_labels_make_them_fit(tmp_path: Path):
    d = manifests(tmp_path, ssd=SSD, zone=ZONE_B_OR_ARM)
    code, out = run_cli(
        "--manifests",
        d,
        "--until",
        "5s",
        "--node-labels",
        "disktype=ssd",
        "--node-labels",
        " topology.kubernetes.io/zone = b ,",
    )
    assert code == 0
    assert "Predicate failed" not in out
    summary = out.split("minikubelet: after 5s, 2 pod(s):\n")[1]
    assert summary.count("Running    ready 1/1") == 2


def test_the_well_known_labels_name_the_lower_cased_node(tmp_path: Path):
    """kubelet labels its node kubernetes.io/hostname with the (lower-cased) hostname and
    kubernetes.io/os, kubernetes.io/arch with its platform."""
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: pinned}\n"
        "spec:\n  nodeSelector: {kubernetes.io/hostname: node-a, kubernetes.io/os: linux,"
        " beta.kubernetes.io/arch: amd64}\n"
        "  containers: [{name: app, image: 'busybox:1.33'}]\n"
    )
    d = manifests(tmp_path, pinned=pod)
    code, out = run_cli("--manifests", d, "--until", "5s", "--node-name", "Node-A")
    assert code == 0
    assert "default/pinned-node-a                    Running" in out
    code, out = run_cli("--manifests", d, "--until", "5s", "--node-name", "node-b")
    assert "(NodeAffinity: Pod Predicate NodeAffinity failed)" in out


def test_an_api_pod_is_rejected_too(tmp_path: Path):
    script = tmp_path / "script.yaml"
    script.write_text(
        "- at: 1s\n  type: ADDED\n  object:\n    apiVersion: v1\n    kind: Pod\n"
        "    metadata: {name: web, namespace: shop}\n"
        "    spec: {nodeSelector: {disktype: ssd}, containers: [{name: app, image: nginx}]}\n"
    )
    code, out = run_cli("--api-script", str(script), "--until", "5s")
    assert code == 0
    assert (
        "minikubelet: pod shop/web is Failed at 1s (NodeAffinity: Pod Predicate NodeAffinity failed)"
        in out
    )


def test_bad_node_labels_are_refused(capsys):
    for flag, message in (
        ("disk", "invalid argument 'disk' for --node-labels: malformed pair, expect string=string"),
        ("disk type=ssd", 'invalid node labels: invalid key "disk type"'),
        ("disktype=s s d", 'invalid node labels: invalid label value "s s d"'),
    ):
        code, out = run_cli("--manifests", "/nonexistent", "--node-labels", flag)
        assert (code, out) == (2, "")
        assert f"minikubelet: {message}" in capsys.readouterr().err
    assert parse_node_labels(["a=1,,b=2", "a=3"]) == {"a": "3", "b": "2"}


# --- matching -----------------------------------------------------------------------------

NODE = Node(
    metadata=ObjectMeta(
        name="node-a", labels={"zone": "b", "cores": "8", "gpu": "", "kubernetes.io/os": "linux"}
    )
)


def req(key: str, op: str, *values: str) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(key=key, operator=NodeSelectorOperator(op), values=list(values))


def pod_with(*terms: NodeSelectorTerm, node_selector: dict[str, str] | None = None) -> Pod:
    affinity = (
        Affinity(
            node_affinity=NodeAffinity(
                required_during_scheduling_ignored_during_execution=NodeSelector(
                    node_selector_terms=list(terms)
                )
            )
        )
        if terms
        else None
    )
    return Pod(
        metadata=ObjectMeta(name="p"),
        spec=PodSpec(
            node_selector=node_selector or {},
            affinity=affinity,
            containers=[Container(name="c", image="i")],
        ),
    )


def term(*exprs: NodeSelectorRequirement, fields: tuple = ()) -> NodeSelectorTerm:
    return NodeSelectorTerm(match_expressions=list(exprs), match_fields=list(fields))


@pytest.mark.parametrize(
    ("pod", "fits"),
    [
        # nodeSelector: every label, with its value; an empty value is still a value.
        (pod_with(node_selector={"zone": "b"}), True),
        (pod_with(node_selector={"zone": "b", "gpu": ""}), True),
        (pod_with(node_selector={"zone": "a"}), False),
        (pod_with(node_selector={"rack": ""}), False),
        # The operators.
        (pod_with(term(req("zone", "In", "a", "b"))), True),
        (pod_with(term(req("zone", "In", "a"))), False),
        (pod_with(term(req("zone", "NotIn", "a"))), True),
        (pod_with(term(req("rack", "NotIn", "a"))), True),  # a missing label is not in any set
        (pod_with(term(req("gpu", "Exists"))), True),
        (pod_with(term(req("rack", "Exists"))), False),
        (pod_with(term(req("rack", "DoesNotExist"))), True),
        (pod_with(term(req("cores", "Gt", "4"))), True),
        (pod_with(term(req("cores", "Gt", "8"))), False),
        (pod_with(term(req("cores", "Lt", "16"))), True),
        (pod_with(term(req("zone", "Gt", "4"))), False),  # "b" is not a number
        (pod_with(term(req("rack", "Lt", "4"))), False),  # nor is a missing label
        # A term needs all of its expressions; one term of several is enough.
        (pod_with(term(req("zone", "In", "b"), req("cores", "Lt", "4"))), False),
        (pod_with(term(req("zone", "In", "a")), term(req("cores", "Gt", "4"))), True),
        # An empty term matches nothing; so does a term that cannot be read (Gt needs an
        # integer), without stopping the next term from matching.
        (pod_with(term()), False),
        (pod_with(term(req("cores", "Gt", "four"))), False),
        (pod_with(term(req("cores", "Gt", "four")), term(req("zone", "In", "b"))), True),
        # matchFields: the node's name.
        (pod_with(term(fields=(req("metadata.name", "In", "node-a"),))), True),
        (pod_with(term(fields=(req("metadata.name", "NotIn", "node-a"),))), False),
        (pod_with(term(fields=(req("metadata.name", "In", "node-a", "node-b"),))), False),
        # nodeSelector and affinity must both hold.
        (pod_with(term(req("zone", "In", "b")), node_selector={"zone": "a"}), False),
    ],
)
def test_matching(pod: Pod, fits: bool):
    assert pod_matches_node_selector_and_affinity_terms(pod, NODE) is fits


def test_preferred_terms_and_an_empty_affinity_never_reject():
    pod = pod_with()
    pod.spec.affinity = Affinity(
        node_affinity=NodeAffinity(
            preferred_during_scheduling_ignored_during_execution=[
                PreferredSchedulingTerm(weight=5, preference=term(req("rack", "Exists")))
            ]
        )
    )
    assert pod_matches_node_selector_and_affinity_terms(pod, NODE)
    pod.spec.affinity = Affinity()
    assert pod_matches_node_selector_and_affinity_terms(pod, NODE)


# --- the manifest ------------------------------------------------------------------------


def test_node_selector_and_affinity_are_kept():
    pods, errors = load_pods(
        ZONE_B_OR_ARM.replace("affinity:", "nodeSelector: {a: b}\n  affinity:"), "p.yaml"
    )
    assert errors == []
    spec = pods[0].spec
    assert spec.node_selector == {"a": "b"}
    assert spec.affinity is not None and spec.affinity.node_affinity is not None
    required = spec.affinity.node_affinity.required_during_scheduling_ignored_during_execution
    assert required is not None
    assert required.node_selector_terms[1].match_expressions == [
        req("kubernetes.io/arch", "In", "arm64")
    ]
    assert (
        spec.affinity.node_affinity.preferred_during_scheduling_ignored_during_execution[0].weight
        == 10
    )


REQUIRED = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        (
            "nodeSelector: {'disk type': ssd}",
            'spec.nodeSelector[disk type]: invalid key "disk type"',
        ),
        (
            "nodeSelector: {disktype: 's s d'}",
            'spec.nodeSelector[disktype]: invalid label value "s s d"',
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {}}}",
            f"{REQUIRED}.nodeSelectorTerms: required: must have at least one node selector term",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Near}]}]}}}",
            f"{REQUIRED}.nodeSelectorTerms[0].matchExpressions[0].operator: unsupported value "
            '"Near": must be one of "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"',
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: zone, values: [a]}]}]}}}",
            f'{REQUIRED}.nodeSelectorTerms[0].matchExpressions[0].operator: invalid value "": '
            "not a valid selector operator",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In}]}]}}}",
            f"{REQUIRED}.nodeSelectorTerms[0].matchExpressions[0].values: required: must be "
            "specified when `operator` is 'In' or 'NotIn'",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists, values: [a]}]}]}}}",
            f"{REQUIRED}.nodeSelectorTerms[0].matchExpressions[0].values: forbidden: may not be "
            "specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: ['1', '2']}]}]}}}",
            f"{REQUIRED}.nodeSelectorTerms[0].matchExpressions[0].values: required: must be "
            "specified single value when `operator` is 'Lt' or 'Gt'",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchFields: [{key: metadata.labels, operator: In, values: [a]}]}]}}}",
            f'{REQUIRED}.nodeSelectorTerms[0].matchFields[0].key: invalid value "metadata.labels": '
            "not a valid field selector key",
        ),
        (
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: Exists}]}]}}}",
            f'{REQUIRED}.nodeSelectorTerms[0].matchFields[0].operator: invalid value "Exists": '
            "not a valid selector operator",
        ),
        (
            "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
            "[{weight: 101, preference: {}}]}}",
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
            "invalid value 101: must be in the range 1-100",
        ),
    ],
)
def test_validation_names_the_field(spec: str, error: str):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
        f"spec:\n  {spec}\n  containers: [{{name: app, image: nginx}}]\n"
    )
    pods, errors = load_pods(text, "p.yaml")
    assert pods == []
    assert len(errors) == 1
    assert f"p.yaml: document 1: {error}" in str(errors[0])
