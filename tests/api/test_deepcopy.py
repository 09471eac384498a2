"""Deep copies of API objects: equal to the original, sharing nothing that can change."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateTerminated,
    ContainerStatus,
    PodCondition,
    PodStatus,
)
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy, reflective_copy
from tests.api.test_codec import strategy
from tests.api.test_roundtrip import SETTINGS, pod_cases


def shared_mutables(a, b, path="obj"):
    """The paths where the copy ``b`` holds the very same mutable object as ``a``."""
    found = []
    mutable = isinstance(a, list | dict) or (
        dataclasses.is_dataclass(a) and not type(a).__dataclass_params__.frozen
    )
    if mutable and a is b:
        found.append(path)
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found += shared_mutables(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        for key in a:
            found += shared_mutables(a[key], b[key], f"{path}[{key!r}]")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            found += shared_mutables(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    return found


@SETTINGS
@given(pod_cases())
def test_a_copied_pod_is_equal_and_shares_nothing_mutable(case):
    _, pod = case
    copy = deep_copy(pod)
    assert copy == pod
    assert type(copy) is type(pod)
    assert shared_mutables(pod, copy) == []


def test_changing_a_copied_status_leaves_the_original_alone():
    status = PodStatus(
        phase="Running",
        conditions=[PodCondition(type="Ready", status="True")],
        container_statuses=[
            ContainerStatus(
                name="app",
                restart_count=2,
                last_state=ContainerState(terminated=ContainerStateTerminated(exit_code=1)),
            )
        ],
    )
    copy = deep_copy(status)
    copy.conditions[0].status = "False"
    copy.container_statuses[0].last_state.terminated.exit_code = 137
    copy.container_statuses.append(ContainerStatus(name="sidecar"))
    assert status.conditions[0].status == "True"
    assert status.container_statuses[0].last_state.terminated.exit_code == 1
    assert [c.name for c in status.container_statuses] == ["app"]
    assert shared_mutables(status, deep_copy(status)) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(strategy(v1.Pod), strategy(v1.Node), strategy(v1.PodStatus)))
def test_each_generated_copy_function_equals_the_reflective_copy(obj):
    """Every field of every type is set (the generators fill them all), as the run-time walk of
    the fields copies it, and nothing mutable is shared, the fields shared by annotation included."""
    generated, reference = deep_copy(obj), reflective_copy(obj)
    assert generated == reference == obj
    assert shared_mutables(obj, generated) == []
    assert shared_mutables(obj, reference) == []
