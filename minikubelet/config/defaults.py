"""The names of the directories kubelet keeps under its root directory.

Go: pkg/kubelet/config/defaults.go
"""

DefaultKubeletPodsDirName = "pods"
DefaultKubeletVolumesDirName = "volumes"
DefaultKubeletVolumeSubpathsDirName = "volume-subpaths"
DefaultKubeletPluginsDirName = "plugins"
