"""The API server source: a list and watch of the pods bound to this node, in the fake API
server that a script drives."""

from __future__ import annotations

import io
import json

import pytest

from minikubelet import go
from minikubelet.config.apiserver import new_source_apiserver
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.go import Second
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.sim.scripted_watch import ScriptError, load_script, start_scripted_cluster
from minikubelet.types import ApiserverSource, PodOperation

Incremental = PodConfigNotificationMode.INCREMENTAL

POD = "{apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {containers: [{name: c, image: x}]}}"

SCRIPT = """\
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: shop}
    spec: {containers: [{name: nginx, image: "nginx:1.21"}]}
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: elsewhere}
    spec: {nodeName: node-2, containers: [{name: c, image: "busybox:1.33"}]}
- at: 5s
  type: MODIFIED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: shop}
    spec: {containers: [{name: nginx, image: "nginx:1.22"}]}
- at: 8s
  type: MODIFIED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: shop, deletionTimestamp: "2021-07-15T00:00:08Z"}
    spec: {containers: [{name: nginx, image: "nginx:1.22"}]}
- at: 12s
  type: DELETED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: web, namespace: shop}
    spec: {containers: [{name: nginx, image: "nginx:1.22"}]}
"""


def replay(text: str, until: float):
    seen = []
    log = io.StringIO()

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        server = start_scripted_cluster(load_script(text, "script.yaml"), "script.yaml", "node-1")
        new_source_apiserver(server, "node-1", lambda: True, config.channel(ApiserverSource))
        start = go.now()

        async def consume() -> None:
            async for u in config.updates():
                names = [f"{p.metadata.namespace}/{p.metadata.name}" for p in u.pods]
                seen.append((go.now() - start, u.op, names))

        go.go(consume)
        # The script ends; kubelet's tickers would keep the program alive, here a timer does.
        await go.sleep(until)

    klog.configure(verbosity=0, out=log)
    try:
        go.run(main, seed=2)
    finally:
        klog.configure(verbosity=0, out=None)
    return seen, log.getvalue()


def test_a_scripted_watch_becomes_add_update_delete_remove():
    seen, log = replay(SCRIPT, until=20 * Second)
    assert seen == [
        (0.0, PodOperation.ADD, ["shop/web"]),
        (5.0, PodOperation.UPDATE, ["shop/web"]),
        (8.0, PodOperation.DELETE, ["shop/web"]),
        (12.0, PodOperation.REMOVE, ["shop/web"]),
    ]
    assert '"Waiting for node sync before watching apiserver pods"' in log
    assert '"Watching apiserver"' in log


GOOD = POD


def test_script_errors_name_the_event_and_field():
    with pytest.raises(ScriptError, match=r"script.yaml: event 1: type: must be one of"):
        load_script("- {at: 0s, type: CREATED, object: {}}\n", "script.yaml")
    with pytest.raises(
        ScriptError, match=r'script.yaml: event 2: at: time: invalid duration "soon"'
    ):
        load_script(f"- {{at: 0s, type: ADDED, object: {GOOD}}}\n- {{at: soon}}\n", "script.yaml")
    with pytest.raises(ScriptError, match=r"script.yaml: a script is a list of events"):
        load_script("type: ADDED\n", "script.yaml")


def test_an_invalid_pod_is_refused_when_the_script_loads():
    """The API server would refuse it: the script is refused before anything runs."""
    with pytest.raises(
        ScriptError, match=r'script.yaml: event 1: object: metadata.name: invalid name "Web"'
    ):
        load_script(
            f"- {{at: 2s, type: ADDED, object: {POD.replace('a}', 'Web}')}}}\n", "script.yaml"
        )


def test_json_lines_scripts_are_accepted():
    text = (
        '{"at": "0s", "type": "ADDED", "object": {"apiVersion": "v1", "kind": "Pod", '
        '"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c", "image": "x:1"}]}}}\n'
    )
    seen, _ = replay(text, until=1 * Second)
    assert seen == [(0.0, PodOperation.ADD, ["default/a"])]


def test_every_pod_of_a_script_is_checked_before_anything_runs():
    # The second pod (at 10 s) has no image: the script is refused when it is read, not at 10 s
    # after the first pod has run.
    bad = GOOD.replace("image: x", "image: ''")
    with pytest.raises(ScriptError) as info:
        load_script(
            f"- {{at: 0s, type: ADDED, object: {GOOD}}}\n- {{at: 10s, type: ADDED, object: {bad}}}\n",
            "script.yaml",
        )
    assert str(info.value) == ("script.yaml: event 2: object: spec.containers[0].image: required")


@pytest.mark.parametrize(
    ("at", "shown"),
    [("[" * 500 + "]" * 500, "nested more than 100 levels deep at [0].at"),
     (json.dumps("1" * 1_000_000 + "x"), 'at: time: invalid duration "111'),
     ("{" + ", ".join(f"k{i}: {i}" for i in range(20_000)) + "}", "at: expected a duration")],
    ids=["deep", "long", "mapping"],
)  # fmt: skip
def test_a_huge_or_deep_at_is_cut_in_the_error(at, shown):
    with pytest.raises(ScriptError) as info:
        load_script(f"- {{at: {at}, type: ADDED, object: {GOOD}}}\n", "script.yaml")
    message = str(info.value)
    assert shown in message and len(message) < 300, message[:300]
