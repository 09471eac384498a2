"""The secret plugin: a secret's keys as files in an emptyDir (tmpfs in Go).

Go: pkg/volume/secret/secret.go

As the configMap plugin: each SetUp reads the secret again, a missing one fails the SetUp
(``secret "db-password" not found``) unless the volume is ``optional``. A secret's ``data``
values are base64 in the API, and Go decodes them as it reads the object; so does the port.
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

#: Go: secretPluginName
secretPluginName = "kubernetes.io/secret"

#: The mode the API server defaults ``defaultMode`` to (0644); the loader does not default it.
DefaultMode = 0o644


def probe_volume_plugins() -> list[VolumePlugin]:
    """Go: pkg/volume/secret/secret.go ProbeVolumePlugins"""
    return [SecretPlugin()]


def wrapped_volume_spec(vol_name: str) -> Spec:
    """The emptyDir (in memory) the volume's files are written into.

    Go: pkg/volume/secret/secret.go wrappedVolumeSpec
    """
    return Spec(volume=Volume(name=vol_name, volume_source={"emptyDir": {"medium": "Memory"}}))


class SecretPlugin:
    """Go: pkg/volume/secret/secret.go type secretPlugin"""

    host: VolumeHost

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).Init"""
        self.host = host
        self.get_secret = host.get_secret_func()
        self.wrapped = EmptyDirPlugin()
        self.wrapped.init(host)

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).GetPluginName"""
        return secretPluginName

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).CanSupport"""
        return spec.source("secret") is not None

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).RequiresRemount"""
        return True

    def new_mounter(self, spec: Spec, pod: Pod) -> SecretVolumeMounter:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).NewMounter"""
        return SecretVolumeMounter(spec.name(), pod, spec.source("secret") or {}, self)

    def new_unmounter(self, vol_name: str, pod_uid: str) -> SecretVolumeUnmounter:
        """Go: pkg/volume/secret/secret.go (*secretPlugin).NewUnmounter"""
        return SecretVolumeUnmounter(vol_name, pod_uid, self)


class SecretVolumeMounter:
    """Go: pkg/volume/secret/secret.go type secretVolumeMounter"""

    def __init__(
        self, vol_name: str, pod: Pod, source: dict[str, Any], plugin: SecretPlugin
    ) -> None:
        self.vol_name = vol_name
        self.pod = pod
        self.source = source
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/secret/secret.go (*secretVolume).GetPath"""
        return get_path(self.plugin.host, self.pod.metadata.uid, self.vol_name, secretPluginName)

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/secret/secret.go (*secretVolumeMounter).SetUp"""
        # Ours: the run's mount script may make this SetUp slow, or fail it.
        await self.plugin.host.scenario.play(self.pod, self.vol_name)
        self.set_up_at(self.get_path(), mounter_args)

    def set_up_at(self, dir: str, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/secret/secret.go (*secretVolumeMounter).SetUpAt"""
        klog.v(3).infof(
            "Setting up volume %s for pod %s at %s", self.vol_name, self.pod.metadata.uid, dir
        )
        wrapped = self.plugin.wrapped.new_mounter(
            wrapped_volume_spec(wrapper_volume_name(self.vol_name)), self.pod
        )
        name = self.source.get("secretName", "")
        namespace = self.pod.metadata.namespace
        optional = bool(self.source.get("optional", False))
        try:
            secret = self.plugin.get_secret(namespace, name)
        except Exception as err:
            if not (is_not_found(err) and optional):
                klog.errorf("Couldn't get secret %s/%s: %s", namespace, name, err)
                raise
            secret = {"metadata": {"namespace": namespace, "name": name}}
        klog.v(3).infof(
            "Received secret %s/%s containing (%d) pieces of data, %d total bytes",
            namespace,
            name,
            len(secret.get("data") or {}),
            total_secret_bytes(secret),
        )
        payload = make_payload(
            self.source.get("items", []), secret, self.source.get("defaultMode"), optional
        )
        wrapped.set_up_at(dir, mounter_args)
        # Go writes through an AtomicWriter (a timestamped dir and a ..data link); the port
        # writes the files in place: there is no reader to see a half-written volume.
        fs = self.plugin.host.fs
        for path in fs.list_dir(dir):
            fs.remove_all(f"{dir}/{path}")
        for path, (data, _mode) in sorted(payload.items()):
            fs.write_file(f"{dir}/{path}", data)


def make_payload(
    mappings: list[dict[str, Any]],
    secret: dict[str, Any],
    default_mode: int | None,
    optional: bool,
) -> dict[str, tuple[bytes, int]]:
    """File path → (bytes, mode): every key, or only the ``items`` asked for.

    Go: pkg/volume/secret/secret.go MakePayload
    """
    if default_mode is None:
        default_mode = DefaultMode
    data = {k: base64.b64decode(v) for k, v in (secret.get("data") or {}).items()}
    payload: dict[str, tuple[bytes, int]] = {}
    if len(mappings) == 0:
        for name, content in data.items():
            payload[name] = (content, default_mode)
    else:
        for ktp in mappings:
            key = ktp.get("key", "")
            if key not in data:
                if optional:
                    continue
                err_msg = f"references non-existent secret key: {key}"
                klog.errorf("%s", err_msg)
                raise ValueError(err_msg)
            payload[ktp.get("path", key)] = (data[key], ktp.get("mode", default_mode))
    return payload


def total_secret_bytes(secret: dict[str, Any]) -> int:
    """The bytes of all the (decoded) values.

    Go: pkg/volume/secret/secret.go totalSecretBytes
    """
    total_size = 0
    for value in (secret.get("data") or {}).values():
        total_size += len(base64.b64decode(value))
    return total_size


class SecretVolumeUnmounter:
    """Go: pkg/volume/secret/secret.go type secretVolumeUnmounter"""

    def __init__(self, vol_name: str, pod_uid: str, plugin: SecretPlugin) -> None:
        self.vol_name = vol_name
        self.pod_uid = pod_uid
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/secret/secret.go (*secretVolume).GetPath"""
        return get_path(self.plugin.host, self.pod_uid, self.vol_name, secretPluginName)

    def tear_down(self) -> None:
        """Go: pkg/volume/secret/secret.go (*secretVolumeUnmounter).TearDown"""
        # Ours: the scenario may make the removal fail, as a busy mount makes it fail on a node.
        self.plugin.host.scenario.tear_down(self.pod_uid, self.vol_name)
        unmount_via_empty_dir(self.get_path(), self.plugin.wrapped, self.vol_name, self.pod_uid)
