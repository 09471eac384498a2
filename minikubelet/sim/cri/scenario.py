"""Scenarios: how the fake runtime's containers live and how its image pulls go.

Not a port: containerd runs real processes; the fake runtime follows a script instead. A script
comes from two places, the pod's annotations winning over the file:

**Pod annotations** (YAML or JSON; JSON is YAML)::

    metadata:
      annotations:
        minikubelet.dev/scenario: |
          init-db: {runFor: 3s}              # an init container that exits 0 after 3 s
          app:                               # one entry per run (restart); the last repeats
            - {runFor: 5s, exitCode: 1}      # crash after 5 s …
            - {runFor: 5s, exitCode: 1}      # … twice …
            - {runFor: forever}              # … then stay up
          sidecar: {runFor: forever, stopTime: 10s}   # needs 10 s to stop after SIGTERM
          cache: {runFor: 30s, oomKilled: true}      # the kernel's OOM killer ends it after 30 s
        minikubelet.dev/sandbox: "[20s, forever]"    # the first sandbox dies after 20 s
        minikubelet.dev/images: |
          busybox: {pullTime: 2s, fail: 2}   # each pull takes 2 s; the first two fail
          nosuch:1.0: notFound               # every pull fails: not found

``minikubelet.dev/scenario`` maps a container name to its *lifetime*, or to a list of lifetimes
(run *n* of the container, counting restarts from 0, follows entry *n*; the last entry repeats).
A lifetime is a mapping with

* ``runFor`` — a duration (``5s``, ``1m30s``, ``500ms``, or a number of seconds) or ``forever``;
  when left out, the container's default (below);
* ``exitCode`` — the exit code when ``runFor`` is over (default 0);
* ``stopTime`` — how long the container takes to exit after kubelet asks it to stop (SIGTERM,
  default 0 s). It then exits with code 143; if the grace period runs out first it is killed with
  code 137.
* ``postStart``, ``preStop`` — how the container's lifecycle hooks go in this run, if its spec
  has them (a *hook script*, below; by default a hook succeeds at once).
* ``preStopTime`` — how long the container's ``preStop`` hook runs (short for
  ``preStop: {runFor: …}``; default 0 s). kubelet waits for the hook, at most the grace period,
  before it asks the container to stop.
* ``oomKilled`` — ``true``: when ``runFor`` is over, the kernel's OOM killer ends the container:
  exit code 137 (SIGKILL), reason ``OOMKilled``, as containerd reports it (an ``exitCode`` other
  than 137 is then an error).

How a hook script is written, and how the fake runtime tells a container's hooks apart: see
[`minikubelet.sim.cri.hooks`][minikubelet.sim.cri.hooks]. For example
``app: {postStart: {fail: exit, exitCode: 2}}``: the hook's command exits with 2, kubelet records
``FailedPostStartHook``, kills the container, and the start fails with ``PostStartHookError``.

A lifetime may also be written as a bare ``forever`` or duration (``{runFor: …}``). Containers not
in the annotation get the defaults: **init containers exit 0 after 1 s, containers run
forever**. (The CRI does not say which containers are init containers: the fake runtime reads
the container annotation ``minikubelet.dev/init-container``, which the fake runtime helper sets,
or else asks its ``pod_lookup``.)

``minikubelet.dev/sandbox`` says how long the pod's sandboxes live: a duration (its ``pause``
process dies after that long, as when it is killed or its network dies), ``forever`` (the
default), ``{runFor: …}``, or a list with one entry per sandbox attempt (the sandbox's
``metadata.attempt``: 0 for the first, 1 for the one kubelet makes after it; the last entry
repeats). A dead sandbox is ``SANDBOX_NOTREADY``; its containers keep running until kubelet kills
them, and the fake runtime takes no new containers in it (as containerd).

``minikubelet.dev/images`` maps an image (``busybox`` means ``busybox:latest``, as kubelet
normalises it) to how pulling it goes: ``pullTime`` (how long a pull takes, default 0 s) and
``fail`` (how many pulls of it fail, counted for the whole node, before one succeeds), or
``notFound`` (every pull fails at once, as for an image that does not exist).

**A scenario file** ([`load_scenario_file`][]) holds the same for the whole run, plus the
runtime's health::

    pods:                         # namespace/name → the same as the scenario annotation
      default/web:
        app: {runFor: 5s, exitCode: 1}
    sandboxes:                    # namespace/name → the same as the sandbox annotation
      default/web: [20s, forever]
    images:                       # the same as the images annotation; "*" is every other image
      "*": {pullTime: 1s}
      busybox: {pullTime: 2s, fail: 2}
    presentImages: [nginx:1.21]   # images already on the node
    defaults:                     # lifetimes of containers the scenario does not name
      init: {runFor: 1s}
      app: {runFor: forever}
    runtime:                      # seconds from the start of the fake runtime
      notReady: [{from: 0s, until: 30s}]   # Status() says RuntimeReady=false
      down: [{from: 60s, until: 70s}]      # the Status() call itself fails
      hang:                                # these calls, made in the window, return at its end
        - {from: 20s, until: 4m, calls: [ContainerStatus]}
    network:
      ipFamilies: [IPv6, IPv4]    # a dual-stack pod network; the CNI plugin reports the IPv6
                                  # address first (default: [IPv4], single-stack)
    volumes:                      # namespace/name → volume → how its SetUps go (see below)
      default/web: {config: {setUpTime: 3m}}
    node: {memory: {0s: 1Gi, 40s: 7600Mi}}   # the node's own usage, over time, and
    usage: {default/web: {app: {memory: 300Mi}}}   # the containers': see sim.cri.usage_scenario

Pod IPs come from 10.88.0.0/16 and fd00:10:88::/64. Volume scripts (slow, failing SetUps; also
a pod's ``minikubelet.dev/volumes``): [`minikubelet.sim.volume_scenario`][].

``hang`` names CRI ``RuntimeService`` methods as the CRI spells them (``ListPodSandbox``,
``ContainerStatus`` …): a call made inside the window blocks until the window ends, then runs.
It is how a runtime that stops answering looks from kubelet (there is no request time-out here).

A scenario that does not parse raises [`ScenarioError`][], naming the pod, annotation,
container and field; the fake runtime turns it into a failed CRI call, so kubelet reports it as
an event on the pod.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minikubelet.base.files import FileReadError, read_at_most
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import shown
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import (
    YAMLSyntaxError,
    json_loads,
)
from minikubelet.sim.cri.hooks import HookScript, parse_hook_script
from minikubelet.sim.cri.scenario_values import (
    ScenarioError,
    as_mapping,
    by_pod,
    cached_annotation,
    check_keys,
    load_text,
    parse_duration,
    scenario_error,
)
from minikubelet.sim.cri.usage_scenario import ContainerUsage, NodeUsageScript, parse_usage_sections
from minikubelet.sim.volume_scenario import VolumeScript, parse_volume_scripts

#: The annotation with the lifetimes of a pod's containers.
ScenarioAnnotation = "minikubelet.dev/scenario"
#: The annotation with how long a pod's sandboxes live.
SandboxAnnotation = "minikubelet.dev/sandbox"
#: The annotation with how pulls of a pod's images go.
ImagesAnnotation = "minikubelet.dev/images"


@dataclass(frozen=True, slots=True)
class Lifetime:
    """One run of a container: how long it runs and how it ends."""

    #: Seconds it runs once started; None runs until stopped.
    run_for: float | None = None
    exit_code: int = 0
    #: Seconds it takes to exit after SIGTERM.
    stop_time: float = 0.0
    #: Seconds its preStop hook runs.
    pre_stop_time: float = 0.0
    #: False when the script left ``runFor`` out: the container's default then applies.
    run_for_given: bool = True
    #: The run ends with the OOM killer's SIGKILL (137, reason ``OOMKilled``).
    oom_killed: bool = False
    #: How its postStart hook goes (None: it succeeds at once).
    post_start: HookScript | None = None
    #: How its preStop hook goes (None: it takes ``pre_stop_time`` and succeeds).
    pre_stop: HookScript | None = None

    def or_default(self, default: Lifetime) -> Lifetime:
        """This lifetime, with ``default``'s ``run_for`` if the script left it out."""
        if self.run_for_given:
            return self
        return Lifetime(
            run_for=default.run_for,
            exit_code=self.exit_code,
            stop_time=self.stop_time,
            pre_stop_time=self.pre_stop_time,
            oom_killed=self.oom_killed,
            post_start=self.post_start,
            pre_stop=self.pre_stop,
        )

    def hook(self, name: str) -> HookScript:
        """The script of hook ``name`` (``postStart`` or ``preStop``) in this run."""
        if name == "preStop":
            if self.pre_stop is not None:
                return self.pre_stop
            return HookScript(run_for=self.pre_stop_time)
        return self.post_start if self.post_start is not None else HookScript()


#: The exit code of a container the OOM killer ended (128 + SIGKILL).
EXIT_OOM_KILLED = 137

#: An init container's default: exit 0 after 1 s.
DEFAULT_INIT = Lifetime(run_for=1.0, exit_code=0)
#: A container's default: run until stopped.
DEFAULT_APP = Lifetime(run_for=None)


@dataclass(frozen=True, slots=True)
class ContainerScript:
    """The successive runs of one container; the last repeats."""

    runs: tuple[Lifetime, ...]

    def lifetime(self, attempt: int) -> Lifetime:
        """The lifetime of run ``attempt`` (0 for the first, 1 after one restart …)."""
        return self.runs[min(attempt, len(self.runs) - 1)]


@dataclass(frozen=True, slots=True)
class SandboxScript:
    """How long each of a pod's sandboxes lives; the last entry repeats."""

    #: Seconds each attempt lives once created, None for until stopped.
    runs: tuple[float | None, ...]

    def run_for(self, attempt: int) -> float | None:
        """How long sandbox ``attempt`` lives (0 for the pod's first sandbox)."""
        return self.runs[min(attempt, len(self.runs) - 1)]


@dataclass(frozen=True, slots=True)
class ImageScript:
    """How pulls of one image go."""

    pull_time: float = 0.0
    #: How many pulls fail (node-wide) before one succeeds.
    fail: int = 0
    #: Every pull fails with NotFound.
    not_found: bool = False


@dataclass(frozen=True, slots=True)
class Window:
    """``[start, end)`` in seconds from the start of the fake runtime."""

    start: float
    end: float

    def contains(self, t: float) -> bool:
        return self.start <= t < self.end


@dataclass
class Scenario:
    """A whole run's script (see the module docstring)."""

    #: "namespace/name" → container name → script.
    pods: dict[str, dict[str, ContainerScript]] = field(default_factory=dict)
    #: "namespace/name" → how long its sandboxes live.
    sandboxes: dict[str, SandboxScript] = field(default_factory=dict)
    #: Image (with its default tag) → script; "*" for every other image.
    images: dict[str, ImageScript] = field(default_factory=dict)
    present_images: list[str] = field(default_factory=list)
    default_init: Lifetime = DEFAULT_INIT
    default_app: Lifetime = DEFAULT_APP
    runtime_not_ready: list[Window] = field(default_factory=list)
    runtime_down: list[Window] = field(default_factory=list)
    #: The families of a pod's IPs, in the order the runtime reports them.
    ip_families: list[str] = field(default_factory=lambda: ["IPv4"])
    #: CRI method (the fake runtime's name for it, ``container_status``) → windows in which its
    #: calls hang until the window ends.
    runtime_hangs: dict[str, list[Window]] = field(default_factory=dict)
    #: "namespace/name" → volume name → how its SetUps go (read by the volume plugins).
    volumes: dict[str, dict[str, VolumeScript]] = field(default_factory=dict)
    #: The node's own usage, and "namespace/name" → container → usage (sim.cri.usage_scenario).
    node_usage: NodeUsageScript = field(default_factory=NodeUsageScript)
    usage: dict[str, dict[str, ContainerUsage]] = field(default_factory=dict)


#: The CRI RuntimeService methods a ``hang`` may name, as the CRI spells them → the fake
#: runtime's method.
CRI_METHODS = {
    "Version": "version",
    "RunPodSandbox": "run_pod_sandbox",
    "StopPodSandbox": "stop_pod_sandbox",
    "RemovePodSandbox": "remove_pod_sandbox",
    "PodSandboxStatus": "pod_sandbox_status",
    "ListPodSandbox": "list_pod_sandbox",
    "CreateContainer": "create_container",
    "StartContainer": "start_container",
    "StopContainer": "stop_container",
    "RemoveContainer": "remove_container",
    "ListContainers": "list_containers",
    "ContainerStatus": "container_status",
    "UpdateRuntimeConfig": "update_runtime_config",
    "Status": "status",
}


def parse_lifetime(value: Any, where: str, default: Lifetime | None = None) -> Lifetime:
    """One lifetime: a mapping, ``forever``, or a duration. ``runFor`` left out is
    ``default``'s, or, without ``default``, decided later by the kind of container."""
    if value == "forever":
        return Lifetime(run_for=None)
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return Lifetime(run_for=parse_duration(value, where))
    m = as_mapping(value, where)
    check_keys(
        m,
        ("runFor", "exitCode", "stopTime", "preStopTime", "oomKilled", "postStart", "preStop"),
        where,
    )
    if "runFor" in m:
        run_for_raw = m["runFor"]
        run_for = (
            None
            if run_for_raw == "forever"
            else parse_duration(run_for_raw, f"{where}: field runFor")
        )
    elif default is not None:
        run_for = default.run_for
    else:
        run_for = None
    oom_killed = m.get("oomKilled", False)
    if not isinstance(oom_killed, bool):
        raise scenario_error(
            where,
            f"field oomKilled: expected true or false, got {shown(oom_killed)}",
            f"字段 oomKilled：应为 true 或 false，实际为 {shown(oom_killed)}",
        )
    exit_code = m.get("exitCode", EXIT_OOM_KILLED if oom_killed else 0)
    if isinstance(exit_code, bool) or not isinstance(exit_code, int) or not 0 <= exit_code <= 255:
        raise scenario_error(
            where,
            f"field exitCode: expected 0 to 255, got {shown(exit_code)}",
            f"字段 exitCode：应在 0 到 255 之间，实际为 {shown(exit_code)}",
        )
    if oom_killed and exit_code != EXIT_OOM_KILLED:
        raise scenario_error(
            where,
            f"field exitCode: an OOM-killed container exits with 137 (SIGKILL), not {exit_code}",
            f"字段 exitCode：被 OOM 杀死的容器以 137（SIGKILL）退出，而不是 {exit_code}",
        )
    stop_time = parse_duration(m.get("stopTime", 0), f"{where}: field stopTime")
    pre_stop_time = parse_duration(m.get("preStopTime", 0), f"{where}: field preStopTime")
    if "preStopTime" in m and "preStop" in m:
        raise scenario_error(
            where,
            "field preStopTime: give preStopTime or preStop (with its runFor), not both",
            "字段 preStopTime：preStopTime 与 preStop（及其 runFor）只能给出一个",
        )
    post_start = (
        parse_hook_script(m["postStart"], f"{where}: field postStart") if "postStart" in m else None
    )
    pre_stop = (
        parse_hook_script(m["preStop"], f"{where}: field preStop") if "preStop" in m else None
    )
    return Lifetime(
        run_for=run_for,
        exit_code=exit_code,
        stop_time=stop_time,
        pre_stop_time=pre_stop_time,
        run_for_given="runFor" in m or default is not None,
        oom_killed=oom_killed,
        post_start=post_start,
        pre_stop=pre_stop,
    )


def parse_sandbox_script(value: Any, where: str) -> SandboxScript:
    """A pod's sandbox script: a duration, ``forever``, ``{runFor: …}``, or a list of them."""
    entries = value if isinstance(value, list) else [value]
    if not entries:
        raise scenario_error(where, "the list of sandboxes is empty", "沙箱列表为空")
    runs: list[float | None] = []
    for i, entry in enumerate(entries):
        w = f"{where}: sandbox {i}" if isinstance(value, list) else where
        if isinstance(entry, dict):
            check_keys(entry, ("runFor",), w)
            entry = entry.get("runFor", "forever")
            w = f"{w}: field runFor"
        runs.append(None if entry == "forever" else parse_duration(entry, w))
    return SandboxScript(runs=tuple(runs))


def parse_container_scripts(value: Any, where: str) -> dict[str, ContainerScript]:
    """Container name → script, from the value of a scenario annotation (parsed YAML)."""
    out: dict[str, ContainerScript] = {}
    for name, spec in as_mapping(value, where).items():
        w = f"{where}: container {shown(name)}"
        if isinstance(spec, list):
            if not spec:
                raise scenario_error(w, "the list of runs is empty", "运行列表为空")
            runs = tuple(parse_lifetime(s, f"{w}: run {i}") for i, s in enumerate(spec))
        else:
            runs = (parse_lifetime(spec, w),)
        out[str(name)] = ContainerScript(runs=runs)
    return out


def parse_image_scripts(value: Any, where: str) -> dict[str, ImageScript]:
    """Image (default tag applied) → script, from the images annotation or file section."""
    out: dict[str, ImageScript] = {}
    for image, spec in as_mapping(value, where).items():
        w = f"{where}: image {shown(image)}"
        key = image if image == "*" else default_tag(str(image))
        if spec == "notFound":
            out[key] = ImageScript(not_found=True)
            continue
        m = as_mapping(spec, w)
        check_keys(m, ("pullTime", "fail", "notFound"), w)
        fail = m.get("fail", 0)
        if isinstance(fail, bool) or not isinstance(fail, int) or fail < 0:
            raise scenario_error(
                w,
                f"field fail: expected a count ≥ 0, got {shown(fail)}",
                f"字段 fail：应为 ≥ 0 的次数，实际为 {shown(fail)}",
            )
        out[key] = ImageScript(
            pull_time=parse_duration(m.get("pullTime", 0), f"{w}: field pullTime"),
            fail=fail,
            not_found=bool(m.get("notFound", False)),
        )
    return out


def default_tag(image: str) -> str:
    """``busybox`` → ``busybox:latest`` (as kubelet's applyDefaultImageTag, simplified)."""
    last = image.rsplit("/", 1)[-1]
    if "@" in image or ":" in last:
        return image
    return image + ":latest"


def scripts_from_annotations(
    annotations: dict[str, str], pod: str
) -> tuple[dict[str, ContainerScript], dict[str, ImageScript]]:
    """The container and image scripts of a pod's annotations (``pod`` names it in errors).

    Parsed values are memoised by text: ten thousand pods with one annotation parse it once.
    """
    containers: dict[str, ContainerScript] = {}
    images: dict[str, ImageScript] = {}
    text = annotations.get(ScenarioAnnotation)
    if text is not None:
        containers = cached_annotation(text, "c", pod, ScenarioAnnotation, parse_container_scripts)
    text = annotations.get(ImagesAnnotation)
    if text is not None:
        images = cached_annotation(text, "i", pod, ImagesAnnotation, parse_image_scripts)
    return containers, images


def sandbox_script_from_annotations(annotations: dict[str, str], pod: str) -> SandboxScript | None:
    """The sandbox script of a pod's annotations, if it has one (``pod`` names it in errors)."""
    text = annotations.get(SandboxAnnotation)
    if text is None:
        return None
    script: SandboxScript = cached_annotation(
        text, "s", pod, SandboxAnnotation, parse_sandbox_script
    )
    return script


def _window(m: dict[str, Any], where: str) -> Window:
    start = parse_duration(m.get("from", 0), f"{where}: field from")
    end = (
        float("inf")
        if m.get("until", "forever") == "forever"
        else parse_duration(m["until"], f"{where}: field until")
    )
    return Window(start, end)


def _windows(value: Any, where: str) -> list[Window]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise scenario_error(
            where,
            f"expected a list of {{from, until}}, got {shown(value)}",
            f"应为 {{from, until}} 的列表，实际为 {shown(value)}",
        )
    out = []
    for i, w in enumerate(value):
        m = as_mapping(w, f"{where}[{i}]")
        check_keys(m, ("from", "until"), f"{where}[{i}]")
        out.append(_window(m, f"{where}[{i}]"))
    return out


def _hangs(value: Any, where: str) -> dict[str, list[Window]]:
    if value is None:
        return {}
    if not isinstance(value, list):
        raise scenario_error(
            where,
            f"expected a list of {{from, until, calls}}, got {shown(value)}",
            f"应为 {{from, until, calls}} 的列表，实际为 {shown(value)}",
        )
    out: dict[str, list[Window]] = {}
    for i, h in enumerate(value):
        w = f"{where}[{i}]"
        m = as_mapping(h, w)
        check_keys(m, ("from", "until", "calls"), w)
        calls = m.get("calls")
        if not isinstance(calls, list) or not calls:
            raise scenario_error(
                w,
                f"field calls: expected a list of CRI methods, got {shown(calls)}",
                f"字段 calls：应为 CRI 方法的列表，实际为 {shown(calls)}",
            )
        window = _window(m, w)
        for call in calls:
            method = CRI_METHODS.get(str(call))
            if method is None:
                names = ", ".join(CRI_METHODS)
                raise scenario_error(
                    w,
                    f"field calls: unknown CRI method {shown(call)} (expected one of {names})",
                    f"字段 calls：未知的 CRI 方法 {shown(call)}（应为 {names} 之一）",
                )
            out.setdefault(method, []).append(window)
    return out


def parse_scenario(data: Any, where: str = "scenario") -> Scenario:
    """A [`Scenario`][] from parsed YAML/JSON (a mapping), or from its text."""
    if isinstance(data, str | bytes):
        data = load_text(data, where)
    m = as_mapping(data, where)
    check_keys(
        m,
        (
            "pods",
            "sandboxes",
            "images",
            "presentImages",
            "defaults",
            "runtime",
            "network",
            "volumes",
            "node",
            "usage",
        ),
        where,
    )
    sc = Scenario()
    sc.pods = by_pod(m, "pods", where, "pod", parse_container_scripts)
    sc.sandboxes = by_pod(m, "sandboxes", where, "sandbox of pod", parse_sandbox_script)
    sc.volumes = by_pod(m, "volumes", where, "volumes of pod", parse_volume_scripts)
    sc.images = parse_image_scripts(m.get("images"), f"{where}: images")
    present = m.get("presentImages") or []
    if not isinstance(present, list):
        raise scenario_error(f"{where}: presentImages", "expected a list of images", "应为镜像列表")
    sc.present_images = [default_tag(str(i)) for i in present]
    defaults = as_mapping(m.get("defaults"), f"{where}: defaults")
    check_keys(defaults, ("init", "app"), f"{where}: defaults")
    if "init" in defaults:
        sc.default_init = parse_lifetime(defaults["init"], f"{where}: defaults: init", DEFAULT_INIT)
    if "app" in defaults:
        sc.default_app = parse_lifetime(defaults["app"], f"{where}: defaults: app", DEFAULT_APP)
    runtime = as_mapping(m.get("runtime"), f"{where}: runtime")
    check_keys(runtime, ("notReady", "down", "hang"), f"{where}: runtime")
    sc.runtime_not_ready = _windows(runtime.get("notReady"), f"{where}: runtime: notReady")
    sc.runtime_down = _windows(runtime.get("down"), f"{where}: runtime: down")
    network = as_mapping(m.get("network"), f"{where}: network")
    check_keys(network, ("ipFamilies",), f"{where}: network")
    if "ipFamilies" in network:
        families = network["ipFamilies"]
        if (
            not isinstance(families, list)
            or not 1 <= len(families) <= 2
            or any(f not in ("IPv4", "IPv6") for f in families)
            or len(set(families)) != len(families)
        ):
            raise ScenarioError(
                f"{where}: network: ipFamilies: expected [IPv4], [IPv6] or both, in the order "
                "the pod's IPs are reported"
            )
        sc.ip_families = list(families)
    sc.runtime_hangs = _hangs(runtime.get("hang"), f"{where}: runtime: hang")
    sc.node_usage, sc.usage = parse_usage_sections(m, where)
    return sc


def load_scenario_file(path: str | Path) -> Scenario:
    """A [`Scenario`][] from a YAML or JSON file (at most ``maxConfigLength`` bytes, as a
    manifest)."""
    from minikubelet.config.common import maxConfigLength

    p = Path(path)
    try:
        data = read_at_most(p, maxConfigLength)
    except FileReadError as e:
        raise scenario_error(str(p), e.args[0], e.args[0].zh) from None
    if p.suffix == ".json":
        try:
            return parse_scenario(json_loads(data.decode("utf-8", "replace")), str(p))
        except YAMLSyntaxError as e:
            raise scenario_error(str(p), e.args[0], e.args[0].zh) from None
    return parse_scenario(data, str(p))
