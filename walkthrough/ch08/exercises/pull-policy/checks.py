"""What ch08/pull-policy checks in your ``should_pull_image``, through kubelet's EnsureImageExists."""

from __future__ import annotations

from typing import Any

from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.api.core import v1
from minikubelet.sim.container_runtime import new_fake_runtime
from walkthrough.expect import expect_equal
from walkthrough.fixtures import run_go

IMAGE = "registry.example/shop/web:2.0"


def ensure(policy: str, present: bool) -> str:
    """What EnsureImageExists does for a container with ``policy`` when the image is (not) on
    the node: "pulled", "used" or the error it returns."""
    runtime = new_fake_runtime()
    if present:
        runtime.image_service.add_image(IMAGE)
    pod = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "web", "namespace": "default", "uid": "uid-web"},
            "spec": {"containers": [{"name": "web", "image": IMAGE, "imagePullPolicy": policy}]},
        }
    )
    result: dict[str, Any] = {}

    async def main() -> None:
        puller: Any = runtime.manager.image_puller
        _, _, err = await puller.ensure_image_exists(pod, pod.spec.containers[0], [], None)
        result["err"] = err

    run_go(main)
    if result.get("err") is not None:
        return str(result["err"])
    return "pulled" if runtime.image_service.pulls(IMAGE) else "used"


def check_if_not_present_pulls_only_a_missing_image() -> None:
    expect_equal(
        [ensure(v1.PullIfNotPresent, True), ensure(v1.PullIfNotPresent, False)],
        ["used", "pulled"],
        en="imagePullPolicy IfNotPresent (the default for an image with a tag other than latest): "
        "an image already on the node is used as it is; a missing one is pulled. With the image "
        "present, then missing:",
        zh="imagePullPolicy 为 IfNotPresent（标签不是 latest 的镜像的默认值）：节点上已有的镜像直接使用；"
        "没有的才拉取。镜像在本地、不在本地时的结果：",
    )


def check_always_pulls_at_every_start() -> None:
    expect_equal(
        [ensure(v1.PullAlways, True), ensure(v1.PullAlways, False)],
        ["pulled", "pulled"],
        en="imagePullPolicy Always (the default for :latest or no tag): the image is pulled at "
        "every container start, even when it is on the node, so that a tag moved in the "
        "registry is picked up. With the image present, then missing:",
        zh="imagePullPolicy 为 Always（:latest 或没有标签时的默认值）：每次启动容器都拉取镜像，即使它已经在"
        "节点上，这样仓库里被移动过的标签才能生效。镜像在本地、不在本地时的结果：",
    )


def check_never_never_pulls() -> None:
    expect_equal(
        [ensure(v1.PullNever, True), ensure(v1.PullNever, False)],
        ["used", "ErrImageNeverPull"],
        en="imagePullPolicy Never: kubelet never pulls. An image on the node is used; a missing "
        "one is an error (ErrImageNeverPull), and the container waits until someone loads the "
        "image. With the image present, then missing:",
        zh="imagePullPolicy 为 Never：kubelet 从不拉取。节点上已有的镜像直接使用；没有的就是一个错误"
        "（ErrImageNeverPull），容器会一直等到有人把镜像导入节点。镜像在本地、不在本地时的结果：",
    )
