"""Pod manifests: YAML (or JSON) text to [`Pod`][minikubelet.k8s_io.api.core.v1.types.Pod] objects.

Ours: the entry points that learners, tests and the port's config sources use. Each text goes
through the steps kubelet takes in ``tryDecodeSinglePod`` (pkg/kubelet/config/common.go), each
done by the module that ports its Go file:

1. **read**: the first YAML document, or JSON
   ([`to_json`][minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder.to_json]);
2. **decode**: ``apiVersion`` and ``kind`` are checked here, then the data is unmarshalled into
   the dataclasses with a type check on every field the port knows
   ([`unmarshal`][minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json.unmarshal]). Fields
   it does not know are ignored, as kubelet's (non-strict) decoder ignores them: a misspelt
   ``imagePulPolicy`` is silently ignored, exactly as kubelet ignores it;
3. **default**: what the API server would fill in
   ([`set_object_defaults_pod`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.zz_generated_defaults.set_object_defaults_pod]),
   then the caller's own defaulting (``default_fn``: kubelet's ``applyDefaults``);
4. **validate**: the checks of the API's pod validation that matter here
   ([`validate_pod_create`][minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation.validate_pod_create],
   with messages of our own).

A problem becomes a [`ManifestError`][] that names the file, the document and the field::

    manifests/web.yaml: document 1: spec.containers[1].name: duplicate name "app"

**Nothing is half-applied**: one error rejects the whole text, as in kubelet. Only the first
YAML document is read; later ones are ignored without a word, as kubelet ignores them. A
``PodList`` is accepted only where kubelet's HTTP source accepts it (``allow_pod_list=True``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from minikubelet.base.i18n import Bilingual, both
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import (
    describe,
    field_path,
    index_path,
    marshal,
    quoted,
    unmarshal,
)
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import YAMLSyntaxError, to_json
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.zz_generated_defaults import (
    set_object_defaults_pod,
)
from minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation import (
    validate_pod_create,
)

__all__ = [
    "DefaultFunc",
    "ManifestError",
    "load_pods",
    "pod_from_dict",
    "pod_to_dict",
]


class ManifestError(Exception):
    """One problem in a manifest, with where it is.

    ``source`` is the file path or URL; ``document`` the number of the YAML document in the text
    (always 1, the only one kubelet reads; ``None`` when the problem is with the whole text, e.g.
    it is not YAML at all); ``field`` a path to the field such as ``spec.containers[1].name``
    (map keys in brackets: ``metadata.annotations[minikubelet.dev/scenario]``), or ``None`` for
    the whole document.

    ``str(error)`` reads ``manifests/web.yaml: document 1: spec.containers[1].name: duplicate
    name "app"``; ``error.zh`` is the same in Chinese (``message`` is a
    [`Bilingual`][minikubelet.base.i18n.Bilingual] where it was written in both languages).
    """

    def __init__(self, source: str, document: int | None, field: str | None, message: str):
        self.source = source
        self.document = document
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.source]
        if self.document is not None:
            parts.append(f"document {self.document}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)

    @property
    def zh(self) -> str:
        """The error in Chinese (the message stays English where it has no Chinese twin)."""
        parts = [getattr(self.source, "zh", self.source)]
        if self.document is not None:
            parts.append(f"第 {self.document} 个文档")
        if self.field:
            parts.append(self.field)
        parts.append(getattr(self.message, "zh", self.message))
        return "：".join(parts)

    def __reduce__(self) -> tuple[type[ManifestError], tuple[Any, ...]]:
        # Pickled (to another process) with its parts, which __init__ takes.
        return (ManifestError, (self.source, self.document, self.field, self.message))

    def __repr__(self) -> str:
        return (
            f"ManifestError(source={self.source!r}, document={self.document!r}, "
            f"field={self.field!r}, message={self.message!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ManifestError):
            return NotImplemented
        return (self.source, self.document, self.field, self.message) == (
            other.source,
            other.document,
            other.field,
            other.message,
        )

    def __hash__(self) -> int:
        return hash((self.source, self.document, self.field, self.message))


@dataclass(slots=True)
class _Problem:
    """A problem found while reading one document, before it is tied to a file."""

    field: str | None
    message: str


class _Problems(list[_Problem]):
    """The problems of one document, in the order they were found."""

    def add(self, path: str | None, message: str) -> None:
        self.append(_Problem(path or None, message))

    def errors(self, source: str, document: int | None) -> list[ManifestError]:
        return [ManifestError(source, document, p.field, p.message) for p in self]


#: A function that changes a decoded, defaulted pod before it is validated: kubelet's config
#: layer passes its own defaulting (UID, node-suffixed name, namespace …) this way.
DefaultFunc = Callable[[Pod], None]


def _check_type_meta(data: Any, kinds: tuple[str, ...], problems: _Problems) -> str | None:
    """The document's kind if it is a mapping with ``apiVersion: v1`` and an accepted kind.

    What Go's serializer reads first (``apiVersion`` and ``kind``), with kubelet's rules about
    which kinds it takes from where.
    """
    if not isinstance(data, Mapping):
        problems.add(None, _not_a_pod(data))
        return None
    accepted = " or ".join(json.dumps(k) for k in kinds)
    accepted_zh = " 或 ".join(json.dumps(k) for k in kinds)
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if api_version in (None, ""):
        problems.add("apiVersion", both('required: must be "v1"', '必填：必须为 "v1"'))
    elif api_version != "v1":
        problems.add(
            "apiVersion",
            both(
                f'unsupported apiVersion {_shown(api_version)}: a Pod\'s apiVersion is "v1"',
                f'不支持的 apiVersion {_shown(api_version).zh}：Pod 的 apiVersion 是 "v1"',
            ),
        )
    if kind in (None, ""):
        problems.add("kind", both(f"required: must be {accepted}", f"必填：必须为 {accepted_zh}"))
    elif kind not in kinds:
        if kind == "PodList":
            hint = " (kubelet reads one Pod per file; it accepts a PodList only from a URL)"
            hint_zh = "（kubelet 每个文件只读一个 Pod；PodList 只能来自 URL）"
        else:
            hint = " (kubelet runs pods only)"
            hint_zh = "（kubelet 只运行 Pod）"
        problems.add(
            "kind",
            both(
                f"unsupported kind {_shown(kind)}: must be {accepted}{hint}",
                f"不支持的 kind {_shown(kind).zh}：必须为 {accepted_zh}{hint_zh}",
            ),
        )
    return kind if not problems else None


def _shown(value: Any) -> Bilingual:
    """A value of ``apiVersion`` or ``kind`` as an error shows it (anything may be there)."""
    if isinstance(value, str):
        text = quoted(value)
        return both(text, text)
    return describe(value)


def _not_a_pod(value: Any) -> Bilingual:
    got = describe(value)
    return both(
        f"expected a mapping (a Pod object), got {got}",
        f"应为映射（一个 Pod 对象），实际为{got.zh}",
    )


def _decode_pod(
    data: Mapping[str, Any], path: str, problems: _Problems, default_fn: DefaultFunc | None
) -> Pod | None:
    """Decode, default and validate one pod; None if it has any problem."""
    before = len(problems)
    if data.get("metadata") is None:
        problems.add(
            field_path(path, "metadata"),
            both("required: a pod needs a name", "必填：Pod 需要一个名称"),
        )
    if data.get("spec") is None:
        problems.add(
            field_path(path, "spec"),
            both("required: a pod needs a spec with containers", "必填：Pod 需要带有容器的 spec"),
        )
    pod = unmarshal(data, Pod, problems, path)
    if pod is None or len(problems) > before:
        return None  # as in Go, a pod that does not decode is not validated
    pod.api_version, pod.kind = "v1", "Pod"
    set_object_defaults_pod(pod)
    if default_fn is not None:
        default_fn(pod)
    validate_pod_create(pod, problems, path)
    return pod if len(problems) == before else None


def _decode_pod_list(
    data: Mapping[str, Any], problems: _Problems, default_fn: DefaultFunc | None
) -> list[Pod]:
    """Every pod of a ``PodList``, or none if one of them is bad (Go's ``tryDecodePodList``)."""
    items = data.get("items")
    if items is not None and not isinstance(items, list):
        got = describe(items)
        problems.add("items", both(f"expected a list, got {got}", f"应为列表，实际为{got.zh}"))
        return []
    pods: list[Pod] = []
    for i, item in enumerate(items or []):
        path = index_path("items", i)
        if not isinstance(item, Mapping):
            problems.add(path, _not_a_pod(item))
            continue
        # Items of a PodList may leave out apiVersion and kind; if given, they must be a Pod's.
        if item.get("apiVersion") not in (None, "", "v1"):
            problems.add(
                field_path(path, "apiVersion"),
                both('must be "v1" (or left out)', '必须为 "v1"（或者省略）'),
            )
        if item.get("kind") not in (None, "", "Pod"):
            problems.add(
                field_path(path, "kind"),
                both('must be "Pod" (or left out)', '必须为 "Pod"（或者省略）'),
            )
        pod = _decode_pod(item, path, problems, default_fn)
        if pod is not None:
            pods.append(pod)
    return pods if not problems else []


def load_pods(
    text: str | bytes,
    source: str,
    *,
    allow_pod_list: bool = False,
    default_fn: DefaultFunc | None = None,
) -> tuple[list[Pod], list[ManifestError]]:
    """The pods kubelet v1.21 would take from ``text``: all of them, or none.

    What ``tryDecodeSinglePod`` (and, for lists, ``tryDecodePodList``) in
    pkg/kubelet/config/common.go accept. Only the first YAML document is read. It must be a
    ``Pod``; with ``allow_pod_list=True`` (kubelet's HTTP source tries a list when a single pod
    does not decode) it may also be a ``PodList``, which is rejected whole if one of its pods is
    bad. An empty text is an error, as it is to kubelet. Errors carry ``document=1``, or
    ``None`` for unreadable text; ``source`` (a file path or a URL) is only used in them.
    ``text`` may be bytes, as read from a file or a URL (see
    [`to_json`][minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder.to_json]).

    ``default_fn`` is kubelet's ``defaultFn`` argument: it is called on each decoded pod after
    the API's defaulting and *before* validation, so that what it sets is validated too (e.g. a
    static pod's name with the node name appended must still be at most 253 characters).
    """
    try:
        data = to_json(text)
    except YAMLSyntaxError as err:
        return [], [ManifestError(source, None, None, err.args[0])]
    if data is None:
        message = both("no pod: the text is empty", "没有 Pod：内容为空")
        return [], [ManifestError(source, 1, None, message)]
    problems = _Problems()
    kinds = ("Pod", "PodList") if allow_pod_list else ("Pod",)
    kind = _check_type_meta(data, kinds, problems)
    pods: list[Pod] = []
    if kind == "Pod":
        pod = _decode_pod(data, "", problems, default_fn)
        pods = [pod] if pod is not None else []
    elif kind == "PodList":
        pods = _decode_pod_list(data, problems, default_fn)
    return pods, problems.errors(source, 1)


def pod_from_dict(data: Mapping[str, Any], *, source: str = "<dict>") -> Pod:
    """One pod from plain data (as ``yaml.safe_load`` or ``json.loads`` return it).

    Decoded, defaulted and validated like the document of [`load_pods`][]; raises the first
    [`ManifestError`][] (``document=None``) if there is any problem.
    """
    problems = _Problems()
    pod: Pod | None = None
    if _check_type_meta(data, ("Pod",), problems) is not None:
        pod = _decode_pod(data, "", problems, None)
    if pod is None or problems:
        first = problems[0]
        raise ManifestError(source, None, first.field, first.message)
    return pod


def pod_to_dict(pod: Pod) -> dict[str, Any]:
    """The pod as a manifest: plain data with the API's field names, ready for YAML or JSON.

    Loading it back ([`load_pods`][], [`pod_from_dict`][]) gives a pod equal to ``pod``
    (for a pod that was itself loaded or defaulted). Fields with nothing in them are left out,
    as Go's ``omitempty`` does; defaulted fields are written out. Quantities keep their original
    spelling; times are RFC 3339 in UTC.
    """
    return marshal(pod)
