"""The ``minikubelet`` console script speaks the user's language and knows its Kubernetes pin."""

import subprocess
import sys

from minikubelet import KUBERNETES_VERSION, __version__
from minikubelet.cli import main
from minikubelet.i18n import language


def test_version_names_the_kubernetes_release():
    result = subprocess.run(
        [sys.executable, "-m", "minikubelet.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"minikubelet {__version__} (Kubernetes {KUBERNETES_VERSION})"


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
