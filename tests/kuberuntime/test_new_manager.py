"""NewKubeGenericRuntimeManager: kubelet learns the runtime's name from it, and refuses a runtime
that speaks another API version."""

from __future__ import annotations

from minikubelet import go
from minikubelet.container.testing.fake_runtime_helper import FakeRuntimeHelper
from minikubelet.go import Second
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.kuberuntime.fake_kuberuntime_manager import FakeHTTP, FakePodStateProvider
from minikubelet.kuberuntime.kuberuntime_manager import (
    ErrVersionNotSupported,
    new_kube_generic_runtime_manager,
)
from minikubelet.sim.container_runtime import new_fake_runtime


def _new(api_version: str | None = None):
    out = {}

    async def main() -> None:
        fake = new_fake_runtime()
        service = fake.runtime_service
        if api_version is not None:

            async def version(_asked: str) -> runtimeapi.VersionResponse:
                return runtimeapi.VersionResponse(version=api_version, runtime_name="other")

            service.version = version  # type: ignore[method-assign]
        try:
            out["manager"] = await new_kube_generic_runtime_manager(
                recorder=Recorder(),
                liveness_manager=None,
                readiness_manager=None,
                startup_manager=None,
                pod_state_provider=FakePodStateProvider(),
                runtime_helper=FakeRuntimeHelper(),
                http_client=FakeHTTP(),
                image_back_off=new_back_off(10 * Second, 300 * Second),
                serialize_image_pulls=True,
                runtime_service=service,
                image_service=fake.image_service,
            )
        except RuntimeError as err:
            out["error"] = err

    go.run(main, seed=1)
    return out


def test_the_manager_takes_the_runtimes_name_and_gets_an_image_puller():
    manager = _new()["manager"]
    assert manager.type() == "fake"
    assert manager.image_puller is not None


def test_another_api_version_is_refused():
    assert _new(api_version="0.2.0")["error"] is ErrVersionNotSupported
