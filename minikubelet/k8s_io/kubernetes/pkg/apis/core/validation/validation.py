"""The API server's checks of a pod, the subset that matters on kubelet's path.

Go: pkg/apis/core/validation/validation.go

Each check follows its Go function, checks and order, on the fields the port keeps. Go returns
a ``field.ErrorList``; the port adds each problem to the loader's [`Problems`][] instead, with
the path of its field and a message of its own in English and Chinese (the syntax of names and
values is [`minikubelet.k8s_io.apimachinery.pkg.util.validation`][]'s).
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
    ResourceEphemeralStorage,
    ResourceMemory,
    ResourceRequirements,
    Sysctl,
    TaintEffect,
    Toleration,
    TolerationOperator,
    Volume,
    VolumeMount,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import (
    Problems,
    field_path,
    index_path,
    key_path,
    quoted,
)
from minikubelet.k8s_io.apimachinery.pkg.util.validation.validation import (
    is_dns1123_label,
    is_dns1123_subdomain,
    is_env_var_name,
    is_qualified_name,
    is_valid_label_value,
    is_valid_port_name,
    is_valid_port_num,
)
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.helpers import (
    is_extended_resource_name,
    is_huge_page_resource_name,
    is_native_resource,
    is_overcommit_allowed,
)

int32_max = Bits(32).max

REQUIRED = both("required", "必填")

#: Go: totalAnnotationSizeLimitB, in k8s.io/apimachinery/pkg/api/validation
totalAnnotationSizeLimitB = 256 * (1 << 10)

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
    _Validator(problems).validate_pod_metadata_and_spec(pod, path)


class _Validator:
    """Ours: the checks, as methods that add what they find to one [`Problems`][] (Go's
    functions each return a ``field.ErrorList`` that their caller appends)."""

    def __init__(self, problems: Problems):
        self.problems = problems

    def add(self, path: str, message: Bilingual) -> None:
        self.problems.add(path, message)

    def validate_pod_metadata_and_spec(self, pod: Pod, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validatePodMetadataAndSpec

        Then the status, which Go does not check on create (see [`validate_pod_status`][]).
        """
        self.validate_object_meta(pod.metadata, field_path(path, "metadata"))
        self.validate_pod_spec(pod.spec, field_path(path, "spec"))
        self.validate_pod_status(pod.status, field_path(path, "status"))

    def validate_pod_status(self, status: PodStatus, path: str) -> None:
        """Ours: Go does not check a new pod's status. A status given in a manifest must still
        name its containers and conditions, or the port would carry a status it cannot read."""
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

    def validate_object_meta(self, meta: ObjectMeta, path: str) -> None:
        """A pod's name (a DNS subdomain), namespace (a DNS label), generation, labels and
        annotations.

        Go: pkg/apis/core/validation/validation.go ValidateObjectMeta
        Go: staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor

        Go requires a namespace; the port checks one only when given (kubelet's file and HTTP
        sources give a pod without one the default namespace first: config/common.py).
        """
        if not meta.name:
            self.add(field_path(path, "name"), REQUIRED)
        elif problem := is_dns1123_subdomain(meta.name):
            self.add(field_path(path, "name"), problem)
        if meta.namespace and (
            problem := is_dns1123_label(meta.namespace, ("namespace", "命名空间"))
        ):
            self.add(field_path(path, "namespace"), problem)
        if meta.generation < 0:
            self.add(field_path(path, "generation"), _negative(meta.generation))
        self.validate_labels(meta.labels, field_path(path, "labels"))
        self.validate_annotations(meta.annotations, field_path(path, "annotations"))

    def validate_labels(self, labels: dict[str, str], path: str) -> None:
        """Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateLabels"""
        for key, value in labels.items():
            where = key_path(path, key)
            if problem := is_qualified_name(key):
                self.add(where, problem)
            if problem := is_valid_label_value(value):
                self.add(where, problem)

    def validate_annotations(self, annotations: dict[str, str], path: str) -> None:
        """Go: staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateAnnotations"""
        total = 0
        for key, value in annotations.items():
            if problem := is_qualified_name(key.lower()):
                self.add(key_path(path, key), problem)
            total += len(key) + len(value)
        if total > totalAnnotationSizeLimitB:
            self.add(
                path,
                both(
                    f"annotations are too long: {total} bytes, at most "
                    f"{totalAnnotationSizeLimitB} allowed",
                    f"注解太长：共 {total} 字节，最多允许 {totalAnnotationSizeLimitB} 字节",
                ),
            )

    def validate_pod_spec(self, spec: PodSpec, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidatePodSpec"""
        volume_names = self.validate_volumes(spec.volumes, field_path(path, "volumes"))
        self.validate_containers(
            spec.containers, False, volume_names, field_path(path, "containers")
        )
        self.validate_init_containers(
            spec.init_containers, spec.containers, volume_names, field_path(path, "initContainers")
        )
        self.validate_labels(spec.node_selector, field_path(path, "nodeSelector"))
        # Go: allErrs = append(allErrs, ValidatePodSecurityContext(spec.SecurityContext
        if spec.security_context is not None:
            self.validate_sysctls(
                spec.security_context.sysctls,
                field_path(field_path(path, "securityContext"), "sysctls"),
            )
        # Go: allErrs = append(allErrs, validateAffinity(spec.Affinity
        if spec.affinity is not None and spec.affinity.node_affinity is not None:
            self.validate_node_affinity(
                spec.affinity.node_affinity,
                field_path(field_path(path, "affinity"), "nodeAffinity"),
            )
        for field_name, value in (
            ("serviceAccountName", spec.service_account_name),
            ("nodeName", spec.node_name),
        ):
            if value and (problem := is_dns1123_subdomain(value)):
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
            if value and (problem := is_dns1123_label(value)):
                self.add(field_path(path, field_name), problem)
        if spec.tolerations:
            self.validate_tolerations(spec.tolerations, field_path(path, "tolerations"))
        if spec.priority_class_name and (problem := is_dns1123_subdomain(spec.priority_class_name)):
            self.add(field_path(path, "priorityClassName"), problem)

    def validate_volumes(self, volumes: list[Volume], path: str) -> set[str]:
        """The volumes' names (DNS labels, each once) and one source each; returns the names.

        Go: pkg/apis/core/validation/validation.go ValidateVolumes
        """
        names: set[str] = set()
        for i, volume in enumerate(volumes):
            where = index_path(path, i)
            # Go: el := validateVolumeSource(&vol.VolumeSource, idxPath, vol.Name, podMeta, opts)
            if len(volume.volume_source) > 1:
                kinds = ", ".join(volume.volume_source)
                self.add(
                    where,
                    both(
                        f"may not specify more than 1 volume type (got {kinds})",
                        f"只能指定一种卷类型（实际指定了 {kinds}）",
                    ),
                )
            if not volume.name:
                self.add(field_path(where, "name"), REQUIRED)
            elif problem := is_dns1123_label(volume.name):
                self.add(field_path(where, "name"), problem)
            elif volume.name in names:
                self.add(field_path(where, "name"), _duplicate(volume.name))
            names.add(volume.name)
        return names

    def validate_containers(
        self, containers: list[Container], init: bool, volume_names: set[str], path: str
    ) -> None:
        """Go: pkg/apis/core/validation/validation.go validateContainers

        An init container's hooks and probes are refused by [`validate_init_containers`][]; only
        app containers' are checked here.
        """
        if not containers:
            self.add(
                path,
                both("required: a pod needs at least one container", "必填：Pod 至少需要一个容器"),
            )
            return
        names: set[str] = set()
        for i, container in enumerate(containers):
            where = index_path(path, i)
            if not container.name:
                self.add(field_path(where, "name"), REQUIRED)
            elif problem := is_dns1123_label(container.name):
                self.add(field_path(where, "name"), problem)
            if container.name in names:
                self.add(field_path(where, "name"), _duplicate(container.name))
            else:
                names.add(container.name)
            if not container.image:
                self.add(field_path(where, "image"), REQUIRED)
            if not init:
                self.validate_container_hooks_and_probes(container, where)
            # Go omitted: case core.TerminationMessageReadFile, core.TerminationMessageFallbackToLogsOnError: -- the loader reads terminationMessagePolicy as an enum: it refuses any other value and defaults an empty one to File
            # Go omitted: case "": -- the loader defaults an empty terminationMessagePolicy to File
            # Go omitted: default: -- the loader refuses a terminationMessagePolicy other than File and FallbackToLogsOnError
            self.validate_container_ports(container.ports, field_path(where, "ports"))
            self.validate_env(container.env, field_path(where, "env"))
            self.validate_volume_mounts(
                container.volume_mounts, volume_names, field_path(where, "volumeMounts")
            )
            self.validate_resource_requirements(container.resources, field_path(where, "resources"))
        # Go: if isInitContainers {
        if init:
            # Init containers run one at a time: each is checked on its own.
            for i, container in enumerate(containers):
                self.check_host_port_conflicts([container], path, first=i)
        else:
            self.check_host_port_conflicts(containers, path)

    def validate_container_hooks_and_probes(self, container: Container, where: str) -> None:
        """Ours: the part of validateContainers about an app container's hooks (its
        ``validateLifecycle``) and probes, with the liveness and startup probes' success
        threshold, which must be 1."""
        if container.lifecycle is not None:
            for hook_name, hook in (
                ("postStart", container.lifecycle.post_start),
                ("preStop", container.lifecycle.pre_stop),
            ):
                if hook is not None:
                    self.validate_handler(
                        hook, field_path(field_path(where, "lifecycle"), hook_name)
                    )
        for field_name, probe, one in (
            ("livenessProbe", container.liveness_probe, True),
            ("startupProbe", container.startup_probe, True),
            ("readinessProbe", container.readiness_probe, False),
        ):
            self.validate_probe(probe, field_path(where, field_name))
            if one and probe is not None and probe.success_threshold != 1:
                self.add(
                    field_path(field_path(where, field_name), "successThreshold"),
                    both(
                        f"must be 1 for liveness and startup probes, got {probe.success_threshold}",
                        f"存活探针和启动探针的此值必须为 1，实际为 {probe.success_threshold}",
                    ),
                )

    def check_host_port_conflicts(
        self, containers: list[Container], path: str, first: int = 0
    ) -> None:
        """No two host ports alike (protocol, IP, port) among ``containers``.

        Go: pkg/apis/core/validation/validation.go checkHostPortConflicts
        Go: pkg/apis/core/validation/validation.go AccumulateUniqueHostPorts

        ``first`` is the index of the first container in its list (ours: Go's path says
        index 0 for every init container, checked one at a time).
        """
        seen: set[str] = set()
        for j, container in enumerate(containers):
            ports_path = field_path(index_path(path, first + j), "ports")
            for k, port in enumerate(container.ports):
                if port.host_port == 0:
                    continue
                key = f"{port.protocol}/{port.host_ip}/{port.host_port}"
                if key in seen:
                    self.add(
                        field_path(index_path(ports_path, k), "hostPort"),
                        both(f"duplicate host port {key}", f"主机端口 {key} 重复"),
                    )
                else:
                    seen.add(key)

    def validate_init_containers(
        self,
        containers: list[Container],
        other_containers: list[Container],
        volume_names: set[str],
        path: str,
    ) -> None:
        """Go: pkg/apis/core/validation/validation.go validateInitContainers"""
        if containers:
            self.validate_containers(containers, True, volume_names, path)
        # Go adds each init container's name to the set too, and so reports a name repeated
        # among them a second time; ErrorList.ToAggregate prints such twins once, and the port
        # reports it once (validate_containers has).
        names = {c.name for c in other_containers}
        for i, container in enumerate(containers):
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

    def validate_probe(self, probe: Probe | None, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validateProbe"""
        if probe is None:
            return
        self.validate_handler(probe.handler, path)
        for field_name, value in (
            ("initialDelaySeconds", probe.initial_delay_seconds),
            ("timeoutSeconds", probe.timeout_seconds),
            ("periodSeconds", probe.period_seconds),
            ("successThreshold", probe.success_threshold),
            ("failureThreshold", probe.failure_threshold),
        ):
            if value < 0:
                self.add(field_path(path, field_name), _negative(value))

    def validate_handler(self, handler: Handler, path: str) -> None:
        """One action of exec, httpGet and tcpSocket, and what it needs (a command; a path and
        a port; a port).

        Go: pkg/apis/core/validation/validation.go validateHandler
        """
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
                self.validate_port_num_or_name(action.port, field_path(where, "port"))
            else:
                self.validate_port_num_or_name(action.port, field_path(where, "port"))
        if count == 0:
            self.add(
                path,
                both(
                    "must specify a handler type: exec, httpGet or tcpSocket",
                    "必须指定一种处理程序类型：exec、httpGet 或 tcpSocket",
                ),
            )

    def validate_port_num_or_name(self, port: int | str, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidatePortNumOrName"""
        if isinstance(port, int):
            problem = is_valid_port_num(port)
        else:
            problem = is_valid_port_name(port)
        if problem:
            self.add(path, problem)

    def validate_container_ports(self, ports: list[ContainerPort], path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validateContainerPorts"""
        names: set[str] = set()
        for i, port in enumerate(ports):
            where = index_path(path, i)
            if port.name:
                if problem := is_valid_port_name(port.name):
                    self.add(field_path(where, "name"), problem)
                elif port.name in names:
                    self.add(field_path(where, "name"), _duplicate(port.name))
                else:
                    names.add(port.name)
            if port.container_port == 0:
                self.add(field_path(where, "containerPort"), REQUIRED)
            elif problem := is_valid_port_num(port.container_port):
                self.add(field_path(where, "containerPort"), problem)
            if port.host_port != 0 and (problem := is_valid_port_num(port.host_port)):
                self.add(field_path(where, "hostPort"), problem)

    def validate_env(self, env: list[EnvVar], path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateEnv"""
        for i, var in enumerate(env):
            where = field_path(index_path(path, i), "name")
            if not var.name:
                self.add(where, REQUIRED)
            elif problem := is_env_var_name(var.name):
                self.add(where, problem)

    def validate_volume_mounts(
        self, mounts: list[VolumeMount], volume_names: set[str], path: str
    ) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateVolumeMounts"""
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

    def validate_container_resource_name(self, name: str, path: str) -> bool:
        """Is ``name`` a resource a container may ask for? Records a problem if not.

        Go: pkg/apis/core/validation/validation.go validateContainerResourceName
        Go: pkg/apis/core/validation/validation.go validateResourceName
        """
        if "/" not in name:
            if name in (ResourceCPU, ResourceMemory, ResourceEphemeralStorage) or (
                is_huge_page_resource_name(name)
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
        if problem := is_qualified_name(name, ("resource name", "资源名称")):
            self.add(path, problem)
            return False
        if not is_native_resource(name) and not is_extended_resource_name(name):
            self.add(
                path,
                both(
                    f'invalid resource name {quoted(name)}: may not start with "requests."',
                    f'资源名称 {quoted(name)} 不合法：不能以 "requests." 开头',
                ),
            )
            return False
        return True

    def validate_resource_quantity_value(self, name: str, quantity: Quantity, path: str) -> None:
        """Not negative, and whole for an extended resource.

        Go: pkg/apis/core/validation/validation.go ValidateResourceQuantityValue
        """
        if quantity.sign() < 0:
            self.add(path, _negative(quoted(quantity.marshal_json())))
        elif is_extended_resource_name(name) and quantity.amount.denominator != 1:
            shown = quoted(quantity.marshal_json())
            self.add(
                path, both(f"must be a whole number, got {shown}", f"必须是整数，实际为 {shown}")
            )

    def validate_resource_requirements(self, resources: ResourceRequirements, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateResourceRequirements"""
        limits_path, requests_path = field_path(path, "limits"), field_path(path, "requests")
        has_cpu_or_memory = has_hugepages = False
        for name, quantity in resources.limits.items():
            where = key_path(limits_path, name)
            if self.validate_container_resource_name(name, where):
                self.validate_resource_quantity_value(name, quantity, where)
                has_hugepages |= is_huge_page_resource_name(name)
                has_cpu_or_memory |= name in (ResourceCPU, ResourceMemory)
        for name, quantity in resources.requests.items():
            where = key_path(requests_path, name)
            if not self.validate_container_resource_name(name, where):
                continue
            self.validate_resource_quantity_value(name, quantity, where)
            self.validate_request_against_limit(
                name, quantity, resources.limits, limits_path, where
            )
            has_hugepages |= is_huge_page_resource_name(name)
            has_cpu_or_memory |= name in (ResourceCPU, ResourceMemory)
        if has_hugepages and not has_cpu_or_memory:
            self.add(
                path,
                both(
                    "hugepages require a cpu or memory request or limit",
                    "使用大页时必须同时为 cpu 或 memory 设置请求或限制",
                ),
            )

    def validate_request_against_limit(
        self,
        name: str,
        request: Quantity,
        limits: dict[str, Quantity],
        limits_path: str,
        where: str,
    ) -> None:
        """Ours: the part of ValidateResourceRequirements that holds a request to its limit
        (equal to it, unless the resource may be overcommitted; never above it)."""
        limit = limits.get(name)
        overcommit = is_overcommit_allowed(name)
        if limit is None:
            if not overcommit:
                self.add(
                    key_path(limits_path, name),
                    both(
                        f"required: a request for {name} needs a limit (and they must match)",
                        f"必填：申请了 {name} 就必须设置限制（且两者必须相等）",
                    ),
                )
        elif not overcommit and request.cmp(limit) != 0:
            shown, most = (quoted(q.marshal_json()) for q in (request, limit))
            self.add(
                where,
                both(
                    f"must be equal to the {name} limit (request {shown}, limit {most})",
                    f"必须等于 {name} 的限制（请求 {shown}，限制 {most}）",
                ),
            )
        elif request.cmp(limit) > 0:
            shown, most = (quoted(q.marshal_json()) for q in (request, limit))
            self.add(
                where,
                both(
                    f"must be less than or equal to the {name} limit (request "
                    f"{shown}, limit {most})",
                    f"不能大于 {name} 的限制（请求 {shown}，限制 {most}）",
                ),
            )

    def validate_sysctls(self, sysctls: list[Sysctl], path: str) -> None:
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

    def validate_node_affinity(self, na: NodeAffinity, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go validateNodeAffinity"""
        if na.required_during_scheduling_ignored_during_execution is not None:
            self.validate_node_selector(
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
            self.validate_node_selector_term(
                term.preference, field_path(index_path(preferred, i), "preference")
            )

    def validate_node_selector(self, selector: NodeSelector, path: str) -> None:
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
            self.validate_node_selector_term(term, index_path(terms, i))

    def validate_node_selector_term(self, term: NodeSelectorTerm, path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateNodeSelectorTerm"""
        for j, req in enumerate(term.match_expressions):
            self.validate_node_selector_requirement(
                req, index_path(field_path(path, "matchExpressions"), j)
            )
        for j, req in enumerate(term.match_fields):
            self.validate_node_field_selector_requirement(
                req, index_path(field_path(path, "matchFields"), j)
            )

    def validate_node_selector_requirement(self, req: NodeSelectorRequirement, path: str) -> None:
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
        if problem := is_qualified_name(req.key):
            self.add(field_path(path, "key"), problem)

    def validate_node_field_selector_requirement(
        self, req: NodeSelectorRequirement, path: str
    ) -> None:
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
                if problem := is_dns1123_subdomain(v):
                    self.add(index_path(field_path(path, "values"), i), problem)

    def validate_tolerations(self, tolerations: list[Toleration], path: str) -> None:
        """Go: pkg/apis/core/validation/validation.go ValidateTolerations"""
        for i, toleration in enumerate(tolerations):
            where = index_path(path, i)
            if toleration.key and (problem := is_qualified_name(toleration.key)):
                self.add(field_path(where, "key"), problem)
            if not toleration.key and toleration.operator is not TolerationOperator.EXISTS:
                self.add(
                    field_path(where, "operator"),
                    both(
                        'must be "Exists" when key is empty (an empty key with Exists matches '
                        "every taint)",
                        'key 为空时必须为 "Exists"（空 key 加 Exists 匹配所有污点）',
                    ),
                )
            if toleration.toleration_seconds is not None and (
                toleration.effect is not TaintEffect.NO_EXECUTE
            ):
                self.add(
                    field_path(where, "effect"),
                    both(
                        'must be "NoExecute" when tolerationSeconds is set',
                        '设置了 tolerationSeconds 时必须为 "NoExecute"',
                    ),
                )
            # Go: case core.TolerationOpEqual, "":
            if toleration.operator is not TolerationOperator.EXISTS:
                if problem := is_valid_label_value(toleration.value):
                    self.add(field_path(where, "value"), problem)
            # Go: case core.TolerationOpExists:
            elif toleration.value:
                self.add(
                    field_path(where, "value"),
                    both(
                        'must be empty when operator is "Exists"', 'operator 为 "Exists" 时必须为空'
                    ),
                )
            # Go omitted: default: -- the loader reads the operator as an enum: it refuses any value but Equal and Exists


def _negative(value: object) -> Bilingual:
    """Ours: the message for a number (or quantity) below zero."""
    return both(f"must not be negative, got {value}", f"不能为负数，实际为 {value}")


def _duplicate(name: str) -> Bilingual:
    """Ours: the message for a name given twice."""
    return both(f"duplicate name {quoted(name)}", f"名称 {quoted(name)} 重复")
