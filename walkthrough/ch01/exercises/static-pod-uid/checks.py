"""What ch01/static-pod-uid checks in your ``apply_defaults``: the UID of a static pod."""

from __future__ import annotations

import re

from minikubelet.config.common import try_decode_pods
from minikubelet.config.config import PodConfigNotificationMode, PodStorage
from minikubelet.go import make_chan
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.types import FileSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import run_go

FILE = "/etc/kubernetes/manifests/web.yaml"
MANIFEST = """\
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: main
    image: {image}
"""


def decode(
    image: str = "nginx:1.21",
    *,
    source: str = FILE,
    is_file: bool = True,
    node: str = "node-1",
    uid: str | None = None,
) -> Pod:
    """The pod kubelet makes of the manifest, as the file (or http) source reads it."""
    text = MANIFEST.format(image=image)
    if uid is not None:
        text = text.replace("  name: web\n", f"  name: web\n  uid: {uid}\n")
    pods, errors = try_decode_pods(text, source, is_file, node, allow_pod_list=False)
    expect(
        not errors,
        en=f"kubelet refuses the pod your code made of the manifest: {errors[0] if errors else ''}",
        zh=f"kubelet 拒绝了你的代码由清单生成的 Pod：{errors[0].zh if errors else ''}",
    )
    return pods[0]


def check_a_static_pod_gets_a_uid_of_its_own() -> None:
    uid = decode().metadata.uid
    expect(
        re.fullmatch(r"[0-9a-f]{32}", uid) is not None,
        en="A pod from a manifest has no UID of its own: kubelet makes one, an MD5 hash in hex "
        f"(32 hex digits). The pod got {uid!r}.",
        zh=f"来自清单的 Pod 自己没有 UID：kubelet 要生成一个，是十六进制的 MD5 哈希（32 位十六进制数字）。"
        f"这个 Pod 得到的是 {uid!r}。",
    )


def check_the_same_manifest_gives_the_same_uid() -> None:
    first, again = decode().metadata.uid, decode().metadata.uid
    expect_equal(
        again,
        first,
        en="The file source reads every manifest again every 20 s: the same manifest on the "
        "same node must give the same UID each time, or kubelet would see a new pod each time.",
        zh="文件来源每 20 秒重新读取一遍清单：同一个节点上的同一个清单，每次都必须得到同样的 UID，"
        "否则 kubelet 每次都会看到一个新 Pod。",
    )


def merged(*pods: Pod) -> list[list[tuple[str, list[str]]]]:
    """Each pod as a SET of the file source; what PodStorage sent after each."""
    sent: list[list[tuple[str, list[str]]]] = []

    async def main() -> None:
        updates = make_chan(50, name="updates")
        incremental = PodConfigNotificationMode.INCREMENTAL
        storage = PodStorage(updates, incremental, Recorder())
        for pod in pods:
            await storage.merge(FileSource, PodUpdate(pods=[pod], op=PodOperation.SET))
            out = []
            while len(updates) > 0:
                u, _ = await updates.recv()
                assert u is not None  # the channel is open and holds updates
                out.append((u.op.name, [p.metadata.uid[:6] for p in u.pods]))
            sent.append(out)

    run_go(main)
    return sent


def check_an_edited_manifest_replaces_the_pod() -> None:
    old, new = decode("nginx:1.21"), decode("nginx:1.22")
    got = merged(old, new)
    expect_equal(
        got[1],
        [("REMOVE", [old.metadata.uid[:6]]), ("ADD", [new.metadata.uid[:6]])],
        en="Edit the manifest (a new image) and the pod is another pod: its UID changes, so "
        "PodStorage sees the old UID gone and a new one come, a REMOVE and an ADD. (That is why "
        "editing a static pod's manifest restarts it from scratch.)",
        zh="修改清单（换一个镜像）之后，这个 Pod 就成了另一个 Pod：它的 UID 变了，所以 PodStorage 看到旧 UID "
        "消失、新 UID 出现，也就是一次 REMOVE 加一次 ADD。（这就是为什么修改静态 Pod 的清单会让它从头重建。）",
    )


def check_two_files_or_two_nodes_make_two_uids() -> None:
    here = decode().metadata.uid
    other_file = decode(source="/etc/kubernetes/manifests/web-copy.yaml").metadata.uid
    other_node = decode(node="node-2").metadata.uid
    expect(
        len({here, other_file, other_node}) == 3,
        en="The same pod in two files is two pods, and the same file on two nodes is two pods: "
        "for a file, the node's name and the file's path go into the hash too.",
        zh="同一个 Pod 写在两个文件里就是两个 Pod，同一个文件在两个节点上也是两个 Pod："
        "对文件来源，节点名和文件路径也要一起参与哈希。",
    )


def check_a_pod_from_a_url_does_not_depend_on_the_node() -> None:
    url = "http://config.example/web.yaml"
    one = decode(source=url, is_file=False, node="node-1").metadata.uid
    two = decode(source=url, is_file=False, node="node-2").metadata.uid
    other = decode(source=url + "?v=2", is_file=False).metadata.uid
    expect(
        one == two and one != other,
        en="For a pod from a URL only the URL goes into the hash, not the node: the same URL "
        "gives the same UID on every node, another URL another UID.",
        zh="对来自 URL 的 Pod，只有 URL 参与哈希，节点不参与：同一个 URL 在每个节点上得到同样的 UID，"
        "换一个 URL 就得到另一个 UID。",
    )


def check_a_uid_in_the_manifest_is_kept() -> None:
    expect_equal(
        decode(uid="my-own-uid").metadata.uid,
        "my-own-uid",
        en="A manifest that sets metadata.uid keeps it: kubelet makes a UID only for a pod "
        "that has none.",
        zh="在清单里写明了 metadata.uid 的 Pod 要保留它：kubelet 只给没有 UID 的 Pod 生成 UID。",
    )
