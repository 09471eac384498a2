"""The memo behind ``HashContainer`` (ours) gives the hash a fresh computation gives."""

from __future__ import annotations

import pytest

from minikubelet.container import helpers
from minikubelet.container.helpers import hash_container
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import go_json
from minikubelet.k8s_io.kubernetes.pkg.util.hash import hash as hashutil


def fresh(container: v1.Container) -> int:
    """HashContainer as Go computes it, without the memo."""
    hasher = hashutil.Fnv32a()
    hashutil.deep_hash_object(hasher, go_json.container_json(container))
    return hasher.sum32()


def containers() -> list[v1.Container]:
    return [
        v1.Container(name="app", image="busybox:1.34"),
        v1.Container(name="app", image="busybox:1.36"),
        v1.Container(name="web", image="nginx", command=["sh", "-c", "echo <ok> & exit"]),
        v1.Container(
            name="env",
            image="busybox",
            env=[v1.EnvVar(name="QUOTE", value='a "b" \\ c\n\u2028é')],
            ports=[v1.ContainerPort(container_port=80, name="http")],
        ),
    ]


def test_the_memo_gives_the_fresh_hash_the_first_time_and_after() -> None:
    helpers._HASH_BY_JSON.clear()
    for c in containers():
        assert hash_container(c) == fresh(c)
        assert hash_container(c) == fresh(c)  # now from the memo
    assert len(helpers._HASH_BY_JSON) == len(containers())


def test_a_container_changed_in_place_is_hashed_again() -> None:
    c = v1.Container(name="app", image="busybox:1.34")
    before = hash_container(c)
    c.image = "busybox:1.36"
    after = hash_container(c)
    assert after == fresh(c)
    assert after != before


def test_a_full_memo_is_emptied_and_stays_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helpers, "_HASH_MEMO_SIZE", 3)
    helpers._HASH_BY_JSON.clear()
    many = [v1.Container(name=f"c{i}", image="busybox") for i in range(10)]
    for c in many * 2:
        assert hash_container(c) == fresh(c)
        assert len(helpers._HASH_BY_JSON) <= 3
