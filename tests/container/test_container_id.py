"""ContainerID's equality (ours, written out) is the comparison of its fields, hash included."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from minikubelet.container.runtime import ContainerID

names = st.sampled_from(["", "containerd", "docker", "a", "0123abcd"])


@given(names, names, names, names)
def test_equal_exactly_when_type_and_id_are(t1: str, i1: str, t2: str, i2: str) -> None:
    a, b = ContainerID(t1, i1), ContainerID(t2, i2)
    assert (a == b) == ((t1, i1) == (t2, i2))
    assert (a != b) == ((t1, i1) != (t2, i2))
    if a == b:
        assert hash(a) == hash(b)
    assert a == a
    assert (a < b) == ((t1, i1) < (t2, i2))


def test_not_equal_to_other_types() -> None:
    assert ContainerID("containerd", "x") != ("containerd", "x")
    assert ContainerID("containerd", "x") != "containerd://x"
    assert ContainerID().is_empty()
    assert {ContainerID("d", "x"): 1}[ContainerID("d", "x")] == 1
