"""k8s.io/cri-api: the Container Runtime Interface (CRI) kubelet talks to.

In the kubernetes repository it is staging/src/k8s.io/cri-api/:

*
[`minikubelet.k8s_io.cri_api.pkg.apis.runtime.v1alpha2`][minikubelet.k8s_io.cri_api.pkg.apis.runtime.v1alpha2]
— the messages (``api.pb.go``,
  generated from ``api.proto``), only the fields kubelet's pod-creation path uses;
* [`minikubelet.k8s_io.cri_api.pkg.apis.services`][minikubelet.k8s_io.cri_api.pkg.apis.services] —
the two services kubelet calls
  (``services.go``): ``RuntimeService`` and ``ImageManagerService``.

The runtime behind them is ours: [`minikubelet.sim.cri`][minikubelet.sim.cri].
"""
