"""Dead containers are pruned as they die: the ContainerDied branch of syncLoopIteration.

Go (v1.21.4 lines): pkg/kubelet/kubelet.go L1978-1982 (the branch) and L2268-2279
(cleanUpContainersInPod); pkg/kubelet/pod_container_deletor.go; L698 of kubelet.go keeps
max(--maximum-dead-containers-per-container, minDeadContainerInPod = 1) per container name.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    ContainerStateRunning,
    PodStatus,
    Status,
)
from minikubelet.pod_container_deletor import get_containers_to_delete_in_pod
from tests.test_cli import run_cli

CRASHER = """\
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata:
      name: crasher
      namespace: shop
      annotations:
        minikubelet.dev/scenario: "app: {runFor: 2s, exitCode: 1}"
    spec:
      containers: [{name: app, image: "busybox:1.33"}]
"""


def status(id_: str, name: str, created: float, state=ContainerStateExited) -> Status:
    return Status(id=ContainerID("fake", id_), name=name, state=state, created_at=created)


POD = PodStatus(
    id="uid",
    name="web",
    namespace="default",
    container_statuses=[
        status("a1", "app", 1),
        status("a3", "app", 3),
        status("a2", "app", 2),
        status("a4", "app", 4, ContainerStateRunning),
        status("s1", "sidecar", 1),
        status("s2", "sidecar", 2),
    ],
)


def ids(statuses: list[Status]) -> list[str]:
    return [s.id.id for s in statuses]


def test_only_exited_containers_of_the_dead_ones_name_past_the_newest_kept():
    """getContainersToDeleteInPod (pod_container_deletor.go L65-99)."""
    assert ids(get_containers_to_delete_in_pod("a3", POD, 1)) == ["a2", "a1"]
    assert ids(get_containers_to_delete_in_pod("a3", POD, 2)) == ["a1"]
    assert ids(get_containers_to_delete_in_pod("s2", POD, 1)) == ["s1"]
    assert ids(get_containers_to_delete_in_pod("a3", POD, 3)) == []
    # No filter (a deleted pod that has synced): every exited container, of every name.
    every = get_containers_to_delete_in_pod("", POD, 0)
    assert sorted(ids(every)) == ["a1", "a2", "a3", "s1", "s2"]
    assert [s.created_at for s in every] == [3, 2, 2, 1, 1]  # newest first


def test_an_unknown_container_deletes_nothing(capsys):
    from minikubelet.k8s_io.klog.v2 import klog

    klog.configure(verbosity=0, out=None)
    assert get_containers_to_delete_in_pod("gone", POD, 0) == []
    assert (
        '"Container not found in pod\'s containers" containerID="gone"' in capsys.readouterr().err
    )


def died_and_removed(out: str) -> tuple[list[str], list[str], list[str]]:
    died = re.findall(r"Type:ContainerDied Data:(\w+)\}", out)
    removed = re.findall(r'"Removing container" containerID="(\w+)"', out)
    gone = re.findall(r'containerID="(\w+)" oldState=exited newState=non-existent', out)
    return died, removed, gone


def test_a_crash_looping_pod_keeps_one_dead_container(tmp_path: Path):
    """Each ContainerDied (kubelet.go L1978-1982) prunes the app's older dead instances through
    the runtime's DeleteContainer (pod_container_deletor.go L46-61, L102-116); the PLEG's next
    relist sees them gone (exited → non-existent, pleg/generic.go generateEvents)."""
    script = tmp_path / "crash.yaml"
    script.write_text(CRASHER)
    code, out = run_cli("--api-script", str(script), "--until", "60s", "-v", "4")
    assert code == 0
    died, removed, gone = died_and_removed(out)
    assert len(died) == 4
    # Each death removes the one before it: the newest dead container is kept.
    assert removed == died[:-1]
    assert gone == died[:-1]
    # The removal follows the next death at the same instant: the same sync loop iteration.
    lines = out.splitlines()
    for older, newer in pairwise(died):
        death = next(i for i, line in enumerate(lines) if f"ContainerDied Data:{newer}" in line)
        removal = next(
            i
            for i, line in enumerate(lines)
            if f'"Removing container" containerID="{older}"' in line
        )
        assert removal > death
        assert lines[removal].split()[1] == lines[death].split()[1]  # same time of day
    # Restarts are still counted from the kept container's attempt.
    assert "shop/crasher                             Running    ready 0/1  restarts 3" in out


def test_the_flag_keeps_more(tmp_path: Path):
    script = tmp_path / "crash.yaml"
    script.write_text(CRASHER)
    code, out = run_cli(
        "--api-script",
        str(script),
        "--until",
        "60s",
        "-v",
        "4",
        "--maximum-dead-containers-per-container",
        "2",
    )
    assert code == 0
    died, removed, _ = died_and_removed(out)
    assert len(died) == 4
    assert removed == died[:-2]
