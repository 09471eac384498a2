"""k8s.io/apimachinery/pkg/api/resource: quantities (``"500m"``, ``"128Mi"``).

The package holds the names of [`quantity`][.quantity], as Go's ``resource`` package does.
"""

from minikubelet.k8s_io.apimachinery.pkg.api.resource.quantity import *  # noqa: F403
