"""Ours: how a pod's volume mounts go, from its ``minikubelet.dev/volumes`` annotation or the
scenario file.

Not a port. Real mounts take time (an NFS server far away) or fail (``mount`` exits 32); the
simulated plugins follow a script instead::

    metadata:
      annotations:
        minikubelet.dev/volumes: |
          data: {setUpTime: 3s}            # each SetUp of volume "data" takes 3 s
          cache: {fail: 2}                 # its first two SetUps fail, then it mounts
          logs: {fail: always, error: "mount failed: exit status 32"}

Per volume (by its name in ``spec.volumes``): ``setUpTime`` (a duration, default 0 s),
``fail`` (how many SetUps of it fail before one succeeds, or ``always``; default 0) and
``error`` (what a failed SetUp says; default ``mount failed: exit status 32``). A SetUp is one
attempt of the reconciler's ``MountVolume`` operation, so failures are retried with the
operation executor's back-off (0.5 s, 1 s, 2 s, … up to 2 min 2 s), each with its
``FailedMount`` event. A ``setUpTime`` longer than 2 min 3 s outlasts ``syncPod``'s wait: the
pod gets the time-out's ``Unable to attach or mount volumes`` event while the SetUp still runs.

A scenario file (``minikubelet run --scenario``) may say the same for any pod, under
``volumes`` and the pod's ``namespace/name``; for a volume both name, the annotation wins::

    volumes:
      default/web:
        config: {setUpTime: 3m}

A configMap or secret that is missing, or appears later, is not a mount script: the API script
(``--api-script``) writes it, or does not, at the time it says. A file entry that does not parse
is refused when the file is loaded; an annotation that does not parse makes every SetUp of the
pod's volumes fail with the parse error, which then shows as the pod's ``FailedMount`` event.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from minikubelet.go import sleep
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.sim.cri.scenario_values import (
    as_mapping,
    check_keys,
    load_text,
    parse_duration,
    scenario_error,
)

VolumesAnnotation = "minikubelet.dev/volumes"

#: What a failed SetUp says when the script gives no ``error``.
DEFAULT_MOUNT_ERROR = "mount failed: exit status 32"


@dataclass(frozen=True, slots=True)
class VolumeScript:
    """How the SetUps of one volume go."""

    set_up_time: float = 0.0
    #: How many SetUps fail before one succeeds (``math.inf``: all of them).
    fail: float = 0
    error: str = DEFAULT_MOUNT_ERROR


NO_SCRIPT = VolumeScript()


def parse_volume_scripts(value: Any, where: str) -> dict[str, VolumeScript]:
    """Volume name → its script, from an annotation's or a file entry's parsed value."""
    scripts: dict[str, VolumeScript] = {}
    for name, raw in as_mapping(value, where).items():
        at = f"{where}: {name}"
        m = as_mapping(raw, at)
        check_keys(m, ("setUpTime", "fail", "error"), at)
        fail_raw = m.get("fail", 0)
        if fail_raw == "always":
            fail: float = math.inf
        elif isinstance(fail_raw, int) and not isinstance(fail_raw, bool) and fail_raw >= 0:
            fail = fail_raw
        else:
            raise scenario_error(
                f"{at}: fail",
                f"expected a count (0, 1, 2 …) or always, got {fail_raw!r}",
                f"应为次数（0、1、2 …）或 always，实际为 {fail_raw!r}",
            )
        error = m.get("error", DEFAULT_MOUNT_ERROR)
        if not isinstance(error, str) or not error:
            raise scenario_error(
                f"{at}: error",
                f"expected the message of the failure, got {error!r}",
                f"应为失败时的消息，实际为 {error!r}",
            )
        scripts[str(name)] = VolumeScript(
            set_up_time=parse_duration(m.get("setUpTime", 0), f"{at}: setUpTime"),
            fail=fail,
            error=error,
        )
    return scripts


class VolumeScenario:
    """The scripts of the pods' volumes, and how many SetUps of each have been tried."""

    def __init__(self, file_scripts: dict[str, dict[str, VolumeScript]] | None = None) -> None:
        #: "namespace/name" → volume name → script, from the scenario file.
        self.file_scripts = file_scripts or {}
        #: (pod UID, volume name) → SetUps tried so far.
        self.attempts: dict[tuple[str, str], int] = {}

    def script(self, pod: Pod, volume_name: str) -> VolumeScript:
        """The script of ``volume_name``; raises [`ScenarioError`][minikubelet.sim.cri.scenario_values.ScenarioError] on a bad annotation."""
        meta = pod.metadata
        text = meta.annotations.get(VolumesAnnotation)
        if text is not None:
            where = f"pod {meta.namespace}/{meta.name}: annotation {VolumesAnnotation}"
            script = parse_volume_scripts(load_text(text, where), where).get(volume_name)
            if script is not None:
                return script
        return self.file_scripts.get(f"{meta.namespace}/{meta.name}", {}).get(
            volume_name, NO_SCRIPT
        )

    def next_attempt_fails(self, pod: Pod, volume_name: str, script: VolumeScript) -> bool:
        """Count one more SetUp of the volume; whether the script makes it fail."""
        key = (pod.metadata.uid, volume_name)
        attempt = self.attempts.get(key, 0)
        self.attempts[key] = attempt + 1
        return attempt < script.fail

    async def play(self, pod: Pod, volume_name: str) -> None:
        """One SetUp of a pod's volume as its script says: wait ``setUpTime``, then maybe fail.

        The plugins call this at the start of ``SetUp`` (their host's ``scenario``); raises
        what a failed mount raises.
        """
        script = self.script(pod, volume_name)
        if script.set_up_time > 0:
            await sleep(script.set_up_time)
        if self.next_attempt_fails(pod, volume_name, script):
            raise MountError(script.error)


__all__ = [
    "MountError",
    "VolumeScenario",
    "VolumeScript",
    "VolumesAnnotation",
]


class MountError(Exception):
    """A SetUp the scenario makes fail; its message is the script's ``error``."""
