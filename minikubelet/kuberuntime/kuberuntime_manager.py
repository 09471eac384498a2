"""The generic runtime manager: kubelet's container runtime, built on the CRI.

Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go

``SyncPod`` is the heart of pod creation. It compares what the pod wants with what runs
([`KubeGenericRuntimeManager.compute_pod_actions`][]), then, in order:

1. kills the whole pod if its sandbox must be (re)created, or else the containers not to keep;
2. creates the sandbox (``RunPodSandbox``) if needed;
3. starts the next init container — one at a time: the next ``SyncPod`` starts the one after,
   once this one has exited 0;
4. once all init containers are done, starts the containers that should run, each after the
   back-off of its earlier crashes (``CrashLoopBackOff``) and an image pull.

Each step adds a [`SyncResult`][minikubelet.container.sync_result.SyncResult] to the returned
[`PodSyncResult`][minikubelet.container.sync_result.PodSyncResult], which kubelet turns into the
reasons a container waits with (``ErrImagePull``, ``CrashLoopBackOff`` …).

Go's ``kubeGenericRuntimeManager`` has its methods in several files; the port's class inherits
them from one mixin per file (see [`minikubelet.kuberuntime`][minikubelet.kuberuntime]). Methods
that call the runtime are ``async``. Errors: Go's ``(T, error)`` → ``T``, raising; ``error`` alone →
``Exception | None``; ``(…, message, error)`` pairs that end up in a SyncResult → tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from minikubelet import events
from minikubelet.container.container_gc import GCPolicy
from minikubelet.container.helpers import (
    HandlerRunner,
    RuntimeHelper,
    convert_pod_status_to_running_pod,
    filter_event_recorder,
    hash_container,
    is_host_network_pod,
    should_container_be_restarted,
)
from minikubelet.container.ref import generate_container_ref
from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    Pod,
    PodStatus,
    RuntimeStatus,
    Status,
)
from minikubelet.container.sync_result import (
    ConfigPodSandbox,
    CreatePodSandbox,
    ErrConfigPodSandbox,
    ErrCrashLoopBackOff,
    ErrCreatePodSandbox,
    ErrKillContainer,
    ErrKillPodSandbox,
    KillContainer,
    KillPodSandbox,
    PodSyncResult,
    StartContainer,
    new_sync_result,
)
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.go import fmt as go_fmt
from minikubelet.go.duration import format_duration
from minikubelet.images.image_manager import new_image_manager
from minikubelet.images.types import ErrImagePullBackOff, ImageManager
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.runtime import runtime as utilruntime
from minikubelet.k8s_io.client_go.tools.record.event import (
    EventRecorder,
    EventTypeNormal,
    EventTypeWarning,
)
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import ImageManagerService, RuntimeService
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.helpers import (
    HelperMethods,
    ListingMemo,
    get_stable_key,
    is_init_container_failed,
    network_namespace_for_pod,
    podLogsRootDirectory,  # noqa: F401 (Go declares it in kuberuntime_manager.go)
    to_kube_runtime_status,
)
from minikubelet.kuberuntime.kuberuntime_container import (
    ContainerMethods,
    StartSpec,
    container_start_spec,
    find_next_init_container_to_run,
)
from minikubelet.kuberuntime.kuberuntime_container_linux import LinuxContainerMethods
from minikubelet.kuberuntime.kuberuntime_gc import new_container_gc
from minikubelet.kuberuntime.kuberuntime_image import ImageMethods
from minikubelet.kuberuntime.kuberuntime_sandbox import SandboxMethods
from minikubelet.kuberuntime.security_context import SecurityContextMethods
from minikubelet.lifecycle.handlers import new_handler_runner
from minikubelet.prober.results.results_manager import Manager as ProberResultsManager
from minikubelet.prober.results.results_manager import Result, ResultsManager
from minikubelet.types.types import HTTPGetter
from minikubelet.util import format

#: The version kubelet asks of the runtime's ``Version`` call and insists on.
kubeRuntimeAPIVersion = "0.1.0"
#: The shortest grace period kubelet gives a container before SIGKILL, whatever the pod asks.
minimumGracePeriodInSeconds = 2

ErrVersionNotSupported = RuntimeError("runtime api version is not supported")


class PodStateProvider(Protocol):
    """Whether a pod is deleted or terminated (kubelet's pod manager and status manager answer).

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go type podStateProvider
    """

    def is_pod_deleted(self, uid: str) -> bool:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go podStateProvider.IsPodDeleted"""
        ...

    def is_pod_terminated(self, uid: str) -> bool:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go podStateProvider.IsPodTerminated"""
        ...


class KubeGenericRuntimeManager(
    HelperMethods,
    SandboxMethods,
    ContainerMethods,
    LinuxContainerMethods,
    SecurityContextMethods,
    ImageMethods,
):
    """kubelet's container runtime on top of a CRI runtime service and image service.

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go type kubeGenericRuntimeManager

    Make one with [`new_kube_generic_runtime_manager`][] (asks the runtime its name, as Go
    does) or, on the fake runtime, with
    [`minikubelet.sim.container_runtime.new_fake_runtime`][minikubelet.sim.container_runtime.new_fake_runtime].
    The Go struct's other fields serve parts of kubelet the port leaves out.
    """

    def __init__(
        self,
        *,
        runtime_name: str,
        recorder: EventRecorder,
        runtime_service: RuntimeService,
        image_service: ImageManagerService,
        runtime_helper: RuntimeHelper,
        runner: HandlerRunner,
        pod_state_provider: PodStateProvider,
        liveness_manager: ProberResultsManager | None = None,
        readiness_manager: ProberResultsManager | None = None,
        startup_manager: ProberResultsManager | None = None,
        image_puller: ImageManager | None = None,
        machine_info: MachineInfo | None = None,
        cpu_cfs_quota: bool = True,
    ) -> None:
        self.runtime_name = runtime_name
        #: What cAdvisor measures of the machine: a Burstable container's OOM score divides
        #: by its memory (default: 4 CPUs and 8Gi, the command line's default node).
        self.machine_info = (
            machine_info
            if machine_info is not None
            else MachineInfo(cpu=Quantity.parse("4"), memory=Quantity.parse("8Gi"))
        )
        #: --cpu-cfs-quota: CPU limits become CFS quotas.
        self.cpu_cfs_quota = cpu_cfs_quota
        #: Where localhost seccomp profiles live (kubelet's root directory + ``seccomp``).
        self.seccomp_profile_root = "/var/lib/kubelet/seccomp"
        self.recorder = recorder
        self.runner = runner  # runs postStart and preStop hooks
        self.runtime_helper = runtime_helper  # kubelet itself: DNS, hostname, pod directories
        self.liveness_manager: ProberResultsManager = liveness_manager or ResultsManager("liveness")
        self.readiness_manager: ProberResultsManager = readiness_manager or ResultsManager(
            "readiness"
        )
        self.startup_manager: ProberResultsManager = startup_manager or ResultsManager("startup")
        # None only until new_kube_generic_runtime_manager sets it: the puller needs the manager.
        self.image_puller: ImageManager = image_puller  # type: ignore[assignment]
        # Plain service objects: Go wraps them to count calls for metrics (instrumented_services.go).
        self.runtime_service = runtime_service
        self.image_service = image_service
        self.pod_state_provider = pod_state_provider
        # Go makes it in NewKubeGenericRuntimeManager; both of the port's constructors come here.
        self.container_gc = new_container_gc(runtime_service, pod_state_provider, self)
        # Ours: GetPods' conversions, kept between listings (see ListingMemo).
        self.listing_memo = ListingMemo()

    def type(self) -> str:
        """The runtime's name, as it reported it (``containerd``, ``fake`` …).

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).Type
        """
        return self.runtime_name

    async def get_typed_version(self) -> runtimeapi.VersionResponse:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).getTypedVersion"""
        try:
            return await self.runtime_service.version(kubeRuntimeAPIVersion)
        except Exception as err:
            raise RuntimeError(f"get remote runtime typed version failed: {err}") from err

    async def status(self) -> RuntimeStatus:
        """The runtime's conditions (RuntimeReady, NetworkReady); raises if the call fails.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).Status
        """
        status = await self.runtime_service.status()
        return to_kube_runtime_status(status)

    async def get_pods(self, all: bool) -> list[Pod]:
        """The runtime's containers and sandboxes grouped by pod; with ``all``, the exited ones
        too. Raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).GetPods

        Each container is converted through [`ListingMemo`][] (ours), which hands back the last
        conversion of an unchanged container instead of making it again.
        """
        memo = self.listing_memo
        pods: dict[str, Pod] = {}
        sandboxes = await self.get_kubelet_sandboxes(all)
        for s in sandboxes:
            if s.metadata is None:
                klog.v(4).info_s("Sandbox does not have metadata", sandbox=s)
                continue
            pod_uid = s.metadata.uid
            if pod_uid not in pods:
                pods[pod_uid] = Pod(
                    id=pod_uid, name=s.metadata.name, namespace=s.metadata.namespace
                )
            p = pods[pod_uid]
            try:
                converted = memo.sandbox_to_kube_container(self, s)
            except ValueError as err:
                klog.v(4).info_s(
                    "Convert sandbox of pod failed",
                    runtimeName=self.runtime_name,
                    sandbox=s,
                    podUID=UID(pod_uid),
                    err=err,
                )
                continue
            p.sandboxes.append(converted)

        containers = await self.get_kubelet_containers(all)
        for c in containers:
            if c.metadata is None:
                klog.v(4).info_s("Container does not have metadata", container=c)
                continue

            labelled_info = memo.container_info_from_labels(c)
            pod = pods.get(labelled_info.pod_uid)
            if pod is None:
                pod = Pod(
                    id=labelled_info.pod_uid,
                    name=labelled_info.pod_name,
                    namespace=labelled_info.pod_namespace,
                )
                pods[labelled_info.pod_uid] = pod

            try:
                converted = memo.to_kube_container(self, c)
            except ValueError as err:
                klog.v(4).info_s(
                    "Convert container of pod failed",
                    runtimeName=self.runtime_name,
                    container=c,
                    podUID=UID(labelled_info.pod_uid),
                    err=err,
                )
                continue

            pod.containers.append(converted)

        if all:
            memo.forget_unlisted(sandboxes, containers)

        # Go ranges over a map here, in random order; a dict keeps insertion order, so the list
        # is deterministic (sandboxes first, then containers, as the runtime listed them).
        return list(pods.values())

    def pod_sandbox_changed(self, pod: v1.Pod, pod_status: PodStatus) -> tuple[bool, int, str]:
        """Whether the pod needs a new sandbox: (changed, attempt, existing sandbox ID).

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).podSandboxChanged
        """
        # Go: if len(podStatus.SandboxStatuses) == 0 {
        if len(pod_status.sandbox_statuses) == 0:
            klog.v(2).info_s(
                "No sandbox for pod can be found. Need to start a new one", pod=klog.kobj(pod)
            )
            return True, 0, ""

        # Go: readySandboxCount := 0
        ready_sandbox_count = 0
        # Go: for _, s := range podStatus.SandboxStatuses {
        for s in pod_status.sandbox_statuses:
            if s.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                ready_sandbox_count += 1

        # The runtime lists sandboxes newest first: only the first one may be the ready one.
        # Go: sandboxStatus := podStatus.SandboxStatuses[0]
        sandbox_status = pod_status.sandbox_statuses[0]
        attempt = sandbox_status.metadata.attempt if sandbox_status.metadata is not None else 0
        # Go: if readySandboxCount > 1 {
        if ready_sandbox_count > 1:
            klog.v(2).info_s(
                "Multiple sandboxes are ready for Pod. Need to reconcile them", pod=klog.kobj(pod)
            )

            return True, attempt + 1, sandbox_status.id
        # Go: if sandboxStatus.State != runtimeapi.PodSandboxState_SANDBOX_READY {
        if sandbox_status.state != runtimeapi.PodSandboxState_SANDBOX_READY:
            klog.v(2).info_s(
                "No ready sandbox for pod can be found. Need to start a new one",
                pod=klog.kobj(pod),
            )
            return True, attempt + 1, sandbox_status.id

        # Go chains nil-safe getters (GetLinux().GetNamespaces()…); a missing level means POD.
        # Go: if sandboxStatus.GetLinux().GetNamespaces().GetOptions().GetNetwork() != networkNamespaceForPod(pod)
        linux = sandbox_status.linux
        options = linux.namespaces.options if linux and linux.namespaces else None
        network = options.network if options is not None else runtimeapi.NamespaceMode_POD
        if network != network_namespace_for_pod(pod):
            klog.v(2).info_s(
                "Sandbox for pod has changed. Need to start a new one", pod=klog.kobj(pod)
            )
            return True, attempt + 1, ""

        # Go: if !kubecontainer.IsHostNetworkPod(pod) && sandboxStatus.Network.Ip == "" {
        ip = sandbox_status.network.ip if sandbox_status.network is not None else ""
        if not is_host_network_pod(pod) and ip == "":
            klog.v(2).info_s(
                "Sandbox for pod has no IP address. Need to start a new one", pod=klog.kobj(pod)
            )
            return True, attempt + 1, sandbox_status.id

        # Go: return false, sandboxStatus.Metadata.Attempt, sandboxStatus.Id
        return False, attempt, sandbox_status.id

    def compute_pod_actions(self, pod: v1.Pod, pod_status: PodStatus) -> PodActions:
        """What SyncPod must do to bring the pod where its spec wants it.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).computePodActions
        """
        # Go: klog.V(5).InfoS("Syncing Pod"
        klog.v(5).info_s("Syncing Pod", pod=klog.kobj(pod))

        # Go: createPodSandbox, attempt, sandboxID := m.podSandboxChanged(pod, podStatus)
        create_pod_sandbox, attempt, sandbox_id = self.pod_sandbox_changed(pod, pod_status)
        # Go: changes := podActions{
        changes = PodActions(
            kill_pod=create_pod_sandbox,
            create_sandbox=create_pod_sandbox,
            sandbox_id=sandbox_id,
            attempt=attempt,
            containers_to_start=[],
            containers_to_kill={},
        )

        # A new sandbox means a new pod on the node: nothing of the old one is kept.
        # Go: if createPodSandbox {
        if create_pod_sandbox:
            # Go: if !shouldRestartOnFailure(pod) && attempt != 0
            if (
                not should_restart_on_failure(pod)
                and attempt != 0
                and len(pod_status.container_statuses) != 0
            ):
                # restartPolicy Never, and containers already ran in an earlier sandbox: a new
                # sandbox would start nothing and only be torn down again. With no container
                # status at all nothing ever started, so creating the sandbox is retried.
                changes.create_sandbox = False
                return changes

            # Go: var containersToStart []int
            containers_to_start: list[int] = []
            # Go: for idx, c := range pod.Spec.Containers {
            for idx, c in enumerate(pod.spec.containers):
                if pod.spec.restart_policy == v1.RestartPolicyOnFailure and container_succeeded(
                    c, pod_status
                ):
                    continue
                containers_to_start.append(idx)
            # Go: if len(containersToStart) == 0 {
            if len(containers_to_start) == 0:
                _, _, done = find_next_init_container_to_run(pod, pod_status)
                if done:
                    changes.create_sandbox = False
                    return changes

            # Go: if len(pod.Spec.InitContainers) != 0 {
            if len(pod.spec.init_containers) != 0:
                changes.next_init_container_to_start = pod.spec.init_containers[0]
                return changes
            # Go: changes.ContainersToStart = containersToStart
            changes.containers_to_start = containers_to_start
            return changes

        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(features.EphemeralContainers) { -- ephemeral containers (alpha in v1.21) are not ported
        # Go: initLastStatus, next, done := findNextInitContainerToRun(pod, podStatus)
        init_last_status, next, done = find_next_init_container_to_run(pod, pod_status)
        # Go: if !done {
        if not done:
            # Go: if next != nil {
            if next is not None:
                # Go: initFailed := initLastStatus != nil
                init_failed = init_last_status is not None and is_init_container_failed(
                    init_last_status
                )
                # Go: if initFailed && !shouldRestartOnFailure(pod) {
                if init_failed and not should_restart_on_failure(pod):
                    changes.kill_pod = True
                else:
                    if (
                        init_last_status is not None
                        and init_last_status.state == ContainerStateUnknown
                    ):
                        changes.containers_to_kill[init_last_status.id] = ContainerToKillInfo(
                            name=next.name,
                            container=next,
                            message=(
                                f'Init container is in "{init_last_status.state}" state, '
                                "try killing it before restart"
                            ),
                            reason=reasonUnknown,
                        )
                    changes.next_init_container_to_start = next
            # Until every init container has succeeded, regular containers are not looked at.
            return changes

        # Go: keepCount := 0
        keep_count = 0
        # Go: for idx, container := range pod.Spec.Containers {
        for idx, container in enumerate(pod.spec.containers):
            # Go: containerStatus := podStatus.FindContainerStatusByName(container.Name)
            container_status = pod_status.find_container_status_by_name(container.name)

            # Go omitted: if containerStatus != nil && containerStatus.State != kubecontainer.ContainerStateRunning { -- its post-stop hook frees CPUs of the CPU manager, which the port does not have
            # Go: if containerStatus == nil || containerStatus.State != kubecontainer.ContainerStateRunning {
            if container_status is None or container_status.state != ContainerStateRunning:
                # Go: if kubecontainer.ShouldContainerBeRestarted(&container, pod, podStatus) {
                if should_container_be_restarted(container, pod, pod_status):
                    klog.v(3).info_s(
                        "Container of pod is not in the desired state and shall be started",
                        containerName=container.name,
                        pod=klog.kobj(pod),
                    )
                    changes.containers_to_start.append(idx)
                    # Go: if containerStatus != nil && containerStatus.State == kubecontainer.ContainerStateUnknown {
                    if (
                        container_status is not None
                        and container_status.state == ContainerStateUnknown
                    ):
                        # "Unknown" may still be running: kill it first, or two copies of the
                        # container could run side by side after the restart.
                        # Go: changes.ContainersToKill[containerStatus.ID] = containerToKillInfo{
                        changes.containers_to_kill[container_status.id] = ContainerToKillInfo(
                            name=container_status.name,
                            container=pod.spec.containers[idx],
                            message=(
                                f'Container is in "{container_status.state}" state, '
                                "try killing it before restart"
                            ),
                            reason=reasonUnknown,
                        )
                continue
            # Go: var message string
            message = ""
            # Go: var reason containerKillReason
            reason = ContainerKillReason("")
            # Go: restart := shouldRestartOnFailure(pod)
            restart = should_restart_on_failure(pod)
            # Go: if _, _, changed := containerChanged(&container, containerStatus); changed {
            _, _, changed = container_changed(container, container_status)
            # Go reads the probe results in the `else if` conditions below; reading them here
            # first changes nothing (they are plain lookups).
            liveness, liveness_found = self.liveness_manager.get(container_status.id)
            startup, startup_found = self.startup_manager.get(container_status.id)
            if changed:
                message = f"Container {container.name} definition changed"
                restart = True  # a new spec always runs, whatever the restart policy says
            elif liveness_found and liveness == Result.FAILURE:
                message = f"Container {container.name} failed liveness probe"
                reason = reasonLivenessProbe
            elif startup_found and startup == Result.FAILURE:
                message = f"Container {container.name} failed startup probe"
                reason = reasonStartupProbe
            else:
                keep_count += 1
                continue

            # A container to restart counts as one that will run: it keeps the pod (and its
            # sandbox) alive below.
            # Go: if restart {
            if restart:
                message = f"{message}, will be restarted"
                changes.containers_to_start.append(idx)

            # Go: changes.ContainersToKill[containerStatus.ID] = containerToKillInfo{
            changes.containers_to_kill[container_status.id] = ContainerToKillInfo(
                name=container_status.name,
                container=pod.spec.containers[idx],
                message=message,
                reason=reason,
            )
            # Go: klog.V(2).InfoS("Message for Container of pod"
            klog.v(2).info_s(
                "Message for Container of pod",
                containerName=container.name,
                containerStatusID=container_status.id,
                pod=klog.kobj(pod),
                containerMessage=message,
            )

        # Go: if keepCount == 0 && len(changes.ContainersToStart) == 0 {
        if keep_count == 0 and len(changes.containers_to_start) == 0:
            changes.kill_pod = True

        return changes

    async def sync_pod(
        self,
        pod: v1.Pod,
        pod_status: PodStatus,
        pull_secrets: list[Any],
        back_off: Backoff,
    ) -> PodSyncResult:
        """Make what runs match what the pod wants, one step per call.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).SyncPod

        The steps, numbered as the comments in the Go number them: (1) ask
        `compute_pod_actions` what to do; (2) kill the whole pod when it gets a new sandbox or
        nothing would run, or else (3) only the containers it must not keep; (4) create the
        sandbox; (5) ephemeral containers, which the port does not have (alpha in v1.21);
        (6) the next init container; (7) the regular containers to start.
        """
        result = PodSyncResult()

        # Step 1
        # Go: podContainerChanges := m.computePodActions(pod, podStatus)
        pod_container_changes = self.compute_pod_actions(pod, pod_status)
        # Go: klog.V(3).InfoS("computePodActions got for pod"
        klog.v(3).info_s(
            "computePodActions got for pod", podActions=pod_container_changes, pod=klog.kobj(pod)
        )
        # Go: if podContainerChanges.CreateSandbox {
        if pod_container_changes.create_sandbox:
            # Go: ref, err := ref.GetReference(legacyscheme.Scheme, pod) — the pod itself here.
            ref = pod
            # Go: if podContainerChanges.SandboxID != "" {
            if pod_container_changes.sandbox_id != "":
                self.recorder.eventf(
                    ref,
                    EventTypeNormal,
                    events.SandboxChanged,
                    "Pod sandbox changed, it will be killed and re-created.",
                )
            else:
                klog.v(4).info_s(
                    "SyncPod received new pod, will create a sandbox for it", pod=klog.kobj(pod)
                )

        # Step 2
        # Go: if podContainerChanges.KillPod {
        if pod_container_changes.kill_pod:
            # Go: if podContainerChanges.CreateSandbox {
            if pod_container_changes.create_sandbox:
                klog.v(4).info_s(
                    "Stopping PodSandbox for pod, will start new one", pod=klog.kobj(pod)
                )
            else:
                klog.v(4).info_s(
                    "Stopping PodSandbox for pod, because all other containers are dead",
                    pod=klog.kobj(pod),
                )

            # Go: killResult := m.killPodWithSyncResult(
            kill_result = await self.kill_pod_with_sync_result(
                pod, convert_pod_status_to_running_pod(self.runtime_name, pod_status), None
            )
            # Go: result.AddPodSyncResult(killResult)
            result.add_pod_sync_result(kill_result)
            # Go: if killResult.Error() != nil {
            if kill_result.error() is not None:
                klog.error_s(kill_result.error(), "killPodWithSyncResult failed")
                return result

            # Go: if podContainerChanges.CreateSandbox {
            if pod_container_changes.create_sandbox:
                await self.purge_init_containers(pod, pod_status)
        else:
            # Step 3
            # Go: for containerID, containerInfo := range podContainerChanges.ContainersToKill {
            for container_id, container_info in pod_container_changes.containers_to_kill.items():
                klog.v(3).info_s(
                    "Killing unwanted container for pod",
                    containerName=container_info.name,
                    containerID=container_id,
                    pod=klog.kobj(pod),
                )
                kill_container_result = new_sync_result(KillContainer, container_info.name)
                result.add_sync_result(kill_container_result)
                err = await self.kill_container(
                    pod,
                    container_id,
                    container_info.name,
                    container_info.message,
                    container_info.reason,
                    None,
                )
                if err is not None:
                    kill_container_result.fail(ErrKillContainer, str(err))
                    klog.error_s(
                        err,
                        "killContainer for pod failed",
                        containerName=container_info.name,
                        containerID=container_id,
                        pod=klog.kobj(pod),
                    )
                    return result

        # Kubelet's container garbage collector would remove exited init containers in time; the
        # port has none, so this pruning is all that keeps them from piling up.
        # Go: m.pruneInitContainersBeforeStart(pod, podStatus)
        await self.prune_init_containers_before_start(pod, pod_status)

        # The IPs travel down to the container config (hosts file, downward API) as arguments,
        # not through the status manager, which may not have them yet for a new sandbox.
        # Go: var podIPs []string
        pod_ips: list[str] = []
        # Go: if podStatus != nil {
        if pod_status is not None:
            pod_ips = pod_status.ips

        # Step 4
        # Go: podSandboxID := podContainerChanges.SandboxID
        pod_sandbox_id = pod_container_changes.sandbox_id
        # Go: if podContainerChanges.CreateSandbox {
        if pod_container_changes.create_sandbox:
            # Go: klog.V(4).InfoS("Creating PodSandbox for pod"
            klog.v(4).info_s("Creating PodSandbox for pod", pod=klog.kobj(pod))
            # Go: createSandboxResult := kubecontainer.NewSyncResult(kubecontainer.CreatePodSandbox
            create_sandbox_result = new_sync_result(CreatePodSandbox, format.pod(pod))
            result.add_sync_result(create_sandbox_result)
            # Go: podSandboxID, msg, err = m.createPodSandbox(
            pod_sandbox_id, msg, err = await self.create_pod_sandbox(
                pod, pod_container_changes.attempt
            )
            if err is not None:
                # Deleting a pod while its sandbox is set up makes the runtime (or CNI) fail; for
                # a pod already deleted that failure is expected and not reported.
                # Go: if m.podStateProvider.IsPodDeleted(pod.UID) {
                if self.pod_state_provider.is_pod_deleted(pod.metadata.uid):
                    klog.v(4).info_s(
                        "Pod was deleted and sandbox failed to be created",
                        pod=klog.kobj(pod),
                        podUID=UID(pod.metadata.uid),
                    )
                    return result
                create_sandbox_result.fail(ErrCreatePodSandbox, msg)
                klog.error_s(err, "CreatePodSandbox for pod failed", pod=klog.kobj(pod))
                self.recorder.eventf(
                    pod,
                    EventTypeWarning,
                    events.FailedCreatePodSandBox,
                    "Failed to create pod sandbox: %s",
                    err,
                )
                return result
            # Go: klog.V(4).InfoS("Created PodSandbox for pod"
            klog.v(4).info_s(
                "Created PodSandbox for pod", podSandboxID=pod_sandbox_id, pod=klog.kobj(pod)
            )

            # Go: podSandboxStatus, err := m.runtimeService.PodSandboxStatus(podSandboxID)
            try:
                pod_sandbox_status = await self.runtime_service.pod_sandbox_status(pod_sandbox_id)
            except Exception as err:
                self.recorder.eventf(
                    pod,
                    EventTypeWarning,
                    events.FailedStatusPodSandBox,
                    "Unable to get pod sandbox status: %s",
                    err,
                )
                klog.error_s(
                    err, "Failed to get pod sandbox status; Skipping pod", pod=klog.kobj(pod)
                )
                result.fail(err)
                return result

            # Go: if !kubecontainer.IsHostNetworkPod(pod) {
            if not is_host_network_pod(pod):
                pod_ips = self.determine_pod_sandbox_ips(
                    pod.metadata.namespace, pod.metadata.name, pod_sandbox_status
                )
                klog.v(4).info_s(
                    "Determined the ip for pod after sandbox changed",
                    IPs=pod_ips,
                    pod=klog.kobj(pod),
                )

        # Go: podIP := ""
        pod_ip = ""
        # Go: if len(podIPs) != 0 {
        if len(pod_ips) != 0:
            pod_ip = pod_ips[0]

        # Go: configPodSandboxResult := kubecontainer.NewSyncResult(kubecontainer.ConfigPodSandbox
        config_pod_sandbox_result = new_sync_result(ConfigPodSandbox, pod_sandbox_id)
        # Go: result.AddSyncResult(configPodSandboxResult)
        result.add_sync_result(config_pod_sandbox_result)
        # Go: podSandboxConfig, err := m.generatePodSandboxConfig(pod, podContainerChanges.Attempt)
        try:
            pod_sandbox_config = self.generate_pod_sandbox_config(
                pod, pod_container_changes.attempt
            )
        except Exception as err:
            message = f'GeneratePodSandboxConfig for pod "{format.pod(pod)}" failed: {err}'
            klog.error_s(err, "GeneratePodSandboxConfig for pod failed", pod=klog.kobj(pod))
            config_pod_sandbox_result.fail(ErrConfigPodSandbox, message)
            return result

        # A closure, as in Go: it adds its SyncResult to `result` and sees the sandbox config.
        # Go: start := func(typeName string, spec *startSpec) error {
        async def start(type_name: str, spec: StartSpec) -> BaseException | None:
            # Go: startContainerResult := kubecontainer.NewSyncResult(kubecontainer.StartContainer
            start_container_result = new_sync_result(StartContainer, spec.container.name)
            # Go: result.AddSyncResult(startContainerResult)
            result.add_sync_result(start_container_result)

            # Go: isInBackOff, msg, err := m.doBackOff(pod, spec.container, podStatus, backOff)
            is_in_back_off, msg, err = self.do_back_off(pod, spec.container, pod_status, back_off)
            # Go: if isInBackOff {
            if is_in_back_off:
                start_container_result.fail(err, msg)
                klog.v(4).info_s(
                    "Backing Off restarting container in pod",
                    containerType=type_name,
                    container=go_fmt.Ptr(spec.container),
                    pod=klog.kobj(pod),
                )
                return err

            # Go: klog.V(4).InfoS("Creating container in pod"
            klog.v(4).info_s(
                "Creating container in pod",
                containerType=type_name,
                container=go_fmt.Ptr(spec.container),
                pod=klog.kobj(pod),
            )
            # Go: if msg, err := m.startContainer(
            msg, err = await self.start_container(
                pod_sandbox_id,
                pod_sandbox_config,
                spec,
                pod,
                pod_status,
                pull_secrets,
                pod_ip,
                pod_ips,
            )
            if err is not None:
                start_container_result.fail(err, msg)
                # An image pull back-off was already logged by the image manager: only at V(3) here.
                # Go: switch {
                match err:
                    # Go: case err == images.ErrImagePullBackOff:
                    case _ if err is ErrImagePullBackOff:
                        klog.v(3).info_s(
                            "Container start failed in pod",
                            containerType=type_name,
                            container=go_fmt.Ptr(spec.container),
                            pod=klog.kobj(pod),
                            containerMessage=msg,
                            err=err,
                        )
                    # Go: default:
                    case _:
                        utilruntime.handle_error(
                            RuntimeError(
                                go_fmt.sprintf(
                                    "%v %+v start failed in pod %v: %v: %s",
                                    type_name,
                                    go_fmt.Ptr(spec.container),
                                    format.pod(pod),
                                    err,
                                    msg,
                                )
                            )
                        )
                return err

            return None

        # Step 5
        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(features.EphemeralContainers) { -- ephemeral containers (alpha in v1.21) are not ported

        # Step 6
        # Go: if container := podContainerChanges.NextInitContainerToStart; container != nil {
        container = pod_container_changes.next_init_container_to_start
        if container is not None:
            # Go: if err := start("init container", containerStartSpec(container)); err != nil {
            if await start("init container", container_start_spec(container)) is not None:
                return result

            # Go's log line says "Completed" although the container has only just started.
            # Go: klog.V(4).InfoS("Completed init container for pod"
            klog.v(4).info_s(
                "Completed init container for pod",
                containerName=container.name,
                pod=klog.kobj(pod),
            )

        # Step 7
        # Go: for _, idx := range podContainerChanges.ContainersToStart {
        for idx in pod_container_changes.containers_to_start:
            await start("container", container_start_spec(pod.spec.containers[idx]))

        return result

    def do_back_off(
        self,
        pod: v1.Pod,
        container: v1.Container,
        pod_status: PodStatus,
        back_off: Backoff,
    ) -> tuple[bool, str, BaseException | None]:
        """Whether the container's restart is held back: (in back-off, message, error).

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).doBackOff

        The back-off counts from when the container last finished; each restart doubles it
        (10 s, 20 s, 40 s … 300 s with kubelet's settings).
        """
        # Go: var cStatus *kubecontainer.Status
        c_status: Status | None = None
        # Go: for _, c := range podStatus.ContainerStatuses {
        for c in pod_status.container_statuses:
            if c.name == container.name and c.state == ContainerStateExited:
                c_status = c
                break

        # Go: if cStatus == nil {
        if c_status is None:
            return False, "", None

        # Go: klog.V(3).InfoS("Checking backoff for container in pod"
        klog.v(3).info_s(
            "Checking backoff for container in pod",
            containerName=container.name,
            pod=klog.kobj(pod),
        )
        # Go: ts := cStatus.FinishedAt
        ts = c_status.finished_at
        # Go: key := getStableKey(pod, container)
        key = get_stable_key(pod, container)
        # Go: if backOff.IsInBackOffSince(key, ts) {
        if back_off.is_in_back_off_since(key, ts):
            # Go: if containerRef, err := kubecontainer.GenerateContainerRef(pod, container); err == nil {
            container_ref = generate_container_ref(pod, container)
            self.recorder.eventf(
                container_ref,
                EventTypeWarning,
                events.BackOffStartContainer,
                "Back-off restarting failed container",
            )
            # Go: err := fmt.Errorf(
            err = RuntimeError(
                f"back-off {format_duration(back_off.get(key))} restarting failed "
                f"container={container.name} pod={format.pod(pod)}"
            )
            # Go: klog.V(3).InfoS("Back-off restarting failed container"
            klog.v(3).info_s("Back-off restarting failed container", err=str(err))
            # Go: return true, err.Error(), kubecontainer.ErrCrashLoopBackOff
            return True, str(err), ErrCrashLoopBackOff

        # Go: backOff.Next(key, ts)
        back_off.next(key, ts)
        return False, "", None

    async def kill_pod(
        self, pod: v1.Pod | None, running_pod: Pod, grace_period_override: int | None
    ) -> Exception | None:
        """Kill all the containers of a pod, then stop its sandboxes. ``pod`` may be None (kubelet
        restarted and lost the spec), ``running_pod`` must not be.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).KillPod
        """
        err = await self.kill_pod_with_sync_result(pod, running_pod, grace_period_override)
        return err.error()

    async def kill_pod_with_sync_result(
        self, pod: v1.Pod | None, running_pod: Pod, grace_period_override: int | None
    ) -> PodSyncResult:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).killPodWithSyncResult"""
        result = PodSyncResult()
        kill_container_results = await self.kill_containers_with_sync_result(
            pod, running_pod, grace_period_override
        )
        for container_result in kill_container_results:
            result.add_sync_result(container_result)

        # Stopped, not removed: removing sandboxes is the garbage collector's job in kubelet.
        kill_sandbox_result = new_sync_result(KillPodSandbox, running_pod.id)
        result.add_sync_result(kill_sandbox_result)
        for pod_sandbox in running_pod.sandboxes:
            try:
                await self.runtime_service.stop_pod_sandbox(pod_sandbox.id.id)
            except Exception as err:
                kill_sandbox_result.fail(ErrKillPodSandbox, str(err))
                klog.error_s(None, "Failed to stop sandbox", podSandboxID=pod_sandbox.id)

        return result

    async def get_pod_status(self, uid: str, name: str, namespace: str) -> PodStatus:
        """Everything the runtime knows about a pod: its sandboxes (newest first), its IPs and
        all its containers. Raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).GetPodStatus
        """
        # Restart counts are not stored anywhere but in a label of each container (labels.py): a
        # new container gets the count of the dead one before it plus one. Once every dead
        # container is gone the count is lost and starts again at 0 — best effort, by design.
        pod_sandbox_ids = await self.get_sandbox_id_by_pod_uid(uid, None)

        pod = v1.Pod(metadata=v1.ObjectMeta(name=name, namespace=namespace, uid=uid))

        klog.v(4).info_s(
            "getSandboxIDByPodUID got sandbox IDs for pod",
            podSandboxID=pod_sandbox_ids,
            pod=klog.kobj(pod),
        )

        sandbox_statuses: list[runtimeapi.PodSandboxStatus] = []
        pod_ips: list[str] = []
        for idx, pod_sandbox_id in enumerate(pod_sandbox_ids):
            try:
                pod_sandbox_status = await self.runtime_service.pod_sandbox_status(pod_sandbox_id)
            except Exception as err:
                klog.error_s(
                    err,
                    "PodSandboxStatus of sandbox for pod",
                    podSandboxID=pod_sandbox_id,
                    pod=klog.kobj(pod),
                )
                raise
            sandbox_statuses.append(pod_sandbox_status)

            if idx == 0 and pod_sandbox_status.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                pod_ips = self.determine_pod_sandbox_ips(namespace, name, pod_sandbox_status)

        try:
            container_statuses = await self.get_pod_container_statuses(uid, name, namespace)
        except Exception as err:
            # Go logs this only once per error and pod (logReduction); the port always logs.
            klog.error_s(err, "getPodContainerStatuses for pod failed", pod=klog.kobj(pod))
            raise

        return PodStatus(
            id=uid,
            name=name,
            namespace=namespace,
            ips=pod_ips,
            sandbox_statuses=sandbox_statuses,
            container_statuses=container_statuses,
        )

    async def garbage_collect(
        self, gc_policy: GCPolicy, all_sources_ready: bool, evict_non_deleted_pods: bool
    ) -> Exception | None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go (*kubeGenericRuntimeManager).GarbageCollect"""
        return await self.container_gc.garbage_collect(
            gc_policy, all_sources_ready, evict_non_deleted_pods
        )


async def new_kube_generic_runtime_manager(
    *,
    recorder: EventRecorder,
    liveness_manager: ProberResultsManager | None,
    readiness_manager: ProberResultsManager | None,
    startup_manager: ProberResultsManager | None,
    pod_state_provider: PodStateProvider,
    runtime_helper: RuntimeHelper,
    http_client: HTTPGetter,
    image_back_off: Backoff,
    serialize_image_pulls: bool,
    runtime_service: RuntimeService,
    image_service: ImageManagerService,
) -> KubeGenericRuntimeManager:
    """A runtime manager on these CRI services; raises if the runtime does not answer or
    speaks another API version.

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go NewKubeGenericRuntimeManager

    Kept for the reader: this is how kubelet makes its runtime, asking it for its name and API
    version first. The port's runs use
    [`new_fake_runtime`][minikubelet.sim.container_runtime.new_fake_runtime],
    which knows the fake's name without asking; tests/kuberuntime/test_new_manager.py runs this
    one. As in Go, the lifecycle hook runner is made here, on ``http_client`` and the manager.
    """
    kube_runtime_manager = KubeGenericRuntimeManager(
        runtime_name="",
        recorder=recorder,
        liveness_manager=liveness_manager,
        readiness_manager=readiness_manager,
        startup_manager=startup_manager,
        runtime_helper=runtime_helper,
        # None only until the runner is made below, on the manager itself.
        runner=None,  # type: ignore[arg-type]
        runtime_service=runtime_service,
        image_service=image_service,
        pod_state_provider=pod_state_provider,
    )

    try:
        typed_version = await kube_runtime_manager.get_typed_version()
    except Exception as err:
        klog.error_s(err, "Get runtime version failed")
        raise

    if typed_version.version != kubeRuntimeAPIVersion:
        klog.error_s(
            None,
            "This runtime api version is not supported",
            apiVersion=typed_version.version,
            supportedAPIVersion=kubeRuntimeAPIVersion,
        )
        raise ErrVersionNotSupported

    kube_runtime_manager.runtime_name = typed_version.runtime_name
    klog.info_s(
        "Container runtime initialized",
        containerRuntime=typed_version.runtime_name,
        version=typed_version.runtime_version,
        apiVersion=typed_version.runtime_api_version,
    )

    kube_runtime_manager.image_puller = new_image_manager(
        filter_event_recorder(recorder),
        kube_runtime_manager,
        image_back_off,
        serialize_image_pulls,
    )
    kube_runtime_manager.runner = new_handler_runner(
        http_client, kube_runtime_manager, kube_runtime_manager
    )

    return kube_runtime_manager


class ContainerKillReason(StrEnum):
    """What killed a container.

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go type containerKillReason
    """

    NONE = ""
    STARTUP_PROBE = "StartupProbe"
    LIVENESS_PROBE = "LivenessProbe"
    FAILED_POST_START_HOOK = "FailedPostStartHook"
    UNKNOWN = "Unknown"


reasonStartupProbe = ContainerKillReason.STARTUP_PROBE
reasonLivenessProbe = ContainerKillReason.LIVENESS_PROBE
reasonFailedPostStartHook = ContainerKillReason.FAILED_POST_START_HOOK
reasonUnknown = ContainerKillReason.UNKNOWN


@dataclass(slots=True)
class ContainerToKillInfo:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go type containerToKillInfo"""

    container: v1.Container
    name: str
    #: For the event and the log line ("Container app failed liveness probe, will be restarted").
    message: str
    #: The same, as a short word the kill path can switch on (it picks the event's reason).
    reason: ContainerKillReason

    def go_fields(self) -> list[tuple[str, Any]]:
        """Go's (unexported) fields, in Go's order: fmt prints the container's address."""
        return [
            ("container", go_fmt.Ptr(self.container)),
            ("name", self.name),
            ("message", self.message),
            ("reason", self.reason),
        ]


@dataclass(slots=True)
class PodActions:
    """What SyncPod will do to a pod.

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go type podActions
    """

    #: Kill every container and stop the sandbox first.
    kill_pod: bool = False
    #: Also create a new sandbox (and remove the old init containers: they all run again).
    create_sandbox: bool = False
    #: The sandbox the containers to start go into, when it is kept.
    sandbox_id: str = ""
    #: Sandbox attempt number: 0 for the first, one more for each re-creation.
    attempt: int = 0
    next_init_container_to_start: v1.Container | None = None
    #: Indexes in ``pod.spec.containers`` of the containers to start.
    containers_to_start: list[int] = field(default_factory=list)
    #: Containers to kill, by container ID.
    containers_to_kill: dict[ContainerID, ContainerToKillInfo] = field(default_factory=dict)
    #: Indexes of the ephemeral containers to start (always empty: not ported).
    ephemeral_containers_to_start: list[int] = field(default_factory=list)

    def go_fields(self) -> list[tuple[str, Any]]:
        """The struct as klog prints it (``%+v``, see [`minikubelet.go.fmt`][minikubelet.go.fmt]):
        the next init container is a ``*v1.Container``, printed whole."""
        return [
            ("KillPod", self.kill_pod),
            ("CreateSandbox", self.create_sandbox),
            ("SandboxID", self.sandbox_id),
            ("Attempt", self.attempt),
            ("NextInitContainerToStart", go_fmt.Ptr(self.next_init_container_to_start, "nil")),
            ("ContainersToStart", self.containers_to_start),
            ("ContainersToKill", self.containers_to_kill),
            ("EphemeralContainersToStart", self.ephemeral_containers_to_start),
        ]


def container_changed(container: v1.Container, container_status: Status) -> tuple[int, int, bool]:
    """(expected hash, hash of the running container, whether they differ).

    Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go containerChanged
    """
    expected_hash = hash_container(container)
    return expected_hash, container_status.hash, container_status.hash != expected_hash


def should_restart_on_failure(pod: v1.Pod) -> bool:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go shouldRestartOnFailure"""
    return pod.spec.restart_policy != v1.RestartPolicyNever


def container_succeeded(c: v1.Container, pod_status: PodStatus) -> bool:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go containerSucceeded"""
    c_status = pod_status.find_container_status_by_name(c.name)
    if c_status is None or c_status.state == ContainerStateRunning:
        return False
    return c_status.exit_code == 0
