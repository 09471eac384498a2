"""What kubelet does to every pod from a file or a URL: defaults, a UID, a node-suffixed name.

Go: pkg/kubelet/config/common.go

Decoding and validating a manifest (Go's ``tryDecodeSinglePod`` and ``tryDecodePodList``) is
[`minikubelet.config.manifest.load_pods`][minikubelet.config.manifest.load_pods];
[`try_decode_pods`][] adds the step between the two that this file owns, [`apply_defaults`][].
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict

from minikubelet.base.files import FileReadError, FileTooLarge, read_at_most
from minikubelet.base.i18n import both
from minikubelet.config.manifest import ManifestError, load_pods, pod_to_dict
from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    PodPhase,
    TaintEffect,
    Toleration,
    TolerationOperator,
)
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.helper.helpers import (
    add_or_update_toleration_in_pod,
)
from minikubelet.types import ConfigHashAnnotationKey, NamespaceDefault

#: The largest manifest kubelet reads (10 MiB). Go: maxConfigLength
maxConfigLength = 10 * 1 << 20

_DecodeKey = tuple[str, bool, str, bool]
_Decoded = tuple[list[Pod], list[ManifestError]]

#: Ours, not kubelet's: for each source (a manifest file or a URL, with the node and the way it
#: was read), the text last decoded from it and what that gave, least recently read first.
#: See [`try_decode_pods`][].
_last_decoded: OrderedDict[_DecodeKey, tuple[str | bytes, _Decoded]] = OrderedDict()

#: How much manifest text [`_last_decoded`][] holds, at most, counted in characters of the
#: texts it keeps (the pods made from a text are of its size): beyond it, the sources read
#: longest ago are forgotten, and decoded afresh at their next read, as kubelet always does.
_MAX_REMEMBERED_TEXT = 32 << 20
_remembered_text = 0


def _remember(key: _DecodeKey, text: str | bytes, decoded: _Decoded) -> None:
    """Keep ``text`` and what it gave for ``key``, inside [`_MAX_REMEMBERED_TEXT`][]. Ours."""
    global _remembered_text
    _forget(key)
    if len(text) > _MAX_REMEMBERED_TEXT:
        return
    _last_decoded[key] = (text, decoded)
    _remembered_text += len(text)
    while _remembered_text > _MAX_REMEMBERED_TEXT:
        _forget(next(iter(_last_decoded)))


def _forget(key: _DecodeKey) -> None:
    global _remembered_text
    last = _last_decoded.pop(key, None)
    if last is not None:
        _remembered_text -= len(last[0])


def forget_decoded(source: str) -> None:
    """Drop what [`try_decode_pods`][] remembers of ``source`` (a manifest that is gone). Ours."""
    for key in [key for key in _last_decoded if key[0] == source]:
        _forget(key)


def generate_pod_name(name: str, node_name: str) -> str:
    """``<name>-<node name>``: a static pod's name carries its node's.

    Go: pkg/kubelet/config/common.go generatePodName
    """
    return f"{name}-{node_name.lower()}"


def apply_defaults(pod: Pod, source: str, is_file: bool, node_name: str) -> None:
    """Give a static pod a UID, its node-suffixed name, a namespace, its node and a hash.

    Go: pkg/kubelet/config/common.go applyDefaults

    Go hashes the decoded Go object (``hash.DeepHashObject``) with the host and file name into
    an MD5 UID; the port hashes the pod's manifest form (sorted JSON) the same way. The UID is
    stable for one manifest on one node, as in Go, but not equal to Go's.
    """
    # Go: if len(pod.UID) == 0 {
    if len(pod.metadata.uid) == 0:
        hasher = hashlib.md5(usedforsecurity=False)
        hasher.update(json.dumps(pod_to_dict(pod), sort_keys=True).encode())
        if is_file:
            hasher.update(f"host:{node_name}".encode())
            hasher.update(f"file:{source}".encode())
        else:
            hasher.update(f"url:{source}".encode())
        pod.metadata.uid = hasher.hexdigest()
        klog.v(5).info_s(
            "Generated UID", pod=klog.kobj(pod), podUID=UID(pod.metadata.uid), source=source
        )

    pod.metadata.name = generate_pod_name(pod.metadata.name, node_name)
    klog.v(5).info_s(
        "Generated pod name", pod=klog.kobj(pod), podUID=UID(pod.metadata.uid), source=source
    )

    if pod.metadata.namespace == "":
        pod.metadata.namespace = NamespaceDefault
    klog.v(5).info_s("Set namespace for pod", pod=klog.kobj(pod), source=source)

    # No scheduler sees a static pod: it is bound to this node by its source.
    pod.spec.node_name = node_name

    pod.metadata.self_link = get_self_link(pod.metadata.name, pod.metadata.namespace)

    # The UID was made from the manifest's content, so it doubles as the manifest's hash.
    pod.metadata.annotations[ConfigHashAnnotationKey] = pod.metadata.uid

    if is_file:
        # Static pods tolerate every NoExecute taint: they must keep running on their node.
        add_or_update_toleration_in_pod(
            pod, Toleration(operator=TolerationOperator.EXISTS, effect=TaintEffect.NO_EXECUTE)
        )

    pod.status.phase = PodPhase.PENDING


def get_self_link(name: str, namespace: str) -> str:
    """Go: pkg/kubelet/config/common.go getSelfLink"""
    if len(namespace) == 0:
        namespace = NamespaceDefault
    return f"/api/v1/namespaces/{namespace}/pods/{name}"


def try_decode_pods(
    text: str | bytes, source: str, is_file: bool, node_name: str, *, allow_pod_list: bool
) -> tuple[list[Pod], list[ManifestError]]:
    """Decode, default and validate a manifest as kubelet does: every pod of it, or none.

    Go: pkg/kubelet/config/common.go tryDecodeSinglePod

    Go decodes, then applies [`apply_defaults`][] (its ``defaultFn``), then validates; the
    loader does the same with ``default_fn``. With ``allow_pod_list`` a ``PodList`` is taken
    too, as the HTTP source takes it (Go's ``tryDecodePodList``).

    Not in Go: kubelet decodes every manifest again on each read (every 20 s for a file), which
    costs Go microseconds and Python about a millisecond a pod. The same text from the same
    source on the same node always decodes to the same pods, so when a source gives back the
    text it gave last time, the port hands out fresh copies of the pods it made then. Only
    below ``-v=5``: from 5 up, [`apply_defaults`][] logs each read, so everything runs again.
    """
    key = (source, is_file, node_name, allow_pod_list)
    remember = not klog.v(5).enabled
    if remember:
        last = _last_decoded.get(key)
        if last is not None and last[0] == text:
            _last_decoded.move_to_end(key)
            pods, errors = last[1]
            return [deep_copy(pod) for pod in pods], list(errors)

    def default_fn(pod: Pod) -> None:
        apply_defaults(pod, source, is_file, node_name)

    pods, errors = load_pods(text, source, allow_pod_list=allow_pod_list, default_fn=default_fn)
    if remember:
        _remember(key, text, ([deep_copy(pod) for pod in pods], list(errors)))
    return pods, errors


def load_pod_file(
    path: str | os.PathLike[str], *, allow_pod_list: bool = False
) -> tuple[list[Pod], list[ManifestError]]:
    """Ours: the pods of one manifest file, read as kubelet's file source reads it.

    See [`load_pods`][minikubelet.config.manifest.load_pods] for what is read and reported
    (``extractFromFile`` in pkg/kubelet/config/file.go does the same). As in kubelet, a file
    larger than ``maxConfigLength`` (10 MiB) is refused whole. Errors name the file as ``path``
    was given. It lives here, beside the limit, so that the loader needs nothing of this file.
    """
    source = os.fspath(path)
    try:
        data = read_at_most(path, maxConfigLength)
    except FileTooLarge:
        message = both(
            f"too large: kubelet reads at most {maxConfigLength} bytes",
            f"文件太大：kubelet 最多读取 {maxConfigLength} 字节",
        )
        return [], [ManifestError(source, None, None, message)]
    except FileReadError as err:
        return [], [ManifestError(source, None, None, err.args[0])]
    return load_pods(data, source, allow_pod_list=allow_pod_list)
