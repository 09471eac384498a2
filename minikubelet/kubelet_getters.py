"""The Kubelet's getters that the pod path uses.

Go: pkg/kubelet/kubelet_getters.go
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from minikubelet.config.defaults import (
    DefaultKubeletPluginsDirName,
    DefaultKubeletPodsDirName,
    DefaultKubeletVolumesDirName,
    DefaultKubeletVolumeSubpathsDirName,
)
from minikubelet.k8s_io.api.core.v1 import Node
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import get_node_host_ips

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet


class KubeletGetters:
    """The methods of Go's Kubelet defined in kubelet_getters.go.

    The directories are on the node's disk, which the port simulates (the Kubelet's ``fs``, the
    same tree the volume plugins write to): ``<root>/pods/<uid>/`` holds a pod's ``volumes``
    (one directory per plugin, one per volume in it), ``plugins`` and ``volume-subpaths``.
    """

    def get_root_dir(self: Kubelet) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getRootDir"""
        return self.root_directory

    def get_pods_dir(self: Kubelet) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodsDir"""
        return posixpath.join(self.get_root_dir(), DefaultKubeletPodsDirName)

    def get_pod_dir(self: Kubelet, pod_uid: str) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodDir"""
        return posixpath.join(self.get_pods_dir(), pod_uid)

    def get_pod_volume_subpaths_dir(self: Kubelet, pod_uid: str) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodVolumeSubpathsDir"""
        return posixpath.join(self.get_pod_dir(pod_uid), DefaultKubeletVolumeSubpathsDirName)

    def get_pod_volumes_dir(self: Kubelet, pod_uid: str) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodVolumesDir"""
        return posixpath.join(self.get_pod_dir(pod_uid), DefaultKubeletVolumesDirName)

    def get_pod_volume_dir(self: Kubelet, pod_uid: str, plugin_name: str, volume_name: str) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodVolumeDir"""
        return posixpath.join(self.get_pod_volumes_dir(pod_uid), plugin_name, volume_name)

    def get_pod_plugins_dir(self: Kubelet, pod_uid: str) -> str:
        """Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodPluginsDir"""
        return posixpath.join(self.get_pod_dir(pod_uid), DefaultKubeletPluginsDirName)

    def get_node(self: Kubelet) -> Node:
        """The node as the API server has it (raises if it is not there), or, without an API
        server, the node kubelet would register.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).GetNode
        """
        if self.kube_client is None:
            return self.initial_node()
        return self.kube_client.get_node(self.node_name)

    def get_node_any_way(self: Kubelet) -> Node:
        """The node from the API server if it is there, else the one kubelet would register.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getNodeAnyWay
        """
        if self.kube_client is not None:
            try:
                return self.kube_client.get_node(self.node_name)
            except Exception:
                pass
        return self.initial_node()

    def get_host_ips_any_way(self: Kubelet) -> list[str]:
        """The node's IPs: its primary one, and one of the other family on a dual-stack node.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getHostIPsAnyWay
        """
        node = self.get_node_any_way()
        return get_node_host_ips(node)

    def get_pod_volume_path_list_from_disk(self: Kubelet, pod_uid: str) -> list[str]:
        """The pod's volume directories on disk: ``volumes/<plugin>/<volume>``, each plugin's
        in the order the disk lists them.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodVolumePathListFromDisk

        Raises where Go returns its error (with the paths found so far, which no caller reads).
        """
        fs = self.fs
        # Go: volumes := []string{}
        volumes: list[str] = []
        pod_vol_dir = self.get_pod_volumes_dir(pod_uid)

        # Go's mount.PathExists also answers for a mount point whose filesystem is gone; the
        # simulated disk has no such thing, so existing is the answer.
        # Go: if pathExists, pathErr := mount.PathExists(podVolDir); pathErr != nil {
        if not fs.exists(pod_vol_dir):
            klog.info_s("Path does not exist", path=pod_vol_dir)
            return volumes

        # Go: volumePluginDirs, err := ioutil.ReadDir(podVolDir)
        volume_plugin_dirs = fs.list_dir(pod_vol_dir)
        # Go: for _, volumePluginDir := range volumePluginDirs {
        for volume_plugin_name in volume_plugin_dirs:
            volume_plugin_path = posixpath.join(pod_vol_dir, volume_plugin_name)
            # Go: volumeDirs, err := utilpath.ReadDirNoStat(volumePluginPath)
            volume_dirs = fs.list_dir(volume_plugin_path)
            # Go omitted: if unescapePluginName != csi.CSIPluginName { -- the port has no CSI
            # plugin, whose mount is one directory further down; every plugin's volumes are the
            # directories right under it
            for volume_dir in volume_dirs:
                volumes.append(posixpath.join(volume_plugin_path, volume_dir))
        return volumes

    def get_mounted_volume_path_list_from_disk(self: Kubelet, pod_uid: str) -> list[str]:
        """The pod's volume directories on disk that are still mount points.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getMountedVolumePathListFromDisk
        """
        # Go: mountedVolumes := []string{}
        mounted_volumes: list[str] = []
        # Go: volumePaths, err := kl.getPodVolumePathListFromDisk(podUID)
        volume_paths = self.get_pod_volume_path_list_from_disk(pod_uid)
        # Go: for _, volumePath := range volumePaths {
        for volume_path in volume_paths:
            # Go: isNotMount, err := kl.mounter.IsLikelyNotMountPoint(volumePath)
            is_not_mount = self.mounter.is_likely_not_mount_point(volume_path)
            if not is_not_mount:
                mounted_volumes.append(volume_path)
        return mounted_volumes

    def get_pod_volume_subpath_list_from_disk(self: Kubelet, pod_uid: str) -> list[str]:
        """The pod's subPath bind mounts on disk: ``volume-subpaths/<volume>/<container>/<n>``.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getPodVolumeSubpathListFromDisk
        """
        fs = self.fs
        # Go: volumes := []string{}
        volumes: list[str] = []
        pod_subpaths_dir = self.get_pod_volume_subpaths_dir(pod_uid)

        # Go: if pathExists, pathErr := mount.PathExists(podSubpathsDir); pathErr != nil {
        if not fs.exists(pod_subpaths_dir):
            return volumes

        # Go: volumePluginDirs, err := ioutil.ReadDir(podSubpathsDir)
        volume_plugin_dirs = fs.list_dir(pod_subpaths_dir)
        # Go: for _, volumePluginDir := range volumePluginDirs {
        for volume_plugin_name in volume_plugin_dirs:
            volume_plugin_path = posixpath.join(pod_subpaths_dir, volume_plugin_name)
            # Go: containerDirs, err := ioutil.ReadDir(volumePluginPath)
            container_dirs = fs.list_dir(volume_plugin_path)
            # Go: for _, containerDir := range containerDirs {
            for container_name in container_dirs:
                container_path = posixpath.join(volume_plugin_path, container_name)
                # Go: subPaths, err := utilpath.ReadDirNoStat(containerPath)
                sub_paths = fs.list_dir(container_path)
                for sub_path_dir in sub_paths:
                    volumes.append(posixpath.join(container_path, sub_path_dir))
        return volumes
