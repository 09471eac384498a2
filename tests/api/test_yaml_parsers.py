"""libyaml's parser (what runs) and PyYAML's pure Python one (where PyYAML lacks libyaml) give
the same data and the same errors, so the port behaves alike on every install (#18 item 13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from minikubelet.k8s_io.apimachinery.pkg.util.yaml import decoder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))
PURE = decoder.loader_class(yaml.SafeLoader)

pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")


def both_ways(text: str) -> tuple[object, object]:
    """What yaml_to_json gives (the data, or the error's message) with each parser."""
    results = []
    for loader in (decoder._Loader, PURE):
        original = decoder._Loader
        decoder._Loader = loader
        try:
            results.append(decoder.yaml_to_json(text))
        except decoder.YAMLSyntaxError as err:
            # The two parsers word a syntax error differently; where it is, they agree on.
            results.append(("error", re.findall(r"line \d+, column \d+", str(err))))
        finally:
            decoder._Loader = original
    return results[0], results[1]


def test_libyaml_is_the_parser_used():
    assert issubclass(decoder._Loader, yaml.CSafeLoader)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_reads_the_same(path):
    fast, pure = both_ways(path.read_text(encoding="utf-8"))
    assert fast == pure


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 2000 + "]" * 2000,
        "a: &a [*a]",
        "a: 0x1F\nb: 1_000\nc: 0777\nd: 1:30\ne: 2021-07-15\nf: .inf\ng: yes\nh: ~\n",
        "a: " + "9" * 30 + "\nb: 1e400\n",
        "<<: {a: 1}\nb: 2\n",
        "a: !!binary aGVsbG8=\nb: !!set {x}\n",
    ],
    ids=["deep", "recursive", "scalars", "big-numbers", "merge", "tags"],
)
def test_hostile_and_odd_texts_read_the_same(text):
    fast, pure = both_ways(text)
    if text.startswith("a: [[["):
        assert fast[0] == pure[0] == "error"  # libyaml says where; the pure parser cannot
    else:
        assert fast == pure


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=20,
    ),
    st.booleans(),
)
def test_any_dumped_data_reads_the_same(data, flow):
    fast, pure = both_ways(yaml.safe_dump(data, default_flow_style=flow))
    assert fast == pure
