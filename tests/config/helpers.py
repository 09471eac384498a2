"""Small builders shared by the config tests."""

from __future__ import annotations

import textwrap

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.sim.manifest import load_pods


def manifest(name: str, image: str = "nginx:1.21", namespace: str = "", extra: str = "") -> str:
    """A one-container pod manifest as YAML text; ``extra`` is appended as is."""
    ns = f"  namespace: {namespace}\n" if namespace else ""
    return (
        "apiVersion: v1\nkind: Pod\nmetadata:\n"
        f"  name: {name}\n{ns}"
        "spec:\n  containers:\n  - name: main\n"
        f"    image: {image}\n"
    ) + textwrap.dedent(extra)


def pod(name: str, uid: str, image: str = "nginx:1.21") -> Pod:
    """A pod with a namespace and a UID, as a source would send it."""
    pods, errors = load_pods(manifest(name, image, namespace="default"), f"<{name}>")
    assert not errors, errors
    pods[0].metadata.uid = uid
    return pods[0]
