"""Ports of the Go modules kubelet depends on, one package per module under ``k8s.io``.

The path of a module here is the Go import path with ``.`` and ``-`` written ``_``, so a Go
import names its Python module:

==========================================  ====================================================
Go import                                    Python module
==========================================  ====================================================
``k8s.io/api/core/v1``
[`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1]
``k8s.io/apimachinery/pkg/util/wait``
[`minikubelet.k8s_io.apimachinery.pkg.util.wait`][minikubelet.k8s_io.apimachinery.pkg.util.wait]
``k8s.io/client-go/tools/record``
[`minikubelet.k8s_io.client_go.tools.record`][minikubelet.k8s_io.client_go.tools.record]
``k8s.io/cri-api/pkg/apis``
[`minikubelet.k8s_io.cri_api.pkg.apis`][minikubelet.k8s_io.cri_api.pkg.apis]
``k8s.io/kubernetes/pkg/scheduler/...``
[`minikubelet.k8s_io.kubernetes.pkg.scheduler`][minikubelet.k8s_io.kubernetes.pkg.scheduler]
==========================================  ====================================================

and a Go file ``x.go`` is the module ``x.py`` of its package (``api.pb.go`` is ``api_pb.py``).
The kubernetes repository keeps the first four under ``staging/src/k8s.io/``; ``k8s_io.kubernetes``
holds the parts of ``k8s.io/kubernetes`` itself that are not kubelet (the scheduler's admission
code, API helpers, defaulting and validation). kubelet itself, ``k8s.io/kubernetes/pkg/kubelet``,
is the top of the [`minikubelet`][minikubelet] package. What has no Go counterpart at all is in
[`minikubelet.sim`][minikubelet.sim].
"""
