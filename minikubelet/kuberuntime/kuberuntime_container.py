"""Containers: starting one (pull, create, start, postStart hook), killing one gracefully, the
statuses of a pod's containers, and which init container runs next.

Go: pkg/kubelet/kuberuntime/kuberuntime_container.go

The methods are in [`ContainerMethods`][], which
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits.

Errors follow the Go signatures: ``startContainer``'s ``(message, error)`` is a tuple, the error
a sentinel (``ErrCreateContainer`` …) that ends up as the container's waiting reason;
``killContainer`` and ``removeContainer``, which return only an ``error`` in Go, return
``Exception | None``; the ``(T, error)`` ones return ``T`` and raise.

Not ported (no files, no logs on this path): the legacy log symlinks, termination messages read
from files or logs, the container log manager, the internal container lifecycle (CPU manager
hooks) and Windows resource settings (the Linux ones are in ``kuberuntime_container_linux``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minikubelet import events
from minikubelet.container.helpers import expand_container_command_and_args, get_container_spec
from minikubelet.container.ref import generate_container_ref
from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    Pod,
    PodStatus,
    RunContainerOptions,
    Status,
)
from minikubelet.container.sync_result import (
    ErrKillContainer,
    ErrRunContainer,
    KillContainer,
    SyncResult,
    new_sync_result,
)
from minikubelet.go import Chan, Second, WaitGroup, after, go, now, recv, select
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.client_go.tools.record.event import EventTypeNormal, EventTypeWarning
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import status_message
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.helpers import (
    build_container_logs_path,
    container_status_by_created,
    is_init_container_failed,
    to_kube_container_state,
)
from minikubelet.kuberuntime.labels import (
    get_container_info_from_annotations,
    get_container_info_from_labels,
    new_container_annotations,
    new_container_labels,
)
from minikubelet.types import KubernetesPodUIDLabel
from minikubelet.util import format

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import (
        ContainerKillReason,
        KubeGenericRuntimeManager,
    )

# The texts are the reasons a waiting container shows (`kubectl get pod`: CreateContainerError).
ErrCreateContainerConfig = RuntimeError("CreateContainerConfigError")
ErrPreCreateHook = RuntimeError("PreCreateHookError")
ErrCreateContainer = RuntimeError("CreateContainerError")
ErrPreStartHook = RuntimeError("PreStartHookError")
ErrPostStartHook = RuntimeError("PostStartHookError")


@dataclass(slots=True)
class StartSpec:
    """What to start: a container (regular or init); Go also allows an ephemeral container.

    Go: pkg/kubelet/kuberuntime/kuberuntime_container.go type startSpec
    """

    container: v1.Container
    ephemeral_container: Any = None

    def get_target_id(self, pod_status: PodStatus) -> ContainerID | None:
        """The container whose namespaces an ephemeral container targets (None otherwise).

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*startSpec).getTargetID
        """
        return None  # no ephemeral containers in the port, so never a target


def container_start_spec(c: v1.Container) -> StartSpec:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go containerStartSpec"""
    return StartSpec(container=c)


class ContainerMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in kuberuntime_container.go."""

    def record_container_event(
        self: KubeGenericRuntimeManager,
        pod: v1.Pod,
        container: v1.Container,
        container_id: str,
        event_type: str,
        reason: str,
        message: str,
        *args: Any,
    ) -> None:
        """Record an event about a container, never with a container ID in the message.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).recordContainerEvent
        """
        ref = generate_container_ref(pod, container)
        event_message = message
        if len(args) > 0:
            event_message = message % args
        # Events with the same text are counted as one; a container ID (new on every restart)
        # in a runtime error would make each one unique.
        if container_id != "":
            event_message = event_message.replace(container_id, container.name)
        # Go: m.recorder.Event(ref, eventType, reason, eventMessage) (Eventf without arguments)
        self.recorder.eventf(ref, event_type, reason, event_message)

    async def start_container(
        self: KubeGenericRuntimeManager,
        pod_sandbox_id: str,
        pod_sandbox_config: runtimeapi.PodSandboxConfig,
        spec: StartSpec,
        pod: v1.Pod,
        pod_status: PodStatus,
        pull_secrets: list[Any],
        pod_ip: str,
        pod_ips: list[str],
    ) -> tuple[str, BaseException | None]:
        """Pull the image, create the container, start it, run its postStart hook; Go's
        ``(message, error)``.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).startContainer
        """
        # Go: container := spec.container
        container = spec.container

        # Step 1: the image
        # Go: imageRef, msg, err := m.imagePuller.EnsureImageExists(
        image_ref, msg, err = await self.image_puller.ensure_image_exists(
            pod, container, pull_secrets, pod_sandbox_config
        )
        if err is not None:
            s = status_message(err)
            self.record_container_event(
                pod, container, "", EventTypeWarning, events.FailedToCreateContainer, "Error: %s", s
            )
            return msg, err

        # Step 2: the container. Its restart count is one more than its last run's (labels.py).
        # Go: restartCount := 0
        restart_count = 0
        # Go: containerStatus := podStatus.FindContainerStatusByName(container.Name)
        container_status = pod_status.find_container_status_by_name(container.name)
        # Go: if containerStatus != nil {
        if container_status is not None:
            restart_count = container_status.restart_count + 1

        # Go: target, err := spec.getTargetID(podStatus)
        try:
            target = spec.get_target_id(pod_status)
        except Exception as target_err:
            s = status_message(target_err)
            self.record_container_event(
                pod, container, "", EventTypeWarning, events.FailedToCreateContainer, "Error: %s", s
            )
            return s, ErrCreateContainerConfig

        # Go: containerConfig, cleanupAction, err := m.generateContainerConfig(
        container_config, cleanup_action, err = await self.generate_container_config(
            container, pod, restart_count, pod_ip, image_ref, pod_ips, target
        )
        try:  # Go: if cleanupAction != nil { defer cleanupAction() }
            if err is not None:
                s = status_message(err)
                self.record_container_event(
                    pod,
                    container,
                    "",
                    EventTypeWarning,
                    events.FailedToCreateContainer,
                    "Error: %s",
                    s,
                )
                return s, ErrCreateContainerConfig
            assert container_config is not None

            # Go omitted: err = m.internalLifecycle.PreCreateContainer(pod, container, containerConfig) -- no resource managers here
            # Go: containerID, err := m.runtimeService.CreateContainer(
            try:
                container_id = await self.runtime_service.create_container(
                    pod_sandbox_id, container_config, pod_sandbox_config
                )
            except Exception as create_err:
                s = status_message(create_err)
                self.record_container_event(
                    pod,
                    container,
                    "",
                    EventTypeWarning,
                    events.FailedToCreateContainer,
                    "Error: %s",
                    s,
                )
                return s, ErrCreateContainer
            # Go omitted: err = m.internalLifecycle.PreStartContainer(pod, container, containerID) -- no resource managers here
            # Go: m.recordContainerEvent(pod, container, containerID, v1.EventTypeNormal, events.CreatedContainer
            self.record_container_event(
                pod,
                container,
                container_id,
                EventTypeNormal,
                events.CreatedContainer,
                f"Created container {container.name}",
            )

            # Step 3: start
            # Go: err = m.runtimeService.StartContainer(containerID)
            try:
                await self.runtime_service.start_container(container_id)
            except Exception as start_err:
                s = status_message(start_err)
                self.record_container_event(
                    pod,
                    container,
                    container_id,
                    EventTypeWarning,
                    events.FailedToStartContainer,
                    "Error: %s",
                    s,
                )
                return s, ErrRunContainer
            # Go: m.recordContainerEvent(pod, container, containerID, v1.EventTypeNormal, events.StartedContainer
            self.record_container_event(
                pod,
                container,
                container_id,
                EventTypeNormal,
                events.StartedContainer,
                f"Started container {container.name}",
            )

            # Go omitted: containerMeta := containerConfig.GetMetadata() -- the legacy log symlink: the port writes no log files
            # Step 4: the postStart hook; if it fails, the container is killed again.
            # Go: if container.Lifecycle != nil && container.Lifecycle.PostStart != nil {
            if container.lifecycle is not None and container.lifecycle.post_start is not None:
                kube_container_id = ContainerID(self.runtime_name, container_id)
                msg, handler_err = await self.runner.run(
                    kube_container_id, pod, container, container.lifecycle.post_start
                )
                if handler_err is not None:
                    self.record_container_event(
                        pod,
                        container,
                        kube_container_id.id,
                        EventTypeWarning,
                        events.FailedPostStartHook,
                        msg,
                    )
                    from minikubelet.kuberuntime.kuberuntime_manager import (
                        reasonFailedPostStartHook,
                    )

                    kill_err = await self.kill_container(
                        pod,
                        kube_container_id,
                        container.name,
                        "FailedPostStartHook",
                        reasonFailedPostStartHook,
                        None,
                    )
                    if kill_err is not None:
                        klog.error_s(
                            RuntimeError(f"{ErrPostStartHook}: {handler_err}"),
                            "Failed to kill container",
                            pod=klog.kobj(pod),
                            podUID=UID(pod.metadata.uid),
                            containerName=container.name,
                            containerID=str(kube_container_id),
                        )
                    return msg, RuntimeError(f"{ErrPostStartHook}: {handler_err}")

            # Go: return "", nil
            return "", None
        finally:
            if cleanup_action is not None:
                cleanup_action()

    async def generate_container_config(
        self: KubeGenericRuntimeManager,
        container: v1.Container,
        pod: v1.Pod,
        restart_count: int,
        pod_ip: str,
        image_ref: str,
        pod_ips: list[str],
        ns_target: ContainerID | None,
    ) -> tuple[runtimeapi.ContainerConfig | None, Callable[[], None] | None, BaseException | None]:
        """The CRI config of a container; Go's ``(config, cleanupAction, error)``, as a tuple
        because the cleanup action comes back even with an error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).generateContainerConfig
        """
        try:
            opts, cleanup_action = self.runtime_helper.generate_run_container_options(
                pod, container, pod_ip, pod_ips
            )
        except Exception as err:
            return None, None, err

        try:
            uid, username = await self.get_image_user(container.image)
        except Exception as err:
            return None, cleanup_action, err

        command, args = expand_container_command_and_args(container, opts.envs)
        container_logs_path = build_container_logs_path(container.name, restart_count)
        config = runtimeapi.ContainerConfig(
            metadata=runtimeapi.ContainerMetadata(name=container.name, attempt=restart_count),
            image=runtimeapi.ImageSpec(image=image_ref),
            command=command,
            args=args,
            working_dir=container.working_dir,
            labels=new_container_labels(container, pod),
            annotations=new_container_annotations(container, pod, restart_count, opts),
            devices=make_devices(opts),
            mounts=self.make_mounts(opts, container),
            log_path=container_logs_path,
            stdin=container.stdin,
            stdin_once=container.stdin_once,
            tty=container.tty,
        )

        # Go: if err := m.applyPlatformSpecificContainerConfig(config, container, pod, uid, username, nsTarget); err != nil {
        self.apply_platform_specific_container_config(
            config, container, pod, uid, username, ns_target
        )

        config.envs = [runtimeapi.KeyValue(key=e.name, value=e.value) for e in opts.envs]

        return config, cleanup_action, None

    def make_mounts(
        self: KubeGenericRuntimeManager, opts: RunContainerOptions, container: v1.Container
    ) -> list[runtimeapi.Mount]:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).makeMounts

        Go also creates the termination-log file and mounts it; the port writes no files.
        """
        volume_mounts: list[runtimeapi.Mount] = []

        for v in opts.mounts:
            volume_mounts.append(
                runtimeapi.Mount(
                    host_path=v.host_path,
                    container_path=v.container_path,
                    readonly=v.read_only,
                    selinux_relabel=False,  # Go: v.SELinuxRelabel && selinux.SELinuxEnabled()
                    propagation=v.propagation,
                )
            )

        return volume_mounts

    async def get_kubelet_containers(
        self: KubeGenericRuntimeManager, all_containers: bool
    ) -> list[runtimeapi.Container]:
        """All containers, or only the running ones; raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).getKubeletContainers
        """
        filter = runtimeapi.ContainerFilter()
        if not all_containers:
            filter.state = runtimeapi.ContainerStateValue(
                state=runtimeapi.ContainerState_CONTAINER_RUNNING
            )

        try:
            containers = await self.runtime_service.list_containers(filter)
        except Exception as err:
            klog.error_s(err, "ListContainers failed")
            raise

        return containers

    async def get_pod_container_statuses(
        self: KubeGenericRuntimeManager, uid: str, name: str, namespace: str
    ) -> list[Status]:
        """The statuses of all the pod's containers, newest first; raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).getPodContainerStatuses
        """
        try:
            containers = await self.runtime_service.list_containers(
                runtimeapi.ContainerFilter(label_selector={KubernetesPodUIDLabel: uid})
            )
        except Exception as err:
            klog.error_s(err, "ListContainers error")
            raise

        statuses: list[Status] = []
        for c in containers:
            try:
                status = await self.runtime_service.container_status(c.id)
            except Exception as err:
                klog.v(4).info_s("ContainerStatus return error", containerID=c.id, err=err)
                raise
            c_status = to_kube_container_status(status, self.runtime_name)
            # No terminationMessagePath file or log to read a message from: the message stays the
            # one the runtime reported.
            statuses.append(c_status)

        statuses.sort(key=container_status_by_created, reverse=True)
        return statuses

    async def execute_pre_stop_hook(
        self: KubeGenericRuntimeManager,
        pod: v1.Pod,
        container_id: ContainerID,
        container_spec: v1.Container,
        grace_period: int,
    ) -> int:
        """Run the preStop hook, for at most the grace period; return the seconds it took.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).executePreStopHook
        """
        # Go: klog.V(3).InfoS("Running preStop hook"
        klog.v(3).info_s(
            "Running preStop hook",
            pod=klog.kobj(pod),
            podUID=UID(pod.metadata.uid),
            containerName=container_spec.name,
            containerID=str(container_id),
        )

        # Go: start := metav1.Now()
        start = now()
        # Go: done := make(chan struct{})
        done: Chan[None] = Chan(name="preStopHook.done")

        # Go: go func() {
        async def run_hook() -> None:
            try:
                assert container_spec.lifecycle is not None
                assert container_spec.lifecycle.pre_stop is not None
                msg, err = await self.runner.run(
                    container_id, pod, container_spec, container_spec.lifecycle.pre_stop
                )
                if err is not None:
                    klog.error_s(
                        err,
                        "PreStop hook failed",
                        pod=klog.kobj(pod),
                        podUID=UID(pod.metadata.uid),
                        containerName=container_spec.name,
                        containerID=str(container_id),
                    )
                    self.record_container_event(
                        pod,
                        container_spec,
                        container_id.id,
                        EventTypeWarning,
                        events.FailedPreStopHook,
                        msg,
                    )
            finally:
                done.close()  # Go: defer close(done)

        go(run_hook, name="executePreStopHook")

        # Go: select {
        match await select(recv(after(grace_period * Second)), recv(done)):
            # Go: case <-time.After(time.Duration(gracePeriod) * time.Second):
            case 0, _:
                klog.v(2).info_s(
                    "PreStop hook not completed in grace period",
                    pod=klog.kobj(pod),
                    podUID=UID(pod.metadata.uid),
                    containerName=container_spec.name,
                    containerID=str(container_id),
                    gracePeriod=grace_period,
                )
            # Go: case <-done:
            case 1, _:
                klog.v(3).info_s(
                    "PreStop hook completed",
                    pod=klog.kobj(pod),
                    podUID=UID(pod.metadata.uid),
                    containerName=container_spec.name,
                    containerID=str(container_id),
                )

        # Go: return int64(metav1.Now().Sub(start.Time).Seconds())
        return int(now() - start)

    async def restore_specs_from_container_labels(
        self: KubeGenericRuntimeManager, container_id: ContainerID
    ) -> tuple[v1.Pod, v1.Container]:
        """A pod and container rebuilt from a container's labels and annotations, with what
        killing it needs; raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).restoreSpecsFromContainerLabels
        """
        s = await self.runtime_service.container_status(container_id.id)

        l = get_container_info_from_labels(s.labels)  # noqa: E741 (Go's name)
        a = get_container_info_from_annotations(s.annotations)
        # Only what killing needs is restored (grace periods, preStop hook, ports).
        pod = v1.Pod(
            metadata=v1.ObjectMeta(
                uid=l.pod_uid,
                name=l.pod_name,
                namespace=l.pod_namespace,
                deletion_grace_period_seconds=a.pod_deletion_grace_period,
            ),
            spec=v1.PodSpec(termination_grace_period_seconds=a.pod_termination_grace_period),
        )
        container = v1.Container(
            name=l.container_name,
            image="",
            ports=a.container_ports,
            termination_message_path=a.termination_message_path,
        )
        if a.pre_stop_handler is not None:
            container.lifecycle = v1.Lifecycle(pre_stop=a.pre_stop_handler)
        return pod, container

    async def kill_container(
        self: KubeGenericRuntimeManager,
        pod: v1.Pod | None,
        container_id: ContainerID,
        container_name: str,
        message: str,
        reason: ContainerKillReason,
        grace_period_override: int | None,
    ) -> Exception | None:
        """Run the preStop hook, then stop the container with the pod's grace period.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).killContainer
        """
        # Go: var containerSpec *v1.Container
        container_spec: v1.Container | None
        # Go: if pod != nil {
        if pod is not None:
            container_spec = get_container_spec(pod, container_name)
            if container_spec is None:
                return RuntimeError(
                    f'failed to get containerSpec "{container_name}" (id="{container_id}") in '
                    f'pod "{format.pod(pod)}" when killing container for reason "{message}"'
                )
        else:
            # No pod: kubelet lost it (deleted, or kubelet restarted); the labels still know.
            try:
                restored_pod, restored_container = await self.restore_specs_from_container_labels(
                    container_id
                )
            # Go: if err != nil {
            except Exception as restore_err:
                # Go: return err
                return restore_err
            pod, container_spec = restored_pod, restored_container

        from minikubelet.kuberuntime.kuberuntime_manager import minimumGracePeriodInSeconds

        # Go: gracePeriod := int64(minimumGracePeriodInSeconds)
        grace_period = minimumGracePeriodInSeconds
        # Go: case pod.DeletionGracePeriodSeconds != nil:
        if pod.metadata.deletion_grace_period_seconds is not None:
            grace_period = pod.metadata.deletion_grace_period_seconds
        # Go: case pod.Spec.TerminationGracePeriodSeconds != nil:
        elif pod.spec.termination_grace_period_seconds is not None:
            grace_period = pod.spec.termination_grace_period_seconds

            # Go omitted: case reasonStartupProbe: -- alpha gate ProbeTerminationGracePeriod, off
            # Go omitted: case reasonLivenessProbe: -- alpha gate ProbeTerminationGracePeriod, off

        # Go: if len(message) == 0 {
        if len(message) == 0:
            message = f"Stopping container {container_spec.name}"
        # Go: m.recordContainerEvent(pod, containerSpec, containerID.ID, v1.EventTypeNormal
        self.record_container_event(
            pod, container_spec, container_id.id, EventTypeNormal, events.KillingContainer, message
        )

        # Go omitted: if err := m.internalLifecycle.PreStopContainer(containerID.ID); err != nil { -- no resource managers here
        # Go: if containerSpec.Lifecycle != nil && containerSpec.Lifecycle.PreStop != nil && gracePeriod > 0 {
        if (
            container_spec.lifecycle is not None
            and container_spec.lifecycle.pre_stop is not None
            and grace_period > 0
        ):
            grace_period = grace_period - await self.execute_pre_stop_hook(
                pod, container_id, container_spec, grace_period
            )
        # The hook's time comes out of the grace period, but never below the minimum.
        # Go: if gracePeriod < minimumGracePeriodInSeconds {
        if grace_period < minimumGracePeriodInSeconds:
            grace_period = minimumGracePeriodInSeconds
        # Go: if gracePeriodOverride != nil {
        if grace_period_override is not None:
            grace_period = grace_period_override
            klog.v(3).info_s(
                "Killing container with a grace period override",
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container_name,
                containerID=str(container_id),
                gracePeriod=grace_period,
            )

        # Go: klog.V(2).InfoS("Killing container with a grace period override"
        klog.v(2).info_s(
            "Killing container with a grace period override",
            pod=klog.kobj(pod),
            podUID=UID(pod.metadata.uid),
            containerName=container_name,
            containerID=str(container_id),
            gracePeriod=grace_period,
        )

        # Go: err := m.runtimeService.StopContainer(containerID.ID, gracePeriod)
        err: Exception | None = None
        try:
            await self.runtime_service.stop_container(container_id.id, grace_period)
        except Exception as e:
            err = e
        # Go: if err != nil {
        if err is not None:
            klog.error_s(
                err,
                "Container termination failed with gracePeriod",
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container_name,
                containerID=str(container_id),
                gracePeriod=grace_period,
            )
        else:
            klog.v(3).info_s(
                "Container exited normally",
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container_name,
                containerID=str(container_id),
            )

        return err

    async def kill_containers_with_sync_result(
        self: KubeGenericRuntimeManager,
        pod: v1.Pod | None,
        running_pod: Pod,
        grace_period_override: int | None,
    ) -> list[SyncResult]:
        """Kill all the running pod's containers at once, one goroutine each.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).killContainersWithSyncResult
        """
        from minikubelet.kuberuntime.kuberuntime_manager import reasonUnknown

        container_results: Chan[SyncResult] = Chan(
            len(running_pod.containers), name="killContainersWithSyncResult.containerResults"
        )
        wg = WaitGroup()

        wg.add(len(running_pod.containers))
        for container in running_pod.containers:

            async def kill(container: Any = container) -> None:
                # Go: defer utilruntime.HandleCrash(); defer wg.Done()
                try:
                    kill_container_result = new_sync_result(KillContainer, container.name)
                    err = await self.kill_container(
                        pod, container.id, container.name, "", reasonUnknown, grace_period_override
                    )
                    if err is not None:
                        kill_container_result.fail(ErrKillContainer, str(err))
                        klog.error_s(
                            err,
                            "Kill container failed",
                            pod=klog.ObjectRef(running_pod.name, running_pod.namespace),
                            podUID=UID(running_pod.id),
                            containerName=container.name,
                            containerID=container.id,
                        )
                    await container_results.send(kill_container_result)
                finally:
                    wg.done()

            go(kill, name="killContainersWithSyncResult")
        await wg.wait()
        container_results.close()

        sync_results: list[SyncResult] = []
        async for container_result in container_results:
            sync_results.append(container_result)
        return sync_results

    async def prune_init_containers_before_start(
        self: KubeGenericRuntimeManager, pod: v1.Pod, pod_status: PodStatus
    ) -> None:
        """Remove all but the latest exited run of each init container.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).pruneInitContainersBeforeStart
        """
        # Go iterates a set, in random order; the port takes the spec's order.
        init_container_names = list(dict.fromkeys(c.name for c in pod.spec.init_containers))
        for name in init_container_names:
            count = 0
            for status in pod_status.container_statuses:
                if status.name != name or status.state not in (
                    ContainerStateExited,
                    ContainerStateUnknown,
                ):
                    continue
                # Statuses are newest first: the first one is the run to keep.
                count += 1
                if count == 1:
                    continue
                klog.v(4).info_s(
                    "Removing init container",
                    containerName=status.name,
                    containerID=status.id.id,
                    count=count,
                )
                err = await self.remove_container(status.id.id)
                if err is not None:
                    # Go: utilruntime.HandleError(fmt.Errorf(...)) logs the error alone.
                    klog.error_s(
                        None,
                        f'failed to remove pod init container "{status.name}": {err}; '
                        f'Skipping pod "{format.pod(pod)}"',
                    )
                    continue

    async def purge_init_containers(
        self: KubeGenericRuntimeManager, pod: v1.Pod, pod_status: PodStatus
    ) -> None:
        """Remove every run of every init container (they have all been stopped).

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).purgeInitContainers
        """
        init_container_names = list(dict.fromkeys(c.name for c in pod.spec.init_containers))
        for name in init_container_names:
            count = 0
            for status in pod_status.container_statuses:
                if status.name != name:
                    continue
                count += 1
                klog.v(4).info_s(
                    "Removing init container",
                    containerName=status.name,
                    containerID=status.id.id,
                    count=count,
                )
                err = await self.remove_container(status.id.id)
                if err is not None:
                    # Go: utilruntime.HandleError(fmt.Errorf(...)) logs the error alone.
                    klog.error_s(
                        None,
                        f'failed to remove pod init container "{status.name}": {err}; '
                        f'Skipping pod "{format.pod(pod)}"',
                    )
                    continue

    async def run_in_container(
        self: KubeGenericRuntimeManager, id: ContainerID, cmd: list[str], timeout: float
    ) -> tuple[bytes, Exception | None]:
        """Run ``cmd`` in the container and wait for it: its stdout then stderr, and its error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).RunInContainer
        """
        stdout, stderr, err = await self.runtime_service.exec_sync(id.id, cmd, timeout)
        # Go: return append(stdout, stderr...), err
        return stdout + stderr, err

    async def remove_container(
        self: KubeGenericRuntimeManager, container_id: str
    ) -> Exception | None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).removeContainer"""
        klog.v(4).info_s("Removing container", containerID=container_id)
        err = await self.remove_container_log(container_id)
        if err is not None:
            return err
        try:
            await self.runtime_service.remove_container(container_id)
        except Exception as e:
            return e
        return None

    async def remove_container_log(
        self: KubeGenericRuntimeManager, container_id: str
    ) -> Exception | None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).removeContainerLog

        Go's log manager Clean asks the runtime for the container's status (to glob its rotated
        logs), then this function asks again (for the legacy symlink). The port has no log files:
        it keeps both ContainerStatus calls, with their errors, and removes nothing.
        """
        # Go: err := m.logManager.Clean(containerID) (pkg/kubelet/logs/container_log_manager.go Clean)
        try:
            await self.runtime_service.container_status(container_id)
        except Exception as err:
            return RuntimeError(f'failed to get container status "{container_id}": {err}')
        # Go: status, err := m.runtimeService.ContainerStatus(containerID)
        try:
            await self.runtime_service.container_status(container_id)
        except Exception as err:
            return RuntimeError(f'failed to get container status "{container_id}": {err}')
        return None

    async def delete_container(
        self: KubeGenericRuntimeManager, container_id: ContainerID
    ) -> Exception | None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).DeleteContainer"""
        return await self.remove_container(container_id.id)


def make_devices(opts: RunContainerOptions) -> list[runtimeapi.Device]:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_container.go makeDevices"""
    return [
        runtimeapi.Device(
            host_path=device.path_on_host,
            container_path=device.path_in_container,
            permissions=device.permissions,
        )
        for device in opts.devices
    ]


def to_kube_container_status(status: runtimeapi.ContainerStatus, runtime_name: str) -> Status:
    """A CRI container status as kubelet's [`Status`][] (times in seconds).

    Go: pkg/kubelet/kuberuntime/kuberuntime_container.go toKubeContainerStatus
    """
    annotated_info = get_container_info_from_annotations(status.annotations)
    labeled_info = get_container_info_from_labels(status.labels)
    c_status = Status(
        id=ContainerID(runtime_name, status.id),
        name=labeled_info.container_name,
        image=status.image.image if status.image is not None else "",
        image_id=status.image_ref,
        hash=annotated_info.hash,
        restart_count=annotated_info.restart_count,
        state=to_kube_container_state(status.state),
        created_at=status.created_at / 1e9,
    )

    if status.state != runtimeapi.ContainerState_CONTAINER_CREATED:
        c_status.started_at = status.started_at / 1e9
    if status.state == runtimeapi.ContainerState_CONTAINER_EXITED:
        c_status.reason = status.reason
        c_status.message = status.message
        c_status.exit_code = status.exit_code
        c_status.finished_at = status.finished_at / 1e9
    return c_status


def find_next_init_container_to_run(
    pod: v1.Pod, pod_status: PodStatus
) -> tuple[Status | None, v1.Container | None, bool]:
    """(status of the last failed init container, next init container to start, done).

    Go: pkg/kubelet/kuberuntime/kuberuntime_container.go findNextInitContainerToRun

    The status is only returned if an init container failed, in which case next is that
    container again.
    """
    # Go: if len(pod.Spec.InitContainers) == 0 {
    if len(pod.spec.init_containers) == 0:
        return None, None, True

    # A running regular container proves the init containers are done, even if their exited
    # runs have since been removed and look as if they never ran.
    # Go: for i := range pod.Spec.Containers {
    for container in pod.spec.containers:
        status = pod_status.find_container_status_by_name(container.name)
        if status is not None and status.state == ContainerStateRunning:
            return None, None, True

    # Go: for i := len(pod.Spec.InitContainers) - 1; i >= 0; i-- {
    for container in reversed(pod.spec.init_containers):
        status = pod_status.find_container_status_by_name(container.name)
        if status is not None and is_init_container_failed(status):
            return status, container, False

    # Go: for i := len(pod.Spec.InitContainers) - 1; i >= 0; i-- {
    n = len(pod.spec.init_containers)
    for i in range(n - 1, -1, -1):
        container = pod.spec.init_containers[i]
        status = pod_status.find_container_status_by_name(container.name)
        # Go: if status == nil {
        if status is None:
            continue

        # Go: if status.State == kubecontainer.ContainerStateRunning {
        if status.state == ContainerStateRunning:
            return None, None, False

        # Go: if status.State == kubecontainer.ContainerStateExited {
        if status.state == ContainerStateExited:
            # Go: if i == (len(pod.Spec.InitContainers) - 1) {
            if i == n - 1:
                return None, None, True

            # Go: return nil, &pod.Spec.InitContainers[i+1], false
            return None, pod.spec.init_containers[i + 1], False

    # Go: return nil, &pod.Spec.InitContainers[0], false
    return None, pod.spec.init_containers[0], False
