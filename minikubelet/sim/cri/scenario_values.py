"""The values of a scenario: durations, mappings with known fields, and errors that say where.

Not a port; see [`minikubelet.sim.cri.scenario`][minikubelet.sim.cri.scenario] for the format.
"""

from __future__ import annotations

import math
from typing import Any

from minikubelet.base.i18n import both
from minikubelet.go.duration import parse_duration as go_parse_duration
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import cut, shown
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import YAMLSyntaxError, yaml_to_json


class ScenarioError(ValueError):
    """A scenario (annotation or file) that does not parse; the message says where.

    Its message is [`Bilingual`][minikubelet.base.i18n.Bilingual]; where it is (a file, a pod's
    annotation, then the keys down to the value) reads the same in both languages.
    """


def scenario_error(where: str, en: str, zh: str) -> ScenarioError:
    return ScenarioError(both(f"{where}: {en}", f"{where}：{zh}"))


#: The longest Go duration (int64 nanoseconds), in seconds.
_MAX_DURATION = (2**63 - 1) / 1e9


def parse_duration(value: Any, where: str) -> float:
    """Seconds from ``5s``, ``1m30s``, ``500ms`` (Go's ``time.ParseDuration``) or a number."""
    if isinstance(value, bool):
        raise scenario_error(
            where,
            f"expected a duration like 5s, got {shown(value)}",
            f"应为 5s 这样的时长，实际为 {shown(value)}",
        )
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        try:
            seconds = go_parse_duration(value)
        except ValueError as e:
            bad = str(e).replace(value, cut(value, 60))
            raise scenario_error(
                where,
                f"{bad} (expected a duration like 5s or 1m30s)",
                f"{bad}（应为 5s 或 1m30s 这样的时长）",
            ) from None
    else:
        raise scenario_error(
            where,
            f"expected a duration like 5s, 1m30s or 500ms, got {shown(value)}",
            f"应为 5s、1m30s 或 500ms 这样的时长，实际为 {shown(value)}",
        )
    if not math.isfinite(seconds):
        raise scenario_error(
            where,
            f"expected a duration like 5s, got {shown(value)}",
            f"应为 5s 这样的时长，实际为 {shown(value)}",
        )
    if seconds < 0:
        raise scenario_error(
            where,
            f"a duration cannot be negative ({shown(value)})",
            f"时长不能为负数（{shown(value)}）",
        )
    if seconds > _MAX_DURATION:
        # Go's durations are int64 nanoseconds: about 292 years at most.
        raise scenario_error(
            where,
            f"a duration cannot be longer than 2562047h47m16s ({shown(value)})",
            f"时长不能超过 2562047h47m16s（{shown(value)}）",
        )
    return seconds


def as_mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise scenario_error(
            where, f"expected a mapping, got {shown(value)}", f"应为映射，实际为 {shown(value)}"
        )
    return value


def check_keys(m: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for k in m:
        if k not in allowed:
            names = ", ".join(allowed)
            raise scenario_error(
                where,
                f"unknown field {shown(k)} (expected one of {names})",
                f"未知字段 {shown(k)}（应为 {names} 之一）",
            )


def load_text(text: str | bytes, where: str) -> Any:
    """The value of an annotation's or a file's YAML (or JSON) text."""
    try:
        return yaml_to_json(text)
    except YAMLSyntaxError as e:
        problem = str(e).removeprefix("not valid YAML: ")
        problem_zh = e.args[0].zh.removeprefix("不是合法的 YAML：")
        raise scenario_error(
            where, f"not YAML or JSON: {problem}", f"不是 YAML 或 JSON：{problem_zh}"
        ) from None


def by_pod(m: dict[str, Any], section: str, where: str, label: str, parse: Any) -> Any:
    """``namespace/name`` → the parsed script, for one section of a scenario file."""
    out = {}
    for pod, script in as_mapping(m.get(section), f"{where}: {section}").items():
        if "/" not in str(pod):
            raise scenario_error(
                f"{where}: {section}: {shown(pod)}",
                "expected namespace/name",
                "应为“命名空间/名称”的形式",
            )
        out[str(pod)] = parse(script, f"{where}: {label} {cut(str(pod))}")
    return out


_annotation_cache: dict[tuple[str, str], Any] = {}


def cached_annotation(text: str, kind: str, pod: str, annotation: str, parse: Any) -> Any:
    key = (kind, text)
    hit = _annotation_cache.get(key)
    if hit is not None:
        return hit
    where = f"pod {pod}: annotation {annotation}"
    value = parse(load_text(text, where), where)
    if len(_annotation_cache) > 4096:
        _annotation_cache.clear()
    _annotation_cache[key] = value
    return value
