"""PodConfig: merges the pods of every source into one stream of ADD/UPDATE/DELETE/REMOVE/RECONCILE.

Go: pkg/kubelet/config/config.go

Sources (file, HTTP, API server) only ever send the *whole* list of their pods (a SET). The
[`PodStorage`][] remembers each source's pods, compares a new list with the old one, and sends
kubelet only what changed, on one buffered channel: [`PodConfig.updates`][], the ``configCh``
that ``syncLoopIteration`` reads.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from minikubelet.container.runtime import get_pod_full_name
from minikubelet.events import FailedValidation
from minikubelet.go import Chan, Mutex, RecvChan, SendChan, make_chan, now
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.config.config import Mux
from minikubelet.types import (
    AllSource,
    ConfigFirstSeenAnnotationKey,
    ConfigMirrorAnnotationKey,
    ConfigSourceAnnotationKey,
    PodOperation,
    PodUpdate,
    timestamp_string,
)
from minikubelet.util import format


class PodConfigNotificationMode(IntEnum):
    """How changes are sent to the update channel.

    Go: pkg/kubelet/config/config.go type PodConfigNotificationMode
    """

    #: Uninitialised; merging panics.
    UNKNOWN = 0
    #: The full configuration as a SET whenever anything changes.
    SNAPSHOT = 1
    #: UPDATE and DELETE for changed pods, and a SET when pods are added or removed.
    SNAPSHOT_AND_UPDATES = 2
    #: ADD, UPDATE, DELETE, REMOVE, RECONCILE: the mode kubelet uses.
    INCREMENTAL = 3


PodConfigNotificationUnknown = PodConfigNotificationMode.UNKNOWN
PodConfigNotificationSnapshot = PodConfigNotificationMode.SNAPSHOT
PodConfigNotificationSnapshotAndUpdates = PodConfigNotificationMode.SNAPSHOT_AND_UPDATES
PodConfigNotificationIncremental = PodConfigNotificationMode.INCREMENTAL


class PodConfig:
    """A mux that merges many sources of pods into one stream of normalised updates.

    Go: pkg/kubelet/config/config.go type PodConfig
    """

    def __init__(self, mode: PodConfigNotificationMode, recorder: EventRecorder) -> None:
        """Go: pkg/kubelet/config/config.go NewPodConfig"""
        # Go: updates := make(chan kubetypes.PodUpdate, 50)
        updates: Chan[PodUpdate] = make_chan(50, name="PodConfig.updates")
        # Go: storage := newPodStorage(updates, mode, recorder)
        storage = PodStorage(updates, mode, recorder)
        # Go: podConfig := &PodConfig{
        self.pods = storage
        self.mux = Mux(storage)
        self._updates = updates
        self.sources: set[str] = set()

    def channel(self, source: str) -> SendChan[Any]:
        """The channel ``source`` sends its pods on (made on first use).

        Go: pkg/kubelet/config/config.go (*PodConfig).Channel
        """
        self.sources.add(source)
        return self.mux.channel(source)

    def seen_all_sources(self, seen_sources: set[str]) -> bool:
        """True once kubelet saw every source and each of them sent a SET.

        Go: pkg/kubelet/config/config.go (*PodConfig).SeenAllSources
        """
        if self.pods is None:
            return False
        klog.v(5).info_s(
            "Looking for sources, have seen",
            sources=sorted(self.sources),
            seenSources=go_fmt.string_set(seen_sources),
        )
        return seen_sources >= self.sources and self.pods.seen_sources(*sorted(self.sources))

    def updates(self) -> RecvChan[PodUpdate]:
        """The channel of normalised updates: kubelet's ``configCh``.

        Go: pkg/kubelet/config/config.go (*PodConfig).Updates
        """
        return self._updates.recv_only()

    async def sync(self) -> None:
        """Send the full configuration as one SET.

        Go: pkg/kubelet/config/config.go (*PodConfig).Sync
        """
        await self.pods.sync()


class PodStorage:
    """Each source's pods, and the ordered delivery of what changed.

    Go: pkg/kubelet/config/config.go type podStorage
    """

    def __init__(
        self,
        updates: SendChan[PodUpdate],
        mode: PodConfigNotificationMode,
        recorder: EventRecorder,
    ) -> None:
        """Go: pkg/kubelet/config/config.go newPodStorage"""
        #: source name → pod UID → pod.
        self.pods: dict[str, dict[str, Pod]] = {}
        self.mode = mode
        self.updates = updates
        #: Held from merging to sending, so that two sources' updates never interleave.
        self.update_lock = Mutex()
        #: The sources that have sent at least one SET.
        self.sources_seen: set[str] = set()
        self.recorder = recorder

    async def merge(self, source: str, change: Any) -> None:
        """Merge one source's change and send zero or more updates, in order.

        Go: pkg/kubelet/config/config.go (*podStorage).Merge
        """
        # Go: s.updateLock.Lock()
        # Go holds s.updateLock for the whole of Merge: the sends below may block (the channel
        # holds 50 updates), and another source's merge must not interleave with them.
        async with self.update_lock:
            # Go: seenBefore := s.sourcesSeen.Has(source)
            seen_before = source in self.sources_seen
            adds, updates, deletes, removes, reconciles = self._merge(source, change)
            first_set = not seen_before and source in self.sources_seen

            # Go: switch s.mode {
            # deliver update notifications
            mode = self.mode
            # Go: case PodConfigNotificationIncremental:
            if mode == PodConfigNotificationMode.INCREMENTAL:
                # Go: if len(removes.Pods) > 0 {
                if len(removes.pods) > 0:
                    await self.updates.send(removes)
                # Go: if len(adds.Pods) > 0 {
                if len(adds.pods) > 0:
                    await self.updates.send(adds)
                # Go: if len(updates.Pods) > 0 {
                if len(updates.pods) > 0:
                    await self.updates.send(updates)
                # Go: if len(deletes.Pods) > 0 {
                if len(deletes.pods) > 0:
                    await self.updates.send(deletes)
                # Go: if firstSet && len(adds.Pods) == 0 && len(updates.Pods) == 0 && len(deletes.Pods) == 0 {
                if (
                    first_set
                    and len(adds.pods) == 0
                    and len(updates.pods) == 0
                    and len(deletes.pods) == 0
                ):
                    # An empty ADD when a source is first seen with no pods: it tells kubelet the
                    # source is ready.
                    await self.updates.send(adds)
                # Go: if len(reconciles.Pods) > 0 {
                # Only reconcile here: kubelet does not support snapshot updates.
                if len(reconciles.pods) > 0:
                    await self.updates.send(reconciles)

            # Go: case PodConfigNotificationSnapshotAndUpdates:
            elif mode == PodConfigNotificationMode.SNAPSHOT_AND_UPDATES:
                # Go: if len(removes.Pods) > 0 || len(adds.Pods) > 0 || firstSet {
                if len(removes.pods) > 0 or len(adds.pods) > 0 or first_set:
                    await self.updates.send(
                        PodUpdate(pods=self.merged_state(), op=PodOperation.SET, source=source)
                    )
                # Go: if len(updates.Pods) > 0 {
                if len(updates.pods) > 0:
                    await self.updates.send(updates)
                # Go: if len(deletes.Pods) > 0 {
                if len(deletes.pods) > 0:
                    await self.updates.send(deletes)

            # Go: case PodConfigNotificationSnapshot:
            elif mode == PodConfigNotificationMode.SNAPSHOT:
                # Go: if len(updates.Pods) > 0 || len(deletes.Pods) > 0
                changed = updates.pods or deletes.pods or adds.pods or removes.pods
                if changed or first_set:
                    await self.updates.send(
                        PodUpdate(pods=self.merged_state(), op=PodOperation.SET, source=source)
                    )

            # Go: case PodConfigNotificationUnknown:
            # Go: default:
            else:
                raise RuntimeError(f"unsupported PodConfigNotificationMode: {mode!r}")

    def _merge(
        self, source: str, change: Any
    ) -> tuple[PodUpdate, PodUpdate, PodUpdate, PodUpdate, PodUpdate]:
        """Compare a source's change with what it sent before; sort the pods by what changed.

        Go: pkg/kubelet/config/config.go (*podStorage).merge
        """
        # Go: addPods := []*v1.Pod{}
        add_pods: list[Pod] = []
        update_pods: list[Pod] = []
        delete_pods: list[Pod] = []
        remove_pods: list[Pod] = []
        reconcile_pods: list[Pod] = []

        # Go: pods := s.pods[source]
        pods = self.pods.get(source)
        if pods is None:
            pods = {}

        # Go: updatePodsFunc := func(
        def update_pods_func(
            new_pods: list[Pod], old_pods: dict[str, Pod], pods: dict[str, Pod]
        ) -> None:
            """Update the cache ``old_pods`` with ``new_pods``, storing the result in ``pods``."""
            # Go: filtered := filterInvalidPods(
            filtered = filter_invalid_pods(new_pods, source, self.recorder)
            # Go: for _, ref := range filtered {
            for ref in filtered:
                # Go: if ref.Annotations == nil {
                # Before comparing: the stored pod has the annotation too.
                if ref.metadata.annotations is None:
                    ref.metadata.annotations = {}
                ref.metadata.annotations[ConfigSourceAnnotationKey] = source
                # Go: if existing, found := oldPods[ref.UID]; found {
                existing = old_pods.get(ref.metadata.uid)
                if existing is not None:
                    pods[ref.metadata.uid] = existing
                    # Go: needUpdate, needReconcile, needGracefulDelete := checkAndUpdatePod(existing, ref)
                    need_update, need_reconcile, need_graceful_delete = check_and_update_pod(
                        existing, ref
                    )
                    # Go: if needUpdate {
                    if need_update:
                        update_pods.append(existing)
                    # Go: if needReconcile {
                    elif need_reconcile:
                        reconcile_pods.append(existing)
                    # Go: if needGracefulDelete {
                    elif need_graceful_delete:
                        delete_pods.append(existing)
                    # Go: continue
                    continue
                # Go: recordFirstSeenTime(ref)
                record_first_seen_time(ref)
                pods[ref.metadata.uid] = ref
                add_pods.append(ref)

        # Go: update := change.(kubetypes.PodUpdate)
        update = change
        assert isinstance(update, PodUpdate), f"a config source sent {update!r}, not a PodUpdate"
        # Go: switch update.Op {
        # Go: case kubetypes.ADD, kubetypes.UPDATE, kubetypes.DELETE:
        if update.op in (PodOperation.ADD, PodOperation.UPDATE, PodOperation.DELETE):
            # Go: if update.Op == kubetypes.ADD {
            if update.op == PodOperation.ADD:
                klog.v(4).info_s(
                    "Adding new pods from source", source=source, pods=format.pods(update.pods)
                )
            # Go: if update.Op == kubetypes.DELETE {
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
            # Go: updatePodsFunc(update.Pods, pods, pods)
            update_pods_func(update.pods, pods, pods)

        # Go: case kubetypes.REMOVE:
        elif update.op == PodOperation.REMOVE:
            klog.v(4).info_s(
                "Removing pods from source", source=source, pods=format.pods(update.pods)
            )
            # Go: for _, value := range update.Pods {
            for value in update.pods:
                existing = pods.get(value.metadata.uid)
                if existing is not None:
                    del pods[value.metadata.uid]
                    remove_pods.append(existing)
                    continue

        # Go: case kubetypes.SET:
        elif update.op == PodOperation.SET:
            klog.v(4).info_s("Setting pods for source", source=source)
            # Go: s.markSourceSet(source)
            self.mark_source_set(source)
            # Go: oldPods := pods
            # A SET is the whole truth: every pod it leaves out is removed.
            old_pods = pods
            pods = {}
            update_pods_func(update.pods, old_pods, pods)
            # Go: for uid, existing := range oldPods {
            for uid, existing in old_pods.items():
                if uid not in pods:
                    remove_pods.append(existing)

        # Go: default:
        else:
            klog.info_s("Received invalid update type", type=update)

        # Go: s.pods[source] = pods
        self.pods[source] = pods

        # Go: adds = &kubetypes.PodUpdate{
        return (
            PodUpdate(op=PodOperation.ADD, pods=copy_pods(add_pods), source=source),
            PodUpdate(op=PodOperation.UPDATE, pods=copy_pods(update_pods), source=source),
            PodUpdate(op=PodOperation.DELETE, pods=copy_pods(delete_pods), source=source),
            PodUpdate(op=PodOperation.REMOVE, pods=copy_pods(remove_pods), source=source),
            PodUpdate(op=PodOperation.RECONCILE, pods=copy_pods(reconcile_pods), source=source),
        )

    def mark_source_set(self, source: str) -> None:
        """Go: pkg/kubelet/config/config.go (*podStorage).markSourceSet"""
        self.sources_seen.add(source)

    def seen_sources(self, *sources: str) -> bool:
        """Go: pkg/kubelet/config/config.go (*podStorage).seenSources"""
        return self.sources_seen.issuperset(sources)

    async def sync(self) -> None:
        """Send a copy of the current state as one SET from every source.

        Go: pkg/kubelet/config/config.go (*podStorage).Sync
        """
        await self.updates.send(
            PodUpdate(pods=self.merged_state(), op=PodOperation.SET, source=AllSource)
        )

    def merged_state(self) -> list[Pod]:
        """A deep copy of every source's pods.

        Go: pkg/kubelet/config/config.go (*podStorage).MergedState
        """
        return [
            deep_copy(pod) for source_pods in self.pods.values() for pod in source_pods.values()
        ]


def filter_invalid_pods(pods: list[Pod], source: str, recorder: EventRecorder) -> list[Pod]:
    """Drop the pods whose full name (name and namespace) repeats an earlier one.

    Go: pkg/kubelet/config/config.go filterInvalidPods
    """
    filtered: list[Pod] = []
    names: set[str] = set()
    for i, pod in enumerate(pods):
        # Each source validated its pods already; this only checks for name conflicts.
        name = get_pod_full_name(pod)
        if name in names:
            klog.info_s(
                "Pod failed validation due to duplicate pod name, ignoring",
                index=i,
                pod=klog.kobj(pod),
                source=source,
            )
            recorder.eventf(
                pod,
                EventTypeWarning,
                FailedValidation,
                'Error validating pod %s from %s due to duplicate pod name "%s", ignoring',
                format.pod(pod),
                source,
                pod.metadata.name,
            )
            continue
        names.add(name)
        filtered.append(pod)
    return filtered


#: Annotations that kubelet adds to the pod. Go: localAnnotations
LOCAL_ANNOTATIONS = (
    ConfigSourceAnnotationKey,
    ConfigMirrorAnnotationKey,
    ConfigFirstSeenAnnotationKey,
)


def is_local_annotation_key(key: str) -> bool:
    """Go: pkg/kubelet/config/config.go isLocalAnnotationKey"""
    return key in LOCAL_ANNOTATIONS


def is_annotation_map_equal(
    existing_map: dict[str, str] | None, candidate_map: dict[str, str] | None
) -> bool:
    """Whether two annotation maps are equal, ignoring the annotations kubelet adds itself.

    Go: pkg/kubelet/config/config.go isAnnotationMapEqual
    """
    existing_map = existing_map or {}
    if candidate_map is None:
        candidate_map = {}
    for k, v in candidate_map.items():
        if is_local_annotation_key(k):
            continue
        if k in existing_map and existing_map[k] == v:
            continue
        return False
    for k in existing_map:
        if is_local_annotation_key(k):
            continue
        if k not in candidate_map:
            return False
    return True


def record_first_seen_time(pod: Pod) -> None:
    """Stamp a new pod with the time kubelet first saw it.

    Go: pkg/kubelet/config/config.go recordFirstSeenTime
    """
    klog.v(4).info_s("Receiving a new pod", pod=klog.kobj(pod))
    pod.metadata.annotations[ConfigFirstSeenAnnotationKey] = timestamp_string(now())


def update_annotations(existing: Pod, ref: Pod) -> None:
    """Give ``existing`` the annotations of ``ref`` plus its own local ones.

    Go: pkg/kubelet/config/config.go updateAnnotations
    """
    annotations = dict(ref.metadata.annotations or {})
    for k in LOCAL_ANNOTATIONS:
        if k in (existing.metadata.annotations or {}):
            annotations[k] = existing.metadata.annotations[k]
    existing.metadata.annotations = annotations


def pods_differ_semantically(existing: Pod, ref: Pod) -> bool:
    """Go: pkg/kubelet/config/config.go podsDifferSemantically"""
    return not (
        existing.spec == ref.spec
        and existing.metadata.labels == ref.metadata.labels
        and existing.metadata.deletion_timestamp == ref.metadata.deletion_timestamp
        and existing.metadata.deletion_grace_period_seconds
        == ref.metadata.deletion_grace_period_seconds
        and is_annotation_map_equal(existing.metadata.annotations, ref.metadata.annotations)
    )


def check_and_update_pod(existing: Pod, ref: Pod) -> tuple[bool, bool, bool]:
    """Update ``existing`` from ``ref``; say whether that is an update, a reconcile or a delete.

    Go: pkg/kubelet/config/config.go checkAndUpdatePod

    Returns ``(need_update, need_reconcile, need_graceful_delete)``, at most one of them true:
    a meaningful change is an update, or a graceful delete when ``ref`` has a deletion
    timestamp; a change of status only is a reconcile.
    """
    need_update = need_reconcile = need_graceful_delete = False

    if not pods_differ_semantically(existing, ref):
        # Not an update. Only a changed status needs a reconcile: kubelet owns pod status.
        if existing.status != ref.status:
            existing.status = ref.status
            need_reconcile = True
        return need_update, need_reconcile, need_graceful_delete

    # Keep the first-seen time: it is kubelet's own annotation.
    ref.metadata.annotations[ConfigFirstSeenAnnotationKey] = existing.metadata.annotations.get(
        ConfigFirstSeenAnnotationKey, ""
    )

    existing.spec = ref.spec
    existing.metadata.labels = ref.metadata.labels
    existing.metadata.deletion_timestamp = ref.metadata.deletion_timestamp
    existing.metadata.deletion_grace_period_seconds = ref.metadata.deletion_grace_period_seconds
    existing.status = ref.status
    update_annotations(existing, ref)

    if ref.metadata.deletion_timestamp is not None:
        need_graceful_delete = True
    else:
        need_update = True

    return need_update, need_reconcile, need_graceful_delete


def copy_pods(source_pods: list[Pod]) -> list[Pod]:
    """Deep copies, so no receiver shares a pod with the store.

    Go: pkg/kubelet/config/config.go copyPods
    """
    return [deep_copy(source) for source in source_pods]
