"""The API server's checks of a pod, the subset that matters on kubelet's path.

Go: pkg/apis/core/validation/validation.go
"""

from __future__ import annotations

import re

from minikubelet.base.i18n import Bilingual, both
from minikubelet.go.ints import Bits
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    ContainerPort,
    EnvVar,
    ExecAction,
    Handler,
    HTTPGetAction,
    NodeAffinity,
    NodeSelector,
    NodeSelectorOperator,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    Pod,
    PodSpec,
    PodStatus,
    Probe,
    ResourceCPU,
    ResourceDefaultNamespacePrefix,
    ResourceEphemeralStorage,
    ResourceHugePagesPrefix,
    ResourceMemory,
    ResourceRequirements,
    Sysctl,
    TaintEffect,
    Toleration,
    TolerationOperator,
    Volume,
    VolumeMount,
)
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import (
    Problems,
    field_path,
    index_path,
    key_path,
    quoted,
)

int32_max = Bits(32).max

REQUIRED = both("required", "必填")


_DNS1123_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL)
_DNS1123_SUBDOMAIN_RE = re.compile(rf"{_DNS1123_LABEL}(?:\.{_DNS1123_LABEL})*")
_QUALIFIED_NAME_RE = re.compile(r"(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_LABEL_VALUE_RE = re.compile(r"(?:(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
_ENV_VAR_NAME_RE = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")
_PORT_NAME_RE = re.compile(r"[-a-z0-9]+")
_TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)


def _dns1123_label_problem(
    value: str, what: tuple[str, str] = ("name", "名称")
) -> Bilingual | None:
    if len(value) > 63 or not _DNS1123_LABEL_RE.fullmatch(value):
        return both(
            f"invalid {what[0]} {quoted(value)}: must be at most 63 characters of lowercase "
            "letters, digits and '-', starting and ending with a letter or digit "
            "(a DNS-1123 label)",
            f"{what[1]} {quoted(value)} 不合法：只能由小写字母、数字和 '-' 组成，以字母或数字"
            "开头和结尾，最多 63 个字符（DNS-1123 标签）",
        )
    return None


def dns1123_subdomain_problem(value: str) -> Bilingual | None:
    """What is wrong with a name that must be a DNS-1123 subdomain (a pod's, a node's), or None."""
    if len(value) > 253 or not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        return both(
            f"invalid name {quoted(value)}: must be at most 253 characters of lowercase "
            "letters, digits, '-' and '.', starting and ending with a letter or digit "
            "(a DNS-1123 subdomain)",
            f"名称 {quoted(value)} 不合法：只能由小写字母、数字、'-' 和 '.' 组成，以字母或"
            "数字开头和结尾，最多 253 个字符（DNS-1123 子域名）",
        )
    return None


def qualified_name_problem(value: str, what: tuple[str, str] = ("key", "键")) -> Bilingual | None:
    """What is wrong with a label or annotation key, if anything (Go: IsQualifiedName, in
    k8s.io/apimachinery/pkg/util/validation; the message is ours)."""
    prefix, slash, name = value.rpartition("/")
    if slash and (not prefix or dns1123_subdomain_problem(prefix)):
        return both(
            f"invalid {what[0]} {quoted(value)}: the prefix before '/' must be a DNS subdomain",
            f"{what[1]} {quoted(value)} 不合法：'/' 之前的前缀必须是 DNS 子域名",
        )
    if len(name) > 63 or not _QUALIFIED_NAME_RE.fullmatch(name):
        return both(
            f"invalid {what[0]} {quoted(value)}: the name must be at most 63 characters of "
            "letters, digits, '-', '_' and '.', starting and ending with a letter or digit, "
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/my-key')",
            f"{what[1]} {quoted(value)} 不合法：名称部分只能由字母、数字、'-'、'_' 和 '.' 组成，"
            "以字母或数字开头和结尾，最多 63 个字符；前面可以加一个 DNS 子域名前缀和 '/'"
            "（例如 'example.com/my-key'）",
        )
    return None


def label_value_problem(value: str) -> Bilingual | None:
    """What is wrong with a label value, if anything (Go: IsValidLabelValue, in
    k8s.io/apimachinery/pkg/util/validation; the message is ours)."""
    if len(value) > 63 or not _LABEL_VALUE_RE.fullmatch(value):
        return both(
            f"invalid label value {quoted(value)}: must be empty or at most 63 "
            "characters of letters, digits, '-', '_' and '.', starting and ending with "
            "a letter or digit",
            f"标签值 {quoted(value)} 不合法：可以为空；否则只能由字母、数字、'-'、'_' "
            "和 '.' 组成，以字母或数字开头和结尾，最多 63 个字符",
        )
    return None


def _port_name_problem(value: str) -> Bilingual | None:
    if (
        len(value) > 15
        or not _PORT_NAME_RE.fullmatch(value)
        or not any(c.isalpha() for c in value)
        or value.startswith("-")
        or value.endswith("-")
        or "--" in value
    ):
        return both(
            f"invalid port name {quoted(value)}: must be at most 15 characters of lowercase "
            "letters, digits and '-', with at least one letter, not starting or ending with "
            "'-' and without '--' (an IANA service name)",
            f"端口名称 {quoted(value)} 不合法：只能由小写字母、数字和 '-' 组成，至少含一个字母，"
            "不能以 '-' 开头或结尾，不能含 '--'，最多 15 个字符（IANA 服务名）",
        )
    return None


def _port_number_problem(value: int) -> Bilingual | None:
    if not 1 <= value <= 65535:
        return both(
            f"invalid port {value}: must be between 1 and 65535",
            f"端口 {value} 不合法：必须在 1 到 65535 之间",
        )
    return None


#: One part of a sysctl name. Go: SysctlSegmentFmt
SysctlSegmentFmt = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
#: A sysctl name: parts joined by dots. Go: SysctlFmt
SysctlFmt = "(" + SysctlSegmentFmt + "\\.)*" + SysctlSegmentFmt
#: Go: SysctlMaxLength
SysctlMaxLength = 253
_SYSCTL_RE = re.compile(SysctlFmt)


def is_valid_sysctl_name(name: str) -> bool:
    """Go: pkg/apis/core/validation/validation.go IsValidSysctlName"""
    if len(name) > SysctlMaxLength:
        return False
    return _SYSCTL_RE.fullmatch(name) is not None


def validate_pod_create(pod: Pod, problems: Problems, path: str = "") -> None:
    """Report every problem of a new pod to ``problems``, each with the path of its field.

    Go: pkg/apis/core/validation/validation.go ValidatePodCreate

    ``path`` is where the pod is in its document (``items[2]`` in a list).
    """
    _Validator(problems).pod(pod, path)


class _Validator:
    """The checks of the API server's pod validation that apply to the fields kept here.

    They follow ``ValidatePodCreate`` in pkg/apis/core/validation/validation.go, checks and
    order; the messages are our own.
    """

    def __init__(self, problems: Problems):
        self.problems = problems

    def add(self, path: str, message: Bilingual) -> None:
        self.problems.add(path, message)

    def pod(self, pod: Pod, path: str) -> None:
        self.object_meta(pod.metadata, field_path(path, "metadata"))
        self.pod_spec(pod.spec, field_path(path, "spec"))
        self.pod_status(pod.status, field_path(path, "status"))

    def pod_status(self, status: PodStatus, path: str) -> None:
        # Ours: Go does not check a new pod's status. A status given in a manifest must still
        # name its containers and conditions, or the port would carry a status it cannot read.
        for key, statuses in (
            ("initContainerStatuses", status.init_container_statuses),
            ("containerStatuses", status.container_statuses),
        ):
            for i, container_status in enumerate(statuses):
                if not container_status.name:
                    self.add(field_path(index_path(field_path(path, key), i), "name"), REQUIRED)
        for i, condition in enumerate(status.conditions):
            where = index_path(field_path(path, "conditions"), i)
            if not condition.type:
                self.add(field_path(where, "type"), REQUIRED)
            if condition.status is None:
                self.add(field_path(where, "status"), REQUIRED)

    def object_meta(self, meta: ObjectMeta, path: str) -> None:
        if not meta.name:
            self.add(field_path(path, "name"), REQUIRED)
        elif problem := dns1123_subdomain_problem(meta.name):
            self.add(field_path(path, "name"), problem)
        if meta.namespace and (
            problem := _dns1123_label_problem(meta.namespace, ("namespace", "命名空间"))
        ):
            self.add(field_path(path, "namespace"), problem)
        if meta.generation < 0:
            self.add(field_path(path, "generation"), _negative(meta.generation))
        self.labels(meta.labels, field_path(path, "labels"))
        total = 0
        for key, value in meta.annotations.items():
            total += len(key) + len(value)
            if problem := qualified_name_problem(key.lower()):
                self.add(key_path(field_path(path, "annotations"), key), problem)
        if total > _TOTAL_ANNOTATION_SIZE_LIMIT:
            self.add(
                field_path(path, "annotations"),
                both(
                    f"annotations are too long: {total} bytes, at most "
                    f"{_TOTAL_ANNOTATION_SIZE_LIMIT} allowed",
                    f"注解太长：共 {total} 字节，最多允许 {_TOTAL_ANNOTATION_SIZE_LIMIT} 字节",
                ),
            )

    def labels(self, labels: dict[str, str], path: str) -> None:
        """The keys and values of a label map (Go's ValidateLabels, in
        k8s.io/apimachinery/pkg/apis/meta/v1/validation)."""
        for key, value in labels.items():
            where = key_path(path, key)
            if problem := qualified_name_problem(key):
                self.add(where, problem)
            if problem := label_value_problem(value):
                self.add(where, problem)

    def pod_spec(self, spec: PodSpec, path: str) -> None:
        volume_names = self.volumes(spec.volumes, field_path(path, "volumes"))
        self.containers(spec.containers, volume_names, field_path(path, "containers"), init=False)
        self.init_containers(spec, volume_names, field_path(path, "initContainers"))
        self.labels(spec.node_selector, field_path(path, "nodeSelector"))
        for field_name, value in (
            ("serviceAccountName", spec.service_account_name),
            ("nodeName", spec.node_name),
        ):
            if value and (problem := dns1123_subdomain_problem(value)):
                self.add(field_path(path, field_name), problem)
        if spec.active_deadline_seconds is not None and not (
            1 <= spec.active_deadline_seconds <= int32_max
        ):
            self.add(
                field_path(path, "activeDeadlineSeconds"),
                both(
                    f"must be between 1 and {int32_max}, got {spec.active_deadline_seconds}",
                    f"必须在 1 到 {int32_max} 之间，实际为 {spec.active_deadline_seconds}",
                ),
            )
        for field_name, value in (("hostname", spec.hostname), ("subdomain", spec.subdomain)):
            if value and (problem := _dns1123_label_problem(value)):
                self.add(field_path(path, field_name), problem)
        if spec.security_context is not None:
            self.sysctls(
                spec.security_context.sysctls,
                field_path(field_path(path, "securityContext"), "sysctls"),
            )
        if spec.affinity is not None and spec.affinity.node_affinity is not None:
            self.node_affinity(
                spec.affinity.node_affinity,
                field_path(field_path(path, "affinity"), "nodeAffinity"),
            )
        for i, toleration in enumerate(spec.tolerations):
            self.toleration(toleration, index_path(field_path(path, "tolerations"), i))
        if spec.priority_class_name and (
            problem := dns1123_subdomain_problem(spec.priority_class_name)
        ):
            self.add(field_path(path, "priorityClassName"), problem)

    def volumes(self, volumes: list[Volume], path: str) -> set[str]:
        names: set[str] = set()
        for i, volume in enumerate(volumes):
            where = index_path(path, i)
            if not volume.name:
                self.add(field_path(where, "name"), REQUIRED)
            elif problem := _dns1123_label_problem(volume.name):
                self.add(field_path(where, "name"), problem)
            elif volume.name in names:
                self.add(field_path(where, "name"), _duplicate(volume.name))
            names.add(volume.name)
            if len(volume.volume_source) > 1:
                kinds = ", ".join(volume.volume_source)
                self.add(
                    where,
                    both(
                        f"may not specify more than 1 volume type (got {kinds})",
                        f"只能指定一种卷类型（实际指定了 {kinds}）",
                    ),
                )
        return names

    def containers(
        self, containers: list[Container], volume_names: set[str], path: str, *, init: bool
    ) -> None:
        if not containers:
            if not init:
                self.add(
                    path,
                    both(
                        "required: a pod needs at least one container",
                        "必填：Pod 至少需要一个容器",
                    ),
                )
            return
        names: set[str] = set()
        for i, container in enumerate(containers):
            where = index_path(path, i)
            if not container.name:
                self.add(field_path(where, "name"), REQUIRED)
            elif problem := _dns1123_label_problem(container.name):
                self.add(field_path(where, "name"), problem)
            elif container.name in names:
                self.add(field_path(where, "name"), _duplicate(container.name))
            names.add(container.name)
            if not container.image:
                self.add(field_path(where, "image"), REQUIRED)
            if container.lifecycle is not None and not init:
                for hook_name, hook in (
                    ("postStart", container.lifecycle.post_start),
                    ("preStop", container.lifecycle.pre_stop),
                ):
                    if hook is not None:
                        self.handler(hook, field_path(field_path(where, "lifecycle"), hook_name))
            if not init:
                self.probe(container.liveness_probe, field_path(where, "livenessProbe"), one=True)
                self.probe(container.startup_probe, field_path(where, "startupProbe"), one=True)
                self.probe(container.readiness_probe, field_path(where, "readinessProbe"))
            self.ports(container.ports, field_path(where, "ports"))
            self.env(container.env, field_path(where, "env"))
            self.volume_mounts(
                container.volume_mounts, volume_names, field_path(where, "volumeMounts")
            )
            self.resources(container.resources, field_path(where, "resources"))
        # Host ports may not collide: across all containers, or within one init container
        # (init containers run one at a time).
        groups = [[c] for c in containers] if init else [containers]
        offset = 0
        for group in groups:
            seen: set[str] = set()
            for j, container in enumerate(group):
                for k, port in enumerate(container.ports):
                    if port.host_port == 0:
                        continue
                    key = f"{port.protocol}/{port.host_ip}/{port.host_port}"
                    if key in seen:
                        where = index_path(field_path(index_path(path, offset + j), "ports"), k)
                        self.add(
                            field_path(where, "hostPort"),
                            both(f"duplicate host port {key}", f"主机端口 {key} 重复"),
                        )
                    seen.add(key)
            offset += len(group)

    def init_containers(self, spec: PodSpec, volume_names: set[str], path: str) -> None:
        self.containers(spec.init_containers, volume_names, path, init=True)
        # Names are unique across both lists (duplicates among init containers were reported
        # just above, so only the app containers' names are checked here).
        names = {c.name for c in spec.containers if c.name}
        for i, container in enumerate(spec.init_containers):
            where = index_path(path, i)
            if container.name in names:
                self.add(field_path(where, "name"), _duplicate(container.name))
            for field_name, value in (
                ("lifecycle", container.lifecycle),
                ("livenessProbe", container.liveness_probe),
                ("readinessProbe", container.readiness_probe),
                ("startupProbe", container.startup_probe),
            ):
                if value is not None:
                    self.add(
                        field_path(where, field_name),
                        both("must not be set for init containers", "Init 容器不能设置此字段"),
                    )

    def probe(self, probe: Probe | None, path: str, *, one: bool = False) -> None:
        if probe is None:
            return
        self.handler(probe.handler, path)
        for field_name, value in (
            ("initialDelaySeconds", probe.initial_delay_seconds),
            ("timeoutSeconds", probe.timeout_seconds),
            ("periodSeconds", probe.period_seconds),
            ("successThreshold", probe.success_threshold),
            ("failureThreshold", probe.failure_threshold),
        ):
            if value < 0:
                self.add(field_path(path, field_name), _negative(value))
        if one and probe.success_threshold != 1:
            self.add(
                field_path(path, "successThreshold"),
                both(
                    f"must be 1 for liveness and startup probes, got {probe.success_threshold}",
                    f"存活探针和启动探针的此值必须为 1，实际为 {probe.success_threshold}",
                ),
            )

    def handler(self, handler: Handler, path: str) -> None:
        count = 0
        for field_name, action in (
            ("exec", handler.exec),
            ("httpGet", handler.http_get),
            ("tcpSocket", handler.tcp_socket),
        ):
            if action is None:
                continue
            where = field_path(path, field_name)
            if count:
                self.add(
                    where,
                    both("may not specify more than 1 handler type", "只能指定一种处理程序类型"),
                )
                continue
            count += 1
            if isinstance(action, ExecAction):
                if not action.command:
                    self.add(field_path(where, "command"), REQUIRED)
            elif isinstance(action, HTTPGetAction):
                if not action.path:
                    self.add(field_path(where, "path"), REQUIRED)
                self.port_number_or_name(action.port, field_path(where, "port"))
            else:
                self.port_number_or_name(action.port, field_path(where, "port"))
        if count == 0:
            self.add(
                path,
                both(
                    "must specify a handler type: exec, httpGet or tcpSocket",
                    "必须指定一种处理程序类型：exec、httpGet 或 tcpSocket",
                ),
            )

    def port_number_or_name(self, port: int | str, path: str) -> None:
        if isinstance(port, int):
            problem = _port_number_problem(port)
        else:
            problem = _port_name_problem(port)
        if problem:
            self.add(path, problem)

    def ports(self, ports: list[ContainerPort], path: str) -> None:
        names: set[str] = set()
        for i, port in enumerate(ports):
            where = index_path(path, i)
            if port.name:
                if problem := _port_name_problem(port.name):
                    self.add(field_path(where, "name"), problem)
                elif port.name in names:
                    self.add(field_path(where, "name"), _duplicate(port.name))
                names.add(port.name)
            if port.container_port == 0:
                self.add(field_path(where, "containerPort"), REQUIRED)
            elif problem := _port_number_problem(port.container_port):
                self.add(field_path(where, "containerPort"), problem)
            if port.host_port != 0 and (problem := _port_number_problem(port.host_port)):
                self.add(field_path(where, "hostPort"), problem)

    def env(self, env: list[EnvVar], path: str) -> None:
        for i, var in enumerate(env):
            where = field_path(index_path(path, i), "name")
            if not var.name:
                self.add(where, REQUIRED)
            elif (
                not _ENV_VAR_NAME_RE.fullmatch(var.name)
                or var.name in (".", "..")
                or var.name.startswith("..")
            ):
                self.add(
                    where,
                    both(
                        f"invalid environment variable name {quoted(var.name)}: must "
                        "consist of letters, digits, '_', '-' and '.', and must not start with "
                        "a digit",
                        f"环境变量名 {quoted(var.name)} 不合法：只能由字母、数字、'_'、'-' "
                        "和 '.' 组成，且不能以数字开头",
                    ),
                )

    def volume_mounts(self, mounts: list[VolumeMount], volume_names: set[str], path: str) -> None:
        mount_paths: set[str] = set()
        for i, mount in enumerate(mounts):
            where = index_path(path, i)
            if not mount.name:
                self.add(field_path(where, "name"), REQUIRED)
            elif mount.name not in volume_names:
                self.add(
                    field_path(where, "name"),
                    both(
                        f"not found: the pod has no volume named {quoted(mount.name)}",
                        f"未找到：Pod 中没有名为 {quoted(mount.name)} 的卷",
                    ),
                )
            if not mount.mount_path:
                self.add(field_path(where, "mountPath"), REQUIRED)
            elif mount.mount_path in mount_paths:
                self.add(
                    field_path(where, "mountPath"),
                    both(
                        f"duplicate mount path {quoted(mount.mount_path)}",
                        f"挂载路径 {quoted(mount.mount_path)} 重复",
                    ),
                )
            mount_paths.add(mount.mount_path)

    def resource_name(self, name: str, path: str) -> bool:
        """Is ``name`` a resource a container may ask for? Records a problem if not."""
        if "/" not in name:
            if name in (ResourceCPU, ResourceMemory, ResourceEphemeralStorage) or name.startswith(
                ResourceHugePagesPrefix
            ):
                return True
            self.add(
                path,
                both(
                    f"unsupported resource {quoted(name)}: a container may ask for cpu, "
                    "memory, ephemeral-storage, hugepages-<size> or an extended resource such "
                    "as example.com/gpu",
                    f"不支持的资源 {quoted(name)}：容器可以申请 cpu、memory、ephemeral-storage、"
                    "hugepages-<大小>，或 example.com/gpu 这样的扩展资源",
                ),
            )
            return False
        if problem := qualified_name_problem(name, ("resource name", "资源名称")):
            self.add(path, problem)
            return False
        if not _is_native(name) and not _is_extended(name):
            self.add(
                path,
                both(
                    f'invalid resource name {quoted(name)}: may not start with "requests."',
                    f'资源名称 {quoted(name)} 不合法：不能以 "requests." 开头',
                ),
            )
            return False
        return True

    def resources(self, resources: ResourceRequirements, path: str) -> None:
        limits_path, requests_path = field_path(path, "limits"), field_path(path, "requests")
        has_cpu_or_memory = has_hugepages = False
        for kind, where_root, resource_list in (
            ("limits", limits_path, resources.limits),
            ("requests", requests_path, resources.requests),
        ):
            for name, quantity in resource_list.items():
                where = key_path(where_root, name)
                if not self.resource_name(name, where):
                    continue
                if quantity.sign() < 0:
                    self.add(where, _negative(quoted(quantity.marshal_json())))
                elif _is_extended(name) and quantity.amount.denominator != 1:
                    shown = quoted(quantity.marshal_json())
                    self.add(
                        where,
                        both(f"must be a whole number, got {shown}", f"必须是整数，实际为 {shown}"),
                    )
                has_cpu_or_memory |= name in (ResourceCPU, ResourceMemory)
                has_hugepages |= name.startswith(ResourceHugePagesPrefix)
                if kind == "limits":
                    continue
                limit = resources.limits.get(name)
                overcommit = _overcommit_allowed(name)
                if limit is None:
                    if not overcommit:
                        self.add(
                            key_path(limits_path, name),
                            both(
                                f"required: a request for {name} needs a limit (and they must "
                                "match)",
                                f"必填：申请了 {name} 就必须设置限制（且两者必须相等）",
                            ),
                        )
                elif not overcommit and quantity.cmp(limit) != 0:
                    request, most = (quoted(q.marshal_json()) for q in (quantity, limit))
                    self.add(
                        where,
                        both(
                            f"must be equal to the {name} limit (request {request}, limit {most})",
                            f"必须等于 {name} 的限制（请求 {request}，限制 {most}）",
                        ),
                    )
                elif quantity.cmp(limit) > 0:
                    request, most = (quoted(q.marshal_json()) for q in (quantity, limit))
                    self.add(
                        where,
                        both(
                            f"must be less than or equal to the {name} limit (request "
                            f"{request}, limit {most})",
                            f"不能大于 {name} 的限制（请求 {request}，限制 {most}）",
                        ),
                    )
        if has_hugepages and not has_cpu_or_memory:
            self.add(
                path,
                both(
                    "hugepages require a cpu or memory request or limit",
                    "使用大页时必须同时为 cpu 或 memory 设置请求或限制",
                ),
            )

    def sysctls(self, sysctls: list[Sysctl], path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validateSysctls"""
        names: set[str] = set()
        for i, s in enumerate(sysctls):
            where = field_path(index_path(path, i), "name")
            if len(s.name) == 0:
                self.add(where, REQUIRED)
            elif not is_valid_sysctl_name(s.name):
                self.add(
                    where,
                    both(
                        f"invalid value {quoted(s.name)}: must have at most "
                        f"{SysctlMaxLength} characters and match regex {SysctlFmt}",
                        f"取值 {quoted(s.name)} 不合法：最多 {SysctlMaxLength} 个字符，"
                        f"并且要匹配正则表达式 {SysctlFmt}",
                    ),
                )
            elif s.name in names:
                self.add(
                    where,
                    both(f"duplicate value {quoted(s.name)}", f"重复的取值 {quoted(s.name)}"),
                )
            names.add(s.name)

    def node_affinity(self, na: NodeAffinity, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validateNodeAffinity"""
        if na.required_during_scheduling_ignored_during_execution is not None:
            self.node_selector(
                na.required_during_scheduling_ignored_during_execution,
                field_path(path, "requiredDuringSchedulingIgnoredDuringExecution"),
            )
        preferred = field_path(path, "preferredDuringSchedulingIgnoredDuringExecution")
        for i, term in enumerate(na.preferred_during_scheduling_ignored_during_execution):
            if not 1 <= term.weight <= 100:
                self.add(
                    field_path(index_path(preferred, i), "weight"),
                    both(
                        f"invalid value {term.weight}: must be in the range 1-100",
                        f"取值 {term.weight} 不合法：必须在 1 到 100 之间",
                    ),
                )
            self.node_selector_term(
                term.preference, field_path(index_path(preferred, i), "preference")
            )

    def node_selector(self, selector: NodeSelector, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateNodeSelector"""
        terms = field_path(path, "nodeSelectorTerms")
        if not selector.node_selector_terms:
            self.add(
                terms,
                both(
                    "required: must have at least one node selector term",
                    "必填：至少要有一个节点选择条件（node selector term）",
                ),
            )
            return
        for i, term in enumerate(selector.node_selector_terms):
            self.node_selector_term(term, index_path(terms, i))

    def node_selector_term(self, term: NodeSelectorTerm, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateNodeSelectorTerm"""
        for j, req in enumerate(term.match_expressions):
            self.node_selector_requirement(req, index_path(field_path(path, "matchExpressions"), j))
        for j, req in enumerate(term.match_fields):
            self.node_field_selector_requirement(
                req, index_path(field_path(path, "matchFields"), j)
            )

    def node_selector_requirement(self, req: NodeSelectorRequirement, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateNodeSelectorRequirement"""
        op = req.operator
        # Go: case core.NodeSelectorOpIn, core.NodeSelectorOpNotIn:
        if op in (NodeSelectorOperator.IN, NodeSelectorOperator.NOT_IN):
            if not req.values:
                self.add(
                    field_path(path, "values"),
                    both(
                        "required: must be specified when `operator` is 'In' or 'NotIn'",
                        "必填：`operator` 为 'In' 或 'NotIn' 时必须给出取值",
                    ),
                )
        # Go: case core.NodeSelectorOpExists, core.NodeSelectorOpDoesNotExist:
        elif op in (NodeSelectorOperator.EXISTS, NodeSelectorOperator.DOES_NOT_EXIST):
            if req.values:
                self.add(
                    field_path(path, "values"),
                    both(
                        "forbidden: may not be specified when `operator` is 'Exists' or "
                        "'DoesNotExist'",
                        "禁止：`operator` 为 'Exists' 或 'DoesNotExist' 时不能给出取值",
                    ),
                )
        # Go: case core.NodeSelectorOpGt, core.NodeSelectorOpLt:
        elif op in (NodeSelectorOperator.GT, NodeSelectorOperator.LT):
            if len(req.values) != 1:
                self.add(
                    field_path(path, "values"),
                    both(
                        "required: must be specified single value when `operator` is 'Lt' or 'Gt'",
                        "必填：`operator` 为 'Lt' 或 'Gt' 时必须给出且只给出一个取值",
                    ),
                )
        # Go: default:
        else:
            self.add(
                field_path(path, "operator"),
                both(
                    f"invalid value {quoted(op or '')}: not a valid selector operator",
                    f"取值 {quoted(op or '')} 不合法：不是有效的选择算符（operator）",
                ),
            )
        if problem := qualified_name_problem(req.key):
            self.add(field_path(path, "key"), problem)

    def node_field_selector_requirement(self, req: NodeSelectorRequirement, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateNodeFieldSelectorRequirement"""
        # Go: case core.NodeSelectorOpIn, core.NodeSelectorOpNotIn:
        if req.operator in (NodeSelectorOperator.IN, NodeSelectorOperator.NOT_IN):
            if len(req.values) != 1:
                self.add(
                    field_path(path, "values"),
                    both(
                        "required: must be only one value when `operator` is 'In' or 'NotIn' "
                        "for node field selector",
                        "必填：节点字段选择器的 `operator` 为 'In' 或 'NotIn' 时只能有一个取值",
                    ),
                )
        # Go: default:
        else:
            self.add(
                field_path(path, "operator"),
                both(
                    f"invalid value {quoted(req.operator or '')}: not a valid selector operator",
                    f"取值 {quoted(req.operator or '')} 不合法：不是有效的选择算符（operator）",
                ),
            )
        # The only node field a selector may name is the node's name.
        if req.key != "metadata.name":
            self.add(
                field_path(path, "key"),
                both(
                    f"invalid value {quoted(req.key)}: not a valid field selector key",
                    f"取值 {quoted(req.key)} 不合法：不是有效的字段选择器键",
                ),
            )
        else:
            for i, v in enumerate(req.values):
                if problem := dns1123_subdomain_problem(v):
                    self.add(index_path(field_path(path, "values"), i), problem)

    def toleration(self, toleration: Toleration, path: str) -> None:
        if toleration.key and (problem := qualified_name_problem(toleration.key)):
            self.add(field_path(path, "key"), problem)
        if not toleration.key and toleration.operator is not TolerationOperator.EXISTS:
            self.add(
                field_path(path, "operator"),
                both(
                    'must be "Exists" when key is empty (an empty key with Exists matches every '
                    "taint)",
                    'key 为空时必须为 "Exists"（空 key 加 Exists 匹配所有污点）',
                ),
            )
        if toleration.operator is TolerationOperator.EXISTS and toleration.value:
            self.add(
                field_path(path, "value"),
                both('must be empty when operator is "Exists"', 'operator 为 "Exists" 时必须为空'),
            )
        if toleration.toleration_seconds is not None and (
            toleration.effect is not TaintEffect.NO_EXECUTE
        ):
            self.add(
                field_path(path, "effect"),
                both(
                    'must be "NoExecute" when tolerationSeconds is set',
                    '设置了 tolerationSeconds 时必须为 "NoExecute"',
                ),
            )


def _negative(value: object) -> Bilingual:
    return both(f"must not be negative, got {value}", f"不能为负数，实际为 {value}")


def _duplicate(name: str) -> Bilingual:
    return both(f"duplicate name {quoted(name)}", f"名称 {quoted(name)} 重复")


def _is_native(name: str) -> bool:
    return "/" not in name or ResourceDefaultNamespacePrefix in name


def _is_extended(name: str) -> bool:
    return not _is_native(name) and not name.startswith("requests.")


def _overcommit_allowed(name: str) -> bool:
    """May a request be below its limit? Not for hugepages nor extended resources."""
    return _is_native(name) and not name.startswith(ResourceHugePagesPrefix)
