"""The file source: static pods from a directory, as kubelet's --pod-manifest-path."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

from minikubelet import go
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.file import new_source_file
from minikubelet.go import Second
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import FileSource, PodOperation
from tests.config.helpers import manifest

Incremental = PodConfigNotificationMode.INCREMENTAL


def watch_directory(path: Path, script, until: float, period: float = 20 * Second):
    """Run the file source on ``path`` while ``script`` edits it; return the updates and log."""
    seen: list[tuple[float, PodOperation, list[str], list[str]]] = []
    log = io.StringIO()

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        new_source_file(str(path), "node-1", period, config.channel(FileSource))
        go.go(script)
        start = go.now()
        async for u in config.updates():
            images = [p.spec.containers[0].image for p in u.pods]
            seen.append((go.now() - start, u.op, [p.metadata.name for p in u.pods], images))

    klog.configure(verbosity=2, out=log)
    try:
        go.run(main, seed=3, until=until)
    finally:
        klog.configure(verbosity=0, out=None)
    return seen, log.getvalue()


def test_add_modify_remove_manifests(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(manifest("web"))

    async def edit() -> None:
        await go.sleep(5 * Second)
        (tmp_path / "cache.yaml").write_text(manifest("cache", image="redis:6"))
        await go.sleep(5 * Second)
        (tmp_path / "web.yaml").write_text(manifest("web", image="nginx:1.22"))
        await go.sleep(5 * Second)
        (tmp_path / "cache.yaml").unlink()

    seen, _ = watch_directory(tmp_path, edit, until=18 * Second)
    # Editing a static pod's manifest changes its UID (the hash of the manifest), so kubelet
    # sees the old pod removed and a new one added, not an UPDATE: the pod is recreated.
    assert [(op, names, images) for _, op, names, images in seen] == [
        (PodOperation.ADD, ["web-node-1"], ["nginx:1.21"]),
        (PodOperation.ADD, ["cache-node-1"], ["redis:6"]),
        (PodOperation.REMOVE, ["web-node-1"], ["nginx:1.21"]),
        (PodOperation.ADD, ["web-node-1"], ["nginx:1.22"]),
        (PodOperation.REMOVE, ["cache-node-1"], ["redis:6"]),
    ]
    # Each change is seen by the watch within a poll period, not at the next 20 s listing.
    times = [t for t, *_ in seen]
    assert times[0] == 0
    assert 5 <= times[1] <= 6
    assert 10 <= times[2] == times[3] <= 11
    assert 15 <= times[4] <= 16


def test_a_bad_manifest_is_reported_and_the_others_still_apply(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(manifest("web"))
    (tmp_path / "broken.yaml").write_text(manifest("broken").replace("    image: nginx:1.21\n", ""))
    (tmp_path / "notyaml.yaml").write_text("apiVersion: v1\nkind: Pod\n  metadata: [\n")
    (tmp_path / ".hidden.yaml").write_text(manifest("hidden"))

    async def nothing() -> None:
        return None

    seen, log = watch_directory(tmp_path, nothing, until=2 * Second)
    assert [(op, names) for _, op, names, _ in seen] == [(PodOperation.ADD, ["web-node-1"])]
    assert "Could not process manifest file" in log
    assert f"{tmp_path}/broken.yaml: document 1: spec.containers[0].image: " in log
    assert f"{tmp_path}/notyaml.yaml" in log
    assert "hidden" not in log.replace(str(tmp_path), "")


def test_static_pods_are_defaulted(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(manifest("web"))
    pods = []

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        new_source_file(str(tmp_path), "node-1", 20 * Second, config.channel(FileSource))
        u, _ = await config.updates().recv()
        pods.extend(u.pods)

    go.run(main, seed=1, until=1 * Second)
    (p,) = pods
    assert p.metadata.name == "web-node-1"  # the node name is appended
    assert p.metadata.namespace == "default"
    assert p.spec.node_name == "node-1"
    assert len(p.metadata.uid) == 32
    assert p.metadata.annotations["kubernetes.io/config.hash"] == p.metadata.uid
    assert p.metadata.self_link == "/api/v1/namespaces/default/pods/web-node-1"


def test_a_missing_directory_still_marks_the_source_seen(tmp_path: Path):
    async def nothing() -> None:
        return None

    seen, log = watch_directory(tmp_path / "absent", nothing, until=1 * Second)
    assert [(op, names) for _, op, names, _ in seen] == [(PodOperation.ADD, [])]
    assert "path does not exist, ignoring" in log


def watch_bounded(path: Path, script, until: float) -> tuple[list, str]:
    """`watch_directory`, failing (instead of hanging the suite) if it does not end in 60 s."""
    result: list = []
    worker = threading.Thread(
        target=lambda: result.append(watch_directory(path, script, until)), daemon=True
    )
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the file source hung: the run did not reach --until"
    return result[0]


def test_a_fifo_in_the_directory_is_reported_and_does_not_stop_the_kubelet(tmp_path: Path):
    async def edit() -> None:
        await go.sleep(3 * Second)
        os.mkfifo(tmp_path / "pipe.yaml")
        await go.sleep(3 * Second)
        (tmp_path / "web.yaml").write_text(manifest("web"))

    seen, log = watch_bounded(tmp_path, edit, until=25 * Second)
    # Go: pkg/kubelet/config/file.go extractFromDir reads regular files only and logs the rest
    # ("Manifest path is not a directory or file"); the watch reports the FIFO as well.
    assert [(op, names) for _, op, names, _ in seen] == [
        (PodOperation.ADD, []),
        (PodOperation.ADD, ["web-node-1"]),
    ]
    assert 6 <= seen[1][0] <= 7  # seen by the watch, not at the next listing
    assert f"{tmp_path}/pipe.yaml: not a regular file" in log
    assert "Manifest path is not a directory or file" in log  # the listing at 20 s


def test_a_renamed_manifest_is_removed_then_added_at_once(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(manifest("web"))

    async def edit() -> None:
        await go.sleep(5 * Second)
        (tmp_path / "web.yaml").rename(tmp_path / "web-renamed.yaml")

    seen, _ = watch_directory(tmp_path, edit, until=12 * Second)
    # inotify reports a rename as IN_MOVED_FROM, then IN_MOVED_TO (fsnotify: Rename, then
    # Create): the file source deletes the pod of the old name, then adds the new file's. The
    # static pod's UID hashes the file name, so kubelet sees REMOVE then ADD, within one poll.
    ops = [(t, op, names) for t, op, names, _ in seen]
    assert [(op, names) for _, op, names in ops] == [
        (PodOperation.ADD, ["web-node-1"]),
        (PodOperation.REMOVE, ["web-node-1"]),
        (PodOperation.ADD, ["web-node-1"]),
    ]
    assert 5 <= ops[1][0] == ops[2][0] <= 6


def test_an_editor_renaming_its_temporary_file_over_a_manifest(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(manifest("web"))

    async def edit() -> None:
        await go.sleep(5 * Second)
        (tmp_path / "web.yaml~").write_text(manifest("web", image="nginx:1.22"))
        await go.sleep(3 * Second)
        (tmp_path / "web.yaml~").rename(tmp_path / "web.yaml")

    seen, _ = watch_directory(tmp_path, edit, until=12 * Second)
    # Whatever happened in between, after the rename the pod is there with the new image, at
    # once (the next listing is 20 s away).
    t, op, names, images = seen[-1]
    assert (op, names, images) == (PodOperation.ADD, ["web-node-1"], ["nginx:1.22"])
    assert 8 <= t <= 9


def test_a_symlink_loop_does_not_disable_the_watch(tmp_path: Path):
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")

    async def edit() -> None:
        await go.sleep(3 * Second)
        (tmp_path / "web.yaml").write_text(manifest("web"))

    seen, log = watch_directory(tmp_path, edit, until=8 * Second)
    assert [(op, names) for _, op, names, _ in seen] == [
        (PodOperation.ADD, []),
        (PodOperation.ADD, ["web-node-1"]),
    ]
    assert 3 <= seen[1][0] <= 4
    assert "Could not get metadata" in log  # Go: extractFromDir, os.Stat fails on the loop


def test_a_manifest_that_is_not_utf8_is_refused_as_load_pod_file_refuses_it(tmp_path: Path):
    from minikubelet.config.common import load_pod_file

    (tmp_path / "web.yaml").write_text(manifest("web"))
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes(manifest("cafe").replace("cafe", "caf\xe9").encode("latin-1"))

    async def nothing() -> None:
        return None

    seen, log = watch_directory(tmp_path, nothing, until=2 * Second)
    assert [(op, names) for _, op, names, _ in seen] == [(PodOperation.ADD, ["web-node-1"])]
    (error,) = load_pod_file(latin1)[1]
    assert str(error) == f"{latin1}: not valid YAML: invalid trailing UTF-8 octet at byte 47"
    assert str(error).replace('"', '\\"') in log


def test_an_alias_bomb_in_the_directory_is_refused_quickly(tmp_path: Path):
    bomb = ['a0: &a0 ["lol"]'] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)
    ]
    (tmp_path / "bomb.yaml").write_text(
        manifest("bomb") + "  annotations:\n" + "".join(f"    {line}\n" for line in bomb)
    )

    async def nothing() -> None:
        return None

    seen, log = watch_directory(tmp_path, nothing, until=1 * Second)
    assert seen == [] or all(names == [] for _, _, names, _ in seen)
    assert "document contains excessive aliasing" in log
