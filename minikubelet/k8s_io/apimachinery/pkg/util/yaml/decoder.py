"""A manifest's text → plain data: JSON as it is, YAML as kubelet's YAML library reads it.

Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go

kubelet calls ``ToJSON`` on a manifest before decoding it: a text that starts with ``{`` is JSON
already; anything else goes through sigs.k8s.io/yaml (on gopkg.in/yaml.v2 v2.4.0), which reads
the **first** YAML document only (whatever follows the first ``---`` is never even parsed).
[`to_json`][] does the same and returns the data itself rather than JSON text (the port decodes
plain data).

How YAML is read, and what is ours:

* **Parsing** is libyaml's (PyYAML's ``CSafeLoader``: about eight times as fast as the pure
  Python loader); where PyYAML was built without libyaml, its pure Python parser does the same
  work. Scalars resolve as go-yaml resolves them: no base-60 numbers, no implicit dates,
  ``1_000`` is 1000, an integer too large for 64 bits is a float, or else a string.
* **Building the data** is ours, and keeps go-yaml's limits: nesting deeper than libyaml allows
  (1000 levels; go-yaml allows 10000) is refused, an alias may not contain itself, and a
  document made mostly of alias expansion is refused with go-yaml's own message, ``document
  contains excessive aliasing``, by go-yaml's rule (decode.go, ``allowedAliasRatio``: once more
  than 100 of more than 1000 decoded nodes come from aliases, at most 99% of them may, falling
  to 10% between 400,000 and 4,000,000 nodes). A billion-laughs document fails after a few
  thousand nodes instead of filling memory.
* **Depth** (ours): a value nested more than `MAX_DEPTH` (100) levels deep, in YAML or JSON,
  is refused with the path of the first value too deep. Go's decoders allow more, but every
  later step of the port (copying a pod, hashing it, writing it) walks a value by recursion,
  which Python's stack bounds; a real pod's deepest field is about ten levels down.
* **Values** become what sigs.k8s.io/yaml turns them into: ``!!binary`` is decoded to a string,
  ``!!timestamp`` keeps its text, a ``!!set`` is a mapping, scalar keys become strings
  (``1`` → ``"1"``, ``true`` → ``"true"``); a null or a collection as a key is an error.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from typing import Any

import yaml

from minikubelet.base.i18n import both

__all__ = [
    "MAX_DEPTH",
    "YAMLSyntaxError",
    "has_json_prefix",
    "json_loads",
    "loader_class",
    "to_json",
    "yaml_to_json",
]


class YAMLSyntaxError(ValueError):
    """The text as a whole could not be read (not YAML, or starts with ``{`` and is not JSON).

    Its message is [`Bilingual`][minikubelet.base.i18n.Bilingual]; the words of libyaml and
    go-yaml (``document contains excessive aliasing``) stay as those libraries write them.
    """


def _not_yaml(problem: str, zh: str | None = None) -> YAMLSyntaxError:
    """``not valid YAML: <problem>``, with the Chinese ``zh`` (or the library's own words)."""
    return YAMLSyntaxError(both(f"not valid YAML: {problem}", f"不是合法的 YAML：{zh or problem}"))


# The scalars PyYAML's resolver calls ints and floats, minus YAML 1.1's base-60 numbers (``1:30``
# is 90 to PyYAML): go-yaml keeps those as strings, and so do we.
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
# go-yaml's yamlStyleFloat: what it parses as a float when an integer does not fit in 64 bits.
_GO_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
# Go's strconv.ParseInt with base 0 (after go-yaml drops the underscores).
_GO_INT_RE = re.compile(r"^[-+]?(0[bB][01]+|0[oO][0-7]+|0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$")


def loader_class(base: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """A YAML parser on ``base`` (libyaml's or PyYAML's pure Python one) with go-yaml's scalar
    resolution: PyYAML's implicit resolvers, less dates and base-60 numbers. Only its composer
    is used."""
    rules = {
        first: [
            (tag, _INT_RE if tag.endswith(":int") else _FLOAT_RE if tag.endswith(":float") else rx)
            for tag, rx in resolvers
            if not tag.endswith(":timestamp")
        ]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return type("Loader", (base,), {"yaml_implicit_resolvers": rules})


# libyaml when PyYAML has it (it does in every wheel PyPI serves), its pure Python parser if not.
_Loader = loader_class(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def has_json_prefix(data: str | bytes) -> bool:
    """Does the text start (after blanks) with ``{``? Then kubelet reads it as JSON, not YAML.

    Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go hasJSONPrefix
    """
    if isinstance(data, bytes):
        return data.lstrip(b" \t\r\n").startswith(b"{")
    return data.lstrip(" \t\r\n").startswith("{")


def to_json(data: str | bytes) -> Any:
    """The first document of ``data`` as plain data (``None`` for an empty text).

    Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go ToJSON

    ``data`` may be the bytes of a file or a response: YAML must then be UTF-8 (or UTF-16 with
    a byte order mark), as go-yaml requires; in JSON, bytes that are not UTF-8 become U+FFFD,
    as Go's JSON decoder makes them. Raises [`YAMLSyntaxError`][] with a message that says
    where the text breaks.
    """
    if has_json_prefix(data):
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        return json_loads(data)
    return yaml_to_json(data)


def yaml_to_json(data: str | bytes) -> Any:
    """The first YAML document of ``data`` as plain data (``None`` for an empty one).

    What sigs.k8s.io/yaml's ``YAMLToJSON`` gives kubelet; for YAML of our own (annotations,
    scenarios, scripts) as well as manifests. Raises [`YAMLSyntaxError`][].
    """
    loader = _Loader(data)
    try:
        node = loader.get_node() if loader.check_node() else None
    except yaml.reader.ReaderError as err:
        raise _not_yaml(
            f"{err.reason} at byte {err.position}", f"{err.reason}（第 {err.position} 字节）"
        ) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        if mark is None:
            raise _not_yaml(problem) from None
        line, column = mark.line + 1, mark.column + 1
        raise _not_yaml(
            f"{problem} (line {line}, column {column})",
            f"{problem}（第 {line} 行，第 {column} 列）",
        ) from None
    except RecursionError:  # the pure Python composer, on nesting libyaml would refuse
        raise _not_yaml("exceeded maximum nesting depth") from None
    finally:
        loader.dispose()
    if node is None:
        return None
    data = _Builder().build(node)
    too_deep = _too_deep(data) if isinstance(data, dict | list) else None
    if too_deep:
        raise _not_yaml(*too_deep)
    return data


def json_loads(text: str) -> Any:
    """JSON text as plain data, with Go's limits; raises [`YAMLSyntaxError`][].

    Python's ``json`` takes ``NaN`` and ``Infinity``, which Go's decoder refuses, and turns a
    number of any length into an ``int``; here a number too long for 64 bits is a float.
    """
    try:
        data = json.loads(text, parse_int=_json_int, parse_constant=_no_constant)
        too_deep = _too_deep(data) if isinstance(data, dict | list) else None
        if not too_deep:
            return data
        problem, zh = too_deep
    except RecursionError:
        problem, zh = f"nested more than {MAX_DEPTH} levels deep", f"嵌套超过 {MAX_DEPTH} 层"
    except json.JSONDecodeError as err:
        problem = f"{err.msg} (line {err.lineno}, column {err.colno})"
        zh = f"{err.msg}（第 {err.lineno} 行，第 {err.colno} 列）"
    except ValueError as err:
        problem = zh = str(err)
    raise YAMLSyntaxError(
        both(
            "not valid JSON (the text starts with '{', so it is read as JSON, as kubelet does): "
            + problem,
            "不是合法的 JSON（内容以 '{' 开头，所以和 kubelet 一样按 JSON 读取）：" + zh,
        )
    ) from None


def _json_int(text: str) -> int | float:
    return int(text) if len(text) <= 20 else float(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


#: The deepest nesting of mappings and lists read (ours; see the module docstring).
MAX_DEPTH = 100
_PATH_SHOWN = 80  # characters of the too-deep value's path an error shows


def _too_deep(data: Any) -> tuple[str, str] | None:
    """(en, zh) naming the first mapping or list nested deeper than `MAX_DEPTH`, or None.

    Iterative: the data may be as deep as the parser allowed. Only collections are visited;
    a path is a link to its parent (``(parent, key or index)``), written out only if reported.
    """
    work: list[tuple[Any, int, Any]] = [(data, 1, None)]
    while work:
        value, depth, path = work.pop()
        if depth > MAX_DEPTH:
            where = _path_text(path)
            return (
                f"nested more than {MAX_DEPTH} levels deep at {where}",
                f"在 {where} 处嵌套超过 {MAX_DEPTH} 层",
            )
        items = value.items() if isinstance(value, dict) else enumerate(value)
        work.extend((v, depth + 1, (path, k)) for k, v in items if isinstance(v, dict | list))
    return None


def _path_text(path: Any) -> str:
    """``spec.volumes[0].emptyDir``, each key and the whole cut short with an ellipsis."""
    steps = []
    while path is not None:
        path, key = path
        if isinstance(key, int):
            steps.append(f"[{key}]")
        else:
            steps.append("." + (key if len(key) <= 40 else key[:39] + "…"))
    text = "".join(reversed(steps)).removeprefix(".")
    return text if len(text) <= _PATH_SHOWN else text[: _PATH_SHOWN - 1] + "…"


# --- Building the data ---------------------------------------------------------------------

_TAG = "tag:yaml.org,2002:"
_BOOLS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}
# go-yaml v2.4.0, decode.go: below 400,000 decoded nodes 99% may come from aliases, above
# 4,000,000 10%, and in between the share falls in a straight line.
_ALIAS_RATIO_RANGE = (400_000, 4_000_000)


def _allowed_alias_ratio(decoded: int) -> float:
    low, high = _ALIAS_RATIO_RANGE
    if decoded <= low:
        return 0.99
    if decoded >= high:
        return 0.10
    return 0.99 - 0.89 * (decoded - low) / (high - low)


class _Builder:
    """Plain data from a composed node graph, counting as go-yaml's decoder counts.

    The graph shares a node wherever the text has an alias; each visit of a node already seen
    is an alias expansion, and everything built below it counts as aliased. The walk is
    iterative (a deep document cannot overflow Python's stack): a scalar is built where it
    stands, a collection is put in its place at once and filled when its turn comes.
    """

    def __init__(self) -> None:
        self.decoded = 0
        self.aliased = 0
        self.seen: set[int] = set()
        self.open: set[int] = set()  # collections being filled: a visit of one is a recursion

    def count(self, depth: int) -> None:
        """One node decoded, ``depth`` aliases deep."""
        self.decoded += 1
        if depth > 0:
            self.aliased += 1
        if (
            self.aliased > 100
            and self.decoded > 1000
            and self.aliased / self.decoded > _allowed_alias_ratio(self.decoded)
        ):
            raise _not_yaml("document contains excessive aliasing")

    def value(self, node: yaml.Node, work: list[Any], depth: int) -> Any:
        """A scalar's value, or a new empty collection that ``work`` fills later."""
        if id(node) in self.open:
            raise _not_yaml("an anchor's value contains itself", "锚点的值包含了它自己")
        if id(node) in self.seen:
            self.count(depth)  # the alias itself; its value is one level of aliasing deeper
            depth += 1
        else:
            self.seen.add(id(node))
        self.count(depth)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        out: list[Any] | dict[str, Any] = [] if isinstance(node, yaml.SequenceNode) else {}
        work.append((_FILL, node, out, depth))
        return out

    def build(self, root: yaml.Node) -> Any:
        # (_FILL, node, collection, depth): fill the collection from the node's children;
        # (_MERGE, node, mapping, entries): set a mapping's entries once its children are built;
        # (_END, node, None, None): every value below the node is built.
        work: list[tuple[int, yaml.Node, Any, Any]] = []
        result = self.value(root, work, 0)
        while work:
            step, node, out, extra = work.pop()
            if step == _END:
                self.open.discard(id(node))
            elif step == _MERGE:
                for key, value in extra:
                    if key is None:
                        _merge(out, value)
                    else:
                        out[key] = value
            else:
                depth = extra
                self.open.add(id(node))
                work.append((_END, node, None, None))
                if isinstance(out, list):
                    out.extend(self.value(child, work, depth) for child in node.value)
                elif any(_is_merge(key) for key, _ in node.value):
                    # A merge needs its value built, and goes between the keys around it.
                    entries: list[tuple[str | None, Any]] = []
                    work.append((_MERGE, node, out, entries))
                    for key, child in node.value:
                        self.count(depth)  # go-yaml decodes every key, as every value
                        name = None if _is_merge(key) else _key(key)
                        entries.append((name, self.value(child, work, depth)))
                else:
                    for key, child in node.value:
                        self.count(depth)
                        out[_key(key)] = self.value(child, work, depth)
        return result


_FILL, _MERGE, _END = 0, 1, 2


def _is_merge(key: yaml.Node) -> bool:
    return isinstance(key, yaml.ScalarNode) and key.tag == _TAG + "merge"


def _merge(mapping: dict[str, Any], value: Any) -> None:
    """A ``<<`` merge key: its mapping's entries, or those of its list of mappings (the first
    mapping wins a key), as go-yaml merges them, in the order the keys are written."""
    if isinstance(value, dict):
        mapping.update(value)
    elif isinstance(value, list) and all(isinstance(m, dict) for m in value):
        for merged in reversed(value):
            mapping.update(merged)
    else:
        raise _not_yaml("map merge requires map or sequence of maps as the value")


def _key(node: yaml.Node) -> str:
    """A mapping key as sigs.k8s.io/yaml turns it into a JSON object's key."""
    if not isinstance(node, yaml.ScalarNode):
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
        raise _not_yaml(f"invalid map key: {kind}")
    value = _scalar(node)
    if value is None:
        raise _not_yaml("invalid map key: null")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return (
            ".nan"
            if math.isnan(value)
            else ".inf"
            if value > 0 and math.isinf(value)
            else ("-.inf" if math.isinf(value) else format(value, "g"))
        )
    return str(value)


def _scalar(node: yaml.ScalarNode) -> Any:
    """A scalar's value, by the tag the resolver (or the text) gave it, as go-yaml reads it."""
    tag, text = node.tag, node.value
    if not tag.startswith(_TAG):
        return text  # a tag of the document's own: the text, as go-yaml keeps it
    kind = tag.removeprefix(_TAG)
    if kind == "null":
        return None
    if kind == "bool":
        value = _BOOLS.get(text.lower())
        if value is not None:
            return value
    elif kind == "int":
        number = _go_number(text)
        if not isinstance(number, str) or _INT_RE.match(text):
            return number  # a plain number too big for 64 bits stays text, as in go-yaml
    elif kind == "float":
        special = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}
        if text.lower() in special:
            return special[text.lower()]
        number = _go_number(text)
        if not isinstance(number, str):
            return float(number)
        if _FLOAT_RE.match(text):
            return number
    elif kind == "binary":
        try:
            data = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise _not_yaml("!!binary value contains invalid base64 data") from None
        return data.decode("utf-8", "replace")
    else:
        return text  # str, timestamp (kept as written), merge, and YAML's other types
    raise _not_yaml(f"cannot decode !!str `{_short(text)}` as a !!{kind}")


def _go_number(text: str) -> int | float | str:
    """A plain scalar as go-yaml resolves a number: an int if it fits in 64 bits, else a finite
    float if it looks like one, else the text itself."""
    plain = text.replace("_", "")
    # An int64 or uint64 has at most 64 binary digits, plus a sign and a base prefix.
    if len(plain) <= 67 and _GO_INT_RE.match(plain):
        sign, digits = (-1, plain[1:]) if plain[0] == "-" else (1, plain.lstrip("+"))
        if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
            value = sign * int(digits, 8)  # Go reads a leading 0 as octal
        else:
            value = sign * int(digits, 0)
        if -(2**63) <= value < 2**64:
            return value
    if _GO_FLOAT_RE.match(plain):
        real = float(plain)  # no length limit, unlike int(): huge becomes inf
        if math.isfinite(real):
            return real
    return text


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
