"""Exercise ch02/pleg-events: turn a container's change of state into PLEG events.
练习 ch02/pleg-events：把容器状态的变化变成 PLEG 事件。

Below is the port's ``generate_events`` (minikubelet/pleg/generic.py), with only its first case
left. Fill in the TODOs, then run:
下面是移植版的 ``generate_events``（minikubelet/pleg/generic.py），只留下了第一个分支。补全其中的
TODO，然后运行：

    python -m walkthrough check pleg-events
"""

from __future__ import annotations

from minikubelet.pleg.generic import (
    ContainerChanged,
    ContainerDied,
    ContainerRemoved,
    ContainerStarted,
    PlegContainerState,
)
from minikubelet.pleg.pleg import PodLifecycleEvent
from minikubelet.sim import klog

#: What this module offers; the event types are for the code you write.
__all__ = ["ContainerChanged", "ContainerDied", "ContainerRemoved", "generate_events"]


def generate_events(
    pod_id: str, cid: str, old_state: PlegContainerState, new_state: PlegContainerState
) -> list[PodLifecycleEvent]:
    """The events for one container going from ``old_state`` to ``new_state``.

    Go: pkg/kubelet/pleg/generic.go generateEvents
    """
    if new_state == old_state:
        return []

    klog.v(4).info_s(
        "GenericPLEG", podUID=pod_id, containerID=cid, oldState=old_state, newState=new_state
    )
    match new_state:
        # Go: case plegContainerRunning:
        case PlegContainerState.RUNNING:
            return [PodLifecycleEvent(id=pod_id, type=ContainerStarted, data=cid)]
        # Go: case plegContainerExited:
        case PlegContainerState.EXITED:
            # exercise: # TODO 1: the container exited: it died.
            # exercise: return []
            # SOLUTION BEGIN
            return [PodLifecycleEvent(id=pod_id, type=ContainerDied, data=cid)]
            # SOLUTION END
        # Go: case plegContainerUnknown:
        case PlegContainerState.UNKNOWN:
            # exercise: # TODO 2: kubelet cannot tell what happened: the container changed.
            # exercise: return []
            # SOLUTION BEGIN
            return [PodLifecycleEvent(id=pod_id, type=ContainerChanged, data=cid)]
            # SOLUTION END
        # Go: case plegContainerNonExistent:
        case PlegContainerState.NON_EXISTENT:
            # exercise: # TODO 3: the container is gone. If the last relist saw it exited, its death
            # exercise: #   was reported then: it was only removed. Otherwise it died *and* was
            # exercise: #   removed between two relists: two events, in that order.
            # exercise: return []
            # SOLUTION BEGIN
            match old_state:
                # Go: case plegContainerExited:
                case PlegContainerState.EXITED:
                    # Its ContainerDied went out in an earlier relist.
                    return [PodLifecycleEvent(id=pod_id, type=ContainerRemoved, data=cid)]
                # Go: default:
                case _:
                    return [
                        PodLifecycleEvent(id=pod_id, type=ContainerDied, data=cid),
                        PodLifecycleEvent(id=pod_id, type=ContainerRemoved, data=cid),
                    ]
            # SOLUTION END
        # Go: default:
        case _:
            raise RuntimeError(f"unrecognized container state: {new_state}")  # Go: panic
