"""Helpers of the volume tests: a pod with volumes, and a run of an API script."""

from __future__ import annotations

import io
import re

from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.sim.cli import main


def pod(volumes, mounts, annotations=None, name="web") -> Pod:
    """A pod whose init container mounts the first volume and whose app mounts them all."""
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": name,
                "namespace": "default",
                "uid": f"uid-{name}",
                "annotations": annotations or {},
            },
            "spec": {
                "volumes": volumes,
                "initContainers": [
                    {
                        "name": "init",
                        "image": "busybox:1.33",
                        "volumeMounts": [{"name": m, "mountPath": f"/{m}"} for m in mounts[:1]],
                    }
                ],
                "containers": [
                    {
                        "name": "app",
                        "image": "busybox:1.33",
                        "volumeMounts": [{"name": m, "mountPath": f"/{m}"} for m in mounts],
                    }
                ],
            },
        }
    )


def run(script: str, tmp_path, until: str, *flags: str) -> str:
    """``minikubelet run`` of an API script; its output."""
    path = tmp_path / "script.yaml"
    path.write_text(script)
    out = io.StringIO()
    code = main(
        ["run", "--api-script", str(path), "--until", until, "--lang", "en", *flags], out=out
    )
    assert code == 0, out.getvalue()
    return out.getvalue()


POD = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {{name: web, namespace: default{annotations}}}
    spec:
      containers:
        - name: app
          image: "nginx:1.21"
          volumeMounts: [{mounts}]
      volumes: [{volumes}]
"""


def events(out: str) -> list[tuple[str, str]]:
    """(time, message) of each FailedMount event."""
    return re.findall(
        r"I0715 00:(\d\d:\d\d\.\d)\d+ .*reason=\"FailedMount\" message=\"(.*)\"\n", out
    )
