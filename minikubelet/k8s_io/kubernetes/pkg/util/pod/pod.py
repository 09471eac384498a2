"""Patching a pod's status in the API server with only what changed.

Go: pkg/util/pod/pod.go

The status manager sends each new status as a patch of the ``status`` subresource, computed
from the status the API server has. The patch always names the pod's UID, so that it cannot
land on a new pod of the same name; a patch that holds nothing else means "unchanged" and is
not sent.

Go computes a *strategic* merge patch, which sends only the changed elements of lists that
have a merge key (``conditions`` by ``type``, ``podIPs`` by ``ip``) plus their order; the port
computes a JSON merge patch (RFC 7386), which sends such a list whole when anything in it
changed. Both say the same to the API server here; the ``patchBytes`` kubelet logs are longer.
"""

from __future__ import annotations

import json
from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import marshal
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface

__all__ = ["apply_merge_patch", "create_merge_patch", "patch_pod_status"]


def patch_pod_status(
    c: Interface,
    namespace: str,
    name: str,
    uid: str,
    old_pod_status: PodStatus,
    new_pod_status: PodStatus,
) -> tuple[Pod | None, bytes, bool]:
    """Send the difference of the two statuses; returns the patched pod (None when nothing
    changed), the patch, and whether nothing changed.

    Go: pkg/util/pod/pod.go PatchPodStatus

    Raises where Go returns an error, with Go's message.
    """
    patch_bytes, unchanged = prepare_patch_bytes_for_pod_status(
        namespace, name, uid, old_pod_status, new_pod_status
    )
    if unchanged:
        return None, patch_bytes, True

    try:
        updated_pod = c.patch_pod_status(namespace, name, patch_bytes)
    except Exception as err:
        raise RuntimeError(
            f'failed to patch status "{patch_bytes.decode()}" for pod "{namespace}"/"{name}": {err}'
        ) from err
    return updated_pod, patch_bytes, False


def _status_data(status: PodStatus) -> dict[str, Any]:
    return marshal(Pod(status=status)).get("status", {})


def prepare_patch_bytes_for_pod_status(
    namespace: str, name: str, uid: str, old_pod_status: PodStatus, new_pod_status: PodStatus
) -> tuple[bytes, bool]:
    """The patch from the old status to the new one, and whether it changes nothing.

    Go: pkg/util/pod/pod.go preparePatchBytesForPodStatus
    """
    old_data = {"metadata": {}, "status": _status_data(old_pod_status)}
    # Only the UID in the new object's metadata: it appears in the patch as a precondition.
    new_data = {"metadata": {"uid": uid}, "status": _status_data(new_pod_status)}
    patch_bytes = json.dumps(create_merge_patch(old_data, new_data), separators=(",", ":"))
    return patch_bytes.encode(), patch_bytes == json.dumps(
        {"metadata": {"uid": uid}}, separators=(",", ":")
    )


def create_merge_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Ours: the JSON merge patch (RFC 7386) that turns ``old`` into ``new``: changed keys
    with their new values (mappings recursively), removed keys as None (JSON null)."""
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            patch[key] = value
        elif isinstance(value, dict) and isinstance(old[key], dict):
            sub = create_merge_patch(old[key], value)
            if sub:
                patch[key] = sub
        elif value != old[key]:
            patch[key] = value
    for key in old:
        if key not in new:
            patch[key] = None
    return patch


def apply_merge_patch(target: Any, patch: Any) -> Any:
    """Ours: ``target`` with the JSON merge patch applied (RFC 7386, section 2)."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply_merge_patch(result.get(key), value)
    return result


def status_diff(a: PodStatus, b: PodStatus) -> str:
    """Ours: what changes from status ``a`` to status ``b``, as a JSON merge patch."""
    return json.dumps(create_merge_patch(_status_data(a), _status_data(b)), separators=(",", ":"))
