"""The configMap plugin: a configMap's keys as files in an emptyDir.

Go: pkg/volume/configmap/configmap.go

Each SetUp reads the configMap again (kubelet's configMap manager, from the API server) and
writes its keys: a configMap that does not exist fails the SetUp with the API's error
(``configmap "app-config" not found``) unless the volume is ``optional``, and the reconciler
tries again with back-off. The plugin asks to be remounted on every sync of the pod, which is
how a changed configMap reaches the files.
"""

from __future__ import annotations

import base64
from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod, Volume
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_not_found
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.emptydir.empty_dir import EmptyDirPlugin, get_path
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumeHost, VolumePlugin
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import (
    unmount_via_empty_dir,
    wrapper_volume_name,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import MounterArgs

#: Go: configMapPluginName
configMapPluginName = "kubernetes.io/configmap"

#: The mode the API server defaults ``defaultMode`` to (0644); the loader does not default it.
DefaultMode = 0o644


def probe_volume_plugins() -> list[VolumePlugin]:
    """Go: pkg/volume/configmap/configmap.go ProbeVolumePlugins"""
    return [ConfigMapPlugin()]


def wrapped_volume_spec(vol_name: str) -> Spec:
    """The emptyDir the volume's files are written into.

    Go: pkg/volume/configmap/configmap.go wrappedVolumeSpec
    """
    return Spec(volume=Volume(name=vol_name, volume_source={"emptyDir": {}}))


class ConfigMapPlugin:
    """Go: pkg/volume/configmap/configmap.go type configMapPlugin"""

    host: VolumeHost

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).Init"""
        self.host = host
        self.get_config_map = host.get_config_map_func()
        self.wrapped = EmptyDirPlugin()
        self.wrapped.init(host)

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).GetPluginName"""
        return configMapPluginName

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).CanSupport"""
        return spec.source("configMap") is not None

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).RequiresRemount"""
        return True

    def new_mounter(self, spec: Spec, pod: Pod) -> ConfigMapVolumeMounter:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).NewMounter"""
        return ConfigMapVolumeMounter(spec.name(), pod, spec.source("configMap") or {}, self)

    def new_unmounter(self, vol_name: str, pod_uid: str) -> ConfigMapVolumeUnmounter:
        """Go: pkg/volume/configmap/configmap.go (*configMapPlugin).NewUnmounter"""
        return ConfigMapVolumeUnmounter(vol_name, pod_uid, self)


class ConfigMapVolumeMounter:
    """Go: pkg/volume/configmap/configmap.go type configMapVolumeMounter"""

    def __init__(
        self, vol_name: str, pod: Pod, source: dict[str, Any], plugin: ConfigMapPlugin
    ) -> None:
        self.vol_name = vol_name
        self.pod = pod
        self.source = source
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/configmap/configmap.go (*configMapVolume).GetPath"""
        return get_path(self.plugin.host, self.pod.metadata.uid, self.vol_name, configMapPluginName)

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/configmap/configmap.go (*configMapVolumeMounter).SetUp"""
        # Ours: the run's mount script may make this SetUp slow, or fail it.
        await self.plugin.host.scenario.play(self.pod, self.vol_name)
        self.set_up_at(self.get_path(), mounter_args)

    def set_up_at(self, dir: str, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/configmap/configmap.go (*configMapVolumeMounter).SetUpAt"""
        # Go: klog.V(3).Infof("Setting up volume %v for pod %v at %v"
        klog.v(3).infof(
            "Setting up volume %s for pod %s at %s", self.vol_name, self.pod.metadata.uid, dir
        )
        # Go: wrapped, err := b.plugin.host.NewWrapperMounter(
        wrapped = self.plugin.wrapped.new_mounter(
            wrapped_volume_spec(wrapper_volume_name(self.vol_name)), self.pod
        )
        # Go: optional := b.source.Optional != nil && *b.source.Optional
        name = self.source.get("name", "")
        namespace = self.pod.metadata.namespace
        optional = bool(self.source.get("optional", False))
        try:
            config_map = self.plugin.get_config_map(namespace, name)
        except Exception as err:
            if not (is_not_found(err) and optional):
                klog.errorf("Couldn't get configMap %s/%s: %s", namespace, name, err)
                raise
            config_map = {"metadata": {"namespace": namespace, "name": name}}
        # Go: totalBytes := totalBytes(configMap)
        klog.v(3).infof(
            "Received configMap %s/%s containing (%d) pieces of data, %d total bytes",
            namespace,
            name,
            len(config_map.get("data") or {}) + len(config_map.get("binaryData") or {}),
            total_bytes(config_map),
        )
        # Go: payload, err := MakePayload(
        payload = make_payload(
            self.source.get("items", []), config_map, self.source.get("defaultMode"), optional
        )
        # Go: setupSuccess := false
        wrapped.set_up_at(dir, mounter_args)
        # Go: writerContext := fmt.Sprintf(
        # Go writes through an AtomicWriter (a timestamped dir and a ..data link); the port
        # writes the files in place: there is no reader to see a half-written volume.
        fs = self.plugin.host.fs
        for path in fs.list_dir(dir):
            fs.remove_all(f"{dir}/{path}")
        for path, (data, _mode) in sorted(payload.items()):
            fs.write_file(f"{dir}/{path}", data)


def make_payload(
    mappings: list[dict[str, Any]],
    config_map: dict[str, Any],
    default_mode: int | None,
    optional: bool,
) -> dict[str, tuple[bytes, int]]:
    """File path → (bytes, mode): every key, or only the ``items`` asked for.

    Go: pkg/volume/configmap/configmap.go MakePayload
    """
    if default_mode is None:
        default_mode = DefaultMode
    data: dict[str, str] = config_map.get("data") or {}
    binary_data: dict[str, str] = config_map.get("binaryData") or {}
    payload: dict[str, tuple[bytes, int]] = {}
    if len(mappings) == 0:
        for name, value in data.items():
            payload[name] = (value.encode(), default_mode)
        for name, value in binary_data.items():
            payload[name] = (base64.b64decode(value), default_mode)
    else:
        for ktp in mappings:
            key = ktp.get("key", "")
            if key in data:
                content = data[key].encode()
            elif key in binary_data:
                content = base64.b64decode(binary_data[key])
            else:
                if optional:
                    continue
                raise ValueError(f"configmap references non-existent config key: {key}")
            payload[ktp.get("path", key)] = (content, ktp.get("mode", default_mode))
    return payload


def total_bytes(config_map: dict[str, Any]) -> int:
    """The bytes of all the values: UTF-8 for ``data``, decoded for ``binaryData``.

    Go: pkg/volume/configmap/configmap.go totalBytes
    """
    total_size = 0
    for value in (config_map.get("data") or {}).values():
        total_size += len(value.encode())
    for value in (config_map.get("binaryData") or {}).values():
        total_size += len(base64.b64decode(value))
    return total_size


class ConfigMapVolumeUnmounter:
    """Go: pkg/volume/configmap/configmap.go type configMapVolumeUnmounter"""

    def __init__(self, vol_name: str, pod_uid: str, plugin: ConfigMapPlugin) -> None:
        self.vol_name = vol_name
        self.pod_uid = pod_uid
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/configmap/configmap.go (*configMapVolume).GetPath"""
        return get_path(self.plugin.host, self.pod_uid, self.vol_name, configMapPluginName)

    def tear_down(self) -> None:
        """Go: pkg/volume/configmap/configmap.go (*configMapVolumeUnmounter).TearDown"""
        # Ours: the scenario may make the removal fail, as a busy mount makes it fail on a node.
        self.plugin.host.scenario.tear_down(self.pod_uid, self.vol_name)
        unmount_via_empty_dir(self.get_path(), self.plugin.wrapped, self.vol_name, self.pod_uid)
