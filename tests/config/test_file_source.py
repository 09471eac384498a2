"""The file source: static pods from a directory, as kubelet's --pod-manifest-path."""

from __future__ import annotations

import io
from pathlib import Path

from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.file import new_source_file
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.sim import go, klog
from minikubelet.sim.go import Second
from minikubelet.types import FileSource, PodOperation
from tests.config.helpers import manifest

Incremental = PodConfigNotificationMode.PodConfigNotificationIncremental


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
