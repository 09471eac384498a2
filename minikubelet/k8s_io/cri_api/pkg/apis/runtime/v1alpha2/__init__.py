"""k8s.io/cri-api/pkg/apis/runtime/v1alpha2, imported as kubelet imports it: ``runtimeapi``.

The package holds the names of [`api_pb`][.api_pb].
"""

from minikubelet.k8s_io.cri_api.pkg.apis.runtime.v1alpha2.api_pb import *  # noqa: F403
