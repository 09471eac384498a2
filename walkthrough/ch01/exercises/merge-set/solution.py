"""Exercise ch01/merge-set: turn a source's SET into ADD, UPDATE, DELETE, REMOVE, RECONCILE.
练习 ch01/merge-set：把来源发来的 SET 变成 ADD、UPDATE、DELETE、REMOVE、RECONCILE。

Below is the port's ``PodStorage._merge`` (minikubelet/config/config.py) without the parts that
sort each pod into what changed. Fill in the TODOs, then run:
下面是移植版的 ``PodStorage._merge``（minikubelet/config/config.py），判断每个 Pod 属于哪种变化的
部分被删掉了。补全其中的 TODO，然后运行：

    python -m walkthrough check merge-set
"""

from __future__ import annotations

from typing import Any

from minikubelet.config.config import PodStorage as PortPodStorage
from minikubelet.config.config import (
    check_and_update_pod,
    copy_pods,
    filter_invalid_pods,
    record_first_seen_time,
)
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.sim import klog
from minikubelet.types import ConfigSourceAnnotationKey, PodOperation, PodUpdate
from minikubelet.util import format

#: What this module offers; check_and_update_pod and record_first_seen_time are for your code.
__all__ = ["PodStorage", "check_and_update_pod", "record_first_seen_time"]


class PodStorage(PortPodStorage):
    """The port's PodStorage with your ``_merge``: the tests run this one."""

    def _merge(
        self, source: str, change: Any
    ) -> tuple[PodUpdate, PodUpdate, PodUpdate, PodUpdate, PodUpdate]:
        """Compare a source's change with what it sent before; sort the pods by what changed.

        Go: pkg/kubelet/config/config.go (*podStorage).merge
        """
        add_pods: list[Pod] = []
        update_pods: list[Pod] = []
        delete_pods: list[Pod] = []
        remove_pods: list[Pod] = []
        reconcile_pods: list[Pod] = []

        pods = self.pods.get(source)
        if pods is None:
            pods = {}

        def update_pods_func(
            new_pods: list[Pod], old_pods: dict[str, Pod], pods: dict[str, Pod]
        ) -> None:
            """Update the cache ``old_pods`` with ``new_pods``, storing the result in ``pods``."""
            filtered = filter_invalid_pods(new_pods, source, self.recorder)
            for ref in filtered:
                # Before comparing: the stored pod has the annotation too.
                if ref.metadata.annotations is None:
                    ref.metadata.annotations = {}
                ref.metadata.annotations[ConfigSourceAnnotationKey] = source
                existing = old_pods.get(ref.metadata.uid)
                if existing is not None:
                    pods[ref.metadata.uid] = existing
                    # exercise: # TODO 1: a pod the source sent before: compare the two and update the
                    # exercise: #   stored one (check_and_update_pod returns need_update, need_reconcile,
                    # exercise: #   need_graceful_delete; at most one is true). Put the stored pod in the
                    # exercise: #   list of updates, of reconciles or of graceful deletes accordingly.
                    # SOLUTION BEGIN
                    need_update, need_reconcile, need_graceful_delete = check_and_update_pod(
                        existing, ref
                    )
                    if need_update:
                        update_pods.append(existing)
                    elif need_reconcile:
                        reconcile_pods.append(existing)
                    elif need_graceful_delete:
                        delete_pods.append(existing)
                    # SOLUTION END
                    continue
                # exercise: # TODO 2: a pod never seen before: stamp the time kubelet first saw it
                # exercise: #   (record_first_seen_time), store it in pods, and it is an ADD.
                # SOLUTION BEGIN
                record_first_seen_time(ref)
                pods[ref.metadata.uid] = ref
                add_pods.append(ref)
                # SOLUTION END

        update = change
        assert isinstance(update, PodUpdate), f"a config source sent {update!r}, not a PodUpdate"
        # Go: case kubetypes.ADD, kubetypes.UPDATE, kubetypes.DELETE:
        if update.op in (PodOperation.ADD, PodOperation.UPDATE, PodOperation.DELETE):
            if update.op == PodOperation.ADD:
                klog.v(4).info_s(
                    "Adding new pods from source", source=source, pods=format.pods(update.pods)
                )
            elif update.op == PodOperation.DELETE:
                klog.v(4).info_s(
                    "Gracefully deleting pods from source",
                    source=source,
                    pods=format.pods(update.pods),
                )
            else:
                klog.v(4).info_s(
                    "Updating pods from source", source=source, pods=format.pods(update.pods)
                )
            update_pods_func(update.pods, pods, pods)

        # Go: case kubetypes.REMOVE:
        elif update.op == PodOperation.REMOVE:
            klog.v(4).info_s(
                "Removing pods from source", source=source, pods=format.pods(update.pods)
            )
            for value in update.pods:
                existing = pods.get(value.metadata.uid)
                if existing is not None:
                    del pods[value.metadata.uid]
                    remove_pods.append(existing)
                    continue

        # Go: case kubetypes.SET:
        elif update.op == PodOperation.SET:
            klog.v(4).info_s("Setting pods for source", source=source)
            self.mark_source_set(source)
            # A SET is the whole truth: every pod it leaves out is removed.
            old_pods = pods
            pods = {}
            update_pods_func(update.pods, old_pods, pods)
            # exercise: # TODO 3: a SET is the whole list: every pod of the old list that the new
            # exercise: #   one left out is a REMOVE.
            # SOLUTION BEGIN
            for uid, existing in old_pods.items():
                if uid not in pods:
                    remove_pods.append(existing)
            # SOLUTION END

        # Go: default:
        else:
            klog.info_s("Received invalid update type", type=update)

        self.pods[source] = pods

        return (
            PodUpdate(op=PodOperation.ADD, pods=copy_pods(add_pods), source=source),
            PodUpdate(op=PodOperation.UPDATE, pods=copy_pods(update_pods), source=source),
            PodUpdate(op=PodOperation.DELETE, pods=copy_pods(delete_pods), source=source),
            PodUpdate(op=PodOperation.REMOVE, pods=copy_pods(remove_pods), source=source),
            PodUpdate(op=PodOperation.RECONCILE, pods=copy_pods(reconcile_pods), source=source),
        )
