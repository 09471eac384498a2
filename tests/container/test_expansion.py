"""``$(VAR)`` expansion: third_party/forked/golang/expansion and the helpers of
pkg/kubelet/container that use it (exec probe commands, a container's command and args).

Each expected value is what kubelet v1.21.4's own code gave for the same input (run through
``kubecontainer.ExpandContainerCommandOnlyStatic`` with Go 1.19), not what we think it should be.
"""

from __future__ import annotations

import pytest

from minikubelet.container.helpers import (
    expand_container_command_and_args,
    expand_container_command_only_static,
)
from minikubelet.container.runtime import EnvVar as RunEnvVar
from minikubelet.k8s_io.api.core.v1 import Container, EnvVar
from minikubelet.k8s_io.kubernetes.third_party.forked.golang.expansion.expand import (
    expand,
    mapping_func_for,
)

# The env of the Go run: a name listed twice (the last wins), an empty value, a valueFrom (no
# value: it expands to ""), and a value that itself holds a reference (not expanded again).
ENV = [
    EnvVar(name="VAR", value="val"),
    EnvVar(name="EMPTY", value=""),
    EnvVar(name="VAR", value="second"),
    EnvVar(name="FROM", value_from={"fieldRef": {"fieldPath": "metadata.name"}}),
    EnvVar(name="NESTED", value="$(VAR)"),
]

# (input, what Go printed)
GO_CASES = [
    ("$(VAR)", "second"),
    ("a$(VAR)b$(VAR)c", "asecondbsecondc"),
    ("$$(VAR)", "$(VAR)"),
    ("$$$(VAR)", "$second"),
    ("$(UNKNOWN)", "$(UNKNOWN)"),
    ("$(EMPTY)x", "x"),
    ("$(FROM)", ""),
    ("$(NESTED)", "$(VAR)"),
    ("$()", "$()"),
    ("$(VAR", "$(VAR"),
    ("$", "$"),
    ("x$", "x$"),
    ("$x", "$x"),
    ("$$", "$"),
    ("100$ (not a ref)", "100$ (not a ref)"),
    ("$(A B)", "$(A B)"),
    ("$(VAR)$(VAR)", "secondsecond"),
    ("sh -c 'echo $(VAR) > /tmp/$(VAR)'", "sh -c 'echo second > /tmp/second'"),
]


@pytest.mark.parametrize(("text", "want"), GO_CASES)
def test_expand_only_static_as_go_did(text: str, want: str) -> None:
    assert expand_container_command_only_static([text], ENV) == [want]


def test_a_lone_dollar_before_a_multibyte_character_keeps_gos_byte_walk() -> None:
    # Go converts the byte after a lone "$" to a rune: "$é" (0xC3 0xA9) writes U+00C3 and then
    # the lone byte 0xA9, which is not valid UTF-8 on its own.
    out = expand("$é", mapping_func_for({}))
    assert out.encode("utf-8", "surrogateescape") == b"$\xc3\x83\xa9"
    assert expand("é$(VAR)ü", mapping_func_for({"VAR": "ß"})) == "éßü"


def test_no_command_expands_to_none() -> None:
    assert expand_container_command_only_static([], ENV) == []


def test_the_first_map_that_has_a_name_wins() -> None:
    mapping = mapping_func_for({"A": "1"}, {"A": "2", "B": "3"})
    assert expand("$(A)$(B)$(C)", mapping) == "13$(C)"


def test_command_and_args_expand_from_the_resolved_env() -> None:
    c = Container(name="app", image="busybox", command=["echo", "$(GREETING)"], args=["$(WHO)!"])
    envs = [RunEnvVar(name="GREETING", value="hello"), RunEnvVar(name="WHO", value="world")]
    assert expand_container_command_and_args(c, envs) == (["echo", "hello"], ["world!"])
