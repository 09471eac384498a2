"""The manifest codec declared by the dataclasses: names, Go's decoding rules, and a round trip of
every field of every type (generated from the dataclasses themselves, so a new field is covered
without a new test)."""

import dataclasses
import enum
import types
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.go.ints import Bits
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity, parse_quantity
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import (
    json_name,
    marshal,
    unmarshal,
)


class Problems(list):
    def add(self, path, message):
        self.append((path, message))


def decode(data: Any, into: type) -> tuple[Any, list]:
    problems = Problems()
    return unmarshal(data, into, problems), problems


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("image_pull_policy", "imagePullPolicy"),
        ("host_ip", "hostIP"),
        ("pod_ip", "podIP"),
        ("pod_ips", "podIPs"),
        ("container_id", "containerID"),
        ("image_id", "imageID"),
        ("host_pid", "hostPID"),
        ("host_ipc", "hostIPC"),
        ("http_get", "httpGet"),
        ("uid", "uid"),
        ("ip", "ip"),
    ],
)
def test_names_are_go_json_tags(name, expected):
    assert json_name(name) == expected


def test_unknown_fields_are_ignored_and_missing_or_null_ones_keep_their_default():
    port, problems = decode(
        {"containerPort": 80, "nonsense": [1], "protocol": None}, v1.ContainerPort
    )
    assert problems == []
    assert port == v1.ContainerPort(container_port=80, protocol=v1.ProtocolTCP)


def test_a_field_without_a_default_gets_go_s_zero_value():
    container, problems = decode({}, v1.Container)
    assert problems == [] and (container.name, container.image) == ("", "")


def test_an_empty_enum_is_not_set():
    spec, problems = decode({"restartPolicy": "", "dnsPolicy": "Default"}, v1.PodSpec)
    assert problems == []
    assert (spec.restart_policy, spec.dns_policy) == (v1.RestartPolicyAlways, v1.DNSDefault)


def test_go_integer_widths_and_no_coercion():
    _, problems = decode(
        {"exitCode": 2**31, "signal": True, "restartCount": "1"}, v1.ContainerStateTerminated
    )
    assert problems == [
        ("exitCode", "2147483648 is out of range (a 32-bit integer)"),
        ("signal", "expected an integer, got a boolean (true)"),
    ]
    status, problems = decode({"restartCount": "1"}, v1.ContainerStatus)
    assert problems == [("restartCount", 'expected an integer, got a string ("1")')]
    assert status.restart_count == 0


def test_an_inline_struct_takes_its_keys_from_the_parent():
    volume, problems = decode({"name": "v", "hostPath": {"path": "/"}, "other": {}}, v1.Volume)
    assert problems == []
    assert volume == v1.Volume(name="v", volume_source={"hostPath": {"path": "/"}})
    assert marshal(volume) == {"name": "v", "hostPath": {"path": "/"}}


def test_marshal_writes_a_zero_that_differs_from_the_default():
    # timeoutSeconds defaults to 1: a 0 must be written, or it would load back as 1.
    probe = v1.Probe(timeout_seconds=0, period_seconds=10)
    assert marshal(probe) == {"timeoutSeconds": 0, "periodSeconds": 10, "successThreshold": 1,
                              "failureThreshold": 3}  # fmt: skip


# --- every field of every type, generated from the dataclasses ----------------------------------

texts = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), max_size=8
)
plain = st.dictionaries(texts, st.one_of(texts, st.integers(-5, 5), st.booleans()), max_size=2)
times = st.integers(0, 4_000_000_000 * 10**6).map(lambda us: us / 10**6)
quantities = st.sampled_from(["500m", "1", "0.5", "128Mi", "1G", "1e3", "2Ki"]).map(parse_quantity)


def _not_none(tp: Any) -> Any:
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return inner
    return tp


def strategy(tp: Any) -> st.SearchStrategy:
    """Values of a field's type, read off its annotation as the codec reads it."""
    if typing.get_origin(tp) is typing.Annotated:
        base, *metadata = typing.get_args(tp)
        for meta in metadata:
            if isinstance(meta, Bits):
                return st.integers(meta.min, meta.max)
            if hasattr(meta, "unmarshal_json"):
                return times
        return strategy(base)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args:
            (inner,) = [a for a in args if a is not type(None)]
            return st.one_of(st.none(), strategy(inner))
        return st.one_of(st.integers(0, 65535), texts)  # int | str
    if origin is list:
        return st.lists(strategy(args[0]), max_size=2)
    if origin is dict:
        return plain if args[1] is Any else st.dictionaries(texts, strategy(args[1]), max_size=2)
    if tp is Quantity:
        return quantities
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        fields = {}
        for f in dataclasses.fields(tp):
            if f.metadata.get("json") == ",inline":
                fields[f.name] = st.dictionaries(
                    st.sampled_from(f.metadata["keys"]), plain, max_size=2
                )
            elif f.default is not None and f.default is not dataclasses.MISSING:
                # Optional with a default of its own (a grace period of 30 s): None is what
                # defaulting replaces, never a value a loaded pod has.
                fields[f.name] = strategy(_not_none(hints[f.name]))
            else:
                fields[f.name] = strategy(hints[f.name])
        return st.builds(tp, **fields)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    return {str: texts, bool: st.booleans(), int: st.integers(-(2**63), 2**63 - 1)}[tp]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(strategy(v1.Pod), strategy(v1.Node)))
def test_every_field_of_every_type_marshals_and_loads_back_equal(obj):
    data = marshal(obj)
    back, problems = decode(data, type(obj))
    assert problems == []
    assert back == obj
