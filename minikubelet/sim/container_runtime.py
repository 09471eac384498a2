"""kubelet's runtime manager on the simulated CRI: what tests, examples and the CLI run on (ours).

[`new_fake_runtime`][] makes everything at once — the fake runtime and image services, the
manager on top of them — and may be called before ``go.run`` (nothing in it needs a running
runtime until it is used)::

    fake = new_fake_runtime(scenario="scenario.yaml", seed=1, pod_lookup=lookup)
    result = await fake.manager.sync_pod(pod, status, [], back_off)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minikubelet.container.helpers import HandlerRunner, RuntimeHelper, filter_event_recorder
from minikubelet.container.testing.fake_runtime_helper import FakeRuntimeHelper
from minikubelet.go import Clock
from minikubelet.images.image_manager import new_image_manager
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, Recorder
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff, new_back_off
from minikubelet.kubelet import MaxContainerBackOff, backOffPeriod
from minikubelet.kuberuntime.fake_kuberuntime_manager import FakeHTTP, FakePodStateProvider
from minikubelet.kuberuntime.kuberuntime_manager import (
    KubeGenericRuntimeManager,
    PodStateProvider,
)
from minikubelet.lifecycle.handlers import new_handler_runner
from minikubelet.prober.results.results_manager import Manager as ProberResultsManager
from minikubelet.sim.cri.fake_image_service import FakeImageService
from minikubelet.sim.cri.fake_runtime import FakeRuntimeName, FakeRuntimeService, PodLookup
from minikubelet.sim.cri.fake_stats import SimulatedNode
from minikubelet.sim.cri.scenario import Scenario, load_scenario_file, parse_scenario


@dataclass
class FakeRuntime:
    """What [`new_fake_runtime`][] makes."""

    #: kubelet's container runtime (Go: ``kubecontainer.Runtime``): ``sync_pod``,
    #: ``get_pod_status``, ``kill_pod``, ``get_pods``, ``status`` …
    manager: KubeGenericRuntimeManager
    #: The fake CRI runtime service (scriptable, with error injection).
    runtime_service: FakeRuntimeService
    #: The fake CRI image service.
    image_service: FakeImageService
    #: The recorder the manager records events with.
    recorder: EventRecorder
    #: The back-off of image pulls.
    image_back_off: Backoff
    scenario: Scenario

    def simulated_node(self, memory_capacity: int) -> SimulatedNode:
        """What cAdvisor and the CRI would measure on this node: memory, disks, PIDs, from the
        running containers and the scenario's usage (ours; see
        [`minikubelet.sim.cri.fake_stats`][minikubelet.sim.cri.fake_stats])."""
        return SimulatedNode(self.runtime_service, memory_capacity)


def _load(scenario: Scenario | Mapping[str, Any] | str | Path | None) -> Scenario:
    if scenario is None:
        return Scenario()
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, Mapping):
        return parse_scenario(dict(scenario))
    return load_scenario_file(scenario)


def new_fake_runtime(
    clock: Clock | None = None,
    scenario: Scenario | Mapping[str, Any] | str | Path | None = None,
    seed: int = 0,
    *,
    recorder: EventRecorder | None = None,
    pod_lookup: PodLookup | None = None,
    pod_state_provider: PodStateProvider | None = None,
    runtime_helper: RuntimeHelper | None = None,
    runner: HandlerRunner | None = None,
    image_back_off: Backoff | None = None,
    serialize_image_pulls: bool = True,
    liveness_manager: ProberResultsManager | None = None,
    readiness_manager: ProberResultsManager | None = None,
    startup_manager: ProberResultsManager | None = None,
) -> FakeRuntime:
    """A runtime manager on a fresh fake CRI runtime; callable before ``go.run``.

    * ``clock``: the fake runtime's clock (default: the running runtime's, virtual or real);
    * ``scenario``: a [`Scenario`][minikubelet.sim.cri.scenario.Scenario], its parsed mapping, or
    the
      path of a YAML/JSON scenario file;
    * ``seed``: seeds the container and sandbox IDs;
    * ``pod_lookup``: pod UID → ``v1.Pod`` or None, so the fake knows init containers (their
      default lifetime is 1 s) when the runtime helper does not mark them (the default
      [`FakeRuntimeHelper`][minikubelet.container.testing.fake_runtime_helper.FakeRuntimeHelper]
      does);
    * ``recorder``: where events go (default: a new
    [`Recorder`][minikubelet.k8s_io.client_go.tools.record.event.Recorder]);
    * ``runner``: the lifecycle hook runner (default: kubelet's own,
      [`minikubelet.lifecycle.handlers`][minikubelet.lifecycle.handlers], running ``exec`` hooks
      through the fake runtime's ``ExecSync`` and ``httpGet`` hooks through
      [`FakeHTTP`][minikubelet.kuberuntime.fake_kuberuntime_manager.FakeHTTP], as
      Go's fake manager does; both follow the scenario);
    * the rest as in
    [`new_kube_generic_runtime_manager`][minikubelet.kuberuntime.kuberuntime_manager.new_kube_generic_runtime_manager],
      with kubelet's defaults (serial image pulls, an image back-off of 10 s to 300 s).

    Go's constructor asks the runtime for its name over the CRI (``Version``); the fake's name
    is known, so this one does not, and needs no running runtime.
    """
    sc = _load(scenario)
    recorder = recorder if recorder is not None else Recorder()
    image_service = FakeImageService(scenario=sc)
    runtime_service = FakeRuntimeService(
        clock=clock,
        scenario=sc,
        seed=seed,
        runtime_name=FakeRuntimeName,
        pod_lookup=pod_lookup,
        image_service=image_service,
    )
    manager = KubeGenericRuntimeManager(
        runtime_name=FakeRuntimeName,
        recorder=recorder,
        runtime_service=runtime_service,
        image_service=image_service,
        runtime_helper=runtime_helper if runtime_helper is not None else FakeRuntimeHelper(),
        # None only until the runner is made below: the manager is its command runner (Go too
        # sets it once the manager exists).
        runner=runner,  # type: ignore[arg-type]
        pod_state_provider=(
            pod_state_provider if pod_state_provider is not None else FakePodStateProvider()
        ),
        liveness_manager=liveness_manager,
        readiness_manager=readiness_manager,
        startup_manager=startup_manager,
    )
    if runner is None:
        manager.runner = new_handler_runner(FakeHTTP(runtime_service), manager, manager)
    image_back_off = (
        image_back_off
        if image_back_off is not None
        else new_back_off(backOffPeriod, MaxContainerBackOff)
    )
    manager.image_puller = new_image_manager(
        filter_event_recorder(recorder), manager, image_back_off, serialize_image_pulls
    )
    return FakeRuntime(
        manager=manager,
        runtime_service=runtime_service,
        image_service=image_service,
        recorder=recorder,
        image_back_off=image_back_off,
        scenario=sc,
    )
