"""Exercise ch01/deliver-incremental: send kubelet what changed, in order.
练习 ch01/deliver-incremental：按顺序把变化发给 kubelet。

Below is the port's ``PodStorage.merge`` (minikubelet/config/config.py) with most of the
incremental mode, the one kubelet uses, taken out. Fill in the TODOs, then run:
下面是移植版的 ``PodStorage.merge``（minikubelet/config/config.py），kubelet 使用的增量模式的大部分
被删掉了。补全其中的 TODO，然后运行：

    python -m walkthrough check deliver-incremental
"""

from __future__ import annotations

from typing import Any

from minikubelet.config.config import PodConfigNotificationMode
from minikubelet.config.config import PodStorage as PortPodStorage
from minikubelet.types import PodOperation, PodUpdate


class PodStorage(PortPodStorage):
    """The port's PodStorage with your ``merge``: the tests run this one."""

    async def merge(self, source: str, change: Any) -> None:
        """Merge one source's change and send zero or more updates, in order.

        Go: pkg/kubelet/config/config.go (*podStorage).Merge
        """
        # Go holds s.updateLock for the whole of Merge: the sends below may block (the channel
        # holds 50 updates), and another source's merge must not interleave with them.
        async with self.update_lock:
            seen_before = source in self.sources_seen
            adds, updates, deletes, removes, reconciles = self._merge(source, change)
            first_set = not seen_before and source in self.sources_seen

            # deliver update notifications
            mode = self.mode
            # Go: case PodConfigNotificationIncremental:
            if mode == PodConfigNotificationMode.INCREMENTAL:
                # exercise: # TODO 1: send each update that has pods on self.updates, in this order:
                # exercise: #   removes, adds, updates, deletes (as reconciles are sent below).
                # SOLUTION BEGIN
                if len(removes.pods) > 0:
                    await self.updates.send(removes)
                if len(adds.pods) > 0:
                    await self.updates.send(adds)
                if len(updates.pods) > 0:
                    await self.updates.send(updates)
                if len(deletes.pods) > 0:
                    await self.updates.send(deletes)
                # SOLUTION END
                # exercise: # TODO 2: when this is the first SET of a source (first_set) and it brought
                # exercise: #   no adds, updates or deletes, send the empty ADD anyway: it tells kubelet
                # exercise: #   that the source is ready.
                # SOLUTION BEGIN
                if (
                    first_set
                    and len(adds.pods) == 0
                    and len(updates.pods) == 0
                    and len(deletes.pods) == 0
                ):
                    # An empty ADD when a source is first seen with no pods: it tells kubelet the
                    # source is ready.
                    await self.updates.send(adds)
                # SOLUTION END
                # Only reconcile here: kubelet does not support snapshot updates.
                if len(reconciles.pods) > 0:
                    await self.updates.send(reconciles)

            # Go: case PodConfigNotificationSnapshotAndUpdates:
            elif mode == PodConfigNotificationMode.SNAPSHOT_AND_UPDATES:
                if len(removes.pods) > 0 or len(adds.pods) > 0 or first_set:
                    await self.updates.send(
                        PodUpdate(pods=self.merged_state(), op=PodOperation.SET, source=source)
                    )
                if len(updates.pods) > 0:
                    await self.updates.send(updates)
                if len(deletes.pods) > 0:
                    await self.updates.send(deletes)

            # Go: case PodConfigNotificationSnapshot:
            elif mode == PodConfigNotificationMode.SNAPSHOT:
                changed = updates.pods or deletes.pods or adds.pods or removes.pods
                if changed or first_set:
                    await self.updates.send(
                        PodUpdate(pods=self.merged_state(), op=PodOperation.SET, source=source)
                    )

            # Go: case PodConfigNotificationUnknown:
            # Go: default:
            else:
                raise RuntimeError(f"unsupported PodConfigNotificationMode: {mode!r}")
