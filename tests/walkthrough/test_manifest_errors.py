"""A manifest's validation error raised in a learner's code reads in the learner's language."""

from __future__ import annotations

from pathlib import Path

from tests.walkthrough.test_checker import hostile
from walkthrough.runner import Workspace


def test_a_bad_pod_in_the_learners_code_is_explained_in_both_languages(
    workspace: Workspace, tmp_path: Path
) -> None:
    body = """
from minikubelet.sim.manifest import pod_from_dict
pod_from_dict({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
               "spec": {"containers": [{"name": "app", "image": "nginx",
                                        "ports": [{"containerPort": 70000}]}]}})
"""
    failure = hostile(workspace, tmp_path, body).first_failure
    assert failure is not None and failure.kind == "error"
    where = "spec.containers[0].ports[0].containerPort"
    assert failure.en == (
        f"Your code raised ManifestError: <dict>: {where}: invalid port 70000: "
        "must be between 1 and 65535"
    )
    assert failure.zh == (
        f"你的代码抛出了异常：ManifestError: <dict>：{where}：端口 70000 不合法：必须在 1 到 65535 之间"
    )
