"""References to a container inside a pod, for events (``spec.containers{nginx}``).

Go: pkg/kubelet/container/ref.go

Go returns a ``*v1.ObjectReference``
([`ObjectReference`][minikubelet.k8s_io.api.core.v1.types.ObjectReference]).
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core import v1

#: Prefix of the field path of a container kubelet starts implicitly (like the pod infra container).
#: Go: ImplicitContainerPrefix
ImplicitContainerPrefix = "implicitly required container "


def generate_container_ref(pod: v1.Pod, container: v1.Container) -> v1.ObjectReference:
    """A reference to ``container`` within ``pod``.

    Go: pkg/kubelet/container/ref.go GenerateContainerRef

    Go also returns an error, for a pod without a ``selfLink``; pods here always have what a
    reference needs, so there is none.
    """
    try:
        field_path = _field_path(pod, container)
    except LookupError:
        # Not in the spec (Go's case: the pod's infra container): a made-up field path.
        field_path = ImplicitContainerPrefix + container.name
    # Go: ref.GetPartialReference(legacyscheme.Scheme, pod, fieldPath)
    return v1.ObjectReference(
        kind="Pod",
        namespace=pod.metadata.namespace,
        name=pod.metadata.name,
        uid=pod.metadata.uid,
        api_version="v1",
        field_path=field_path,
    )


def _field_path(pod: v1.Pod, container: v1.Container) -> str:
    """Where ``container`` is in ``pod``; LookupError if it is not part of it.

    Go: pkg/kubelet/container/ref.go fieldPath
    """
    for i, here in enumerate(pod.spec.containers):
        if here.name == container.name:
            if here.name == "":
                return f"spec.containers[{i}]"
            return f"spec.containers{{{here.name}}}"
    for i, here in enumerate(pod.spec.init_containers):
        if here.name == container.name:
            if here.name == "":
                return f"spec.initContainers[{i}]"
            return f"spec.initContainers{{{here.name}}}"
    # Go also looks in spec.ephemeralContainers (feature gate EphemeralContainers, alpha in
    # v1.21 and off by default); the API here has no ephemeral containers.
    raise LookupError(
        f'container "{container.name}" not found in pod '
        f"{pod.metadata.namespace}/{pod.metadata.name}"
    )
