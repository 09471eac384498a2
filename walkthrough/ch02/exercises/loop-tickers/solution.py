"""Exercise ch02/loop-tickers: the tickers and channels syncLoop hands each iteration.
练习 ch02/loop-tickers：syncLoop 交给每一轮迭代的定时器和通道。

Below is the port's ``Kubelet.sync_loop`` (minikubelet/kubelet.py) without its two tickers and
the PLEG's channel. Fill in the TODOs, then run:
下面是移植版的 ``Kubelet.sync_loop``（minikubelet/kubelet.py），两个定时器和 PLEG 通道被删掉了。
补全其中的 TODO，然后运行：

    python -m walkthrough check loop-tickers
"""

from __future__ import annotations

import contextlib

from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.kubelet import SyncHandler, housekeepingPeriod
from minikubelet.sim import klog
from minikubelet.sim.go import Millisecond, RecvChan, Second, new_ticker, sleep
from minikubelet.types import PodUpdate

#: What this module offers; housekeepingPeriod is for the code you write.
__all__ = ["Kubelet", "housekeepingPeriod"]


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
            # exercise: # TODO 1: make the housekeeping ticker as the sync ticker above is made, but
            # exercise: #   ticking every housekeepingPeriod, and stopped too when the loop returns.
            # exercise: #   Then ask the PLEG for its channel of events (self.pleg.watch()).
            # SOLUTION BEGIN
            housekeeping_ticker = new_ticker(housekeepingPeriod)
            defer.callback(housekeeping_ticker.stop)
            pleg_ch = self.pleg.watch()
            # SOLUTION END
            base = 100 * Millisecond
            max_ = 5 * Second
            factor = 2
            duration = base
            # Go checks the limits of resolv.conf here (dnsConfigurer): no DNS here.

            while True:
                err = self.runtime_state.runtime_errors()
                if err is not None:
                    klog.error_s(err, "Skipping pod synchronization")
                    # exponential backoff
                    await sleep(duration)
                    duration = min(max_, factor * duration)
                    continue
                # One healthy check is enough to start from 100 ms again.
                duration = base

                # exercise: # TODO 2: hand the iteration the other channels it selects on, in place of
                # exercise: #   these None (a None channel is never ready, like a nil channel in Go).
                # exercise: if not await self.sync_loop_iteration(updates, handler, sync_ticker.c, None, None):
                # SOLUTION BEGIN
                if not await self.sync_loop_iteration(
                    updates, handler, sync_ticker.c, housekeeping_ticker.c, pleg_ch
                ):
                    # SOLUTION END
                    break
