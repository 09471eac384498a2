"""``minikubelet run`` refuses bad input before anything runs, with a message that names the flag
or the file, and never reads a file without a limit. Each run is a child process with a time
limit and an address-space limit, so that a regression fails the test, not the machine."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.config.helpers import manifest

MEMORY = 2 << 30  # bytes of address space the child may use


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "minikubelet.sim.cli", "--lang", lang, "run", *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        check=False,
    )


@pytest.fixture
def manifests(tmp_path: Path) -> str:
    (tmp_path / "web.yaml").write_text(manifest("web"))
    return str(tmp_path)


@pytest.mark.parametrize("flag", ["--scenario", "--api-script"])
def test_an_endless_file_is_read_up_to_the_limit_and_refused(manifests, flag):
    done = run("--manifests", manifests, flag, "/dev/zero", "--until", "1s")
    assert done.returncode == 2
    assert done.stderr == f"minikubelet: /dev/zero: too large: more than {10 << 20} bytes\n"
    assert "SyncLoop" not in done.stdout


@pytest.mark.parametrize(
    ("value", "problem"),
    [(".nan", ".nan"), (".inf", "inf"), ("-.inf", "-inf"), ("1e300", "1e+300")],
)
def test_a_duration_that_is_not_a_number_of_seconds_is_refused(manifests, tmp_path, value, problem):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(f"defaults:\n  app: {{runFor: {value}}}\n")
    done = run("--manifests", manifests, "--scenario", str(scenario), "--until", "1s")
    assert done.returncode == 2
    assert done.stderr.startswith(f"minikubelet: {scenario}: defaults: app: field runFor: ")
    assert "SyncLoop" not in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--node-cpu", "banana"],
            '--node-cpu: invalid quantity "banana": expected a number and an optional suffix',
        ),
        (["--node-memory=-1Gi"], "--node-memory: '-1Gi' is negative"),
        (["--node-name", "My_Node"], "--hostname-override: 'My_Node' is not a valid node name: "),
        (["--node-name", " "], "empty hostname is invalid"),
        (
            ["--max-pods", "2147483648"],
            'invalid argument "2147483648" for "--max-pods" flag: strconv.ParseInt: parsing '
            '"2147483648": value out of range',
        ),
        (
            ["--max-pods", "-5"],
            "invalid configuration: maxPods (--max-pods) -5 must not be a negative number",
        ),
    ],
)
def test_bad_node_flags_are_refused_by_name(manifests, args, message):
    done = run("--manifests", manifests, "--until", "1s", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(f"minikubelet: {message}")
    assert "SyncLoop" not in done.stdout


def test_a_node_name_is_normalised_as_kubelet_normalises_it(manifests):
    done = run("--manifests", manifests, "--until", "1s", "--node-name", " Node-1 ")
    assert done.returncode == 0, done.stderr
    assert "default/web-node-1" in done.stdout


def test_a_script_with_a_bad_pod_later_on_is_refused_before_anything_runs(tmp_path):
    good = "{apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {containers: [{name: c, image: x}]}}"
    bad = good.replace("name: a", "name: B_2")
    script = tmp_path / "script.yaml"
    script.write_text(
        f"- {{at: 0s, type: ADDED, object: {good}}}\n- {{at: 20s, type: ADDED, object: {bad}}}\n"
    )
    done = run("--api-script", str(script), "--until", "30s")
    assert done.returncode == 2
    assert done.stderr.startswith(f"minikubelet: {script}: event 2: object: metadata.name: ")
    assert "SyncLoop" not in done.stdout


def test_an_alias_bomb_in_a_scenario_is_refused(manifests, tmp_path):
    levels = ['a0: &a0 ["lol"]'] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)
    ]
    scenario = tmp_path / "bomb.yaml"
    scenario.write_text("".join(f"{line}\n" for line in levels))
    done = run("--manifests", manifests, "--scenario", str(scenario), "--until", "1s")
    assert done.returncode == 2
    assert "document contains excessive aliasing" in done.stderr


def test_a_bad_pod_in_a_script_is_refused_in_the_users_language(tmp_path):
    pod = "{apiVersion: v1, kind: Pod, metadata: {name: B_2}, spec: {containers: [{name: c}]}}"
    script = tmp_path / "script.yaml"
    script.write_text(f"- {{at: 5s, type: ADDED, object: {pod}}}\n")
    done = run("--api-script", str(script), "--until", "10s", lang="zh")
    assert done.returncode == 2
    assert done.stderr == (
        f'minikubelet: {script}：第 1 个事件：object：metadata.name：名称 "B_2" 不合法：只能由'
        "小写字母、数字、'-' 和 '.' 组成，以字母或数字开头和结尾，最多 253 个字符（DNS-1123 子域名）\n"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "manifest refused: {file}: document 1: {field}: invalid port 70000: must be"),
        (
            "zh",
            "清单未被接受：{file}：第 1 个文档：{field}：端口 70000 不合法：必须在 1 到 65535 之间",
        ),
    ],
)
def test_a_refused_manifest_is_told_once_in_the_users_language(tmp_path, lang, said):
    (tmp_path / "web.yaml").write_text(
        manifest("web").replace(
            "- name: main\n", "- name: main\n    ports: [{containerPort: 70000}]\n"
        )
    )
    done = run("--manifests", str(tmp_path), "--until", "45s", lang=lang)
    assert done.returncode == 0, done.stderr
    field = "spec.containers[0].ports[0].containerPort"
    told = [line for line in done.stdout.splitlines() if line.startswith("minikubelet: ")]
    assert told[0].startswith(
        "minikubelet: " + said.format(file=tmp_path / "web.yaml", field=field)
    )
    assert len(told) == 2  # once, though kubelet logs it at each of the three listings
    assert done.stdout.count("Could not process manifest file") == 3


def test_a_bad_scenario_is_refused_in_the_users_language(manifests, tmp_path):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("defaults:\n  app: {runFor: .nan}\n")
    done = run("--manifests", manifests, "--scenario", str(scenario), lang="zh")
    assert done.returncode == 2
    assert done.stderr == (
        f"minikubelet: {scenario}: defaults: app: field runFor：应为 5s 这样的时长，实际为 nan\n"
    )
    done = run("--manifests", manifests, "--scenario", "/dev/zero", lang="zh")
    assert done.stderr == f"minikubelet: /dev/zero：文件太大：超过 {10 << 20} 字节\n"


@pytest.mark.parametrize(
    ("args", "en", "zh"),
    [
        (
            ["--seed", "x"],
            "minikubelet run: error: argument --seed: invalid int value: 'x'",
            "minikubelet run：错误：参数 --seed：int 值无效：'x'",
        ),
        (
            ["--clock", "wall"],
            "minikubelet run: error: argument --clock: invalid choice: 'wall'",
            "minikubelet run：错误：参数 --clock：取值无效：'wall'",
        ),
        (
            ["--until", "0s"],
            "minikubelet run: error: argument --until: '0s' is not a positive duration",
            "minikubelet run：错误：参数 --until：'0s' 不是一个正的时长",
        ),
    ],
)
def test_argparse_refuses_in_the_users_language(manifests, args, en, zh):
    for lang, said in (("zh", zh), ("en", en)):
        done = run("--manifests", manifests, *args, lang=lang)
        assert done.returncode == 2
        assert said in done.stderr
        usage = "用法：" if lang == "zh" else "usage: "
        assert done.stderr.startswith(usage)


def test_the_help_is_all_in_chinese_for_a_chinese_user():
    done = subprocess.run(
        [sys.executable, "-m", "minikubelet.sim.cli", "--lang", "zh", "run", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.startswith("用法：minikubelet run")
    assert "显示本帮助后退出" in done.stdout
    for english in ("usage:", "options:", "show this help"):
        assert english not in done.stdout


def test_a_file_that_cannot_be_read_is_refused_with_the_reason_in_the_users_language(tmp_path):
    done = run("--api-script", str(tmp_path), lang="zh")
    assert done.returncode == 2
    assert done.stderr == f"minikubelet: {tmp_path}：无法读取：这是一个目录\n"
