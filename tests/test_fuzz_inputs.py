"""Structure-aware fuzz of the three inputs a user writes: manifests, scenario files and scripted
watch scripts (#28). Each input is a well-formed document with a few of its values replaced by
hostile ones (wrong types, huge or odd strings, deep nesting, unknown keys), written as JSON or
YAML; whatever it is, the loader answers with its own error type, naming the file, in a message
of bounded length, never a traceback. Examples are drawn deterministically (tests/conftest.py),
21,000 in all, in about 40 s of one core.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.config.manifest import ManifestError, load_pods
from minikubelet.sim.cri.scenario import ScenarioError, parse_scenario
from minikubelet.sim.scripted_watch import ScriptError, load_script

SRC = "fuzz.yaml"
LONGEST = 1200  # characters of one error message; a value is never echoed whole


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _deep(depth: int, leaf: object, as_list: bool) -> object:
    for _ in range(depth):
        leaf = [leaf] if as_list else {"a": leaf}
    return leaf


ODD = ["", "-1", "5x", "1e400", "0x1F", "yes", "null", "~", "nan", "forever", "a/b", "UDP",
       "\x00", "é", "\u202e", "1Gi", "-5s", "2562047h48m", "default/web", " "]  # fmt: skip


def _scalar(rng: random.Random) -> object:
    pick = rng.randrange(9)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, -1, 1, 255, 256, 2**31, 2**63, -(2**63) - 1, 2**70])
    if pick == 2:
        return rng.choice([0.5, -0.0, 1e308, -1e-300, 3.0])
    if pick == 3:
        return "".join(rng.choice("aZ0-_./:@ ") for _ in range(rng.randrange(12)))
    if pick == 4:
        return rng.choice("xy9") * 10 ** rng.randint(1, 5)  # up to 100,000 characters
    return rng.choice(ODD)


def _hostile(rng: random.Random) -> object:
    pick = rng.randrange(10)
    if pick == 0:
        return [_scalar(rng) for _ in range(rng.randrange(4))]
    if pick == 1:
        return {str(_scalar(rng))[:20]: _scalar(rng) for _ in range(rng.randrange(4))}
    if pick == 2:
        return _deep(rng.choice([5, 99, 100, 101, 160]), _scalar(rng), rng.random() < 0.5)
    return _scalar(rng)


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in `doc` a value may be replaced: keys of mappings, items of lists."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _put(doc: object, path: tuple, value: object, add: bool) -> None:
    *parent, last = path
    for step in parent:
        try:
            doc = doc[step]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return  # an earlier change replaced what held this place
    if isinstance(doc, dict):
        doc[f"{last}x" if add else last] = value  # or an unknown key next to a known one
    elif isinstance(doc, list) and isinstance(last, int) and last < len(doc):
        doc[last] = value


def mutated(template: object) -> st.SearchStrategy:
    """`template` with one to three values replaced by hostile ones (or unknown keys added).

    Hypothesis draws one seed; the changes follow from it (a cheap draw, so that 20,000
    examples fit in a CI budget; the failing seed is printed, and reproduces the input)."""
    text, paths = json.dumps(template), _paths(template)

    def build(seed: int) -> object:
        rng = random.Random(seed)
        doc = json.loads(text)
        for _ in range(rng.randint(1, 3)):
            _put(doc, rng.choice(paths), _hostile(rng), rng.random() < 0.3)
        return doc

    return st.integers(min_value=0, max_value=2**64).map(build)


def _text(doc: object, as_json: bool) -> str:
    """JSON; or, behind a comment line (so not starting with ``{``), JSON read as YAML."""
    text = json.dumps(doc)
    return text if as_json else "# fuzz\n" + text


def _bounded(err: Exception) -> None:
    message = str(err)
    assert message.startswith(SRC), message[:300]
    assert len(message) <= LONGEST, message[:300]
    zh = getattr(err.args[0], "zh", message) if err.args else message
    assert len(zh) <= LONGEST, zh[:300]


POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "web",
        "namespace": "default",
        "labels": {"app": "web"},
        "annotations": {"minikubelet.dev/scenario": "app: {runFor: 5s, exitCode: 1}"},
    },
    "spec": {
        "restartPolicy": "Always",
        "initContainers": [{"name": "init", "image": "busybox", "command": ["true"]}],
        "containers": [
            {
                "name": "app",
                "image": "nginx:1.21",
                "ports": [{"containerPort": 80, "protocol": "TCP"}],
                "env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom": {"x": {}}}],
                "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}},
                "livenessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 5},
            }
        ],
        "volumes": [{"name": "v", "emptyDir": {}}],
        "terminationGracePeriodSeconds": 30,
    },
}
POD_LIST = {"apiVersion": "v1", "kind": "PodList", "items": [POD, POD]}


@fuzz(9000)
@given(mutated(POD), st.booleans())
def test_fuzzed_manifests_give_errors_not_tracebacks(doc, as_json):
    pods, errors = load_pods(_text(doc, as_json), SRC, allow_pod_list=True)
    assert all(isinstance(e, ManifestError) for e in errors)
    assert not (pods and errors)
    for e in errors:
        _bounded(e)


@fuzz(1500)
@given(mutated(POD_LIST), st.booleans())
def test_fuzzed_pod_lists_give_errors_not_tracebacks(doc, as_json):
    _, errors = load_pods(_text(doc, as_json), SRC, allow_pod_list=True)
    for e in errors:
        assert isinstance(e, ManifestError)
        _bounded(e)


SCENARIO = {
    "pods": {"default/web": {"app": [{"runFor": "5s", "exitCode": 1}, "forever"]}},
    "images": {"nginx:1.21": {"pullTime": "2s", "fail": 1}, "nosuch": "notFound"},
    "presentImages": ["busybox"],
    "defaults": {"init": {"runFor": "1s"}, "app": "forever"},
    "runtime": {
        "notReady": [{"from": "10s", "until": "20s"}],
        "down": [{"from": "30s"}],
        "hang": [{"from": "1s", "until": "2s", "calls": ["RunPodSandbox"]}],
    },
    "network": {"ipFamilies": ["IPv4"]},
    "sandboxes": {"default/web": ["20s", {"runFor": "1m"}]},
}


@fuzz(6000)
@given(mutated(SCENARIO), st.booleans())
def test_fuzzed_scenarios_give_errors_not_tracebacks(doc, as_json):
    try:
        parse_scenario(_text(doc, as_json), SRC)
    except ScenarioError as err:
        _bounded(err)


SCRIPT = [
    {"at": "0s", "type": "ADDED", "object": POD},
    {"at": "1m", "type": "DELETED", "object": {**POD, "status": {"phase": "Running"}}},
]


@fuzz(4500)
@given(mutated(SCRIPT), st.sampled_from(["yaml", "json-lines"]))
def test_fuzzed_scripts_give_errors_not_tracebacks(events, form):
    if form == "json-lines" and isinstance(events, list):
        text = "\n".join(json.dumps(e) for e in events)
    else:
        text = _text(events, False)
    try:
        load_script(text, SRC)
    except ScriptError as err:
        _bounded(err)
