"""Exercise ch02/runtime-backoff: back off while the container runtime is down.
练习 ch02/runtime-backoff：容器运行时出故障时退避等待。

Below is the port's ``Kubelet.sync_loop`` (minikubelet/kubelet.py) without its back-off. Fill
in the TODOs, then run:
下面是移植版的 ``Kubelet.sync_loop``（minikubelet/kubelet.py），退避部分被删掉了。补全其中的
TODO，然后运行：

    python -m walkthrough check runtime-backoff
"""

from __future__ import annotations

import contextlib

from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.kubelet import SyncHandler, housekeepingPeriod
from minikubelet.sim import klog
from minikubelet.sim.go import Millisecond, RecvChan, Second, new_ticker, sleep
from minikubelet.types import PodUpdate

#: What this module offers; Millisecond and sleep are for the code you write.
__all__ = ["Kubelet", "Millisecond", "sleep"]


class Kubelet(PortKubelet):
    """The port's Kubelet with your ``sync_loop``: the tests run this one."""

    async def sync_loop(self, updates: RecvChan[PodUpdate], handler: SyncHandler) -> None:
        """The main loop: one :meth:`sync_loop_iteration` after another, until configCh closes.

        Go: pkg/kubelet/kubelet.go (*Kubelet).syncLoop

        While the runtime reports errors, the loop does not sync pods: it sleeps, doubling the
        wait from 100 ms up to 5 s, and tries again.
        """
        klog.info_s("Starting kubelet main sync loop")
        # contextlib.ExitStack plays Go's defer: the callbacks run, last first, on return.
        with contextlib.ExitStack() as defer:
            # The syncTicker wakes kubelet to check for pod workers that need a sync. A second is
            # enough: the sync interval defaults to 10 s.
            sync_ticker = new_ticker(1 * Second)
            defer.callback(sync_ticker.stop)
            housekeeping_ticker = new_ticker(housekeepingPeriod)
            defer.callback(housekeeping_ticker.stop)
            pleg_ch = self.pleg.watch()
            # TODO 1: set up the back-off: the first wait is 100 ms, each next one twice
            #   as long, and never more than 5 s.
            # Go checks the limits of resolv.conf here (dnsConfigurer): no DNS here.

            while True:
                err = self.runtime_state.runtime_errors()
                if err is not None:
                    # TODO 2: the runtime is not healthy: do not sync. Log the error
                    #   ("Skipping pod synchronization", with klog.error_s), wait, make the
                    #   next wait longer, and try again (continue).
                    pass
                # TODO 3: the runtime is fine: the next back-off starts from the first wait.

                if not await self.sync_loop_iteration(
                    updates, handler, sync_ticker.c, housekeeping_ticker.c, pleg_ch
                ):
                    break
