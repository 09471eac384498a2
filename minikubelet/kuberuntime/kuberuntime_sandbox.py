"""Pod sandboxes: the config kubelet asks the runtime for, creating one, finding a pod's.

Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go

The methods are in [`SandboxMethods`][], which
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from minikubelet.container.helpers import (
    has_privileged_container,
    is_host_network_pod,
    make_port_mappings,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1.annotation_key_constants import SeccompProfileRuntimeDefault
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.helpers import (
    build_pod_logs_directory,
    namespaces_for_pod,
    pod_sandbox_by_created,
    to_runtime_protocol,
)
from minikubelet.kuberuntime.labels import new_pod_annotations, new_pod_labels
from minikubelet.types import KubernetesPodUIDLabel
from minikubelet.util import format

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager


def _parse_ip(s: str) -> bool:
    """Go: ``net.ParseIP(s) != nil``."""
    try:
        ipaddress.ip_address(s)
    except ValueError:
        return False
    return True


class SandboxMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in kuberuntime_sandbox.go."""

    async def create_pod_sandbox(
        self: KubeGenericRuntimeManager, pod: v1.Pod, attempt: int
    ) -> tuple[str, str, Exception | None]:
        """Create the pod's sandbox; Go's ``(podSandBoxID, message, error)``.

        Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).createPodSandbox
        """
        try:
            pod_sandbox_config = self.generate_pod_sandbox_config(pod, attempt)
        except Exception as err:
            message = f'Failed to generate sandbox config for pod "{format.pod(pod)}": {err}'
            klog.error_s(err, "Failed to generate sandbox config for pod", pod=klog.kobj(pod))
            return "", message, err

        runtime_handler = ""  # no RuntimeClass in the port: the runtime's default handler

        try:
            pod_sandbox_id = await self.runtime_service.run_pod_sandbox(
                pod_sandbox_config, runtime_handler
            )
        except Exception as err:
            message = f'Failed to create sandbox for pod "{format.pod(pod)}": {err}'
            klog.error_s(err, "Failed to create sandbox for pod", pod=klog.kobj(pod))
            return "", message, err

        return pod_sandbox_id, "", None

    def generate_pod_sandbox_config(
        self: KubeGenericRuntimeManager, pod: v1.Pod, attempt: int
    ) -> runtimeapi.PodSandboxConfig:
        """The sandbox config of a pod; raises if kubelet cannot make it (DNS, hostname).

        Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).generatePodSandboxConfig
        """
        pod_uid = pod.metadata.uid
        pod_sandbox_config = runtimeapi.PodSandboxConfig(
            metadata=runtimeapi.PodSandboxMetadata(
                name=pod.metadata.name,
                namespace=pod.metadata.namespace,
                uid=pod_uid,
                attempt=attempt,
            ),
            labels=new_pod_labels(pod),
            annotations=new_pod_annotations(pod),
        )

        dns_config = self.runtime_helper.get_pod_dns(pod)
        pod_sandbox_config.dns_config = dns_config

        if not is_host_network_pod(pod):
            pod_hostname, _pod_domain = self.runtime_helper.generate_pod_host_name_and_domain(pod)
            # Go passes the name through GetNodenameForKernel, which only changes it for
            # setHostnameAsFQDN, a field the port's API does not have.
            pod_sandbox_config.hostname = pod_hostname

        log_dir = build_pod_logs_directory(
            pod.metadata.namespace, pod.metadata.name, pod.metadata.uid
        )
        pod_sandbox_config.log_directory = log_dir

        port_mappings: list[runtimeapi.PortMapping] = []
        for c in pod.spec.containers:
            container_port_mappings = make_port_mappings(c)

            for port in container_port_mappings:
                port_mappings.append(
                    runtimeapi.PortMapping(
                        host_ip=port.host_ip,
                        host_port=port.host_port,
                        container_port=port.container_port,
                        protocol=to_runtime_protocol(port.protocol),
                    )
                )

        if len(port_mappings) > 0:
            pod_sandbox_config.port_mappings = port_mappings

        lc = self.generate_pod_sandbox_linux_config(pod)
        pod_sandbox_config.linux = lc

        return pod_sandbox_config

    def generate_pod_sandbox_linux_config(
        self: KubeGenericRuntimeManager, pod: v1.Pod
    ) -> runtimeapi.LinuxPodSandboxConfig:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).generatePodSandboxLinuxConfig

        The API here has no pod ``securityContext``, so no sysctls, users or groups. Go sets the
        namespace options inside ``if pod.Spec.SecurityContext != nil``, which is always true for
        a pod from the API server (defaulting sets an empty one); the port always sets them.
        """
        cgroup_parent = self.runtime_helper.get_pod_cgroup_parent(pod)
        lc = runtimeapi.LinuxPodSandboxConfig(
            cgroup_parent=cgroup_parent,
            security_context=runtimeapi.LinuxSandboxSecurityContext(
                privileged=has_privileged_container(pod),
                seccomp_profile_path=SeccompProfileRuntimeDefault,
                seccomp=runtimeapi.SecurityProfile(
                    profile_type=runtimeapi.SecurityProfile_RuntimeDefault
                ),
            ),
        )
        assert lc.security_context is not None
        lc.security_context.namespace_options = namespaces_for_pod(pod)
        return lc

    async def get_kubelet_sandboxes(
        self: KubeGenericRuntimeManager, all: bool
    ) -> list[runtimeapi.PodSandbox]:
        """All sandboxes, or only the ready ones; raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).getKubeletSandboxes
        """
        filter = None
        if not all:
            ready_state = runtimeapi.PodSandboxState_SANDBOX_READY
            filter = runtimeapi.PodSandboxFilter(
                state=runtimeapi.PodSandboxStateValue(state=ready_state)
            )

        try:
            resp = await self.runtime_service.list_pod_sandbox(filter)
        except Exception as err:
            klog.error_s(err, "Failed to list pod sandboxes")
            raise

        return resp

    def determine_pod_sandbox_ips(
        self: KubeGenericRuntimeManager,
        pod_namespace: str,
        pod_name: str,
        pod_sandbox: runtimeapi.PodSandboxStatus,
    ) -> list[str]:
        """The sandbox's IPs, primary first.

        Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).determinePodSandboxIPs
        """
        pod_ips: list[str] = []
        if pod_sandbox.network is None:
            klog.info_s(
                "Pod Sandbox status doesn't have network information, cannot report IPs",
                pod=klog.ObjectRef(pod_name, pod_namespace),
            )
            return pod_ips

        # No IP at all is normal: a host-network sandbox has none of its own.
        if len(pod_sandbox.network.ip) != 0:
            if not _parse_ip(pod_sandbox.network.ip):
                klog.info_s(
                    "Pod Sandbox reported an unparseable primary IP",
                    pod=klog.ObjectRef(pod_name, pod_namespace),
                    IP=pod_sandbox.network.ip,
                )
                return []
            pod_ips.append(pod_sandbox.network.ip)

        for pod_ip in pod_sandbox.network.additional_ips:
            if not _parse_ip(pod_ip.ip):
                klog.info_s(
                    "Pod Sandbox reported an unparseable additional IP",
                    pod=klog.ObjectRef(pod_name, pod_namespace),
                    IP=pod_ip.ip,
                )
                return []
            pod_ips.append(pod_ip.ip)

        return pod_ips

    async def get_sandbox_id_by_pod_uid(
        self: KubeGenericRuntimeManager,
        pod_uid: str,
        state: runtimeapi.PodSandboxState | None,
    ) -> list[str]:
        """The IDs of the pod's sandboxes, newest first; raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (*kubeGenericRuntimeManager).getSandboxIDByPodUID
        """
        filter = runtimeapi.PodSandboxFilter(label_selector={KubernetesPodUIDLabel: pod_uid})
        if state is not None:
            filter.state = runtimeapi.PodSandboxStateValue(state=state)
        try:
            sandboxes = await self.runtime_service.list_pod_sandbox(filter)
        except Exception as err:
            klog.error_s(err, "Failed to list sandboxes for pod", podUID=UID(pod_uid))
            raise

        if len(sandboxes) == 0:
            return []

        sandboxes = sorted(sandboxes, key=pod_sandbox_by_created, reverse=True)
        return [s.id for s in sandboxes]
