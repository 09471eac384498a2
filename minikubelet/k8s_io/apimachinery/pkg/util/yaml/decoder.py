"""A manifest's text → plain data: JSON as it is, YAML as kubelet's YAML library reads it.

Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go

kubelet calls ``ToJSON`` on a manifest before decoding it: a text that starts with ``{`` is JSON
already; anything else goes through sigs.k8s.io/yaml, which reads the **first** YAML document
only (whatever follows the first ``---`` is never even parsed). [`to_json`][] does the same
with PyYAML and returns the data itself rather than JSON text (the port decodes plain data).
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

__all__ = ["YAMLSyntaxError", "has_json_prefix", "to_json"]


class YAMLSyntaxError(ValueError):
    """The text as a whole could not be read (not YAML, or starts with ``{`` and is not JSON)."""


# The scalars PyYAML turns into ints and floats, minus YAML 1.1's base-60 numbers (``1:30`` is
# 90 to PyYAML): the YAML library kubelet uses keeps those as strings, and so do we.
_INT_RE = re.compile(
    r"""^(?:[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+)$""",
    re.X,
)
_FLOAT_RE = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)


class _ManifestLoader(yaml.SafeLoader):
    """PyYAML's safe loader, tuned to read scalars as kubelet's YAML library does.

    Dates and times stay strings (``value: 2021-07-15`` is the string ``"2021-07-15"``, not a
    date), and so do base-60 numbers.
    """


_ManifestLoader.yaml_implicit_resolvers = {
    first: [
        (tag, _INT_RE if tag.endswith(":int") else _FLOAT_RE if tag.endswith(":float") else rx)
        for tag, rx in resolvers
        if not tag.endswith(":timestamp")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def has_json_prefix(text: str) -> bool:
    """Does the text start (after blanks) with ``{``? Then kubelet reads it as JSON, not YAML.

    Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go hasJSONPrefix
    """
    return text.lstrip(" \t\r\n").startswith("{")


def to_json(text: str) -> Any:
    """The first document of ``text`` as plain data (``None`` for an empty text).

    Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go ToJSON

    Raises [`YAMLSyntaxError`][] with a message that says where the text breaks.
    """
    if has_json_prefix(text):
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise YAMLSyntaxError(
                f"not valid JSON (the text starts with '{{', so it is read as JSON, as kubelet "
                f"does): {err.msg} (line {err.lineno}, column {err.colno})"
            ) from None
    try:
        # The generator parses lazily: what follows the first document is never read.
        return next(iter(yaml.load_all(text, Loader=_ManifestLoader)), None)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise YAMLSyntaxError(f"not valid YAML: {problem}{where}") from None
