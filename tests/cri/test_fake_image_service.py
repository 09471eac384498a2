"""The fake image service: scripted pull time, failures counted per image, not found."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.sim.cri.fake_image_service import FakeImageService, image_id
from minikubelet.sim.cri.scenario import parse_scenario


def spec(image):
    return runtimeapi.ImageSpec(image=image)


def config(images):
    return runtimeapi.PodSandboxConfig(
        metadata=runtimeapi.PodSandboxMetadata(name="web", namespace="default"),
        annotations={"minikubelet.dev/images": images},
    )


def test_pull_takes_the_scripted_time_and_fails_the_first_n_times():
    async def main():
        svc = FakeImageService()
        cfg = config("busybox: {pullTime: 2s, fail: 2}")
        outcomes = []
        for _ in range(3):
            t0 = go.now()
            try:
                ref = await svc.pull_image(spec("busybox"), None, cfg)
                outcomes.append(("ok", ref, go.now() - t0))
            except CRIError as e:
                outcomes.append((e.code, e.desc, go.now() - t0))
        return outcomes, await svc.image_status(spec("busybox:latest"))

    outcomes, status = go.run(main)
    assert outcomes == [
        (
            "Unknown",
            'failed to pull and unpack image "busybox:latest": scripted pull failure 1 of 2',
            2.0,
        ),
        (
            "Unknown",
            'failed to pull and unpack image "busybox:latest": scripted pull failure 2 of 2',
            2.0,
        ),
        ("ok", image_id("busybox:latest"), 2.0),
    ]
    assert status.repo_tags == ["busybox:latest"]


def test_not_found_fails_at_once_every_time():
    async def main():
        svc = FakeImageService(scenario=parse_scenario({"images": {"nosuch:1.0": "notFound"}}))
        for _ in range(2):
            with pytest.raises(CRIError, match="code = NotFound"):
                await svc.pull_image(spec("nosuch:1.0"), None, None)
        return go.now(), svc.pulls("nosuch:1.0")

    t, n = go.run(main)
    assert float(t) == go.VIRTUAL_EPOCH and n == 2


def test_present_images_default_pull_time_list_and_remove():
    async def main():
        svc = FakeImageService(
            scenario=parse_scenario(
                {"presentImages": ["nginx:1.21"], "images": {"*": {"pullTime": "3s"}}}
            )
        )
        assert await svc.image_status(spec("busybox")) is None
        t0 = go.now()
        await svc.pull_image(spec("busybox"), None, None)
        took = go.now() - t0
        names = sorted(i.repo_tags[0] for i in await svc.list_images(None))
        await svc.remove_image(spec("nginx:1.21"))
        after = [i.repo_tags[0] for i in await svc.list_images(None)]
        return took, names, after

    took, names, after = go.run(main)
    assert took == 3.0
    assert names == ["busybox:latest", "nginx:1.21"]
    assert after == ["busybox:latest"]
