"""k8s.io/apimachinery/pkg/apis/meta/v1, imported as Go imports it: ``metav1``.

The package holds the names of [`types`][.types].
"""

from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1.types import *  # noqa: F403
