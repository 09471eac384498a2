"""Pod configuration: the sources of pods and the merger that feeds kubelet's sync loop.

The Go package is pkg/kubelet/config/.
"""
