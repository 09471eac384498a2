"""The paths of ``/proc`` and ``/sys`` a container does not see, or sees read-only.

Go: pkg/securitycontext/util.go

The API here has no ``procMount`` (a container's ``securityContext`` is not in the port's
subset), so every container gets the defaults, as one without ``procMount: Unmasked`` does.
"""

from __future__ import annotations

__all__ = ["convert_to_runtime_masked_paths", "convert_to_runtime_readonly_paths"]

#: Go: defaultMaskedPaths
defaultMaskedPaths = (
    "/proc/acpi",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/scsi",
    "/sys/firmware",
)
#: Go: defaultReadonlyPaths
defaultReadonlyPaths = (
    "/proc/asound",
    "/proc/bus",
    "/proc/fs",
    "/proc/irq",
    "/proc/sys",
    "/proc/sysrq-trigger",
)


def convert_to_runtime_masked_paths() -> list[str]:
    """Go: pkg/securitycontext/util.go ConvertToRuntimeMaskedPaths"""
    return list(defaultMaskedPaths)


def convert_to_runtime_readonly_paths() -> list[str]:
    """Go: pkg/securitycontext/util.go ConvertToRuntimeReadonlyPaths"""
    return list(defaultReadonlyPaths)
