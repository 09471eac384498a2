"""The Kubelet: its main loop, the loop's one iteration, and the handlers of pod changes.

Go: pkg/kubelet/kubelet.go

Read it in this order, as kubelet runs it: [`Kubelet.run`][] starts the background work and
enters [`Kubelet.sync_loop`][]; each turn of the loop is one [`Kubelet.sync_loop_iteration`][],
a ``select`` over the config updates, the PLEG's events, the sync and housekeeping tickers and
the three probe managers; each case hands pods to a [`SyncHandler`][] method, which hands
each pod to its pod worker ([`Kubelet.dispatch_work`][]); the pod worker calls
[`Kubelet.sync_pod`][], which calls the container runtime's ``SyncPod``.

What kubelet does here against a real node (cgroups, volumes, the API server, cAdvisor) is left
out or simulated; each place says so. The eviction manager runs beside the loop on a simulated
node's measurements.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from minikubelet.active_deadline import ActiveDeadlineHandler
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.cm.container_manager import NodeConfig
from minikubelet.cm.container_manager_linux import ContainerManagerImpl, new_container_manager
from minikubelet.cm.types import CgroupFS
from minikubelet.config.apiserver import new_source_apiserver
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.file import new_source_file
from minikubelet.config.http import new_source_url
from minikubelet.config.sources import SourcesReady
from minikubelet.container.cache import Cache, new_cache
from minikubelet.container.container_gc import GC, GCPolicy, new_container_gc
from minikubelet.container.runtime import PodPair, Pods, Runtime, get_pod_full_name
from minikubelet.container.runtime_cache import RuntimeCache, new_runtime_cache
from minikubelet.container.sync_result import ErrCrashLoopBackOff
from minikubelet.container.testing.fake_runtime_helper import FakeRuntimeHelper
from minikubelet.events import (
    ContainerGCFailed,
    FailedMountVolume,
    FailedToCreatePodContainer,
    FailedToKillPod,
    FailedToMakePodDataDirectories,
    NetworkNotReady,
)
from minikubelet.eviction.eviction_manager import new_manager as new_eviction_manager
from minikubelet.eviction.helpers import parse_threshold_config, pod_is_evicted
from minikubelet.eviction.types import Config as EvictionConfig
from minikubelet.eviction.types import DiskInfoProvider
from minikubelet.eviction.types import Manager as EvictionManager
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.go import (
    Clock,
    Millisecond,
    Minute,
    Once,
    RecvChan,
    Second,
    Time,
    current_runtime,
    go,
    new_ticker,
    recv,
    select,
    sleep,
)
from minikubelet.go import fmt as go_fmt
from minikubelet.images.types import ErrImagePullBackOff
from minikubelet.k8s_io.api.core.v1 import (
    ObjectReference,
    Pod,
    PodPhase,
    PodStatus,
    ResourceCPU,
    ResourceMemory,
    RestartPolicy,
)
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.runtime import runtime as utilruntime
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff, new_back_off
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.security.podsecuritypolicy.sysctl.mustmatchpatterns import (
    safe_sysctl_whitelist,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import FileSystem, MountScript
from minikubelet.k8s_io.mount_utils.mount import Interface as MountInterface
from minikubelet.kubelet_getters import KubeletGetters
from minikubelet.kubelet_node_status import KubeletNodeStatus
from minikubelet.kubelet_pods import (
    KubeletPods,
    PodKillerWithChannel,
    TerminatedFilterMemo,
    not_running,
)
from minikubelet.kubelet_volumes import KubeletVolumes
from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager
from minikubelet.lifecycle.interfaces import (
    PodAdmitAttributes,
    PodAdmitHandlers,
    PodAdmitResult,
    PodSyncHandlers,
    PodSyncLoopHandlers,
)
from minikubelet.lifecycle.predicate import new_predicate_admit_handler
from minikubelet.pleg.generic import new_generic_pleg
from minikubelet.pleg.pleg import (
    PodLifecycleEvent,
    PodLifecycleEventGenerator,
    PodLifeCycleEventType,
)
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.pod_container_deletor import new_pod_container_deletor
from minikubelet.pod_workers import (
    NetworkNotReadyErrorMsg,
    PodWorkers,
    PodWorkersImpl,
    SyncPodOptions,
    UpdatePodOptions,
    kill_pod_now,
)
from minikubelet.preemption.preemption import new_critical_pod_admission_handler
from minikubelet.prober.prober_manager import Manager as ProberManagerInterface
from minikubelet.prober.prober_manager import new_manager as new_prober_manager
from minikubelet.prober.results.results_manager import Manager as ResultsManagerInterface
from minikubelet.prober.results.results_manager import Result, ResultsManager, Update
from minikubelet.reason_cache import ReasonCache
from minikubelet.runtime import RuntimeState, new_runtime_state
from minikubelet.server.stats.summary import SummaryProvider
from minikubelet.status.status_manager import Manager as StatusManagerInterface
from minikubelet.status.status_manager import need_to_reconcile_pod_readiness
from minikubelet.status.status_manager import new_manager as new_status_manager
from minikubelet.sysctl.whitelist import new_whitelist
from minikubelet.types import (
    ApiserverSource,
    FileSource,
    HTTPSource,
    PodOperation,
    PodUpdate,
    SyncPodType,
    is_mirror_pod,
    is_static_pod,
)
from minikubelet.util import format
from minikubelet.util.queue.work_queue import BasicWorkQueue, WorkQueue
from minikubelet.volume_host import KUBELET_PODS_DIR, new_initialized_volume_plugin_mgr
from minikubelet.volumemanager.volume_manager import VolumeManager, new_volume_manager

#: After this long without a successful status check, the runtime counts as down.
maxWaitForContainerRuntime = 30 * Second
MaxContainerBackOff = 300 * Second
housekeepingPeriod = 2 * Second
plegChannelCapacity = 1000
plegRelistPeriod = 1 * Second
#: How often kubelet posts its node's status (KubeletConfiguration.NodeStatusUpdateFrequency).
NODE_STATUS_UPDATE_FREQUENCY = 10 * Second
#: Both the retry delay after a failed sync and the first step of the restart back-off.
backOffPeriod = 10 * Second
#: How often kubelet removes dead containers and sandboxes.
ContainerGCPeriod = 1 * Minute
#: How often the eviction manager measures the node.
evictionMonitoringPeriod = 10 * Second
#: The fewest dead containers kept per container name, whatever the flag says.
#: Go: minDeadContainerInPod
minDeadContainerInPod = 1


class SyncHandler(Protocol):
    """What the sync loop calls for each kind of pod change.

    Go: pkg/kubelet/kubelet.go type SyncHandler

    The Kubelet implements it; tests pass a recording handler to watch the loop's dispatching.
    The methods are coroutines because they may send on channels (Go's calls may block too).
    """

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodAdditions"""
        ...

    async def handle_pod_updates(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodUpdates"""
        ...

    async def handle_pod_removes(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodRemoves"""
        ...

    async def handle_pod_reconcile(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodReconcile"""
        ...

    async def handle_pod_syncs(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodSyncs"""
        ...

    async def handle_pod_cleanups(self) -> None:
        """Go: pkg/kubelet/kubelet.go SyncHandler.HandlePodCleanups

        Raises instead of returning Go's error.
        """
        ...


class StatsProvider(SummaryProvider, DiskInfoProvider, Protocol):
    """Ours: what the port reads of Go's ``StatsProvider`` (a ``*stats.Provider`` built on
    cAdvisor and the CRI): the summary the eviction manager measures, and whether images have
    a disk of their own."""


@dataclass
class Dependencies:
    """What kubelet's caller hands it: the API client, the runtime, the node's measures, files
    and mounts.

    Go: pkg/kubelet/kubelet.go type Dependencies

    Only the fields the port uses, plus two of its own. Go's ``cmd/kubelet`` fills them from
    the real node; here the simulation does
    ([`new_dependencies`][minikubelet.sim.dependencies.new_dependencies]), so that kubelet
    never imports it.
    """

    #: Go: ``CAdvisorInterface``, what the node measures. The port is handed the stats
    #: provider Go's NewMainKubelet builds on it and on the CRI: the simulated node measures both.
    cadvisor_interface: StatsProvider
    #: The API server; None to run without one (static pods only).
    kube_client: Interface | None
    #: Go: ``Mounter``, through which the volume plugins mount. The port's plugins also write
    #: their files through it (Go's call the ``os`` package), so it is the node's filesystem.
    mounter: FileSystem
    #: The merged pod sources (Go makes them here when the caller left this nil; the port's
    #: callers make them with [`make_pod_source_config`][minikubelet.kubelet.make_pod_source_config]).
    pod_config: PodConfig
    #: Where events go: give the runtime manager the same one, so that a pod's events are in
    #: one place.
    recorder: EventRecorder
    #: Ours: Go's ``RemoteRuntimeService`` and ``RemoteImageService``, on which NewMainKubelet
    #: builds kuberuntime's manager. The port is handed that manager, built on the simulated CRI
    #: with its hooks' HTTP client (``minikubelet.sim.container_runtime``).
    container_runtime: KubeGenericRuntimeManager
    #: Ours: how long each volume's SetUp takes on the simulated node and how it fails.
    mount_script: MountScript
    #: Ours: the node's cgroup tree. Go's ``cmd/kubelet`` makes the container manager on the
    #: kernel's cgroup files and hands it in ``ContainerManager``; the port makes the manager in
    #: NewMainKubelet, from the same flags, on this tree.
    cgroup_fs: CgroupFS


@dataclass
class Kubelet(KubeletPods, KubeletNodeStatus, KubeletGetters, KubeletVolumes):
    """The fields of Go's Kubelet struct that the pod-creation path uses.

    Go: pkg/kubelet/kubelet.go type Kubelet

    Build one with [`new_main_kubelet`][minikubelet.kubelet.new_main_kubelet], which wires the
    pieces as Go's ``NewMainKubelet`` does.
    """

    node_name: str
    clock: Clock
    recorder: EventRecorder
    pod_manager: BasicManager
    status_manager: StatusManagerInterface
    work_queue: WorkQueue
    container_runtime: Runtime
    runtime_cache: RuntimeCache
    pod_cache: Cache
    pleg: PodLifecycleEventGenerator
    runtime_state: RuntimeState
    sources_ready: SourcesReady
    liveness_manager: ResultsManagerInterface
    readiness_manager: ResultsManagerInterface
    startup_manager: ResultsManagerInterface
    reason_cache: ReasonCache
    back_off: Backoff
    # Made after the Kubelet, from it (as Go's NewMainKubelet does): set by new_main_kubelet.
    pod_workers: PodWorkers = field(init=False)
    probe_manager: ProberManagerInterface = field(init=False)
    pod_killer: PodKillerWithChannel = field(init=False)
    container_gc: GC = field(init=False)
    node_ref: ObjectReference = field(init=False)
    #: The QoS and pod cgroups (Go's ``containerManager``).
    container_manager: ContainerManagerImpl = field(init=False)
    kubelet_configuration: KubeletConfiguration = field(init=False)
    #: --cgroups-per-qos.
    cgroups_per_qos: bool = True
    #: Starts the modules that need the runtime, once (the container manager here).
    one_time_initializer: Once = field(default_factory=Once)
    eviction_manager: EvictionManager = field(init=False)
    #: Go's ``StatsProvider``: what the eviction manager measures, and whether images have a
    #: disk of their own (here the simulated node).
    stats_provider: StatsProvider = field(init=False)
    volume_manager: VolumeManager | None = None
    #: --keep-terminated-pod-volumes (deprecated in v1.21; default false).
    keep_terminated_pod_volumes: bool = False
    container_deletor: Any = None
    #: The node's hostname (lower-cased, see nodeutil.get_hostname).
    hostname: str = ""
    #: The node's IPs from --node-ip (empty: not given); their family picks the pod IPs shown.
    node_ips: list[str] = field(default_factory=list)
    #: --node-labels, applied on top of the well-known labels.
    node_labels: dict[str, str] = field(default_factory=dict)
    #: What cAdvisor would measure (ours: the simulated machine).
    machine_info: Any = None
    #: The most pods this node runs (KubeletConfiguration.MaxPods).
    max_pods: int = 110
    #: The API server client: None when kubelet runs without one.
    kube_client: Interface | None = None
    #: Whether the node is registered with the API server.
    registration_completed: bool = False
    #: When kubelet last posted its node's status (0: never).
    last_status_report_time: float = 0.0
    #: pod UID → when kubelet last saw one of its containers start.
    last_container_started_time: dict[str, float] = field(default_factory=dict)
    #: --root-dir: where kubelet keeps its files (a pod's are under ``pods/<uid>/``).
    root_directory: str = "/var/lib/kubelet"
    #: Ours: the node's disk, which Go reaches through packages os and syscall; the same files
    #: the volume plugins write (set by new_main_kubelet).
    fs: FileSystem = field(init=False)
    #: Go's ``mounter``: which of the node's directories are mount points (set by
    #: new_main_kubelet).
    mounter: MountInterface = field(init=False)
    #: Go's ``oneTimeInitializer`` (a ``sync.Once``): whether initialize_runtime_dependent_modules ran.
    runtime_dependent_modules_initialized: bool = False
    #: Ours: the last answer of filter_out_terminated_pods (see there).
    terminated_filter_cache: TerminatedFilterMemo | None = field(default=None, repr=False)
    admit_handlers: PodAdmitHandlers = field(default_factory=PodAdmitHandlers)
    soft_admit_handlers: PodAdmitHandlers = field(default_factory=PodAdmitHandlers)
    # Go embeds these two lists in the Kubelet (so `klet.AddPodSyncLoopHandler(...)`).
    pod_sync_loop_handlers: PodSyncLoopHandlers = field(default_factory=PodSyncLoopHandlers)
    pod_sync_handlers: PodSyncHandlers = field(default_factory=PodSyncHandlers)

    # --- running --------------------------------------------------------------------------------

    def start_garbage_collection(self) -> None:
        """Start the goroutine that collects dead containers every minute, from now on.

        Go: pkg/kubelet/kubelet.go (*Kubelet).StartGarbageCollection

        Kubelet's main calls it once, after making the Kubelet and before running it. Go also
        starts the image garbage collector here, every five minutes; the port leaves it out:
        the fake runtime's images take no disk space, so there is nothing to free.
        """
        logged_container_gc_failure = False

        async def collect() -> None:
            nonlocal logged_container_gc_failure
            err = await self.container_gc.garbage_collect()
            if err is not None:
                klog.error_s(err, "Container garbage collection failed")
                self.recorder.eventf(
                    self.node_ref, EventTypeWarning, ContainerGCFailed, "%s", str(err)
                )
                logged_container_gc_failure = True
            else:
                v_level = 4
                if logged_container_gc_failure:
                    v_level = 1
                    logged_container_gc_failure = False

                klog.v(v_level).info_s("Container garbage collection succeeded")

        go(until, collect, ContainerGCPeriod, None, name="containerGC")

    async def run(self, updates: RecvChan[PodUpdate]) -> None:
        """Start the background work, then run the sync loop until the updates channel closes.

        Go: pkg/kubelet/kubelet.go (*Kubelet).Run

        Left out: the log server, cloud resource sync, the node lease, iptables chains, runtime
        classes.
        """
        # Go omitted: if kl.logServer == nil { -- no log server: the port serves nothing
        # Go: if kl.kubeClient == nil {
        if self.kube_client is None:
            klog.info_s("No API server defined - no node status update will be sent")
        # Go omitted: if kl.cloudResourceSyncManager != nil { -- no cloud provider here
        # Go omitted: if err := kl.initializeModules(); err != nil { -- it registers metrics,
        # makes the kubelet's data and log directories and starts the image GC, certificate,
        # OOM-watcher and resource-analyzer loops; the port has no metrics, its simulated disk
        # starts with kubelet's directories (sim.volume_fs), and syncPod makes each pod's
        # (make_pod_data_dirs) as Go does
        # Go: go kl.volumeManager.Run(kl.sourcesReady, wait.NeverStop)
        if self.volume_manager is not None:
            go(self.volume_manager.run, self.sources_ready, None, name="volumeManager")
        # Go: if kl.kubeClient != nil {
        if self.kube_client is not None:
            # Go also runs fastStatusUpdateOnce (which waits for a pod CIDR) and the node lease
            # controller; nothing in the port reads either.
            go(
                until,
                self.sync_node_status,
                NODE_STATUS_UPDATE_FREQUENCY,
                None,
                name="syncNodeStatus",
            )
        # Go: go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)
        go(until, self.update_runtime_up, 5 * Second, None, name="updateRuntimeUp")
        # Go omitted: if kl.makeIPTablesUtilChains { -- no iptables here
        # Go: go wait.Until(kl.podKiller.PerformPodKillingWork
        go(until, self.pod_killer.perform_pod_killing_work, 1 * Second, None, name="podKiller")
        # Go: kl.statusManager.Start()
        self.status_manager.start()
        # Go omitted: if kl.runtimeClassManager != nil { -- no runtime classes here
        # Go: kl.pleg.Start()
        self.pleg.start()
        # Go: kl.syncLoop(updates, kl)
        await self.sync_loop(updates, self)

    async def update_runtime_up(self) -> None:
        """Ask the runtime for its status; record whether it and its network are ready.

        Go: pkg/kubelet/kubelet.go (*Kubelet).updateRuntimeUp
        """
        # Go omitted: kl.updateRuntimeMux.Lock() -- one goroutine calls this here: no lock
        # Go: s, err := kl.containerRuntime.Status()
        try:
            s = await self.container_runtime.status()
        except Exception as err:
            klog.error_s(err, "Container runtime sanity check failed")
            return
        # Go: if s == nil {
        if s is None:
            klog.error_s(None, "Container runtime status is nil")
            return
        # Go: klog.V(4).InfoS("Container runtime status", "status", s)
        klog.v(4).info_s("Container runtime status", status=s)
        # Go: networkReady := s.GetRuntimeCondition(kubecontainer.NetworkReady)
        network_ready = s.get_runtime_condition("NetworkReady")
        if network_ready is None or not network_ready.status:
            klog.error_s(None, "Container runtime network not ready", networkReady=network_ready)
            self.runtime_state.set_network_state(
                RuntimeError(f"container runtime network not ready: {network_ready}")
            )
        else:
            self.runtime_state.set_network_state(None)
        # Go: runtimeReady := s.GetRuntimeCondition(kubecontainer.RuntimeReady)
        runtime_ready = s.get_runtime_condition("RuntimeReady")
        if runtime_ready is None or not runtime_ready.status:
            klog.error_s(None, "Container runtime not ready", runtimeReady=runtime_ready)
            self.runtime_state.set_runtime_state(
                RuntimeError(f"container runtime not ready: {runtime_ready}")
            )
            return
        # Go: kl.runtimeState.setRuntimeState(nil)
        self.runtime_state.set_runtime_state(None)
        # Go: kl.oneTimeInitializer.Do(kl.initializeRuntimeDependentModules)
        self.one_time_initializer.do(self.initialize_runtime_dependent_modules)
        # Go: kl.runtimeState.setRuntimeSync(kl.clock.Now())
        self.runtime_state.set_runtime_sync(self.clock.now())

    def initialize_runtime_dependent_modules(self) -> None:
        """Start what needs the runtime up: the container manager, which makes ``kubepods``
        and the QoS cgroups, and the eviction manager.

        Go: pkg/kubelet/kubelet.go (*Kubelet).initializeRuntimeDependentModules

        Go exits kubelet (``os.Exit(1)``) when the container manager cannot start; here the
        error ends the run.
        """
        # Go omitted: if err := kl.cadvisor.Start(); err != nil { -- no cAdvisor: the simulated node (sim.cri.fake_stats) measures the node
        # Go omitted: kl.StatsProvider.GetCgroupStats("/", true) -- the simulated node measures at each request; there is nothing to prime
        node = self.get_node_any_way()
        # Go: if err := kl.containerManager.Start(node, kl.GetActivePods, kl.sourcesReady, kl.statusManager, kl.runtimeService); err != nil {
        try:
            self.container_manager.start(node, self.get_active_pods)
        except Exception as err:
            klog.error_s(err, "Failed to start ContainerManager")
            raise
        # Go: kl.evictionManager.Start(kl.StatsProvider, kl.GetActivePods, kl.podResourcesAreReclaimed, evictionMonitoringPeriod)
        self.eviction_manager.start(
            self.stats_provider,
            self.get_active_pods,
            self.pod_resources_are_reclaimed_now,
            evictionMonitoringPeriod,
        )
        # Go omitted: kl.containerLogManager.Start() -- the fake runtime writes no container logs to rotate
        # Go omitted: kl.pluginManager.AddHandler(pluginwatcherapi.CSIPlugin, plugincache.PluginHandler(csi.PluginHandler)) -- no plugin manager (CSI, device plugins) here
        # Go omitted: kl.pluginManager.AddHandler(pluginwatcherapi.DevicePlugin, kl.containerManager.GetPluginRegistrationHandler()) -- as above
        # Go omitted: go kl.pluginManager.Run(kl.sourcesReady, wait.NeverStop) -- as above

    async def sync_loop(self, updates: RecvChan[PodUpdate], handler: SyncHandler) -> None:
        """The main loop: one [`sync_loop_iteration`][] after another, until configCh closes.

        Go: pkg/kubelet/kubelet.go (*Kubelet).syncLoop

        While the runtime reports errors, the loop does not sync pods: it sleeps, doubling the
        wait from 100 ms up to 5 s, and tries again.
        """
        # Go: klog.InfoS("Starting kubelet main sync loop")
        klog.info_s("Starting kubelet main sync loop")
        # contextlib.ExitStack plays Go's defer: the callbacks run, last first, on return.
        with contextlib.ExitStack() as defer:
            # Go: syncTicker := time.NewTicker(time.Second)
            # The syncTicker wakes kubelet to check for pod workers that need a sync. A second is
            # enough: the sync interval defaults to 10 s.
            sync_ticker = new_ticker(1 * Second)
            defer.callback(sync_ticker.stop)
            # Go: housekeepingTicker := time.NewTicker(housekeepingPeriod)
            housekeeping_ticker = new_ticker(housekeepingPeriod)
            defer.callback(housekeeping_ticker.stop)
            # Go: plegCh := kl.pleg.Watch()
            pleg_ch = self.pleg.watch()
            # Go: const (
            base = 100 * Millisecond
            max_ = 5 * Second
            factor = 2
            # Go: duration := base
            duration = base

            # Go: for {
            while True:
                err = self.runtime_state.runtime_errors()
                # Go: if err := kl.runtimeState.runtimeErrors(); err != nil {
                if err is not None:
                    klog.error_s(err, "Skipping pod synchronization")
                    # Go: time.Sleep(duration)
                    await sleep(duration)
                    duration = min(max_, factor * duration)
                    continue
                # Go: duration = base
                duration = base  # one healthy check is enough to start from 100 ms again

                # Go omitted: kl.syncLoopMonitor.Store(kl.clock.Now()) -- no /healthz reads it here
                # Go: if !kl.syncLoopIteration(updates, handler, syncTicker.C, housekeepingTicker.C, plegCh) {
                if not await self.sync_loop_iteration(
                    updates, handler, sync_ticker.c, housekeeping_ticker.c, pleg_ch
                ):
                    break
                # Go omitted: kl.syncLoopMonitor.Store(kl.clock.Now()) -- as above

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
        # Go: select {
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
                # Go: if !open {
                if not open_:
                    klog.error_s(None, "Update channel is closed, exiting the sync loop")
                    return False

                # Go: switch u.Op {
                match u.op:
                    # Go: case kubetypes.ADD:
                    case PodOperation.ADD:
                        klog.v(2).info_s("SyncLoop ADD", source=u.source, pods=format.pods(u.pods))
                        # After a restart kubelet gets every existing pod as an ADD, as if new:
                        # they go through admission again and *may* be rejected.
                        await handler.handle_pod_additions(u.pods)
                    # Go: case kubetypes.UPDATE:
                    case PodOperation.UPDATE:
                        klog.v(2).info_s(
                            "SyncLoop UPDATE", source=u.source, pods=format.pods(u.pods)
                        )
                        await handler.handle_pod_updates(u.pods)
                    # Go: case kubetypes.REMOVE:
                    case PodOperation.REMOVE:
                        klog.v(2).info_s(
                            "SyncLoop REMOVE", source=u.source, pods=format.pods(u.pods)
                        )
                        await handler.handle_pod_removes(u.pods)
                    # Go: case kubetypes.RECONCILE:
                    case PodOperation.RECONCILE:
                        klog.v(4).info_s(
                            "SyncLoop RECONCILE", source=u.source, pods=format.pods(u.pods)
                        )
                        await handler.handle_pod_reconcile(u.pods)
                    # Go: case kubetypes.DELETE:
                    case PodOperation.DELETE:
                        klog.v(2).info_s(
                            "SyncLoop DELETE", source=u.source, pods=format.pods(u.pods)
                        )
                        # Graceful deletion: the pod has only been marked (deletionTimestamp) and
                        # must still be stopped, which an update's sync does.
                        await handler.handle_pod_updates(u.pods)
                    # Go: case kubetypes.SET:
                    case PodOperation.SET:
                        klog.error_s(None, "Kubelet does not support snapshot update")
                    # Go: default:
                    case _:
                        klog.error_s(None, "Invalid operation type received", operation=u.op)

                # Go: kl.sourcesReady.AddSource(u.Source)
                self.sources_ready.add_source(u.source)

            # Go: case e := <-plegCh:
            case 1, (e, _):
                # Go: if e.Type == pleg.ContainerStarted {
                if e.type == PodLifeCycleEventType.CONTAINER_STARTED:
                    # The most recent time a container of this pod started: deletePod refreshes
                    # the runtime cache up to it, so no started container misses its graceful stop.
                    self.last_container_started_time[e.id] = self.clock.now()
                # Go: if isSyncPodWorthy(e) {
                if is_sync_pod_worthy(e):
                    # Go: if pod, ok := kl.podManager.GetPodByUID(e.ID); ok {
                    pod, ok = self.pod_manager.get_pod_by_uid(e.id)
                    if ok:
                        assert pod is not None  # ok: found
                        klog.v(2).info_s(
                            "SyncLoop (PLEG): event for pod",
                            pod=klog.kobj(pod),
                            event=go_fmt.Ptr(e),
                        )
                        await handler.handle_pod_syncs([pod])
                    else:
                        klog.v(4).info_s(
                            "SyncLoop (PLEG): pod does not exist, ignore irrelevant event",
                            event=go_fmt.Ptr(e),
                        )

                # Go: if e.Type == pleg.ContainerDied {
                if e.type == PodLifeCycleEventType.CONTAINER_DIED and isinstance(e.data, str):
                    await self.clean_up_containers_in_pod(e.id, e.data)

            # Go: case <-syncCh:
            case 2, _:
                # Go: podsToSync := kl.getPodsToSync()
                pods_to_sync = self.get_pods_to_sync()
                # Go: if len(podsToSync) == 0 {
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
                # Go: ready := update.Result == proberesults.Success
                ready = update.result == Result.SUCCESS
                # Go: kl.statusManager.SetContainerReadiness(
                await self.status_manager.set_container_readiness(
                    update.pod_uid, update.container_id, ready
                )
                # Go: handleProbeSync(kl, update, handler, "readiness"
                await handle_probe_sync(
                    self, update, handler, "readiness", "ready" if ready else ""
                )

            # Go: case update := <-kl.startupManager.Updates():
            case 5, (update, _):
                # Go: started := update.Result == proberesults.Success
                started = update.result == Result.SUCCESS
                # Go: kl.statusManager.SetContainerStartup(
                await self.status_manager.set_container_startup(
                    update.pod_uid, update.container_id, started
                )
                # Go: handleProbeSync(kl, update, handler, "startup"
                status = "started" if started else "unhealthy"
                await handle_probe_sync(self, update, handler, "startup", status)

            # Go: case <-housekeepingCh:
            case 6, _:
                # Go: if !kl.sourcesReady.AllReady() {
                if not self.sources_ready.all_ready():
                    # Sources not ready yet: skip housekeeping, or it may delete pods of a
                    # source that has not reported yet.
                    klog.v(4).info_s("SyncLoop (housekeeping, skipped): sources aren't ready yet")
                else:
                    # Go: klog.V(4).InfoS("SyncLoop (housekeeping)")
                    klog.v(4).info_s("SyncLoop (housekeeping)")
                    # Go: if err := handler.HandlePodCleanups(); err != nil {
                    try:
                        await handler.handle_pod_cleanups()
                    except Exception as err:
                        klog.error_s(err, "Failed cleaning pods")
        # Go: return true
        return True

    # --- dispatching ----------------------------------------------------------------------------

    async def dispatch_work(
        self, pod: Pod, sync_type: SyncPodType, mirror_pod: Pod | None, start: float
    ) -> None:
        """Start the asynchronous sync of a pod in its pod worker (unless it is all done).

        Go: pkg/kubelet/kubelet.go (*Kubelet).dispatchWork
        """
        # Go: containersTerminal, podWorkerTerminal := kl.podAndContainersAreTerminal(pod)
        # A deleted pod whose containers are all stopped: only its final status is left to do.
        containers_terminal, pod_worker_terminal = self.pod_and_containers_are_terminal(pod)
        # Go: if pod.DeletionTimestamp != nil && containersTerminal {
        if pod.metadata.deletion_timestamp is not None and containers_terminal:
            klog.v(4).info_s(
                "Pod has completed execution and should be deleted from the API server",
                pod=klog.kobj(pod),
                syncType=sync_type,
            )
            await self.status_manager.terminate_pod(pod)
            return

        # Go: if podWorkerTerminal && containersTerminal {
        # Nothing more can change once the pod is done and its containers are terminated.
        if pod_worker_terminal and containers_terminal:
            klog.v(4).info_s(
                "Pod has completed and its containers have been terminated, "
                "ignoring remaining sync work",
                pod=klog.kobj(pod),
                syncType=sync_type,
            )
            return

        # Go: kl.podWorkers.UpdatePod(&UpdatePodOptions{
        # Go also passes an OnCompleteFunc, which only feeds a metric.
        await self.pod_workers.update_pod(
            UpdatePodOptions(pod=pod, mirror_pod=mirror_pod, update_type=sync_type)
        )
        # Go omitted: if syncType == kubetypes.SyncPodCreate { -- a metric: the port keeps none

    async def handle_mirror_pod(self, mirror_pod: Pod, start: float) -> None:
        """A change to a mirror pod is an update of its static pod.

        Go: pkg/kubelet/kubelet.go (*Kubelet).handleMirrorPod
        """
        pod, ok = self.pod_manager.get_pod_by_mirror_pod(mirror_pod)
        if ok:
            assert pod is not None
            await self.dispatch_work(pod, SyncPodType.UPDATE, mirror_pod, start)

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        """New pods: oldest first, remember each, admit it or reject it, hand it to a worker.

        Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodAdditions
        """
        # Go: start := kl.clock.Now()
        start = self.clock.now()
        # Go: sort.Sort(sliceutils.PodsByCreationTime(pods))
        pods = sort_pods_by_creation_time(pods)
        # Go: for _, pod := range pods {
        for pod in pods:
            # Go: existingPods := kl.podManager.GetPods()
            existing_pods = self.pod_manager.get_pods()
            # Go: kl.podManager.AddPod(pod)
            # Before admission, and even if admission then refuses the pod: a pod kubelet does
            # not know would look deleted, and its Failed status would be lost.
            self.pod_manager.add_pod(pod)

            # Go: if kubetypes.IsMirrorPod(pod) {
            if is_mirror_pod(pod):
                await self.handle_mirror_pod(pod, start)
                continue

            # Go: if !kl.podIsTerminated(pod) {
            if not self.pod_is_terminated(pod):
                # Rejected pods were failed, so the pods that are not terminated are exactly the
                # admitted ones still alive: the resources already promised.
                # Go: activePods := kl.filterOutTerminatedPods(existingPods)
                active_pods = self.filter_out_terminated_pods(existing_pods)

                # Go: if ok, reason, message := kl.canAdmitPod(activePods, pod); !ok {
                ok, reason, message = await self.can_admit_pod(active_pods, pod)
                if not ok:
                    await self.reject_pod(pod, reason, message)
                    continue
            # Go: mirrorPod, _ := kl.podManager.GetMirrorPodByPod(pod)
            mirror_pod, _ = self.pod_manager.get_mirror_pod_by_pod(pod)
            # Go: kl.dispatchWork(pod, kubetypes.SyncPodCreate, mirrorPod, start)
            await self.dispatch_work(pod, SyncPodType.CREATE, mirror_pod, start)
            # Go: kl.probeManager.AddPod(pod)
            self.probe_manager.add_pod(pod)

    async def handle_pod_updates(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodUpdates"""
        # Go: start := kl.clock.Now()
        start = self.clock.now()
        # Go: for _, pod := range pods {
        for pod in pods:
            # Go: kl.podManager.UpdatePod(pod)
            self.pod_manager.update_pod(pod)
            # Go: if kubetypes.IsMirrorPod(pod) {
            if is_mirror_pod(pod):
                await self.handle_mirror_pod(pod, start)
                continue
            # Go: mirrorPod, _ := kl.podManager.GetMirrorPodByPod(pod)
            mirror_pod, _ = self.pod_manager.get_mirror_pod_by_pod(pod)
            # Go: kl.dispatchWork(pod, kubetypes.SyncPodUpdate, mirrorPod, start)
            await self.dispatch_work(pod, SyncPodType.UPDATE, mirror_pod, start)

    async def handle_pod_removes(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodRemoves"""
        # Go: start := kl.clock.Now()
        start = self.clock.now()
        # Go: for _, pod := range pods {
        for pod in pods:
            # Go: kl.podManager.DeletePod(pod)
            self.pod_manager.delete_pod(pod)
            # Go: if kubetypes.IsMirrorPod(pod) {
            if is_mirror_pod(pod):
                await self.handle_mirror_pod(pod, start)
                continue
            # Deletion may fail: the periodic cleanup will try again.
            # Go: if err := kl.deletePod(pod); err != nil {
            try:
                await self.delete_pod(pod)
            except Exception as err:
                klog.v(2).info_s("Failed to delete pod", pod=klog.kobj(pod), err=err)
            # Go: kl.probeManager.RemovePod(pod)
            self.probe_manager.remove_pod(pod)

    async def handle_pod_reconcile(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodReconcile"""
        start = self.clock.now()
        for pod in pods:
            # Update the pod in the pod manager; the status manager reconciles from it.
            self.pod_manager.update_pod(pod)

            if need_to_reconcile_pod_readiness(pod):
                mirror_pod, _ = self.pod_manager.get_mirror_pod_by_pod(pod)
                await self.dispatch_work(pod, SyncPodType.SYNC, mirror_pod, start)

            # Once an evicted pod has synced, all its dead containers can go.
            # Go: if eviction.PodIsEvicted(pod.Status) {
            if pod_is_evicted(pod.status):
                try:
                    pod_status = self.pod_cache.get(pod.metadata.uid)
                except Exception:
                    continue
                await self.container_deletor.delete_containers_in_pod("", pod_status, True)

    async def handle_pod_syncs(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/kubelet.go (*Kubelet).HandlePodSyncs"""
        start = self.clock.now()
        for pod in pods:
            mirror_pod, _ = self.pod_manager.get_mirror_pod_by_pod(pod)
            await self.dispatch_work(pod, SyncPodType.SYNC, mirror_pod, start)

    def get_pods_to_sync(self) -> list[Pod]:
        """The pods whose resync time has come (and those a sync-loop handler asks for).

        Go: pkg/kubelet/kubelet.go (*Kubelet).getPodsToSync
        """
        # Go: allPods := kl.podManager.GetPods()
        all_pods = self.pod_manager.get_pods()
        # Go: podUIDs := kl.workQueue.GetWork()
        pod_uid_set = set(self.work_queue.get_work())
        # Go: var podsToSync []*v1.Pod
        pods_to_sync: list[Pod] = []
        # Go: for _, pod := range allPods {
        for pod in all_pods:
            # Go: if podUIDSet.Has(string(pod.UID)) {
            if pod.metadata.uid in pod_uid_set:
                pods_to_sync.append(pod)
                continue
            # Go: for _, podSyncLoopHandler := range kl.PodSyncLoopHandlers {
            for pod_sync_loop_handler in self.pod_sync_loop_handlers:
                if pod_sync_loop_handler.should_sync(pod):
                    pods_to_sync.append(pod)
                    break
        # Go: return podsToSync
        return pods_to_sync

    async def delete_pod(self, pod: Pod) -> None:
        """Stop the pod's worker and hand its running containers to the pod killer.

        Go: pkg/kubelet/kubelet.go (*Kubelet).deletePod

        Raises where Go returns an error: sources not ready, or the pod not running.
        """
        # Go: if !kl.sourcesReady.AllReady() {
        if not self.sources_ready.all_ready():
            # Deleting now might delete pods of a source that has not reported yet.
            raise RuntimeError("skipping delete because sources aren't ready yet")
        # Go: kl.podWorkers.ForgetWorker(pod.UID)
        self.pod_workers.forget_worker(pod.metadata.uid)

        # Make the runtime cache at least as fresh as the last container start we saw, so
        # every container we reported started gets its graceful stop.
        # Go: if lastContainerStarted, ok := kl.lastContainerStartedTime.Get(pod.UID); ok {
        last_container_started = self.last_container_started_time.get(pod.metadata.uid)
        if last_container_started is not None:
            err = await self.runtime_cache.force_update_if_older(last_container_started)
            if err is not None:
                raise RuntimeError(f"error updating containers: {err}") from err
        # The cache may not have the pod yet; the periodic cleanup will try again then.
        # Go: runningPods, err := kl.runtimeCache.GetPods()
        try:
            running_pods = await self.runtime_cache.get_pods()
        except Exception as err:
            raise RuntimeError(f"error listing containers: {err}") from err
        # Go: runningPod := kubecontainer.Pods(runningPods).FindPod("", pod.UID)
        running_pod = Pods(running_pods).find_pod("", pod.metadata.uid)
        # Go: if runningPod.IsEmpty() {
        if running_pod.is_empty():
            raise RuntimeError("pod not found")
        # Go: podPair := kubecontainer.PodPair{APIPod: pod, RunningPod: &runningPod}
        pod_pair = PodPair(running_pod=running_pod, api_pod=pod)
        # Go: kl.podKiller.KillPod(&podPair)
        await self.pod_killer.kill_pod(pod_pair)

    async def reject_pod(self, pod: Pod, reason: str, message: str) -> None:
        """Fail a pod that admission refused: an event, and the Failed phase.

        Go: pkg/kubelet/kubelet.go (*Kubelet).rejectPod
        """
        self.recorder.eventf(pod, EventTypeWarning, reason, message)
        await self.status_manager.set_pod_status(
            pod, PodStatus(phase=PodPhase.FAILED, reason=reason, message="Pod " + message)
        )

    async def can_admit_pod(self, pods: list[Pod], pod: Pod) -> tuple[bool, str, str]:
        """Ask every admit handler in turn; the first refusal rejects the pod.

        Go: pkg/kubelet/kubelet.go (*Kubelet).canAdmitPod

        Returns ``(admit, reason, message)``. A coroutine, as the handlers are: admitting a
        critical pod may wait while other pods are preempted.
        """
        # Go: attrs := &lifecycle.PodAdmitAttributes{Pod: pod, OtherPods: pods}
        attrs = PodAdmitAttributes(pod=pod, other_pods=pods)
        # Go: for _, podAdmitHandler := range kl.admitHandlers {
        for pod_admit_handler in self.admit_handlers:
            # Go: if result := podAdmitHandler.Admit(attrs); !result.Admit {
            result = await pod_admit_handler.admit(attrs)
            if not result.admit:
                return False, result.reason, result.message
        # Go: return true, "", ""
        return True, "", ""

    async def can_run_pod(self, pod: Pod) -> PodAdmitResult:
        """Whether a pod already admitted may run now (the soft admit handlers).

        Go: pkg/kubelet/kubelet.go (*Kubelet).canRunPod
        """
        # Go: attrs := &lifecycle.PodAdmitAttributes{Pod: pod}
        attrs = PodAdmitAttributes(pod=pod)
        # Get "OtherPods". Rejected pods are failed, so only admitted pods that are alive.
        # Go lists them on every sync; the port has no soft admit handler to read them, so it
        # skips that walk over every pod (it made syncing n pods cost n² status lookups).
        # Go: attrs.OtherPods = kl.filterOutTerminatedPods(kl.podManager.GetPods())
        if self.soft_admit_handlers:
            attrs.other_pods = self.filter_out_terminated_pods(self.pod_manager.get_pods())

        # Go: for _, handler := range kl.softAdmitHandlers {
        for handler in self.soft_admit_handlers:
            result = await handler.admit(attrs)
            if not result.admit:
                return result

        return PodAdmitResult(admit=True)

    async def clean_up_containers_in_pod(self, pod_id: str, exited_container_id: str) -> None:
        """Remove the dead containers of a pod beyond the few kept for logs.

        Go: pkg/kubelet/kubelet.go (*Kubelet).cleanUpContainersInPod
        """
        try:
            pod_status = self.pod_cache.get(pod_id)
        except Exception:
            return
        remove_all = False
        synced_pod, ok = self.pod_manager.get_pod_by_uid(pod_id)
        if ok:
            assert synced_pod is not None
            # Use the cached runtime status to get up-to-date container statuses.
            api_pod_status = self.generate_api_pod_status(synced_pod, pod_status)
            # Once an evicted or deleted pod has synced, all its containers can go.
            remove_all = pod_is_evicted(synced_pod.status) or (
                synced_pod.metadata.deletion_timestamp is not None
                and not_running(api_pod_status.container_statuses)
            )
        await self.container_deletor.delete_containers_in_pod(
            exited_container_id, pod_status, remove_all
        )

    # --- syncing one pod ------------------------------------------------------------------------

    async def sync_pod(self, o: SyncPodOptions) -> None:
        """Bring one pod to its desired state: the work a pod worker does for each update.

        Go: pkg/kubelet/kubelet.go (*Kubelet).syncPod

        The workflow, in Go's order: a kill request kills the pod; otherwise generate the API
        status from the runtime's status and hand it to the status manager; kill the pod if it
        may not run, is being deleted or has failed; wait for the network; make the pod's cgroup
        (and update the QoS cgroups); create the mirror pod of a static pod; make the pod's data directories; wait for volumes; fetch
        pull secrets; and call the container runtime's ``SyncPod``. Raises where Go returns an
        error; the pod worker backs off and retries.
        """
        pod = o.pod
        mirror_pod = o.mirror_pod
        pod_status = o.pod_status
        update_type = o.update_type

        # Go: if updateType == kubetypes.SyncPodKill {
        if update_type == SyncPodType.KILL:
            kill_pod_options = o.kill_pod_options
            if kill_pod_options is None or kill_pod_options.pod_status_func is None:
                raise ValueError("kill pod options are required if update type is kill")
            api_pod_status = kill_pod_options.pod_status_func(pod, pod_status)
            await self.status_manager.set_pod_status(pod, api_pod_status)
            try:
                await self.kill_pod(
                    pod,
                    None,
                    pod_status,
                    kill_pod_options.pod_termination_grace_period_seconds_override,
                )
            except Exception as err:
                self.recorder.eventf(
                    pod, EventTypeWarning, FailedToKillPod, "error killing pod: %s", err
                )
                utilruntime.handle_error(err)
                raise
            return

        # A static pod replaced by a new manifest keeps its full name: the new one waits until
        # the old one has stopped, or both would run at once.
        pod_full_name = get_pod_full_name(pod)
        if self.pod_killer.is_pod_pending_termination_by_pod_name(pod_full_name):
            raise RuntimeError(f'pod "{pod_full_name}" is pending termination')

        # Go reads this annotation for a latency metric; only its log line is ported.
        if update_type == SyncPodType.CREATE and not pod.metadata.annotations.get(
            "kubernetes.io/config.seen"
        ):
            klog.v(3).info_s(
                "First seen time not recorded for pod",
                podUID=UID(pod.metadata.uid),
                pod=klog.kobj(pod),
            )

        api_pod_status = self.generate_api_pod_status(pod, pod_status)
        # A host-network pod gets the node's IP in generate_api_pod_status; the runtime's status
        # (passed on to SyncPod) must agree with it.
        pod_status.ips = [ip.ip for ip in api_pod_status.pod_ips]
        if len(pod_status.ips) == 0 and api_pod_status.pod_ip:
            pod_status.ips = [api_pod_status.pod_ip]

        runnable = await self.can_run_pod(pod)
        if not runnable.admit:
            api_pod_status.reason = runnable.reason
            api_pod_status.message = runnable.message
            waiting_reason = "Blocked"
            for cs in api_pod_status.init_container_statuses + api_pod_status.container_statuses:
                if cs.state.waiting is not None:
                    cs.state.waiting.reason = waiting_reason

        await self.status_manager.set_pod_status(pod, api_pod_status)

        # Go: if !runnable.Admit || pod.DeletionTimestamp != nil || apiPodStatus.Phase == v1.PodFailed {
        if (
            not runnable.admit
            or pod.metadata.deletion_timestamp is not None
            or api_pod_status.phase == PodPhase.FAILED
        ):
            try:
                await self.kill_pod(pod, None, pod_status, None)
            except Exception as kill_err:
                self.recorder.eventf(
                    pod, EventTypeWarning, FailedToKillPod, "error killing pod: %s", kill_err
                )
                sync_err = RuntimeError(f"error killing pod: {kill_err}")
                utilruntime.handle_error(sync_err)
                raise sync_err from kill_err
            if not runnable.admit:
                raise RuntimeError(f"pod cannot be run: {runnable.message}")
            return

        # Go: if err := kl.runtimeState.networkErrors(); err != nil && !kubecontainer.IsHostNetworkPod(pod) {
        network_err = self.runtime_state.network_errors()
        if network_err is not None and not pod.spec.host_network:
            self.recorder.eventf(
                pod,
                EventTypeWarning,
                NetworkNotReady,
                "%s: %s",
                NetworkNotReadyErrorMsg,
                network_err,
            )
            raise RuntimeError(f"{NetworkNotReadyErrorMsg}: {network_err}")

        # Go: pcm := kl.containerManager.NewPodContainerManager()
        pcm = self.container_manager.new_pod_container_manager()
        # A terminated pod's cgroup is neither made nor updated.
        # Go: if !kl.podIsTerminated(pod) {
        if not self.pod_is_terminated(pod):
            # A pod with a running container but no cgroup ran before kubelet had cgroups per
            # QoS: it is killed, to come back inside the tree.
            first_sync = True
            for container_status in api_pod_status.container_statuses:
                if container_status.state.running is not None:
                    first_sync = False
                    break
            pod_killed = False
            # Go: if !pcm.Exists(pod) && !firstSync {
            if not pcm.exists(pod) and not first_sync:
                try:
                    await self.kill_pod(pod, None, pod_status, None)
                except Exception as err:
                    klog.error_s(err, "killPod failed", pod=klog.kobj(pod), podStatus=pod_status)
                else:
                    pod_killed = True
            # A run-once pod killed above stays down: it gets no cgroup.
            # Go: if !(podKilled && pod.Spec.RestartPolicy == v1.RestartPolicyNever) {
            if not (pod_killed and pod.spec.restart_policy == RestartPolicy.NEVER):
                # Go: if !pcm.Exists(pod) {
                if not pcm.exists(pod):
                    # Go: if err := kl.containerManager.UpdateQOSCgroups(); err != nil {
                    try:
                        self.container_manager.update_qos_cgroups()
                    except Exception as err:
                        klog.v(2).info_s(
                            "Failed to update QoS cgroups while syncing pod",
                            pod=klog.kobj(pod),
                            err=err,
                        )
                    # Go: if err := pcm.EnsureExists(pod); err != nil {
                    try:
                        pcm.ensure_exists(pod)
                    except Exception as err:
                        self.recorder.eventf(
                            pod,
                            EventTypeWarning,
                            FailedToCreatePodContainer,
                            "unable to ensure pod container exists: %s",
                            err,
                        )
                        raise RuntimeError(
                            f"failed to ensure that the pod: {pod.metadata.uid} cgroups exist "
                            f"and are correctly applied: {err}"
                        ) from err

        if is_static_pod(pod):
            deleted = False
            if mirror_pod is not None and (
                mirror_pod.metadata.deletion_timestamp is not None
                or not self.pod_manager.is_mirror_pod_of(mirror_pod, pod)
            ):
                # Being deleted, or made from an older manifest: replace it (created below).
                klog.info_s(
                    "Trying to delete pod", pod=klog.kobj(pod), podUID=UID(mirror_pod.metadata.uid)
                )
                try:
                    deleted = self.pod_manager.delete_mirror_pod(
                        pod_full_name, mirror_pod.metadata.uid
                    )
                except Exception as err:
                    klog.error_s(err, "Failed deleting mirror pod", pod=klog.kobj(mirror_pod))
                if deleted:
                    klog.info_s(
                        "Deleted mirror pod because it is outdated", pod=klog.kobj(mirror_pod)
                    )
            if mirror_pod is None or deleted:
                try:
                    node = self.get_node()
                except Exception:
                    node = None
                if node is None or node.metadata.deletion_timestamp is not None:
                    klog.v(4).info_s(
                        "No need to create a mirror pod, since node has been removed from the "
                        "cluster",
                        node=klog.ObjectRef(self.node_name),
                    )
                else:
                    klog.v(4).info_s("Creating a mirror pod for static pod", pod=klog.kobj(pod))
                    try:
                        self.pod_manager.create_mirror_pod(pod)
                    except Exception as err:
                        klog.error_s(err, "Failed creating a mirror pod for", pod=klog.kobj(pod))

        # Go: if err := kl.makePodDataDirs(pod); err != nil {
        try:
            self.make_pod_data_dirs(pod)
        except OSError as err:
            self.recorder.eventf(
                pod,
                EventTypeWarning,
                FailedToMakePodDataDirectories,
                "error making pod data directories: %s",
                err,
            )
            klog.error_s(err, "Unable to make pod data directories for pod", pod=klog.kobj(pod))
            raise

        # A terminated pod's volumes are being torn down: waiting for them to mount would never
        # end.
        if not self.pod_is_terminated(pod) and self.volume_manager is not None:
            try:
                await self.volume_manager.wait_for_attach_and_mount(pod)
            except Exception as err:
                self.recorder.eventf(
                    pod,
                    EventTypeWarning,
                    FailedMountVolume,
                    "Unable to attach or mount volumes: %s",
                    err,
                )
                klog.error_s(
                    err,
                    "Unable to attach or mount volumes for pod; skipping pod",
                    pod=klog.kobj(pod),
                )
                raise

        pull_secrets: list[Any] = []  # no secret manager in the port

        result = await self.container_runtime.sync_pod(pod, pod_status, pull_secrets, self.back_off)
        self.reason_cache.update(pod.metadata.uid, result)
        result_err = result.error()
        if result_err is not None:
            for r in result.sync_results:
                if not is_back_off_error(r.error):
                    raise result_err
            return


def is_back_off_error(err: BaseException | None) -> bool:
    """True for CrashLoopBackOff and ImagePullBackOff, the errors syncPod means not to return.

    As in Go, it rarely spares one: SyncPod's results always include a successful
    ``ConfigPodSandbox`` (error None), which fails this test, so a pod in back-off still makes
    syncPod return its error, and the worker backs off (the "Error syncing pod" lines).
    """
    return err is ErrCrashLoopBackOff or err is ErrImagePullBackOff


async def handle_probe_sync(
    kl: Kubelet, update: Update, handler: SyncHandler, probe: str, status: str
) -> None:
    """Sync the pod a probe result is about (unless it is gone).

    Go: pkg/kubelet/kubelet.go handleProbeSync
    """
    # Go: pod, ok := kl.podManager.GetPodByUID(update.PodUID)
    # By UID in the pod manager: the probe worker's copy of the pod is never refreshed.
    pod, ok = kl.pod_manager.get_pod_by_uid(update.pod_uid)
    # Go: if !ok {
    if not ok:
        klog.v(4).info_s(
            "SyncLoop (probe): ignore irrelevant update",
            probe=probe,
            status=status,
            update=update,
        )
        return
    assert pod is not None
    # Go: klog.V(1).InfoS("SyncLoop (probe)"
    klog.v(1).info_s("SyncLoop (probe)", probe=probe, status=status, pod=klog.kobj(pod))
    # Go: handler.HandlePodSyncs([]*v1.Pod{pod})
    await handler.handle_pod_syncs([pod])


def is_sync_pod_worthy(event: PodLifecycleEvent) -> bool:
    """Every PLEG event but ContainerRemoved calls for a sync.

    Go: pkg/kubelet/kubelet.go isSyncPodWorthy
    """
    return event.type != PodLifeCycleEventType.CONTAINER_REMOVED


def sort_pods_by_creation_time(pods: list[Pod]) -> list[Pod]:
    """Oldest first; pods without a creation time first of all.

    Go sorts with ``sort.Sort(sliceutils.PodsByCreationTime(pods))``, which is not stable;
    Python's sort is, which keeps the order of equal pods.
    """
    return sorted(pods, key=lambda p: p.metadata.creation_timestamp or 0.0)


def make_pod_source_config(
    kube_cfg: KubeletConfiguration,
    recorder: Any,
    node_name: str,
    node_has_synced: Callable[[], bool],
    kube_client: Interface | None,
) -> PodConfig:
    """The PodConfig merging every configured source: file, URL, API server.

    Go: pkg/kubelet/kubelet.go makePodSourceConfig

    Go reads the client from ``kubeDeps.KubeClient``; here it is an argument.
    """
    # Go: manifestURLHeader := make(http.Header)
    manifest_url_header = {k: ", ".join(v) for k, v in kube_cfg.static_pod_url_header.items()}

    # Go: cfg := config.NewPodConfig(
    cfg = PodConfig(PodConfigNotificationMode.INCREMENTAL, recorder)

    # Go: if kubeCfg.StaticPodPath != "" {
    if kube_cfg.static_pod_path != "":
        klog.info_s("Adding static pod path", path=kube_cfg.static_pod_path)
        new_source_file(
            kube_cfg.static_pod_path,
            node_name,
            kube_cfg.file_check_frequency,
            cfg.channel(FileSource),
        )

    # Go: if kubeCfg.StaticPodURL != "" {
    if kube_cfg.static_pod_url != "":
        klog.info_s(
            "Adding pod URL with HTTP header",
            URL=kube_cfg.static_pod_url,
            header=manifest_url_header,
        )
        new_source_url(
            kube_cfg.static_pod_url,
            manifest_url_header,
            node_name,
            kube_cfg.http_check_frequency,
            cfg.channel(HTTPSource),
        )

    # Go: if kubeDeps.KubeClient != nil {
    if kube_client is not None:
        klog.info_s("Adding apiserver pod source")
        new_source_apiserver(kube_client, node_name, node_has_synced, cfg.channel(ApiserverSource))
    # Go: return cfg, nil
    return cfg


class NoImageGC:
    """Ours: kubelet's image garbage collector (Go's ``realImageGCManager``) is not ported.

    The eviction manager calls it to free disk before it evicts pods under disk pressure. Here
    the call fails, and the eviction manager logs the error and goes on, as it does when Go's
    fails; the simulated node's images take no disk, so deleting them would free nothing.
    """

    async def delete_unused_images(self) -> None:
        raise NotImplementedError("image garbage collection is not ported to minikubelet")


def new_main_kubelet(
    kube_cfg: KubeletConfiguration,
    kube_deps: Dependencies,
    *,
    hostname: str,
    node_name: str,
    machine_info: MachineInfo,
    node_ips: list[str] | None = None,
    node_labels: dict[str, str] | None = None,
    minimum_gc_age: float = 0.0,
    max_per_pod_container_count: int = 1,
    max_container_count: int = -1,
    allowed_unsafe_sysctls: Sequence[str] = (),
) -> Kubelet:
    """A Kubelet wired as Go's constructor wires it, from what its caller hands it.

    Go: pkg/kubelet/kubelet.go NewMainKubelet

    ``kube_deps`` holds the API client, the runtime manager, the recorder, the pod sources and
    the node's measures and files (see [`Dependencies`][minikubelet.kubelet.Dependencies]).
    ``hostname`` and ``node_name`` come from
    [`get_hostname`][minikubelet.k8s_io.kubernetes.pkg.util.node.node.get_hostname] (the same, without a cloud provider);
    ``node_ips`` is ``--node-ip``, ``node_labels`` is ``--node-labels``,
    ``max_per_pod_container_count`` is ``--maximum-dead-containers-per-container`` (default 1),
    ``allowed_unsafe_sysctls`` is ``--allowed-unsafe-sysctls``.
    ``machine_info`` stands for what cAdvisor measures. ``minimum_gc_age`` and
    ``max_container_count``, with ``max_per_pod_container_count``, make the container garbage
    collector's policy, with the defaults of kubelet's flags (see
    [`GCPolicy`][minikubelet.container.container_gc.GCPolicy]); raises ``ValueError`` for a
    negative ``minimum_gc_age``.

    Call it inside [`minikubelet.go.run`][minikubelet.go.run]: several parts read the run's
    clock. Left out of Go's long list: cAdvisor, the plugin manager, the secret and config-map
    managers (the volume plugins read the API server), the node lease, DNS, the image garbage
    collector, certificate and shutdown managers. ``ValueError`` also for bad eviction
    thresholds in ``kube_cfg`` (kubelet's message).
    """
    clock = current_runtime().clock
    recorder = kube_deps.recorder
    kube_client = kube_deps.kube_client
    node_ref = ObjectReference(kind="Node", name=node_name, uid=node_name, namespace="")

    # Go: enforceNodeAllocatable := kubeCfg.EnforceNodeAllocatable
    enforce_node_allocatable = kube_cfg.enforce_node_allocatable
    # Go omitted: if experimentalNodeAllocatableIgnoreEvictionThreshold { -- the deprecated flag is false by default, and the port has no flag for it
    # Go: thresholds, err := eviction.ParseThresholdConfig(enforceNodeAllocatable, kubeCfg.EvictionHard, kubeCfg.EvictionSoft, kubeCfg.EvictionSoftGracePeriod, kubeCfg.EvictionMinimumReclaim)
    thresholds = parse_threshold_config(
        enforce_node_allocatable,
        kube_cfg.eviction_hard,
        kube_cfg.eviction_soft,
        kube_cfg.eviction_soft_grace_period,
        kube_cfg.eviction_minimum_reclaim,
    )
    # Go: evictionConfig := eviction.Config{
    eviction_config = EvictionConfig(
        pressure_transition_period=kube_cfg.eviction_pressure_transition_period,
        max_pod_grace_period_seconds=kube_cfg.eviction_max_pod_grace_period,
        thresholds=thresholds,
        kernel_memcg_notification=False,
        pod_cgroup_root="/kubepods",
    )

    # Go picks how the secret and config-map managers watch the API server here:
    # Go omitted: case kubeletconfiginternal.WatchChangeDetectionStrategy: -- no managers: the volume plugins read configMaps and secrets from the in-memory API server at each SetUp
    # Go omitted: case kubeletconfiginternal.TTLCacheChangeDetectionStrategy: -- no managers: the volume plugins read configMaps and secrets from the in-memory API server at each SetUp
    # Go omitted: case kubeletconfiginternal.GetChangeDetectionStrategy: -- no managers: the volume plugins read configMaps and secrets from the in-memory API server at each SetUp
    # Go omitted: default: -- no managers: the volume plugins read configMaps and secrets from the in-memory API server at each SetUp

    container_gc_policy = GCPolicy(
        min_age=minimum_gc_age,
        max_per_pod_container=max_per_pod_container_count,
        max_containers=max_container_count,
    )

    liveness_manager = ResultsManager("liveness")
    readiness_manager = ResultsManager("readiness")
    startup_manager = ResultsManager("startup")
    pod_cache = new_cache()

    # Go reads the node through an informer's lister; here straight from the (in-memory) server.
    node_lister = kube_client
    pod_manager = BasicManager(BasicMirrorClient(kube_client, node_name, node_lister))
    status_manager = new_status_manager(kube_client, pod_manager, None)

    # The container runtime: kuberuntime's manager, made by the caller (see Dependencies).
    container_runtime = kube_deps.container_runtime
    container_runtime.liveness_manager = liveness_manager
    container_runtime.readiness_manager = readiness_manager
    container_runtime.startup_manager = startup_manager
    runtime_cache = new_runtime_cache(container_runtime, clock)

    pleg = new_generic_pleg(
        container_runtime, plegChannelCapacity, plegRelistPeriod, pod_cache, clock
    )
    runtime_state = new_runtime_state(clock, maxWaitForContainerRuntime)
    runtime_state.add_health_check("PLEG", pleg.healthy)
    # The deletor keeps at least minDeadContainerInPod dead containers, whatever the policy says.
    container_deletor = new_pod_container_deletor(
        container_runtime, max(max_per_pod_container_count, minDeadContainerInPod)
    )

    # Ours: kubelet's command line (cmd/kubelet/app) makes the container manager and hands it
    # in kubeDeps; the port makes it here, from the same flags.
    container_manager = new_container_manager(
        kube_deps.cgroup_fs,
        {ResourceCPU: machine_info.cpu, ResourceMemory: machine_info.memory},
        NodeConfig(
            cgroups_per_qos=kube_cfg.cgroups_per_qos,
            cgroup_root=kube_cfg.cgroup_root,
            cgroup_driver=kube_cfg.cgroup_driver,
            experimental_pod_pids_limit=kube_cfg.pod_pids_limit,
            enforce_cpu_limits=kube_cfg.cpu_cfs_quota,
            cpu_cfs_quota_period=kube_cfg.cpu_cfs_quota_period,
        ),
        recorder,
    )

    work_queue = BasicWorkQueue(clock)
    kl = Kubelet(
        node_name=node_name,
        clock=clock,
        recorder=recorder,
        pod_manager=pod_manager,
        status_manager=status_manager,
        work_queue=work_queue,
        container_runtime=container_runtime,
        runtime_cache=runtime_cache,
        pod_cache=pod_cache,
        pleg=pleg,
        runtime_state=runtime_state,
        sources_ready=SourcesReady(kube_deps.pod_config.seen_all_sources),
        liveness_manager=liveness_manager,
        readiness_manager=readiness_manager,
        startup_manager=startup_manager,
        reason_cache=ReasonCache(),
        back_off=new_back_off(backOffPeriod, MaxContainerBackOff),
        container_deletor=container_deletor,
        hostname=hostname,
        node_ips=list(node_ips or []),
        node_labels=dict(node_labels or {}),
        machine_info=machine_info,
        max_pods=kube_cfg.max_pods,
        kube_client=kube_client,
        cgroups_per_qos=kube_cfg.cgroups_per_qos,
    )
    kl.node_ref = node_ref
    # Go: mounter: kubeDeps.Mounter, (and os: kubeDeps.OSInterface)
    # The port's mounter is the node's filesystem (Dependencies.mounter): kubelet's own files go
    # to the same tree as its volume plugins', where Go reaches the disk through package os.
    kl.fs = kube_deps.mounter
    kl.mounter = kube_deps.mounter
    kl.kubelet_configuration = kube_cfg
    kl.container_manager = container_manager
    # Go gives the runtime manager the machine, --cpu-cfs-quota and the Kubelet as its helper;
    # the port's helper is the fake one, which asks the Kubelet for the pod's cgroup.
    container_runtime.machine_info = machine_info
    container_runtime.cpu_cfs_quota = kube_cfg.cpu_cfs_quota
    if isinstance(container_runtime.runtime_helper, FakeRuntimeHelper):
        container_runtime.runtime_helper.pod_cgroup_parent = kl.get_pod_cgroup_parent
    # cAdvisor and the CRI's stats, which Go's StatsProvider reads: the simulated node.
    kl.stats_provider = kube_deps.cadvisor_interface
    # Go hands the Kubelet itself to the parts that ask about pods: the runtime and its garbage
    # collector (is a pod deleted?) and the status manager (are a pod's resources reclaimed?).
    container_runtime.pod_state_provider = kl
    container_runtime.container_gc.pod_state_provider = kl
    status_manager.pod_deletion_safety = kl
    kl.container_gc = new_container_gc(container_runtime, container_gc_policy, kl.sources_ready)
    kl.probe_manager = new_prober_manager(
        status_manager, liveness_manager, readiness_manager, startup_manager, None, recorder
    )
    kl.pod_workers = PodWorkersImpl(
        kl.sync_pod, recorder, work_queue, kube_cfg.sync_frequency, backOffPeriod, pod_cache
    )
    kl.pod_killer = PodKillerWithChannel(kl)
    kl.volume_manager = new_volume_manager(
        True,  # --enable-controller-attach-detach's default
        node_name,
        pod_manager,
        status_manager,
        new_initialized_volume_plugin_mgr(kube_client, kl.fs, kube_deps.mount_script),
        container_runtime,
        KUBELET_PODS_DIR,
        recorder,
        kl.keep_terminated_pod_volumes,
    )

    # Go: evictionManager, evictionAdmitHandler := eviction.NewManager(klet.resourceAnalyzer, evictionConfig, killPodNow(klet.podWorkers, kubeDeps.Recorder), klet.podManager.GetMirrorPodByPod, klet.imageManager, klet.containerGC, kubeDeps.Recorder, nodeRef, klet.clock)
    eviction_manager, eviction_admit_handler = new_eviction_manager(
        kl.stats_provider,
        eviction_config,
        kill_pod_now(kl.pod_workers, recorder),
        pod_manager.get_mirror_pod_by_pod,
        NoImageGC(),
        kl.container_gc,
        recorder,
        node_ref,
        clock,
    )
    kl.eviction_manager = eviction_manager
    # The admit handlers, in Go's order; the first that refuses a pod rejects it.
    # Go: klet.admitHandlers.AddPodAdmitHandler(evictionAdmitHandler)
    kl.admit_handlers.add_pod_admit_handler(eviction_admit_handler)
    # The safe sysctls are allowed whatever --allowed-unsafe-sysctls says; raises ValueError on a
    # bad pattern, as Go's constructor returns the error.
    sysctls_whitelist = new_whitelist(safe_sysctl_whitelist() + list(allowed_unsafe_sysctls))
    kl.admit_handlers.add_pod_admit_handler(sysctls_whitelist)
    active_deadline_handler = ActiveDeadlineHandler(status_manager, recorder, clock)
    kl.pod_sync_loop_handlers.add_pod_sync_loop_handler(active_deadline_handler)
    kl.pod_sync_handlers.add_pod_sync_handler(active_deadline_handler)

    # Go omitted: klet.admitHandlers.AddPodAdmitHandler(klet.containerManager.GetAllocateResourcesPodAdmitHandler()) -- with v1.21's defaults (topology policy none, CPU manager none, no device plugins) it admits every pod and allocates nothing
    critical_pod_admission_handler = new_critical_pod_admission_handler(
        kl.get_active_pods, kill_pod_now(kl.pod_workers, recorder), recorder
    )
    # No device plugins: updating the node info with their resources has nothing to do.
    kl.admit_handlers.add_pod_admit_handler(
        new_predicate_admit_handler(
            kl.get_node_any_way, critical_pod_admission_handler, lambda node_info, attrs: None
        )
    )

    # The soft admit handlers, asked by syncPod before each run (canRunPod).
    # Go omitted: klet.softAdmitHandlers.AddPodAdmitHandler(lifecycle.NewAppArmorAdmitHandler( -- its verdict depends on the host kernel's AppArmor module and loaded profiles, which the simulated node does not have
    # Go omitted: klet.softAdmitHandlers.AddPodAdmitHandler(lifecycle.NewNoNewPrivsAdmitHandler( -- it can refuse only on the docker runtime; the fake runtime is a CRI ("remote") one, for which it always admits
    # Go omitted: klet.softAdmitHandlers.AddPodAdmitHandler(lifecycle.NewProcMountAdmitHandler( -- the same: it always admits on a CRI runtime

    # Go omitted: shutdownManager, shutdownAdmitHandler := nodeshutdown.NewManager( -- it refuses pods only while systemd reports the node shutting down, which the simulated node never does
    return kl
