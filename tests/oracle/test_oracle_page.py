"""The ``{{ oracle() }}`` directive: each chapter's replay is read from the goldens, in both languages."""

from __future__ import annotations

import re
from pathlib import Path

from tools.oracle.compare import RULES, scenario_names
from tools.site.oracle import oracle_directive

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_a_chapter_lists_its_scenarios_and_verdicts() -> None:
    en = oracle_directive("chapters/11-end-of-a-pod.md", "en")
    zh = oracle_directive("chapters/11-end-of-a-pod.zh.md", "zh")
    assert 'Replayed through real kubelet v1.21.4: matched"' in en
    assert "用真实 kubelet v1.21.4 重放：一致" in zh
    for text in (en, zh):
        assert "`kill-grace`" in text and "`always-exit0`" not in text
        assert "](../oracle.md)" in text
    assert "以 2 秒宽限期终止 Pod" in zh


def test_only_the_rules_a_chapter_needs_are_listed() -> None:
    # Chapter 8 needs no rule: the port prints a failed start as kubelet does
    # (utilruntime.HandleError, kuberuntime_manager.go:864) and builds ContainerConfig.linux and
    # the sandbox's cgroup parent as real kubelet does (generateLinuxContainerConfig).
    en = oracle_directive("chapters/08-start-container.md", "en")
    assert 'Replayed through real kubelet v1.21.4: matched"' in en
    assert not re.findall(r"`([a-z0-9-]+)`: issue", en)
    names = {r.name for r in RULES}
    assert "start-failed-line" not in names and "container-config-json" not in names
    ch11 = oracle_directive("chapters/11-end-of-a-pod.md", "en")
    # The port runs hooks over the CRI as kubelet does: no rule hides kill-prestop's ExecSync.
    assert "hooks-not-over-cri" not in ch11
    zh = oracle_directive("chapters/11-end-of-a-pod.zh.md", "zh")
    assert all(r.reason_zh in zh for r in RULES if f"`{r.name}`：" in zh)


def test_a_chapter_without_scenarios_says_so() -> None:
    en = oracle_directive("chapters/01-big-picture.md", "en")
    assert en.startswith('!!! note "Not replayed through real kubelet yet"')
    assert "尚未用真实 kubelet 重放" in oracle_directive("chapters/01-big-picture.zh.md", "zh")


def test_a_chapter_counts_both_levels() -> None:
    en = oracle_directive("chapters/04-handle-pod-additions.md", "en")
    zh = oracle_directive("chapters/04-handle-pod-additions.zh.md", "zh")
    admitted = len(
        [n for n in scenario_names("kubelet") if n.startswith(("admission-", "static-pod-"))]
    )
    assert f"{admitted} at the Kubelet level" in en
    assert f"Kubelet 层 {admitted} 个" in zh
    assert "| `admission-outofcpu` | Kubelet level |" in en
    assert "| `admission-outofcpu` | Kubelet 层 |" in zh
    ch9 = oracle_directive("chapters/09-pleg.md", "en")
    assert "| Kubelet level |" in ch9


def test_every_chapter_that_shows_its_replay_was_replayed() -> None:
    # A chapter page with "Checked against real kubelet" must have scenarios of its own, in
    # both languages: the Kubelet level runs the real pod workers, syncPod and PLEG for them.
    pages = sorted(DOCS.glob("chapters/*.md"))
    shown = [p for p in pages if "{{ oracle() }}" in p.read_text()]
    assert len(shown) >= 2 * 9
    for page in shown:
        lang = "zh" if page.name.endswith(".zh.md") else "en"
        text = oracle_directive(f"chapters/{page.name}", lang)
        assert (
            "Replayed through real kubelet v1.21.4" in text or "用真实 kubelet v1.21.4 重放" in text
        ), page.name
        assert "Not replayed" not in text and "尚未" not in text, page.name


def test_the_eviction_chapter_shows_its_eviction_level() -> None:
    en = oracle_directive("chapters/15-eviction.md", "en")
    zh = oracle_directive("chapters/15-eviction.zh.md", "zh")
    names = scenario_names("eviction")
    assert f"{len(names)} at the eviction level" in en
    assert f"驱逐层 {len(names)} 个" in zh
    assert all(f"| `{name}` | eviction level |" in en for name in names)
    assert all(f"| `{name}` | 驱逐层 |" in zh for name in names)


def test_off_a_chapter_every_scenario_is_listed() -> None:
    page = oracle_directive("oracle.md", "en")
    assert all(f"| `{name}` | runtime level |" in page for name in scenario_names())
    assert all(f"| `{name}` | Kubelet level |" in page for name in scenario_names("kubelet"))
    assert all(f"| `{name}` | eviction level |" in page for name in scenario_names("eviction"))
    assert "](oracle.md)" in page
