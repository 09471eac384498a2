"""The Container Runtime Interface (CRI) kubelet talks to, and a fake runtime behind it.

The Go package is ``k8s.io/cri-api`` (staging/src/k8s.io/cri-api/pkg/apis/ in the kubernetes
repository):

* [`minikubelet.cri.api`][minikubelet.cri.api] — the messages (``runtime/v1alpha2/api.pb.go``,
generated from
  ``api.proto``), only the fields kubelet's pod-creation path uses;
* [`minikubelet.cri.services`][minikubelet.cri.services] — the two services kubelet calls
(``services.go``):
  ``RuntimeService`` and ``ImageManagerService``;
* [`minikubelet.cri.fake_runtime`][minikubelet.cri.fake_runtime] and
[`minikubelet.cri.fake_image_service`][minikubelet.cri.fake_image_service] — an in-memory
  runtime whose containers live as a *scenario* says (not a port: a stand-in for containerd);
* [`minikubelet.cri.scenario`][minikubelet.cri.scenario] — the scenario format.
"""
