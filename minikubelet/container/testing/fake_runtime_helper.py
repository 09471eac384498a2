"""A [`RuntimeHelper`][minikubelet.container.helpers.RuntimeHelper] for running the runtime without kubelet.

Go: pkg/kubelet/container/testing/fake_runtime_helper.go

kubelet implements ``RuntimeHelper`` itself (``GenerateRunContainerOptions``, ``GetPodDNS`` … in
kubelet_pods.go). This fake answers with fixed, empty values, which is all the fake runtime needs,
and marks init containers with the ``minikubelet.dev/init-container`` annotation for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from minikubelet.container.runtime import Annotation, RunContainerOptions
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi

#: Ours: a *container* annotation ("true") marking an init container, so that the fake runtime
#: (``minikubelet.sim.cri``, which reads it) gives it the init default. The helper adds it through
#: ``RunContainerOptions.annotations``, which kubelet copies onto the container.
InitContainerAnnotation = "minikubelet.dev/init-container"


@dataclass
class FakeRuntimeHelper:
    """Go: pkg/kubelet/container/testing/fake_runtime_helper.go type FakeRuntimeHelper"""

    dns_servers: list[str] = field(default_factory=list)
    dns_searches: list[str] = field(default_factory=list)
    dns_options: list[str] = field(default_factory=list)
    host_name: str = ""
    host_domain: str = ""
    pod_container_dir: str = ""
    #: When set, the methods that can fail raise it.
    err: Exception | None = None
    #: Not in Go's fake: kubelet's own ``GetPodCgroupParent``, which the port's kubelet puts
    #: here (Go's runtime helper is the Kubelet itself); None answers ``""`` as Go's fake does.
    pod_cgroup_parent: Callable[[v1.Pod], str] | None = None

    def generate_run_container_options(
        self, pod: v1.Pod, container: v1.Container, pod_ip: str, pod_ips: list[str]
    ) -> tuple[RunContainerOptions, Callable[[], None] | None]:
        """Go: pkg/kubelet/container/testing/fake_runtime_helper.go (*FakeRuntimeHelper).GenerateRunContainerOptions"""
        opts = RunContainerOptions()
        if len(container.termination_message_path) != 0:
            opts.pod_container_dir = self.pod_container_dir
        # Not in Go's fake: mark init containers for the fake runtime, which cannot tell them
        # apart otherwise (kubelet copies these annotations onto the CRI container config).
        if any(c is container or c.name == container.name for c in pod.spec.init_containers):
            opts.annotations.append(Annotation(name=InitContainerAnnotation, value="true"))
        return opts, None

    def get_pod_cgroup_parent(self, pod: v1.Pod) -> str:
        """Go: pkg/kubelet/container/testing/fake_runtime_helper.go (*FakeRuntimeHelper).GetPodCgroupParent"""
        if self.pod_cgroup_parent is not None:
            return self.pod_cgroup_parent(pod)
        return ""

    def get_pod_dns(self, pod: v1.Pod) -> runtimeapi.DNSConfig:
        """Go: pkg/kubelet/container/testing/fake_runtime_helper.go (*FakeRuntimeHelper).GetPodDNS"""
        if self.err is not None:
            raise self.err
        return runtimeapi.DNSConfig(
            servers=list(self.dns_servers),
            searches=list(self.dns_searches),
            options=list(self.dns_options),
        )

    def generate_pod_host_name_and_domain(self, pod: v1.Pod) -> tuple[str, str]:
        """Go: pkg/kubelet/container/testing/fake_runtime_helper.go (*FakeRuntimeHelper).GeneratePodHostNameAndDomain

        Go's fake returns its fixed ``HostName``; an empty one is replaced by the pod's name
        here (what kubelet itself returns), so sandboxes get a readable hostname.
        """
        if self.err is not None:
            raise self.err
        return self.host_name or pod.spec.hostname or pod.metadata.name, self.host_domain
