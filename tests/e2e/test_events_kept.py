"""A standalone node's events: kubelet logs each one, and the recorder keeps them only if asked
(``keep_events=False`` is ours, for runs too long to hold them all)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import Run, run_kubelet

EVENT = '"Event occurred" object="node-1" kind="Node" apiVersion="v1" type="Normal"'


def static_node(folder: Path, until: float, keep_events: bool = True) -> Run:
    Path(folder, "web.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
        "spec: {containers: [{name: nginx, image: 'nginx:1.21'}]}\n"
    )
    return run_kubelet(manifests=folder, until=until, verbosity=3, keep_events=keep_events)


def node_events(run: Run) -> list[str]:
    return [e.reason for e in run.events if e.object.name == "node-1"]


def test_the_node_events_come_again_with_the_syncs_of_a_static_pod(tmp_path: Path) -> None:
    # No API server: no mirror pod is ever made, so each sync of the static pod builds the
    # node afresh, and each new condition records its event again.
    short, long = static_node(tmp_path, 70), static_node(tmp_path, 190)
    assert node_events(short).count("NodeHasSufficientMemory") >= 1
    more = node_events(long).count("NodeHasSufficientMemory")
    assert more > node_events(short).count("NodeHasSufficientMemory")
    assert long.log.count(f'{EVENT} reason="NodeHasSufficientMemory"') == more


def test_events_not_kept_are_still_logged_alike(tmp_path: Path) -> None:
    kept = static_node(tmp_path, 190)
    lean = static_node(tmp_path, 190, keep_events=False)
    assert kept.events and lean.events == []
    assert lean.log == kept.log
    assert lean.log.count('"Event occurred"') == len(kept.events)
    assert lean.phases == kept.phases
