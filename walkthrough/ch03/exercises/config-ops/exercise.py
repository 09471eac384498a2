"""Exercise ch03/config-ops: route each PodOperation to its handler.
练习 ch03/config-ops：把每种 PodOperation 交给对应的处理函数。

Below is the port's ``Kubelet.sync_loop_iteration`` (minikubelet/kubelet.py) with most of the
``configCh`` case taken out. The ADD case is left as an example. Fill in every TODO, then run:
下面是移植版的 ``Kubelet.sync_loop_iteration``（minikubelet/kubelet.py），``configCh`` 分支的
大部分被删掉了，只留下 ADD 作为示例。补全每个 TODO，然后运行：

    python -m walkthrough check config-ops
"""

from __future__ import annotations

from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.kubelet import SyncHandler, handle_probe_sync, is_sync_pod_worthy
from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.prober.results.results_manager import Result
from minikubelet.sim import klog
from minikubelet.sim.go import RecvChan, Time, recv, select
from minikubelet.types import PodOperation, PodUpdate
from minikubelet.util import format


class Kubelet(PortKubelet):
    """The port's Kubelet with your ``sync_loop_iteration``: the tests run this one."""

    async def sync_loop_iteration(
        self,
        config_ch: RecvChan[PodUpdate],
        handler: SyncHandler,
        sync_ch: RecvChan[Time],
        housekeeping_ch: RecvChan[Time],
        pleg_ch: RecvChan[PodLifecycleEvent],
    ) -> bool:
        """Wait for one event on any of the channels and dispatch it; False ends the loop.

        Go: pkg/kubelet/kubelet.go (*Kubelet).syncLoopIteration

        The channels: ``config_ch`` (pod changes from the sources, via PodConfig), ``pleg_ch``
        (container events from the PLEG), ``sync_ch`` (every second: pods whose resync is due),
        the liveness, readiness and startup managers' updates, and ``housekeeping_ch`` (every
        2 s: clean up pods that are gone). When several are ready, ``select`` picks one **at
        random**, as Go's does: no channel has priority, and no order may be assumed.
        """
        match await select(
            recv(config_ch),
            recv(pleg_ch),
            recv(sync_ch),
            recv(self.liveness_manager.updates()),
            recv(self.readiness_manager.updates()),
            recv(self.startup_manager.updates()),
            recv(housekeeping_ch),
        ):
            # Go: case u, open := <-configCh:
            case 0, (u, open_):
                if not open_:
                    klog.error_s(None, "Update channel is closed, exiting the sync loop")
                    return False

                match u.op:
                    # Go: case kubetypes.ADD:
                    case PodOperation.ADD:
                        klog.v(2).info_s("SyncLoop ADD", source=u.source, pods=format.pods(u.pods))
                        # After a restart kubelet gets every existing pod as an ADD, as if new:
                        # they go through admission again and *may* be rejected.
                        await handler.handle_pod_additions(u.pods)
                    # Go: case kubetypes.UPDATE:
                    case PodOperation.UPDATE:
                        # TODO: log "SyncLoop UPDATE" at verbosity 2 (as ADD
                        # does), then hand the pods to the handler method
                        # for updated pods.
                        pass
                    # Go: case kubetypes.REMOVE:
                    case PodOperation.REMOVE:
                        # TODO: log "SyncLoop REMOVE" at verbosity 2, then
                        # hand the pods to the handler method for pods that
                        # are gone from their source.
                        pass
                    # Go: case kubetypes.RECONCILE:
                    case PodOperation.RECONCILE:
                        # TODO: log "SyncLoop RECONCILE" at verbosity 4 (it
                        # is frequent), then hand the pods to the handler
                        # method for changes of status only.
                        pass
                    # Go: case kubetypes.DELETE:
                    case PodOperation.DELETE:
                        # TODO: log "SyncLoop DELETE" at verbosity 2. Which
                        # handler? A deleted pod is stopped gracefully, so
                        # kubelet treats DELETE as another operation.
                        pass
                    # Go: case kubetypes.SET:
                    case PodOperation.SET:
                        klog.error_s(None, "Kubelet does not support snapshot update")
                    # Go: default:
                    case _:
                        klog.error_s(None, "Invalid operation type received", operation=u.op)

                # TODO: whatever the operation, remember that this
                # source has now sent something (housekeeping waits
                # until every source has).

            # Go: case e := <-plegCh:
            case 1, (e, _):
                if e.type == PodLifeCycleEventType.CONTAINER_STARTED:
                    # The most recent time a container of this pod started: deletePod refreshes
                    # the runtime cache up to it, so no started container misses its graceful stop.
                    self.last_container_started_time[e.id] = self.clock.now()
                if is_sync_pod_worthy(e):
                    pod, ok = self.pod_manager.get_pod_by_uid(e.id)
                    if ok:
                        assert pod is not None  # ok: found
                        klog.v(2).info_s(
                            "SyncLoop (PLEG): event for pod", pod=klog.kobj(pod), event=e
                        )
                        await handler.handle_pod_syncs([pod])
                    else:
                        klog.v(4).info_s(
                            "SyncLoop (PLEG): pod does not exist, ignore irrelevant event", event=e
                        )

                if e.type == PodLifeCycleEventType.CONTAINER_DIED and isinstance(e.data, str):
                    await self.clean_up_containers_in_pod(e.id, e.data)

            # Go: case <-syncCh:
            case 2, _:
                pods_to_sync = self.get_pods_to_sync()
                if len(pods_to_sync) > 0:
                    klog.v(4).info_s(
                        "SyncLoop (SYNC) pods",
                        total=len(pods_to_sync),
                        pods=format.pods(pods_to_sync),
                    )
                    await handler.handle_pod_syncs(pods_to_sync)

            # Go: case update := <-kl.livenessManager.Updates():
            case 3, (update, _):
                if update.result == Result.FAILURE:
                    await handle_probe_sync(self, update, handler, "liveness", "unhealthy")

            # Go: case update := <-kl.readinessManager.Updates():
            case 4, (update, _):
                ready = update.result == Result.SUCCESS
                await self.status_manager.set_container_readiness(
                    update.pod_uid, update.container_id, ready
                )
                await handle_probe_sync(
                    self, update, handler, "readiness", "ready" if ready else ""
                )

            # Go: case update := <-kl.startupManager.Updates():
            case 5, (update, _):
                started = update.result == Result.SUCCESS
                await self.status_manager.set_container_startup(
                    update.pod_uid, update.container_id, started
                )
                status = "started" if started else "unhealthy"
                await handle_probe_sync(self, update, handler, "startup", status)

            # Go: case <-housekeepingCh:
            case 6, _:
                if not self.sources_ready.all_ready():
                    # Sources not ready yet: skip housekeeping, or it may delete pods of a
                    # source that has not reported yet.
                    klog.v(4).info_s("SyncLoop (housekeeping, skipped): sources aren't ready yet")
                else:
                    klog.v(4).info_s("SyncLoop (housekeeping)")
                    try:
                        await handler.handle_pod_cleanups()
                    except Exception as err:
                        klog.error_s(err, "Failed cleaning pods")
        return True
