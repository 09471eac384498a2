"""The Container Runtime Interface (CRI) kubelet talks to, and a fake runtime behind it.

The Go package is ``k8s.io/cri-api`` (staging/src/k8s.io/cri-api/pkg/apis/ in the kubernetes
repository):

* :mod:`minikubelet.cri.api` — the messages (``runtime/v1alpha2/api.pb.go``, generated from
  ``api.proto``), only the fields kubelet's pod-creation path uses;
* :mod:`minikubelet.cri.services` — the two services kubelet calls (``services.go``):
  ``RuntimeService`` and ``ImageManagerService``;
* :mod:`minikubelet.cri.fake_runtime` and :mod:`minikubelet.cri.fake_image_service` — an in-memory
  runtime whose containers live as a *scenario* says (not a port: a stand-in for containerd);
* :mod:`minikubelet.cri.scenario` — the scenario format.
"""
