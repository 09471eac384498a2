"""Hostile manifests: every one gets a ManifestError naming file, document and field; none raises,
hangs or eats memory. Each case runs in a child process with a time limit and an address-space
limit, so that a regression fails the test instead of taking the machine down."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.config.manifest import ManifestError, load_pods

SRC = "hostile.yaml"
MEMORY = 1 << 30  # bytes of address space a child may use
SECONDS = 60


def run_bounded(text: str) -> list[str]:
    """``load_pods(text)`` in a child process: the error messages, or the child's failure."""
    code = textwrap.dedent(
        f"""
        import json, resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))
        from minikubelet.config.manifest import load_pods
        pods, errors = load_pods(sys.stdin.read(), {SRC!r}, allow_pod_list=True)
        print(json.dumps([len(pods), [str(e) for e in errors]]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=text,
        capture_output=True,
        text=True,
        timeout=SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    count, errors = json.loads(done.stdout)
    assert count == 0
    return errors


def pod(spec_extra: str = "", meta_extra: str = "") -> str:
    return (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n"
        + meta_extra
        + "spec:\n  containers:\n  - name: app\n    image: nginx\n"
        + spec_extra
    )


def laughs(levels: int, fanout: int) -> str:
    """A billion-laughs document: each level is ``fanout`` aliases of the one below."""
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * fanout)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


# --- item 5: aliases ---------------------------------------------------------------------------


def test_an_alias_bomb_is_refused_as_go_yaml_refuses_it():
    bomb = laughs(levels=9, fanout=9)  # 9**9 = 387 million strings once expanded
    assert len(bomb) < 700
    text = pod(meta_extra="  annotations:\n" + textwrap.indent(bomb, "    "))
    assert run_bounded(text) == [f"{SRC}: not valid YAML: document contains excessive aliasing"]


def test_a_small_bomb_inside_a_field_is_refused_too():
    text = pod(
        spec_extra="    env: *a8\n",
        meta_extra="  labels:\n" + textwrap.indent(laughs(8, 8), "    "),
    )
    assert run_bounded(text) == [f"{SRC}: not valid YAML: document contains excessive aliasing"]


def test_moderate_aliasing_is_fine():
    text = "base: &base {name: app, image: nginx}\n" + pod().replace(
        "  - name: app\n    image: nginx\n", "  - *base\n"
    )
    pods, errors = load_pods(text, SRC)
    assert errors == [] and pods[0].spec.containers[0].image == "nginx"


def test_a_recursive_alias_is_an_error():
    text = pod(meta_extra="  labels: &l {a: *l}\n")
    (message,) = run_bounded(text)
    assert message.startswith(f"{SRC}: not valid YAML: ") and "contains itself" in message


# --- item 4: nesting, numbers, tags, odd type meta ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pod(spec_extra="    command: " + "[" * 5000 + "]" * 5000 + "\n"),
        pod(spec_extra="    env:\n" + "".join("  " * i + "    - \n" for i in range(3000))),
        pod(meta_extra="  annotations: {a: " + "{a: " * 20000 + "}" * 20000 + "}\n"),
    ],
    ids=["flow-sequences", "block-sequences", "flow-mappings"],
)
def test_deep_yaml_is_refused(text):
    (message,) = run_bounded(text)
    assert message.startswith(f"{SRC}: not valid YAML: ") and "depth" in message


def test_deep_json_is_refused():
    text = '{"apiVersion": "v1", "kind": "Pod", "metadata": ' + '{"a": ' * 30000 + "1" + "}" * 30001
    (message,) = run_bounded(text)
    assert message.startswith(f"{SRC}: not valid JSON") and "deep" in message


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ("1" + "0" * 5000, "spec.containers[0].ports[0].containerPort"),
        ("0x" + "f" * 5000, "spec.containers[0].ports[0].containerPort"),
        ("-" + "9" * 5000, "spec.containers[0].ports[0].containerPort"),
    ],
    ids=["decimal", "hex", "negative"],
)
def test_huge_numbers_are_reported_at_their_field(value, field):
    text = pod(spec_extra=f"    ports: [{{containerPort: {value}}}]\n")
    (message,) = run_bounded(text)
    assert message.startswith(f"{SRC}: document 1: {field}: expected an integer, got ")
    assert len(message) < 300


def test_a_huge_number_as_a_quantity_or_a_name():
    text = pod(spec_extra="    resources: {limits: {cpu: " + "9" * 5000 + "}}\n")
    (message,) = run_bounded(text)
    assert message.startswith(f"{SRC}: document 1: spec.containers[0].resources.limits[cpu]: ")
    (message,) = run_bounded(pod().replace("name: web", "name: " + "1" * 5000))
    # Too big for 64 bits, the number stays text (as in go-yaml): a name, just not a valid one.
    assert message.startswith(f"{SRC}: document 1: metadata.name: invalid name")


@pytest.mark.parametrize(
    ("snippet", "expected"),
    [
        ("  labels: {a: !!binary aGVsbG8=}\n", []),  # "hello": a string, as go-yaml decodes it
        (
            "  labels: {a: !!binary '***'}\n",
            ["not valid YAML: !!binary value contains invalid base64 data"],
        ),
        (
            "  labels: {a: !!set {x, y}}\n",
            ["document 1: metadata.labels[a]: expected a string, got a mapping"],
        ),
        ("  annotations: {a: !!timestamp 2001-12-14}\n", []),
        ("  labels: {a: !!int abc}\n", ["not valid YAML: cannot decode !!str `abc` as a !!int"]),
        ("  labels: {? [a, b] : c}\n", ["not valid YAML: invalid map key: a list"]),
        ("  labels: {~: c}\n", ["not valid YAML: invalid map key: null"]),
        ("  labels: {1: a, true: b}\n", []),  # keys become "1" and "true", as in sigs.k8s.io/yaml
    ],
    ids=[
        "binary",
        "bad-binary",
        "set",
        "timestamp",
        "int-tag",
        "list-key",
        "null-key",
        "scalar-keys",
    ],
)
def test_yaml_tags_and_keys(snippet, expected):
    pods, errors = load_pods(pod(meta_extra=snippet), SRC)
    assert [str(e).removeprefix(f"{SRC}: ") for e in errors] == expected
    assert len(pods) == (0 if expected else 1)


@pytest.mark.parametrize(
    "type_meta",
    [
        "apiVersion: !!binary djE=\nkind: Pod\n",
        "apiVersion: [v1]\nkind: {a: b}\n",
        "apiVersion: !!timestamp 2001-12-14\nkind: 3\n",
        "apiVersion: !!set {v1}\nkind: !!binary UG9k\n",
    ],
)
def test_odd_api_version_and_kind_values(type_meta):
    text = type_meta + "metadata: {name: web}\nspec: {containers: [{name: a, image: b}]}\n"
    pods, errors = load_pods(text, SRC)
    assert pods == [] or type_meta.startswith("apiVersion: !!binary")
    assert all(isinstance(e, ManifestError) for e in errors)


# --- anything at all ---------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=30,
)
keys = st.sampled_from(["apiVersion", "kind", "metadata", "spec", "status", "items", "name"])


@st.composite
def documents(draw):
    doc = draw(st.dictionaries(keys, data, max_size=5))
    if draw(st.booleans()):
        doc.update({"apiVersion": "v1", "kind": draw(st.sampled_from(["Pod", "PodList"]))})
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.booleans())
def test_no_document_makes_the_loader_raise(doc, as_json):
    text = json.dumps(doc) if as_json else yaml.safe_dump(doc)
    _, errors = load_pods(text, SRC, allow_pod_list=True)
    assert all(isinstance(e, ManifestError) and str(e).startswith(SRC) for e in errors)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_no_text_makes_the_loader_raise(text):
    _, errors = load_pods(text, SRC)
    assert all(isinstance(e, ManifestError) for e in errors)


def test_pod_from_dict_takes_any_python_data():
    import datetime

    from minikubelet.config.manifest import pod_from_dict

    odd = {"apiVersion": datetime.date(2021, 7, 15), "kind": {1, 2}, "metadata": {"name": "x"}}
    with pytest.raises(ManifestError) as info:
        pod_from_dict(odd)
    assert (
        str(info.value)
        == '<dict>: apiVersion: unsupported apiVersion a date: a Pod\'s apiVersion is "v1"'
    )
    huge = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"},
            "spec": {"containers": [{"name": "a", "image": "b", "resources": {"limits": {"cpu": 10**5000}}}]}}  # fmt: skip
    with pytest.raises(ManifestError, match="too many digits"):
        pod_from_dict(huge)


# --- round two (#28 item 4): deep but parseable, and huge values in errors ------------------


def _nested(depth: int, kind: str) -> str:
    """JSON text of a value ``depth`` levels deep: mappings (``{"a": …}``) or lists."""
    if kind == "mapping":
        return '{"a": ' * depth + "1" + "}" * depth
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("kind", ["mapping", "list"])
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "yaml"])
@pytest.mark.parametrize("depth", [101, 500, 900])
def test_deep_values_libyaml_accepts_are_refused_naming_the_field(depth, kind, as_json):
    inner = _nested(depth, kind)
    if as_json:
        text = (
            '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}, "spec": '
            '{"containers": [{"name": "a", "image": "b"}], "volumes": [{"name": "v", '
            f'"emptyDir": {inner}}}]}}}}'
        )
    else:
        text = pod(spec_extra=f"  volumes:\n  - name: v\n    emptyDir: {inner}\n")
    (message,) = run_bounded(text)
    assert "nested more than 100 levels deep at spec.volumes[0].emptyDir" in message
    assert len(message) < 300


def test_a_depth_of_100_is_read():
    inner = _nested(95, "mapping")
    pods, errors = load_pods(
        pod(spec_extra=f"  volumes:\n  - name: v\n    emptyDir: {inner}\n"), SRC
    )
    assert errors == [] and len(pods) == 1


def test_a_huge_api_version_is_cut_in_the_error():
    pods, errors = load_pods("apiVersion: " + "v" * 2_000_000 + "\nkind: Pod\n", SRC)
    (message,) = map(str, errors)
    assert (
        pods == [] and message.startswith(f"{SRC}: document 1: apiVersion: ") and len(message) < 300
    )


def test_a_huge_invalid_name_is_cut_in_the_error():  # found by tests/test_fuzz_inputs.py
    pods, errors = load_pods(pod().replace("name: web", "name: " + "x" * 100_000), SRC)
    (message,) = map(str, errors)
    assert pods == [] and 'metadata.name: invalid name "xxx' in message and len(message) < 400
