"""The file source: static pods from a manifest directory (kubelet's ``--pod-manifest-path``).

Go: pkg/kubelet/config/file.go
Go: pkg/kubelet/config/file_linux.go

Two things keep the source up to date, as in Go: a full listing of the directory every
``period`` (``--file-check-frequency``, 20 s by default), and a watch that turns each change of a
file into an event handled at once. Each manifest file holds one pod. The pods are kept in an
[`UndeltaStore`][minikubelet.k8s_io.client_go.tools.cache.undelta_store.UndeltaStore], which sends
the whole set (a SET) to PodConfig after every change.

Go watches with inotify (fsnotify). The port polls the directory instead, once per
``watchPollPeriod`` of the runtime's clock, and produces the same Create/Write/Remove events: it
needs no extra library, and under the virtual clock a change made by a test at a given virtual
time is seen at the same point of every run. On Linux the poll first asks an inotify descriptor
whether anything changed, and compares the directory only then.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any, BinaryIO

from minikubelet.base.files import read_stream_at_most
from minikubelet.config.common import forget_decoded, maxConfigLength, try_decode_pods
from minikubelet.github_com.fsnotify.fsnotify.fsnotify import (
    Create,
    Event,
    Remove,
    Rename,
    Watcher,
    Write,
)
from minikubelet.go import Chan, Second, SendChan, go, make_chan, new_ticker, now, recv, select
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import forever
from minikubelet.k8s_io.client_go.tools.cache.store import meta_namespace_key_func
from minikubelet.k8s_io.client_go.tools.cache.undelta_store import UndeltaStore
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import FileSource, PodOperation, PodUpdate

#: Go: eventBufferLen
eventBufferLen = 10
#: First retry period of a failed watch. Go: retryPeriod (file_linux.go)
retryPeriod = 1 * Second
#: Longest retry period of a failed watch. Go: maxRetryPeriod (file_linux.go)
maxRetryPeriod = 20 * Second


class PodEventType(IntEnum):
    """Go: pkg/kubelet/config/file.go type podEventType"""

    ADD = 0
    MODIFY = 1
    DELETE = 2


podAdd = PodEventType.ADD
podModify = PodEventType.MODIFY
podDelete = PodEventType.DELETE


@dataclass(frozen=True)
class WatchEvent:
    """A change to one manifest file.

    Go: pkg/kubelet/config/file.go type watchEvent
    """

    file_name: str
    event_type: PodEventType


class RetryableError(Exception):
    """A watch error worth retrying at once.

    Go: pkg/kubelet/config/file_linux.go type retryableError
    """


class SourceFile:
    """Go: pkg/kubelet/config/file.go type sourceFile"""

    def __init__(self, path: str, node_name: str, period: float, updates: SendChan[Any]) -> None:
        """Go: pkg/kubelet/config/file.go newSourceFile"""

        async def send(objs: list[Pod]) -> None:
            await updates.send(PodUpdate(pods=list(objs), op=PodOperation.SET, source=FileSource))

        self.path = path
        self.node_name = node_name
        self.period = period
        self.store = UndeltaStore(send, meta_namespace_key_func)
        #: manifest file → the key of its pod in the store.
        self.file_key_mapping: dict[str, str] = {}
        self.updates = updates
        self.watch_events: Chan[WatchEvent] = make_chan(eventBufferLen, name="watchEvents")

    def run(self) -> None:
        """Start listing the directory every period and watching it for changes.

        Go: pkg/kubelet/config/file.go (*sourceFile).run
        """
        list_ticker = new_ticker(self.period)

        async def list_and_watch_events() -> None:
            try:
                await self.list_config()
            except Exception as err:
                klog.error_s(err, "Unable to read config path", path=self.path)
            while True:
                match await select(recv(list_ticker.c), recv(self.watch_events)):
                    # Go: case <-listTicker.C:
                    case 0, _:
                        try:
                            await self.list_config()
                        except Exception as err:
                            klog.error_s(err, "Unable to read config path", path=self.path)
                    # Go: case e := <-s.watchEvents:
                    case 1, (e, _):
                        try:
                            await self.consume_watch_event(e)
                        except Exception as err:
                            klog.error_s(err, "Unable to process watch event")

        go(list_and_watch_events, name="sourceFile.run")
        self.start_watch()

    async def list_config(self) -> None:
        """Read every manifest of the path and replace the store's pods with them.

        Go: pkg/kubelet/config/file.go (*sourceFile).listConfig
        """
        path = self.path
        try:
            stat_info = os.stat(path)
        except FileNotFoundError:
            # An empty SET still counts: kubelet waits for every source before housekeeping.
            await self.updates.send(PodUpdate(pods=[], op=PodOperation.SET, source=FileSource))
            raise FileNotFoundError("path does not exist, ignoring") from None

        # Go: case statInfo.Mode().IsDir():
        if stat.S_ISDIR(stat_info.st_mode):
            pods = self.extract_from_dir(path)
            if len(pods) == 0:
                await self.updates.send(
                    PodUpdate(pods=pods, op=PodOperation.SET, source=FileSource)
                )
                return
            await self.replace_store(*pods)
        # Go: case statInfo.Mode().IsRegular():
        elif stat.S_ISREG(stat_info.st_mode):
            pod = self.extract_from_file(path)
            await self.replace_store(pod)
        # Go: default:
        else:
            raise OSError("path is not a directory or file")

    def extract_from_dir(self, name: str) -> list[Pod]:
        """The pods of every manifest in a directory; a bad manifest is logged and skipped.

        Go: pkg/kubelet/config/file.go (*sourceFile).extractFromDir
        """
        # Go globs "[^.]*": every name that does not start with a dot.
        dirents = sorted(
            str(Path(name) / entry) for entry in os.listdir(name) if not entry.startswith(".")
        )
        pods: list[Pod] = []
        for path in dirents:
            try:
                stat_info = os.stat(path)
            except OSError as err:
                klog.error_s(err, "Could not get metadata", path=path)
                continue

            # Go: case statInfo.Mode().IsDir():
            if stat.S_ISDIR(stat_info.st_mode):
                klog.error_s(
                    None,
                    "Provided manifest path is a directory, not recursing into manifest path",
                    path=path,
                )
            # Go: case statInfo.Mode().IsRegular():
            elif stat.S_ISREG(stat_info.st_mode):
                try:
                    pod = self.extract_from_file(path)
                except FileNotFoundError:
                    pass
                except Exception as err:
                    klog.error_s(err, "Could not process manifest file", path=path)
                else:
                    pods.append(pod)
            # Go: default:
            else:
                klog.error_s(
                    None,
                    "Manifest path is not a directory or file",
                    path=path,
                    mode=stat.filemode(stat_info.st_mode),
                )
        return pods

    def extract_from_file(self, filename: str) -> Pod:
        """Read, default and validate the pod of one manifest file.

        Go: pkg/kubelet/config/file.go (*sourceFile).extractFromFile

        Raises the file's first [`ManifestError`][minikubelet.config.manifest.ManifestError] (naming
        the file, the document and the field) when it holds no valid pod. Only the first YAML
        document of a file counts, as in kubelet, which ignores the others without a word.
        """
        klog.v(3).info_s("Reading config file", path=filename)
        with open_regular_file(filename) as file:
            # As Go's utilio.ReadAtMost(file, maxConfigLength).
            data = read_stream_at_most(file, maxConfigLength)
        if len(data) > maxConfigLength:
            raise ValueError(f"{filename}: larger than {maxConfigLength} bytes")
        pods, errors = try_decode_pods(data, filename, True, self.node_name, allow_pod_list=False)
        if errors:
            raise errors[0]
        pod = pods[0]
        # Go records the file → pod key mapping in a deferred function once the pod is read.
        self.file_key_mapping[filename] = meta_namespace_key_func(pod)
        return pod

    async def replace_store(self, *pods: Pod) -> None:
        """Go: pkg/kubelet/config/file.go (*sourceFile).replaceStore"""
        await self.store.replace(list(pods), "")

    # --- file_linux.go --------------------------------------------------------------------------

    def start_watch(self) -> None:
        """Keep a watch on the path, restarting it with back-off when it fails.

        Go: pkg/kubelet/config/file_linux.go (*sourceFile).startWatch
        """
        back_off = new_back_off(retryPeriod, maxRetryPeriod)
        back_off_id = "watch"

        async def watch_once() -> None:
            if back_off.is_in_back_off_since_update(back_off_id, now()):
                return
            try:
                await self.do_watch()
            except Exception as err:
                klog.error_s(err, "Unable to read config path", path=self.path)
                if not isinstance(err, RetryableError):
                    back_off.next(back_off_id, now())

        go(forever, watch_once, retryPeriod, name="sourceFile.startWatch")

    async def do_watch(self) -> None:
        """Watch the path and turn each change into a watch event, until an error.

        Go: pkg/kubelet/config/file_linux.go (*sourceFile).doWatch
        """
        if not os.path.exists(self.path):
            await self.updates.send(PodUpdate(pods=[], op=PodOperation.SET, source=FileSource))
            raise RetryableError("path does not exist, ignoring")

        w = Watcher()
        try:
            w.add(self.path)
            while True:
                match await select(recv(w.events), recv(w.errors)):
                    # Go: case event := <-w.Events:
                    case 0, (event, _):
                        try:
                            await self.produce_watch_event(event)
                        except Exception as err:
                            raise RuntimeError(
                                f"error while processing inotify event ({event}): {err}"
                            ) from err
                    # Go: case err = <-w.Errors:
                    case 1, (err, _):
                        raise RuntimeError(f'error while watching "{self.path}": {err}')
        finally:
            w.close()

    async def produce_watch_event(self, e: Event) -> None:
        """Turn a file-system event into a pod event (dot files are ignored).

        Go: pkg/kubelet/config/file_linux.go (*sourceFile).produceWatchEvent
        """
        # Editors' swap files and the like.
        if os.path.basename(e.name).startswith("."):
            klog.v(4).info_s("Ignored pod manifest, because it starts with dots", eventName=e.name)
            return
        # Go: case (e.Op & fsnotify.Create) > 0:
        if e.op & Create:
            event_type = PodEventType.ADD
        # Go: case (e.Op & fsnotify.Write) > 0:
        elif e.op & Write:
            event_type = PodEventType.MODIFY
        # Go omitted: case (e.Op & fsnotify.Chmod) > 0: -- polling sees contents, not modes
        # Go: case (e.Op & fsnotify.Remove) > 0:
        elif e.op & Remove:
            event_type = PodEventType.DELETE
        # Go: case (e.Op & fsnotify.Rename) > 0:
        elif e.op & Rename:
            event_type = PodEventType.DELETE
        # Go: default:
        else:
            # Ignore rest events
            return

        await self.watch_events.send(WatchEvent(e.name, event_type))

    async def consume_watch_event(self, e: WatchEvent) -> None:
        """Apply one pod event to the store (which then sends the new SET).

        Go: pkg/kubelet/config/file_linux.go (*sourceFile).consumeWatchEvent
        """
        match e.event_type:
            # Go: case podAdd, podModify:
            case PodEventType.ADD | PodEventType.MODIFY:
                try:
                    pod = self.extract_from_file(e.file_name)
                except Exception as err:
                    raise RuntimeError(
                        f'can\'t process config file "{e.file_name}": {err}'
                    ) from err
                await self.store.add(pod)
            # Go: case podDelete:
            case PodEventType.DELETE:
                # Ours: the decode memo lets go of the text of a manifest that is gone.
                forget_decoded(e.file_name)
                obj_key = self.file_key_mapping.get(e.file_name)
                if obj_key is not None:
                    stored, pod_exist = self.store.get_by_key(obj_key)
                    if not pod_exist or stored is None:
                        raise LookupError(f"the pod with key {obj_key} doesn't exist in cache")
                    await self.store.delete(stored)
                    del self.file_key_mapping[e.file_name]


def open_regular_file(filename: str) -> BinaryIO:
    """Open ``filename`` for reading, refusing anything but a regular file.

    Ours. Go opens a manifest with ``os.Open`` and reads it; opening a FIFO with no writer
    blocks, which in Go stalls only the file source's goroutine but here would stall the one
    thread every goroutine runs on. So the file is opened without blocking and checked first:
    the file source reads regular files only (a FIFO, socket or device is reported, as the
    directory listing reports them).
    """
    fd = os.open(filename, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(f"{filename}: not a regular file (mode {stat.filemode(mode)})")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def new_source_file(path: str, node_name: str, period: float, updates: SendChan[Any]) -> None:
    """Start the file source on ``path``; it sends its pods on ``updates``.

    Go: pkg/kubelet/config/file.go NewSourceFile
    """
    # Go strips the slash for its inotify library; here it keeps the watched path and the
    # paths of events the same string.
    path = path.rstrip(os.sep)

    config = SourceFile(path, node_name, period, updates)
    klog.v(1).info_s("Watching path", path=path)
    config.run()
