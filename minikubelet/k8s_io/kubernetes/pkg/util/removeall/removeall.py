"""Removing a directory tree without crossing into another filesystem (``rm -rf
--one-file-system``).

Go: pkg/util/removeall/removeall.go

Go removes from the real disk through packages os and syscall; the port removes from the node's
files it is handed (``fs``), whose ``remove`` and ``rmdir`` are ``os.Remove`` and
``syscall.Rmdir``.
"""

from __future__ import annotations

import errno
import posixpath
from collections.abc import Callable

from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import FileSystem
from minikubelet.k8s_io.mount_utils.mount import Interface


def _is_not_exist(err: OSError) -> bool:
    """Go's ``os.IsNotExist``."""
    return err.errno == errno.ENOENT


def remove_all_one_filesystem_common(
    mounter: Interface, fs: FileSystem, path: str, remove: Callable[[str], None]
) -> None:
    """Remove ``path`` and what is under it with ``remove``, never past a mount point; raise the
    first error after removing what it could. Nothing there is no error.

    Go: pkg/util/removeall/removeall.go RemoveAllOneFilesystemCommon
    """
    # Go: err := remove(path)
    try:
        remove(path)
        return
    except OSError as e:
        if _is_not_exist(e):
            return
        first = e

    # Go: dir, serr := os.Lstat(path)
    if not fs.exists(path):
        return
    # Go: if !dir.IsDir() {
    if not fs.is_dir(path):
        raise first

    # Go: isNotMount, err := mounter.IsLikelyNotMountPoint(path)
    is_not_mount = mounter.is_likely_not_mount_point(path)
    if not is_not_mount:
        raise OSError(f"cannot delete directory {path}: it is a mount point")

    # Go: err = nil
    err: OSError | None = None
    # The simulated disk reads a directory's names at once, not 100 at a time.
    # Go: for {
    for name in fs.list_dir(path):
        try:
            remove_all_one_filesystem_common(mounter, fs, posixpath.join(path, name), remove)
        except OSError as err1:
            if err is None:
                err = err1

    # Go: err1 := remove(path)
    try:
        remove(path)
    except OSError as err1:
        if _is_not_exist(err1):
            return
        # The first error is the one raised: a child's, else this one.
        if err is None:
            raise
        raise err from err1


def remove_all_one_filesystem(mounter: Interface, fs: FileSystem, path: str) -> None:
    """Remove ``path`` and everything under it, files too, never past a mount point.

    Go: pkg/util/removeall/removeall.go RemoveAllOneFilesystem
    """
    remove_all_one_filesystem_common(mounter, fs, path, fs.remove)


def remove_dirs_one_filesystem(mounter: Interface, fs: FileSystem, path: str) -> None:
    """Remove ``path`` and the empty directories under it; a file anywhere is an error.

    Go: pkg/util/removeall/removeall.go RemoveDirsOneFilesystem
    """
    remove_all_one_filesystem_common(mounter, fs, path, fs.rmdir)
