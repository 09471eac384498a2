"""Pod configuration: the sources of pods and the merger that feeds kubelet's sync loop.

The Go package is pkg/kubelet/config/. One module here is ours:
[`manifest`][.manifest] reads manifests (for learners, tests and the sources) with errors that
name the file, the document and the field, doing the steps of Go's ``tryDecodeSinglePod``.
"""
