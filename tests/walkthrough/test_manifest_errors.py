"""A manifest's validation error raised in a learner's code reads in the learner's language."""

from __future__ import annotations

from pathlib import Path

from tests.walkthrough.conftest import solve
from tests.walkthrough.test_checker import hostile
from walkthrough.catalog import find
from walkthrough.checker import check
from walkthrough.runner import Workspace


def test_a_bad_pod_in_the_learners_code_is_explained_in_both_languages(
    workspace: Workspace, tmp_path: Path
) -> None:
    body = """
from minikubelet.config.manifest import pod_from_dict
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


def test_a_pod_that_kubelet_refuses_is_explained_in_both_languages(
    workspace: Workspace, tmp_path: Path
) -> None:
    # A wrong answer that makes the pod invalid: the check says why kubelet refuses it, in the
    # learner's language, instead of failing on an assertion about a list of errors.
    solve(workspace, "static-pod-uid")
    exercise = find(workspace.chapters(), "static-pod-uid")
    text = exercise.exercise_file.read_text(encoding="utf-8")
    wrong = text.replace(
        "        pod.metadata.uid = hasher.hexdigest()\n",
        "        pod.metadata.uid = hasher.hexdigest()\n        pod.spec.containers[0].image = ''\n",
    )
    assert wrong != text
    exercise.exercise_file.write_text(wrong, encoding="utf-8")
    failure = check(exercise, exercise.exercise_file, time_limit=20, debug=False).first_failure
    assert failure is not None and failure.kind == "unmet"
    assert failure.en == (
        "kubelet refuses the pod your code made of the manifest: /etc/kubernetes/manifests/"
        "web.yaml: document 1: spec.containers[0].image: required"
    )
    assert failure.zh == (
        "kubelet 拒绝了你的代码由清单生成的 Pod：/etc/kubernetes/manifests/web.yaml：第 1 个文档："
        "spec.containers[0].image：必填"
    )
