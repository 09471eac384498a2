"""The scenario format: lifetimes, images, runtime windows, and clear errors."""

from __future__ import annotations

import json

import pytest

from minikubelet.sim.cri.hooks import HookScript
from minikubelet.sim.cri.scenario import (
    DEFAULT_APP,
    DEFAULT_INIT,
    ImageScript,
    Lifetime,
    ScenarioError,
    Window,
    load_scenario_file,
    parse_container_scripts,
    parse_scenario,
    sandbox_script_from_annotations,
    scripts_from_annotations,
)


def test_annotation_lifetimes_and_runs():
    containers, images = scripts_from_annotations(
        {
            "minikubelet.dev/scenario": (
                "init-db: {runFor: 3s}\n"
                "app: [{runFor: 5s, exitCode: 1}, {runFor: 1m30s, exitCode: 2}, forever]\n"
                "side: {runFor: forever, stopTime: 10s, preStopTime: 2s}\n"
                "quick: 500ms\n"
            ),
            "minikubelet.dev/images": "busybox: {pullTime: 2s, fail: 2}\nnosuch:1.0: notFound",
        },
        "default/web",
    )
    assert containers["init-db"].lifetime(0) == Lifetime(run_for=3.0)
    app = containers["app"]
    assert [app.lifetime(i) for i in range(4)] == [
        Lifetime(run_for=5.0, exit_code=1),
        Lifetime(run_for=90.0, exit_code=2),
        Lifetime(run_for=None),
        Lifetime(run_for=None),
    ]
    assert containers["side"].lifetime(0) == Lifetime(
        run_for=None, stop_time=10.0, pre_stop_time=2.0
    )
    assert containers["quick"].lifetime(0).run_for == 0.5
    assert images == {
        "busybox:latest": ImageScript(pull_time=2.0, fail=2),
        "nosuch:1.0": ImageScript(not_found=True),
    }


def test_run_for_left_out_takes_the_kind_default():
    script = parse_container_scripts({"c": {"exitCode": 3}}, "x")["c"]
    lt = script.lifetime(0)
    assert lt.or_default(DEFAULT_INIT) == Lifetime(run_for=1.0, exit_code=3)
    assert lt.or_default(DEFAULT_APP) == Lifetime(run_for=None, exit_code=3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("app: {runFor: soon}", "container 'app': field runFor: time: invalid duration"),
        ("app: {exitCode: 300}", "container 'app': field exitCode: expected 0 to 255, got 300"),
        ("app: {runfor: 5s}", "container 'app': unknown field 'runfor'"),
        ("app: []", "container 'app': the list of runs is empty"),
        ("- app", "expected a mapping"),
        ("app: {runFor: 5s", "not YAML or JSON"),
        (
            "app: {oomKilled: yes please}",
            "container 'app': field oomKilled: expected true or false",
        ),
        (
            "app: {oomKilled: true, exitCode: 1}",
            "container 'app': field exitCode: an OOM-killed container exits with 137 (SIGKILL), not 1",
        ),
    ],
)
def test_bad_annotations_say_where(text, message):
    with pytest.raises(ScenarioError) as e:
        scripts_from_annotations({"minikubelet.dev/scenario": text}, "default/web")
    assert str(e.value).startswith("pod default/web: annotation minikubelet.dev/scenario")
    assert message in str(e.value)


def test_scenario_file_yaml_and_json(tmp_path):
    doc = {
        "pods": {"default/web": {"app": {"runFor": "5s", "exitCode": 1}}},
        "images": {"*": {"pullTime": "1s"}, "busybox": {"fail": 1}},
        "presentImages": ["nginx:1.21", "pause"],
        "defaults": {"init": {"runFor": "2s"}, "app": "forever"},
        "runtime": {
            "notReady": [{"from": "0s", "until": "30s"}],
            "down": [{"from": 60}],
            "hang": [
                {"from": "20s", "until": "4m", "calls": ["ContainerStatus", "ListContainers"]}
            ],
        },
    }
    y = tmp_path / "s.yaml"
    y.write_text(json.dumps(doc))  # JSON is YAML
    j = tmp_path / "s.json"
    j.write_text(json.dumps(doc))
    for path in (y, j):
        sc = load_scenario_file(path)
        assert sc.pods["default/web"]["app"].lifetime(0) == Lifetime(run_for=5.0, exit_code=1)
        assert sc.images["*"].pull_time == 1.0 and sc.images["busybox:latest"].fail == 1
        assert sc.present_images == ["nginx:1.21", "pause:latest"]
        assert sc.default_init == Lifetime(run_for=2.0)
        assert sc.runtime_not_ready[0].contains(29.9) and not sc.runtime_not_ready[0].contains(30)
        assert sc.runtime_down[0].contains(1e9)
        assert sc.runtime_hangs["container_status"] == [Window(20.0, 240.0)]
        assert sc.runtime_hangs["list_containers"] == [Window(20.0, 240.0)]


def test_scenario_errors():
    with pytest.raises(
        ScenarioError, match=r"runtime: hang\[0\]: field calls: unknown CRI method 'Inspect'"
    ):
        parse_scenario({"runtime": {"hang": [{"from": "1s", "calls": ["Inspect"]}]}})
    with pytest.raises(ScenarioError, match=r"runtime: hang\[0\]: field calls: expected a list"):
        parse_scenario({"runtime": {"hang": [{"from": "1s"}]}})
    with pytest.raises(ScenarioError, match=r"pods: 'web': expected namespace/name"):
        parse_scenario({"pods": {"web": {}}})
    with pytest.raises(ScenarioError, match="unknown field 'podz'"):
        parse_scenario({"podz": {}})
    with pytest.raises(ScenarioError, match=r"nope\.yaml: cannot read: No such file"):
        load_scenario_file("/nonexistent/nope.yaml")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("images: {x: {pullTime: " + "[" * 500 + "]" * 500 + "}}", "images.x.pullTime"),
        ('{"pods": {"d/p": {"c": ' + '{"a": ' * 500 + "1" + "}" * 500 + "}}}", "pods.d/p.c"),
    ],
    ids=["yaml", "json"],
)
def test_deep_values_are_refused_naming_the_field(tmp_path, text, field):
    path = tmp_path / ("s.json" if text.startswith("{") else "s.yaml")
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    message = str(info.value)
    assert f"nested more than 100 levels deep at {field}" in message and len(message) < 400


@pytest.mark.parametrize(
    "text",
    [
        "images: {x: {pullTime: " + json.dumps("9" * 1_000_000 + "x") + "}}",
        "images: {x: {pullTime: " + json.dumps([list(range(50_000))]) + "}}",
        "images:\n  ? " + json.dumps("k" * 1_000_000) + "\n  : {what: 1}\n",
        "pods:\n  ? " + json.dumps("p" * 1_000_000) + "\n  : 1\n",
        "defaults: {app: {exitCode: " + json.dumps("x" * 1_000_000) + "}}",
    ],
    ids=["string", "list", "key", "pod", "exit-code"],
)
def test_huge_values_are_cut_in_errors_and_the_field_named(text):
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "s.yaml")
    message = str(info.value)
    assert len(message) < 400, message[:400]
    assert message.startswith("s.yaml: ") and ("…" in message or "..." in message)
    assert len(info.value.args[0].zh) < 400


def test_oom_kills_and_sandbox_lifetimes():
    containers, _ = scripts_from_annotations(
        {"minikubelet.dev/scenario": "cache: {runFor: 30s, oomKilled: true}"}, "default/web"
    )
    oom = containers["cache"].lifetime(0)
    assert (oom.run_for, oom.exit_code, oom.oom_killed) == (30.0, 137, True)
    assert oom.or_default(DEFAULT_APP).oom_killed
    script = sandbox_script_from_annotations(
        {"minikubelet.dev/sandbox": "[20s, {runFor: 1m}, forever]"}, "default/web"
    )
    assert script is not None
    assert [script.run_for(i) for i in range(4)] == [20.0, 60.0, None, None]
    assert sandbox_script_from_annotations({}, "default/web") is None
    sc = parse_scenario({"sandboxes": {"default/web": "5s"}})
    assert sc.sandboxes["default/web"].run_for(3) == 5.0
    with pytest.raises(ScenarioError, match=r"sandboxes: 'web': expected namespace/name"):
        parse_scenario({"sandboxes": {"web": "5s"}})
    with pytest.raises(
        ScenarioError, match=r"sandbox of pod default/web: sandbox 1: unknown field 'stopTime'"
    ):
        parse_scenario({"sandboxes": {"default/web": ["5s", {"stopTime": "1s"}]}})
    with pytest.raises(ScenarioError, match=r"annotation minikubelet.dev/sandbox: the list"):
        sandbox_script_from_annotations({"minikubelet.dev/sandbox": "[]"}, "default/web")


def test_hook_scripts_in_a_lifetime():
    containers = parse_container_scripts(
        {
            "app": [
                {"postStart": {"fail": "exit", "exitCode": 2, "output": "db not ready"}},
                {"postStart": "forever"},
                {"postStart": {"runFor": "2m30s", "fail": "exit"}, "preStop": "5s"},
            ],
            "web": {"postStart": {"fail": "refused"}, "preStopTime": "3s"},
        },
        "pod default/p: annotation minikubelet.dev/scenario",
    )
    first, hang, slow = (containers["app"].lifetime(i) for i in range(3))
    assert first.hook("postStart") == HookScript(fail="exit", exit_code=2, output=b"db not ready")
    assert hang.hook("postStart") == HookScript(run_for=None)
    assert slow.hook("postStart") == HookScript(run_for=150.0, fail="exit", exit_code=1)
    assert slow.hook("preStop") == HookScript(run_for=5.0)
    web = containers["web"].lifetime(0)
    assert web.hook("postStart") == HookScript(fail="refused")
    assert web.hook("preStop") == HookScript(run_for=3.0)  # preStopTime is preStop's runFor
    # A lifetime without hook scripts: both hooks succeed at once.
    assert Lifetime().hook("postStart") == Lifetime().hook("preStop") == HookScript()
    # The defaults' runFor fills in, the hook scripts stay.
    assert first.or_default(DEFAULT_APP).post_start == first.post_start


@pytest.mark.parametrize(
    ("script", "en", "zh"),
    [
        (
            {"postStart": {"fail": "timeout"}},
            "container 'app': field postStart: field fail: unknown kind of hook failure "
            "'timeout' (expected exit, for an exec hook, or refused, for an httpGet hook)",
            "container 'app': field postStart：字段 fail：未知的钩子失败方式 'timeout'",
        ),
        (
            {"postStart": {"runFor": "-5s"}},
            "container 'app': field postStart: field runFor: a duration cannot be negative ('-5s')",
            "field postStart: field runFor：时长不能为负数（'-5s'）",
        ),
        (
            {"preStop": -1},
            "container 'app': field preStop: a duration cannot be negative (-1)",
            "field preStop：时长不能为负数（-1）",
        ),
        (
            {"postStart": {"fail": "exit", "exitCode": 0}},
            "field postStart: field exitCode: expected 1 to 255 (a failed command), got 0",
            "字段 exitCode：应在 1 到 255 之间（失败的命令），实际为 0",
        ),
        (
            {"postStart": {"exitCode": 3}},
            "field postStart: field exitCode: only a hook that fails with exit has an exit code",
            "字段 exitCode：只有以 exit 失败的钩子才有退出码",
        ),
        (
            {"postStart": {"output": 7}},
            "field postStart: field output: expected a string, got 7",
            "字段 output：应为字符串，实际为 7",
        ),
        (
            {"postStart": {"outputBase64": "not base64!"}},
            "field postStart: field outputBase64: expected base64 text, got 'not base64!'",
            "字段 outputBase64：应为 base64 文本",
        ),
        (
            {"postStart": {"output": "x", "outputBase64": "eA=="}},
            "field postStart: field outputBase64: give output or outputBase64, not both",
            "字段 outputBase64：output 与 outputBase64 只能给出一个",
        ),
        (
            {"postStart": {"hang": "1m"}},
            "field postStart: unknown field 'hang' (expected one of runFor, fail, exitCode, "
            "output, outputBase64)",
            "未知字段 'hang'",
        ),
        (
            {"preStopTime": "1s", "preStop": "2s"},
            "container 'app': field preStopTime: give preStopTime or preStop (with its runFor), "
            "not both",
            "字段 preStopTime：preStopTime 与 preStop（及其 runFor）只能给出一个",
        ),
    ],
)
def test_bad_hook_scripts_name_the_field_in_both_languages(script, en, zh):
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"pods": {"default/web": {"app": script}}}, "hooks.yaml")
    assert str(info.value).startswith("hooks.yaml: pod default/web: container 'app': ")
    assert en in str(info.value)
    assert zh in info.value.args[0].zh
