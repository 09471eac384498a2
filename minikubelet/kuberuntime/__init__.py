"""kubelet's generic runtime manager: pods and containers on top of the CRI, from
pkg/kubelet/kuberuntime/ in Go.

Go's ``kubeGenericRuntimeManager`` has its methods spread over several files
(kuberuntime_manager.go, kuberuntime_container.go, kuberuntime_sandbox.go, kuberuntime_image.go,
helpers.go). The port keeps one module per file: each of the other files defines a mixin class
holding that file's methods, and
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits them all.
"""
