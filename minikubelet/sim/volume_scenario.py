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

After the pod stops, ``tearDownFail`` (a count, or ``always``; default 0) makes the first
TearDowns of the volume fail with ``tearDownError`` (default ``device or resource busy``), as
a volume still in use does: the reconciler's ``UnmountVolume`` is retried with the same
back-off, and a deleted pod's object stays on the API server until its volumes are gone
(``PodResourcesAreReclaimed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from minikubelet.go import sleep
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.sim.cri.scenario_values import (
    ScenarioError,
    as_mapping,
    check_keys,
    load_text,
    parse_duration,
    scenario_error,
)

VolumesAnnotation = "minikubelet.dev/volumes"

#: What a failed SetUp says when the script gives no ``error``.
DEFAULT_MOUNT_ERROR = "mount failed: exit status 32"
#: What a failed TearDown says when the script gives no ``tearDownError``.
DEFAULT_TEAR_DOWN_ERROR = "device or resource busy"


@dataclass(frozen=True, slots=True)
class VolumeScript:
    """How the SetUps of one volume go."""

    set_up_time: float = 0.0
    #: How many SetUps fail before one succeeds (``math.inf``: all of them).
    fail: float = 0
    error: str = DEFAULT_MOUNT_ERROR
    #: How many TearDowns fail before one succeeds (``math.inf``: all of them).
    tear_down_fail: float = 0
    tear_down_error: str = DEFAULT_TEAR_DOWN_ERROR


NO_SCRIPT = VolumeScript()


def parse_volume_scripts(value: Any, where: str) -> dict[str, VolumeScript]:
    """Volume name → its script, from an annotation's or a file entry's parsed value."""
    scripts: dict[str, VolumeScript] = {}
    for name, raw in as_mapping(value, where).items():
        at = f"{where}: {name}"
        m = as_mapping(raw, at)
        check_keys(m, ("setUpTime", "fail", "error", "tearDownFail", "tearDownError"), at)
        scripts[str(name)] = VolumeScript(
            set_up_time=parse_duration(m.get("setUpTime", 0), f"{at}: setUpTime"),
            fail=_count(m.get("fail", 0), f"{at}: fail"),
            error=_text(m.get("error", DEFAULT_MOUNT_ERROR), f"{at}: error"),
            tear_down_fail=_count(m.get("tearDownFail", 0), f"{at}: tearDownFail"),
            tear_down_error=_text(
                m.get("tearDownError", DEFAULT_TEAR_DOWN_ERROR), f"{at}: tearDownError"
            ),
        )
    return scripts


def _count(value: Any, at: str) -> float:
    """How many attempts fail: a count, or ``always`` (``math.inf``)."""
    if value == "always":
        return math.inf
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise scenario_error(
        at,
        f"expected a count (0, 1, 2 …) or always, got {value!r}",
        f"应为次数（0、1、2 …）或 always，实际为 {value!r}",
    )


def _text(value: Any, at: str) -> str:
    """The message of a failure: a string that says something."""
    if not isinstance(value, str):
        raise scenario_error(
            at, f"expected a string, got {value!r}", f"应为字符串，实际为 {value!r}"
        )
    if not value:
        raise scenario_error(
            at,
            "expected the message of the failure, got ''",
            "应为失败时的消息，实际为 ''",
        )
    return value


class VolumeScenario:
    """The scripts of the pods' volumes, and how many SetUps of each have been tried."""

    def __init__(self, file_scripts: dict[str, dict[str, VolumeScript]] | None = None) -> None:
        #: "namespace/name" → volume name → script, from the scenario file.
        self.file_scripts = file_scripts or {}
        #: (pod UID, volume name) → SetUps tried so far.
        self.attempts: dict[tuple[str, str], int] = {}
        #: (pod UID, volume name) → TearDowns tried so far.
        self.tear_downs: dict[tuple[str, str], int] = {}
        #: The pods whose volumes were set up, by UID: an unmounter knows only the UID.
        self.pods: dict[str, Pod] = {}

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
        self.pods[pod.metadata.uid] = pod
        script = self.script(pod, volume_name)
        if script.set_up_time > 0:
            await sleep(script.set_up_time)
        if self.next_attempt_fails(pod, volume_name, script):
            raise MountError(script.error)

    def tear_down(self, pod_uid: str, volume_name: str) -> None:
        """One TearDown of a pod's volume as its script says: maybe fail (the plugins call this
        at the start of ``TearDown``). A pod never set up here has no script."""
        pod = self.pods.get(pod_uid)
        if pod is None:
            return
        script = self.script(pod, volume_name)
        key = (pod_uid, volume_name)
        attempt = self.tear_downs.get(key, 0)
        self.tear_downs[key] = attempt + 1
        if attempt < script.tear_down_fail:
            raise MountError(script.tear_down_error)


__all__ = [
    "MountError",
    "ScenarioError",
    "VolumeScenario",
    "VolumeScript",
    "VolumesAnnotation",
]


class MountError(Exception):
    """A SetUp or TearDown the scenario makes fail; its message is the script's error."""
