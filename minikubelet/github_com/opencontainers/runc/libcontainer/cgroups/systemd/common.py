"""How a systemd slice name becomes a cgroup path.

Stands in for runc's ``ExpandSlice`` (libcontainer/cgroups/systemd/common.go, vendored by
Kubernetes; the cross-linker reads only Kubernetes' own files). kubelet's systemd cgroup driver names its cgroups as slices (``kubepods-burstable.slice``);
[`expand_slice`][] turns such a name into the path systemd gives it, each dash opening a level.
Only this function is ported: the rest of the file talks to systemd over D-Bus.
"""

from __future__ import annotations

__all__ = ["expand_slice"]


def expand_slice(slice: str) -> str:
    """``"kubepods-burstable.slice"`` → ``"/kubepods.slice/kubepods-burstable.slice"``, as
    runc's ``ExpandSlice`` does.

    Raises ``ValueError`` (Go returns the error) for a name that does not end in ``.slice``,
    holds a ``/`` or has an empty part between dashes.
    """
    suffix = ".slice"
    if len(slice) < len(suffix) or not slice.endswith(suffix):
        raise ValueError(f"invalid slice name: {slice}")

    if "/" in slice:
        raise ValueError(f"invalid slice name: {slice}")

    path, prefix = "", ""
    slice_name = slice.removesuffix(suffix)
    # "-.slice" is the root slice.
    if slice_name == "-":
        return "/"
    for component in slice_name.split("-"):
        if component == "":
            raise ValueError(f"invalid slice name: {slice}")

        path += "/" + prefix + component + suffix
        prefix += component + "-"
    return path
