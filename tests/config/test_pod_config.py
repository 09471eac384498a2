"""PodConfig turns each source's snapshots (SET) into the operations kubelet acts on."""

from __future__ import annotations

import copy

from minikubelet import go
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.go import recv, select
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.types import (
    ConfigFirstSeenAnnotationKey,
    ConfigSourceAnnotationKey,
    FileSource,
    HTTPSource,
    PodOperation,
    PodUpdate,
)
from tests.config.helpers import pod

Incremental = PodConfigNotificationMode.INCREMENTAL


async def drain(config: PodConfig) -> list[tuple[PodOperation, str, list[str]]]:
    """Every update waiting on the channel, as (op, source, pod names)."""
    out = []
    while True:
        match await select(recv(config.updates()), default=True):
            case 0, (u, _):
                out.append((u.op, u.source, [p.metadata.name for p in u.pods]))
            case _:
                return out


def run_merges(*changes: tuple[str, PodUpdate], recorder: Recorder | None = None):
    """Send each (source, update) through PodConfig; return what came out after each."""
    outputs = []

    async def main() -> None:
        config = PodConfig(Incremental, recorder or Recorder())
        for source, update in changes:
            await config.channel(source).send(copy.deepcopy(update))
            await go.sleep(0.001)  # let the mux goroutine merge
            outputs.append(await drain(config))

    go.run(main, seed=1)
    return outputs


def SET(*pods):
    return PodUpdate(pods=list(pods), op=PodOperation.SET, source=FileSource)


def test_first_empty_set_is_an_empty_add_that_marks_the_source_seen():
    assert run_merges((FileSource, SET())) == [[(PodOperation.ADD, FileSource, [])]]


def test_new_pods_are_added_and_a_repeated_snapshot_changes_nothing():
    a, b = pod("a", "uid-a"), pod("b", "uid-b")
    out = run_merges((FileSource, SET(a, b)), (FileSource, SET(a, b)))
    assert out == [[(PodOperation.ADD, FileSource, ["a", "b"])], []]


def test_changed_spec_is_an_update_and_a_missing_pod_is_removed():
    a, b = pod("a", "uid-a"), pod("b", "uid-b")
    a2 = pod("a", "uid-a", image="nginx:1.22")
    out = run_merges((FileSource, SET(a, b)), (FileSource, SET(a2)))
    # Go sends REMOVE first, then ADD, UPDATE, DELETE, then RECONCILE.
    assert out[1] == [
        (PodOperation.REMOVE, FileSource, ["b"]),
        (PodOperation.UPDATE, FileSource, ["a"]),
    ]


def test_deletion_timestamp_is_a_graceful_delete():
    a = pod("a", "uid-a")
    deleting = pod("a", "uid-a")
    deleting.metadata.deletion_timestamp = 1_626_307_200.0
    out = run_merges((FileSource, SET(a)), (FileSource, SET(deleting)))
    assert out[1] == [(PodOperation.DELETE, FileSource, ["a"])]


def test_status_only_change_is_a_reconcile():
    a = pod("a", "uid-a")
    failed = pod("a", "uid-a")
    failed.status.message = "changed by someone else"
    out = run_merges((FileSource, SET(a)), (FileSource, SET(failed)))
    assert out[1] == [(PodOperation.RECONCILE, FileSource, ["a"])]


def test_sources_are_kept_apart():
    a, b = pod("a", "uid-a"), pod("b", "uid-b")
    out = run_merges((FileSource, SET(a)), (HTTPSource, SET(b)), (FileSource, SET()))
    assert out == [
        [(PodOperation.ADD, FileSource, ["a"])],
        [(PodOperation.ADD, HTTPSource, ["b"])],
        [(PodOperation.REMOVE, FileSource, ["a"])],
    ]


def test_added_pods_carry_their_source_and_first_seen_time():
    seen = []

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        await config.channel(FileSource).send(SET(pod("a", "uid-a")))
        _, u = await drain_one(config)
        seen.append(u.pods[0].metadata.annotations)

    async def drain_one(config):
        u, _ = await config.updates().recv()
        return None, u

    go.run(main, seed=1)
    annotations = seen[0]
    assert annotations[ConfigSourceAnnotationKey] == FileSource
    # Stamped with the virtual clock's time: 2021-07-15T00:00:00 UTC, in Go's layout.
    assert annotations[ConfigFirstSeenAnnotationKey] == "2021-07-15T00:00:00.000000000Z"


def test_duplicate_full_names_are_dropped_with_a_warning_event():
    recorder = Recorder()
    a, twin = pod("a", "uid-a"), pod("a", "uid-other")
    out = run_merges((FileSource, SET(a, twin)), recorder=recorder)
    assert out == [[(PodOperation.ADD, FileSource, ["a"])]]
    assert [(e.type, e.reason) for e in recorder.events] == [("Warning", "FailedValidation")]
    assert 'duplicate pod name "a"' in recorder.events[0].message


def test_remove_op_removes_only_known_pods():
    a = pod("a", "uid-a")
    remove = PodUpdate(pods=[a, pod("ghost", "uid-ghost")], op=PodOperation.REMOVE)
    out = run_merges((FileSource, SET(a)), (FileSource, remove))
    assert out[1] == [(PodOperation.REMOVE, FileSource, ["a"])]


def test_seen_all_sources_needs_a_set_from_every_source():
    answers = []

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        file_ch, http_ch = config.channel(FileSource), config.channel(HTTPSource)
        await file_ch.send(SET())
        await go.sleep(0.001)
        answers.append(config.seen_all_sources({FileSource, HTTPSource}))
        await http_ch.send(PodUpdate(pods=[], op=PodOperation.SET, source=HTTPSource))
        await go.sleep(0.001)
        answers.append(config.seen_all_sources({FileSource, HTTPSource}))
        answers.append(config.seen_all_sources({FileSource}))

    go.run(main, seed=1)
    assert answers == [False, True, False]
