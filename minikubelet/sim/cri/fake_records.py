"""What the fake CRI runtime holds: its sandboxes and containers, and their CRI views.

Not a port (see [`minikubelet.sim.cri.fake_runtime`][minikubelet.sim.cri.fake_runtime]).
"""

from __future__ import annotations

from dataclasses import dataclass

from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.sim.cri.scenario import ContainerScript, Lifetime


@dataclass(slots=True, eq=False)
class Sandbox:
    """A sandbox the fake runtime holds; its CRI views are cached until it changes."""

    id: str
    config: runtimeapi.PodSandboxConfig
    pod_uid: str
    state: runtimeapi.PodSandboxState
    created_at: int
    ip: str
    additional_ips: list[str]
    network: runtimeapi.NamespaceMode
    runtime_handler: str
    scripts: dict[str, ContainerScript]
    item: runtimeapi.PodSandbox | None = None
    status: runtimeapi.PodSandboxStatus | None = None

    def changed(self) -> None:
        """Forget the cached CRI views."""
        self.item = None
        self.status = None

    def cri_item(self) -> runtimeapi.PodSandbox:
        """The CRI ``PodSandbox`` (what ``ListPodSandbox`` returns)."""
        if self.item is None:
            self.item = runtimeapi.PodSandbox(
                id=self.id,
                metadata=self.config.metadata,
                state=self.state,
                created_at=self.created_at,
                labels=self.config.labels,
                annotations=self.config.annotations,
                runtime_handler=self.runtime_handler,
            )
        return self.item

    def cri_status(self) -> runtimeapi.PodSandboxStatus:
        """The CRI ``PodSandboxStatus``."""
        if self.status is None:
            self.status = runtimeapi.PodSandboxStatus(
                id=self.id,
                metadata=self.config.metadata,
                state=self.state,
                created_at=self.created_at,
                network=runtimeapi.PodSandboxNetworkStatus(
                    ip=self.ip,
                    additional_ips=[runtimeapi.PodIP(ip=ip) for ip in self.additional_ips],
                ),
                linux=runtimeapi.LinuxPodSandboxStatus(
                    namespaces=runtimeapi.Namespace(
                        options=runtimeapi.NamespaceOption(network=self.network)
                    )
                ),
                labels=self.config.labels,
                annotations=self.config.annotations,
                runtime_handler=self.runtime_handler,
            )
        return self.status


@dataclass(slots=True, eq=False)
class Container:
    """A container the fake runtime holds; its CRI views are cached until it changes."""

    id: str
    sandbox_id: str
    pod_uid: str
    config: runtimeapi.ContainerConfig
    image_ref: str
    lifetime: Lifetime
    created_at: int
    state: runtimeapi.ContainerState = runtimeapi.ContainerState_CONTAINER_CREATED
    started_at: int = 0
    finished_at: int = 0
    exit_code: int = 0
    reason: str = ""
    message: str = ""
    #: When the scripted run ends (ns), None if it runs until stopped.
    end_at: int | None = None
    item: runtimeapi.Container | None = None
    status: runtimeapi.ContainerStatus | None = None

    def changed(self) -> None:
        """Forget the cached CRI views."""
        self.item = None
        self.status = None

    def exit(self, at: int, exit_code: int, reason: str = "") -> None:
        """The container's process is over (at ``at`` ns); ``reason`` defaults to containerd's
        ``Completed`` or ``Error``."""
        self.state = runtimeapi.ContainerState_CONTAINER_EXITED
        self.finished_at = at
        self.exit_code = exit_code
        self.reason = reason or ("Completed" if exit_code == 0 else "Error")
        self.end_at = None
        self.changed()

    def cri_item(self) -> runtimeapi.Container:
        """The CRI ``Container`` (what ``ListContainers`` returns)."""
        if self.item is None:
            self.item = runtimeapi.Container(
                id=self.id,
                pod_sandbox_id=self.sandbox_id,
                metadata=self.config.metadata,
                image=self.config.image,
                image_ref=self.image_ref,
                state=self.state,
                created_at=self.created_at,
                labels=self.config.labels,
                annotations=self.config.annotations,
            )
        return self.item

    def cri_status(self) -> runtimeapi.ContainerStatus:
        """The CRI ``ContainerStatus``."""
        if self.status is None:
            self.status = runtimeapi.ContainerStatus(
                id=self.id,
                metadata=self.config.metadata,
                state=self.state,
                created_at=self.created_at,
                started_at=self.started_at,
                finished_at=self.finished_at,
                exit_code=self.exit_code,
                image=self.config.image,
                image_ref=self.image_ref,
                reason=self.reason,
                message=self.message,
                labels=self.config.labels,
                annotations=self.config.annotations,
                mounts=self.config.mounts,
                log_path=self.config.log_path,
            )
        return self.status
