"""What ch14/mount-or-attach checks in your ``mount_attach_volumes``: the reconciler's choice."""

from __future__ import annotations

from typing import Any

from walkthrough.ch14.mounts import Mounts, run_mounts, when
from walkthrough.expect import expect

UID = "5d0c9e71-0000-4000-8000-0000000014a1"
FILE = f"/var/lib/kubelet/pods/{UID}/volumes/kubernetes.io~configmap/config/default.conf"


def scenario(until: float) -> Mounts:
    """web's configMap exists (and changes at 10 s); its other volume is an emptyDir."""
    return run_mounts("web-ready", until=until)


def check_the_volumes_get_mounted_and_the_pod_starts() -> None:
    run = scenario(until=5.0)
    started = run.started("web")
    expect(
        started is not None and started < 1,
        en="web's volumes (a configMap that exists, an emptyDir) can be attached and mounted "
        "at once: attached at the reconciler's first pass, mounted at its next, so that the pod "
        f"starts within a second. web's first container started: {when(started, 'en')}.",
        zh="web 的卷（一个存在的 ConfigMap、一个 emptyDir）可以立刻挂接和挂载：调谐器第一轮挂接，下一轮挂载，"
        f"Pod 在一秒之内启动。web 的第一个容器启动于：{when(started, 'zh')}。",
    )


def check_a_mounted_volume_is_left_alone() -> None:
    run = scenario(until=20.0)
    setups = len(run.of("setup", "web", "cache"))
    expect(
        setups == 1,
        en="The emptyDir volume cache is mounted once and stays mounted: the reconciler passes "
        "over it every 100 ms and must not set it up again (an emptyDir is never remounted). "
        f"SetUps of cache in 20 s: {setups}.",
        zh="emptyDir 卷 cache 挂载一次后就一直挂着：调谐器每 100 毫秒经过它一次，不能再次 SetUp 它（emptyDir 从不"
        f"重新挂载）。20 秒内 cache 的 SetUp 次数：{setups}。",
    )


def check_a_configmap_volume_follows_its_configmap() -> None:
    run = scenario(until=180.0)
    assert run.run is not None and run.run.kubelet is not None
    # The simulated node's filesystem (sim.volume_fs.SimFS): its files by path.
    fs: Any = run.run.kubelet.volume_manager.volume_plugin_mgr.host.fs  # type: ignore[union-attr]
    content = fs.files.get(FILE, b"").decode()
    expect(
        content == "listen 8080;",
        en="web-config is changed at 10 s. Each later sync of web asks for its configMap "
        "volume to be mounted again, and the reconciler must do it, so that the file follows the "
        f"configMap. default.conf holds after 3 minutes: {content!r}.",
        zh="web-config 在 10 秒时被修改。之后 web 的每一次同步都会要求重新挂载它的 configMap 卷，调谐器必须照办，"
        f"文件才会跟上 ConfigMap。3 分钟后 default.conf 的内容：{content!r}。",
    )
