"""A pod's directories on the node's disk: made by syncPod, removed at housekeeping once kubelet
no longer has the pod and nothing of it is mounted.

Go: pkg/kubelet/kubelet_pods.go makePodDataDirs, pkg/kubelet/kubelet_volumes.go
cleanupOrphanedPodDirs. Real kubelet logs "Cleaned up orphaned pod volumes dir" at the
housekeeping after a pod is gone; the oracle's goldens hold that line (tests/oracle).
"""

from __future__ import annotations

import pytest

from minikubelet.container import runtime as kubecontainer
from minikubelet.k8s_io.api.core.v1 import Container, Pod, PodSpec
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import AggregateError
from minikubelet.k8s_io.kubernetes.pkg.util.removeall.removeall import (
    remove_all_one_filesystem,
    remove_dirs_one_filesystem,
)
from minikubelet.kubelet import Kubelet
from minikubelet.sim.volume_fs import PathError, SimFS
from tests.kubelet.kubelets import on_kubelet

POD_DIR = "/var/lib/kubelet/pods/uid-web"


def web(uid: str = "uid-web") -> Pod:
    return Pod(
        metadata=ObjectMeta(name="web", namespace="default", uid=uid),
        spec=PodSpec(containers=[Container(name="app", image="nginx:1.21")]),
    )


def lines(log: str) -> list[str]:
    return [line.partition("] ")[2] for line in log.splitlines()]


def test_sync_pod_makes_the_pod_directory_with_volumes_and_plugins() -> None:
    def body(kl: Kubelet) -> None:
        kl.make_pod_data_dirs(web())
        assert kl.fs.list_dir(POD_DIR) == ["plugins", "volumes"]
        assert kl.list_pods_from_disk() == ["uid-web"]
        # The volume plugins write under the Kubelet's volumes directory, on the same disk.
        assert kl.volume_manager is not None
        host = kl.volume_manager.volume_plugin_mgr.host
        assert host.fs is kl.fs
        assert host.get_pod_volume_dir("uid-web", "kubernetes.io~empty-dir", "data") == (
            kl.get_pod_volume_dir("uid-web", "kubernetes.io~empty-dir", "data")
        )

    on_kubelet(body, verbosity=3)


def test_a_gone_pods_directory_is_removed_and_a_known_or_running_one_is_kept() -> None:
    def body(kl: Kubelet) -> None:
        for uid in ("uid-gone", "uid-known", "uid-running"):
            kl.make_pod_data_dirs(web(uid))
        kl.fs.mkdir_all("/var/lib/kubelet/pods/uid-gone/plugins/kubernetes.io~x/data")
        running = kubecontainer.Pod(id="uid-running", name="web", namespace="default")
        kl.cleanup_orphaned_pod_dirs([web("uid-known")], [running])
        assert kl.list_pods_from_disk() == ["uid-known", "uid-running"]

    out = lines(on_kubelet(body, verbosity=3))
    assert out == [
        '"Cleaned up orphaned pod volumes dir" podUID=uid-gone '
        'path="/var/lib/kubelet/pods/uid-gone/volumes"',
        '"Orphaned pod found, removing" podUID=uid-gone',
    ]


def test_a_file_left_in_a_volume_keeps_the_pod_directory_and_is_reported() -> None:
    def body(kl: Kubelet) -> None:
        kl.make_pod_data_dirs(web())
        kl.fs.write_file(f"{POD_DIR}/volumes/kubernetes.io~configmap/cfg/key", b"v")
        kl.cleanup_orphaned_pod_dirs([], [])
        assert kl.fs.is_file(f"{POD_DIR}/volumes/kubernetes.io~configmap/cfg/key")
        assert kl.fs.is_dir(f"{POD_DIR}/plugins")

    out = lines(on_kubelet(body, verbosity=3))
    path = f"{POD_DIR}/volumes/kubernetes.io~configmap/cfg"
    assert out == [
        f'"There were many similar errors. Turn up verbosity to see them." err="orphaned pod '
        f'\\"uid-web\\" found, but failed to rmdir() volume at path {path}: directory not empty"'
        " numErrs=2"
    ]


def test_a_volume_still_mounted_keeps_the_pod_directory() -> None:
    vol = f"{POD_DIR}/volumes/kubernetes.io~empty-dir/cache"

    def body(kl: Kubelet) -> None:
        kl.make_pod_data_dirs(web())
        kl.fs.mkdir_all(vol)
        kl.fs.mount(vol, "tmpfs")
        assert kl.get_mounted_volume_path_list_from_disk("uid-web") == [vol]
        kl.cleanup_orphaned_pod_dirs([], [])
        assert kl.fs.is_dir(vol)
        kl.fs.unmount(vol)
        kl.cleanup_orphaned_pod_dirs([], [])
        assert kl.list_pods_from_disk() == []

    out = lines(on_kubelet(body, verbosity=3))
    assert out[0] == '"Orphaned pod found, but volumes are not cleaned up" podUID=uid-web'
    assert out[1] == f'"Cleaned up orphaned volume from pod" podUID=uid-web path="{vol}"'


def test_a_mount_point_in_another_subdirectory_is_left_and_raised() -> None:
    mnt = f"{POD_DIR}/plugins/kubernetes.io~x/mnt"

    def body(kl: Kubelet) -> None:
        kl.make_pod_data_dirs(web())
        kl.fs.mkdir_all(mnt)
        kl.fs.mount(mnt, "tmpfs")
        with pytest.raises(AggregateError) as raised:
            kl.cleanup_orphaned_pod_dirs([], [])
        assert [str(e) for e in raised.value.errors()] == [
            f'orphaned pod "uid-web" found, but error cannot delete directory {mnt}: it is a mount '
            f'point occurred when trying to remove subdir "{POD_DIR}/plugins"',
            'orphaned pod "uid-web" found, but error directory not empty occurred when trying to '
            "remove the pod directory",
        ]
        assert kl.fs.is_dir(mnt) and not kl.fs.exists(f"{POD_DIR}/volumes")

    out = lines(on_kubelet(body))
    assert out[1] == (
        f'"Failed to remove orphaned pod subdir" err="cannot delete directory {mnt}: it is a '
        f'mount point" podUID=uid-web path="{POD_DIR}/plugins"'
    )
    assert out[2].startswith('"Failed to remove orphaned pod dir" err="directory not empty"')


def test_remove_dirs_refuses_files_and_remove_all_takes_them() -> None:
    fs = SimFS()
    fs.write_file("/t/a/b/file", b"x")
    fs.mkdir_all("/t/a/c")
    with pytest.raises(PathError, match=r"^not a directory$"):  # the file, by rmdir
        remove_dirs_one_filesystem(fs, fs, "/t/a")
    assert not fs.exists("/t/a/c") and fs.is_file("/t/a/b/file")
    remove_all_one_filesystem(fs, fs, "/t/a")
    assert not fs.exists("/t/a")
    remove_all_one_filesystem(fs, fs, "/t/a")  # nothing there: no error
    fs.mkdir_all("/t/z")
    with pytest.raises(PathError, match=r"^remove /t: directory not empty$"):
        fs.remove("/t")
