"""The projected plugin: secrets, configMaps and a service account token in one directory.

Go: pkg/volume/projected/projected.go

The API server's ServiceAccount admission gives most pods a projected volume
``kube-api-access-<random>`` (a token, ``ca.crt`` from a configMap, the namespace). Each
source is collected on every SetUp; the errors of all the sources that failed come back
together. The token comes from the kubelet's token manager, here the fake API server.
``downwardAPI`` sources are not ported (they write nothing).
"""

from __future__ import annotations

from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod, Volume
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_not_found
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import new_aggregate
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.configmap import configmap
from minikubelet.k8s_io.kubernetes.pkg.volume.emptydir.empty_dir import EmptyDirPlugin, get_path
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumeHost, VolumePlugin
from minikubelet.k8s_io.kubernetes.pkg.volume.secret import secret
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import (
    unmount_via_empty_dir,
    wrapper_volume_name,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import MounterArgs

#: Go: projectedPluginName
projectedPluginName = "kubernetes.io/projected"


def probe_volume_plugins() -> list[VolumePlugin]:
    """Go: pkg/volume/projected/projected.go ProbeVolumePlugins"""
    return [ProjectedPlugin()]


def wrapped_volume_spec(vol_name: str) -> Spec:
    """The emptyDir (in memory) the volume's files are written into.

    Go: pkg/volume/projected/projected.go wrappedVolumeSpec
    """
    return Spec(volume=Volume(name=vol_name, volume_source={"emptyDir": {"medium": "Memory"}}))


class ProjectedPlugin:
    """Go: pkg/volume/projected/projected.go type projectedPlugin"""

    host: VolumeHost

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).Init"""
        self.host = host
        self.get_secret = host.get_secret_func()
        self.get_config_map = host.get_config_map_func()
        self.get_service_account_token = host.get_service_account_token_func()
        self.wrapped = EmptyDirPlugin()
        self.wrapped.init(host)

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).GetPluginName"""
        return projectedPluginName

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).CanSupport"""
        return spec.source("projected") is not None

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).RequiresRemount"""
        return True

    def new_mounter(self, spec: Spec, pod: Pod) -> ProjectedVolumeMounter:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).NewMounter"""
        return ProjectedVolumeMounter(spec.name(), pod, spec.source("projected") or {}, self)

    def new_unmounter(self, vol_name: str, pod_uid: str) -> ProjectedVolumeUnmounter:
        """Go: pkg/volume/projected/projected.go (*projectedPlugin).NewUnmounter"""
        return ProjectedVolumeUnmounter(vol_name, pod_uid, self)


class ProjectedVolumeMounter:
    """Go: pkg/volume/projected/projected.go type projectedVolumeMounter"""

    def __init__(
        self, vol_name: str, pod: Pod, source: dict[str, Any], plugin: ProjectedPlugin
    ) -> None:
        self.vol_name = vol_name
        self.pod = pod
        self.source = source
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/projected/projected.go (*projectedVolume).GetPath"""
        return get_path(self.plugin.host, self.pod.metadata.uid, self.vol_name, projectedPluginName)

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/projected/projected.go (*projectedVolumeMounter).SetUp"""
        # Ours: the run's mount script may make this SetUp slow, or fail it.
        await self.plugin.host.scenario.play(self.pod, self.vol_name)
        self.set_up_at(self.get_path(), mounter_args)

    def set_up_at(self, dir: str, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/projected/projected.go (*projectedVolumeMounter).SetUpAt"""
        klog.v(3).infof(
            "Setting up volume %s for pod %s at %s", self.vol_name, self.pod.metadata.uid, dir
        )
        wrapped = self.plugin.wrapped.new_mounter(
            wrapped_volume_spec(wrapper_volume_name(self.vol_name)), self.pod
        )
        try:
            data = self.collect_data()
        except Exception as err:
            klog.errorf(
                "Error preparing data for projected volume %s for pod %s/%s: %s",
                self.vol_name,
                self.pod.metadata.namespace,
                self.pod.metadata.name,
                err,
            )
            raise
        wrapped.set_up_at(dir, mounter_args)
        fs = self.plugin.host.fs
        for path in fs.list_dir(dir):
            fs.remove_all(f"{dir}/{path}")
        for path, (content, _mode) in sorted(data.items()):
            fs.write_file(f"{dir}/{path}", content)

    def collect_data(self) -> dict[str, tuple[bytes, int]]:
        """Every source's files; raises an [`AggregateError`][minikubelet.k8s_io.apimachinery.pkg.util.errors.errors.AggregateError] with the errors of all that failed.

        Go: pkg/volume/projected/projected.go (*projectedVolumeMounter).collectData
        """
        default_mode = self.source.get("defaultMode", configmap.DefaultMode)
        if self.plugin.host.get_kube_client() is None:
            raise ValueError(
                f"Cannot setup projected volume {self.vol_name} because kube client is not configured"
            )
        namespace = self.pod.metadata.namespace
        errlist: list[BaseException] = []
        payload: dict[str, tuple[bytes, int]] = {}
        for source in self.source.get("sources", []):
            # Go: case source.Secret != nil:
            if "secret" in source:
                s = source["secret"]
                optional = bool(s.get("optional", False))
                try:
                    secret_api = self.plugin.get_secret(namespace, s.get("name", ""))
                except Exception as err:
                    if not (is_not_found(err) and optional):
                        klog.errorf(
                            "Couldn't get secret %s/%s: %s", namespace, s.get("name", ""), err
                        )
                        errlist.append(err)
                        continue
                    secret_api = {}
                try:
                    payload.update(
                        secret.make_payload(s.get("items", []), secret_api, default_mode, optional)
                    )
                except ValueError as err:
                    klog.errorf(
                        "Couldn't get secret payload %s/%s: %s", namespace, s.get("name", ""), err
                    )
                    errlist.append(err)
            # Go: case source.ConfigMap != nil:
            elif "configMap" in source:
                c = source["configMap"]
                optional = bool(c.get("optional", False))
                try:
                    config_map = self.plugin.get_config_map(namespace, c.get("name", ""))
                except Exception as err:
                    if not (is_not_found(err) and optional):
                        klog.errorf(
                            "Couldn't get configMap %s/%s: %s", namespace, c.get("name", ""), err
                        )
                        errlist.append(err)
                        continue
                    config_map = {}
                try:
                    payload.update(
                        configmap.make_payload(
                            c.get("items", []), config_map, default_mode, optional
                        )
                    )
                except ValueError as err:
                    klog.errorf(
                        "Couldn't get configMap payload %s/%s: %s",
                        namespace,
                        c.get("name", ""),
                        err,
                    )
                    errlist.append(err)
            # Go omitted: case source.DownwardAPI != nil: -- the downward API plugin is not ported; its files are left out
            # Go: case source.ServiceAccountToken != nil:
            elif "serviceAccountToken" in source:
                tp = source["serviceAccountToken"]
                try:
                    token = self.plugin.get_service_account_token(
                        namespace, self.pod.spec.service_account_name or "default"
                    )
                except Exception as err:
                    errlist.append(err)
                    continue
                payload[tp.get("path", "token")] = (token.encode(), default_mode)
        # Go: return payload, utilerrors.NewAggregate(errlist)
        aggregate = new_aggregate(errlist)
        if aggregate is not None:
            raise aggregate
        return payload


class ProjectedVolumeUnmounter:
    """Go: pkg/volume/projected/projected.go type projectedVolumeUnmounter"""

    def __init__(self, vol_name: str, pod_uid: str, plugin: ProjectedPlugin) -> None:
        self.vol_name = vol_name
        self.pod_uid = pod_uid
        self.plugin = plugin

    def get_path(self) -> str:
        """Go: pkg/volume/projected/projected.go (*projectedVolume).GetPath"""
        return get_path(self.plugin.host, self.pod_uid, self.vol_name, projectedPluginName)

    def tear_down(self) -> None:
        """Go: pkg/volume/projected/projected.go (*projectedVolumeUnmounter).TearDown"""
        # Ours: the scenario may make the removal fail, as a busy mount makes it fail on a node.
        self.plugin.host.scenario.tear_down(self.pod_uid, self.vol_name)
        unmount_via_empty_dir(self.get_path(), self.plugin.wrapped, self.vol_name, self.pod_uid)
