"""Every manifest error has its Chinese twin, so that ``--lang zh`` shows it in Chinese."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikubelet.base.i18n import both, in_language
from minikubelet.config.manifest import ManifestError, load_pods, pod_from_dict
from tests.api.test_hostile import documents
from tests.api.test_load import BAD, SRC

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(("text", "expected"), BAD)
def test_every_bad_manifest_is_explained_in_chinese(text, expected):
    _, errors = load_pods(text, SRC, allow_pod_list=True)
    assert errors
    for error in errors:
        message_zh = getattr(error.message, "zh", "")
        assert CJK.search(message_zh), f"no Chinese for: {error}"
        assert error.zh.startswith(SRC + "：")
        assert in_language(error, "zh") == error.zh
        assert in_language(error, "en") == str(error)


@pytest.mark.parametrize(
    ("text", "zh"),
    [
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
            "spec: {containers: [{name: app, image: nginx}, {name: app, image: x}]}\n",
            '第 1 个文档：spec.containers[1].name：名称 "app" 重复',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
            "spec: {containers: [{name: app, image: nginx, resources: {limits: {cpu: lots}}}]}\n",
            '第 1 个文档：spec.containers[0].resources.limits[cpu]：资源数量 "lots" 不合法：'
            '应为一个数字加可选的单位后缀（例如 "500m", "0.5", "128Mi", "1G", "1e3"）',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {}\n",
            "不是合法的 YAML：mapping values are not allowed in this context（第 5 行，第 10 列）",
        ),
        ("", "第 1 个文档：没有 Pod：内容为空"),
    ],
    ids=["duplicate", "quantity", "yaml", "empty"],
)
def test_chinese_wording(text, zh):
    _, (error,) = load_pods(text, SRC)
    assert error.zh == f"{SRC}：{zh}"


def test_a_chinese_source_names_where_the_data_came_from():

    with pytest.raises(ManifestError) as info:
        pod_from_dict({"apiVersion": "v1", "kind": "Pod"}, source=both("event 2", "第 2 个事件"))
    assert str(info.value) == "event 2: metadata: required: a pod needs a name"
    assert info.value.zh == "第 2 个事件：metadata：必填：Pod 需要一个名称"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.booleans())
def test_any_document_is_refused_in_chinese_too(doc, as_json):
    text = json.dumps(doc) if as_json else yaml.safe_dump(doc)
    _, errors = load_pods(text, SRC, allow_pod_list=True)
    for error in errors:
        assert CJK.search(getattr(error.message, "zh", "")), f"no Chinese for: {error}"


def test_an_error_keeps_both_languages_across_processes():
    import pickle

    _, (error,) = load_pods("", SRC)
    copy = pickle.loads(pickle.dumps(error))
    assert copy == error and copy.zh == error.zh == f"{SRC}：第 1 个文档：没有 Pod：内容为空"
