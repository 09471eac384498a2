"""The ``minikubelet`` console script speaks the user's language and knows its Kubernetes pin."""

import re
import subprocess
import sys

from minikubelet import KUBERNETES_VERSION, __version__
from minikubelet.base.i18n import language
from minikubelet.go.duration import parse_duration
from minikubelet.sim.cli import main
from tests.conftest import ROOT

EXAMPLES = str(ROOT / "examples")


def test_version_names_the_kubernetes_release():
    result = subprocess.run(
        [sys.executable, "-m", "minikubelet.sim.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"minikubelet {__version__} (Kubernetes {KUBERNETES_VERSION})"


def test_version_and_help_do_not_import_the_port():
    # They must answer at once: the port, and asyncio under it, load only for `run`.
    probe = (
        "import sys\n"
        "from minikubelet.sim.cli import main\n"
        "for argv in (['--version'], ['--help'], ['run', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in ('asyncio', 'minikubelet.kubelet', 'yaml') if m in sys.modules]\n"
        "print('LOADED', loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip().splitlines()[-1] == "LOADED []"


def test_help_follows_lang(capsys):
    assert main(["--lang", "zh"]) == 0
    assert "可以直接运行" in capsys.readouterr().out
    assert main(["--lang", "en"]) == 0
    assert "runnable Python port" in capsys.readouterr().out


def test_language_comes_from_the_locale(monkeypatch):
    for name in ("MINIKUBELET_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert language() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert language() == "zh"
    monkeypatch.setenv("MINIKUBELET_LANG", "en")
    assert language() == "en"
    assert language("zh") == "zh"


def run_cli(*args: str) -> tuple[int, str]:
    """``minikubelet run ...`` in-process; returns its exit code and what it printed."""
    import io

    out = io.StringIO()
    return main(["run", *args], out=out), out.getvalue()


def test_run_shows_static_pods_go_pending_then_running():
    code, out = run_cli("--manifests", EXAMPLES + "/static-pods", "--until", "30s", "--lang", "en")
    assert code == 0
    assert '"SyncLoop ADD" source="file" pods=[default/nginx-minikubelet ' in out
    assert "minikubelet: pod default/nginx-minikubelet is Pending → Running at 1s" in out
    assert "minikubelet: after 30s, 2 pod(s):" in out
    summary = out.split("minikubelet: after 30s, 2 pod(s):\n")[1]
    assert summary.count("Running    ready 1/1  restarts 0") == 2


def test_run_is_repeatable_with_a_seed_and_differs_with_another():
    args = ("--manifests", EXAMPLES + "/static-pods", "--until", "20s", "-v", "4")
    first, again, other = (
        run_cli(*args, "--seed", "3"),
        run_cli(*args, "--seed", "3"),
        run_cli(*args, "--seed", "4"),
    )
    assert first == again
    assert first[1] != other[1]


def test_run_speaks_chinese():
    code, out = run_cli("--manifests", EXAMPLES + "/static-pods", "--until", "5s", "--lang", "zh")
    assert code == 0
    assert "minikubelet: Pod default/nginx-minikubelet 在 1s 变为 Pending → Running" in out
    assert "minikubelet: 运行 5s 后，共 2 个 Pod：" in out


def test_run_refuses_bad_input_before_starting(tmp_path, capsys):
    import pytest

    with pytest.raises(SystemExit) as exc:
        main(["run", "--until", "30s", "--lang", "en"])
    assert exc.value.code == 2
    assert "give at least one pod source" in capsys.readouterr().err

    with pytest.raises(SystemExit) as exc:
        main(["run", "--manifests", EXAMPLES + "/static-pods", "--until", "soon"])
    assert exc.value.code == 2
    assert 'time: invalid duration "soon"' in capsys.readouterr().err

    script = tmp_path / "script.yaml"
    script.write_text("- {at: 0s, type: CREATED, object: {}}\n")
    code, out = run_cli("--api-script", str(script))
    assert code == 2 and out == ""
    assert f"{script}: event 1: type: must be one of" in capsys.readouterr().err


def test_run_with_a_scripted_api_server_and_a_scenario():
    code, out = run_cli(
        "--api-script",
        EXAMPLES + "/api/pods.yaml",
        "--scenario",
        EXAMPLES + "/scenarios/flaky-node.yaml",
        "--until",
        "40s",
    )
    assert code == 0
    assert '"Container runtime not ready"' in out  # the scenario's outage at the start
    assert '"SyncLoop DELETE" source="api" pods=[shop/api-web]' in out
    assert '"SyncLoop REMOVE" source="api" pods=[shop/api-web]' in out
    assert "CrashLoopBackOff" in out
    assert "shop/crasher" in out.split("minikubelet: after 40s")[1]


def test_run_under_the_real_clock():
    import time

    start = time.monotonic()
    code, out = run_cli(
        "--manifests", EXAMPLES + "/static-pods", "--until", "1500ms", "--clock", "real"
    )
    assert code == 0
    assert time.monotonic() - start >= 1.4  # real time passed
    assert '"SyncLoop ADD" source="file"' in out
    # Phase lines count from the start of the run, not from the machine's monotonic clock.
    ats = re.findall(r"minikubelet: pod \S+ is .* at (\S+)", out)
    assert ats
    for at in ats:
        assert 0 < parse_duration(at) < 1.5, at


def test_show_cgroups_prints_the_tree_each_driver_makes():
    # examples/cgroups: one pod of each QoS class (guaranteed.yaml, burstable.yaml, besteffort.yaml).
    code, out = run_cli("--manifests", EXAMPLES + "/cgroups", "--until", "3s", "--show-cgroups")
    assert code == 0
    tree = out.split("minikubelet: the node's cgroups (huge page limits left out):\n")[1]
    assert tree.splitlines()[:3] == [
        "  /",
        "    kubepods  cpu.shares=4096 memory.limit_in_bytes=8589934592",
        "      besteffort  cpu.shares=2",
    ]
    # Guaranteed: straight under kubepods, capped at its limits (500m, 256Mi).
    assert (
        "      pod3b0d7e55-61a2-4c1f-8e0a-9d4b2c1a0f13  cpu.cfs_period_us=100000 "
        "cpu.cfs_quota_us=50000 cpu.shares=512 memory.limit_in_bytes=268435456"
    ) in tree
    # Burstable: under burstable, whose weight is its pods' CPU requests (250m).
    assert "      burstable  cpu.shares=256\n        pod6f1c2a34-" in tree
    assert "hugetlb" not in tree
    code, out = run_cli(
        "--manifests", EXAMPLES + "/cgroups", "--until", "3s", "--show-cgroups",
        "--cgroup-driver", "systemd", "--lang", "zh",
    )  # fmt: skip
    assert "minikubelet: 节点的 cgroup（未列出大页上限）：" in out
    assert (
        "        kubepods-burstable-pod6f1c2a34_0d5e_4b7a_9c1e_5a0b3c2d1e0f.slice  cpu.shares=256"
    ) in out
    _, out = run_cli("--manifests", EXAMPLES + "/cgroups", "--until", "3s")
    assert "cgroups" not in out.split("after 3s")[1]
