"""tools.site.search: one index per language, identifiers whole and by parts, a light reference."""

from __future__ import annotations

import json

from tools.site.search import first_sentence, joined_forms, split_index


def test_identifiers_of_several_parts_get_their_joined_form():
    html = "<p><code>syncLoopIteration</code> calls HandlePodAdditions; sync_loop_iteration</p>"
    assert joined_forms(html) == ["syncloopiteration", "handlepodadditions"]
    assert joined_forms("<p>kubelet, Pod, 主循环</p>") == []
    assert joined_forms("RuntimeReady=false, OutOfcpu") == ["runtimeready", "outofcpu"]


def test_a_reference_entry_keeps_its_first_sentence():
    assert first_sentence("<p>Run the handler. Then more.</p><p>Go: x</p>") == (
        "<p>Run the handler.</p>"
    )
    long = "<p>" + "word " * 100 + "</p>"
    assert first_sentence(long).startswith("<p>word") and first_sentence(long).endswith(" …</p>")
    assert len(first_sentence(long)) < 220


def test_the_combined_index_becomes_one_per_language(tmp_path):
    docs = [
        {"location": "", "title": "Home", "text": "<p>Start.</p>"},
        {"location": "chapters/04/", "title": "HandlePodAdditions", "text": "<p>Admit.</p>"},
        {"location": "zh/", "title": "首页", "text": "<p>开始。</p>"},
        {"location": "zh/chapters/04/", "title": "HandlePodAdditions 与准入", "text": ""},
        {"location": "reference/", "title": "API reference", "text": "<p>All.</p>"},
        {"location": "zh/reference/", "title": "API 参考", "text": "<p>全部。</p>"},
        {
            "location": "reference/#minikubelet.kubelet.Kubelet.handle_pod_additions",
            "title": "<code>handle_pod_additions(pods)</code>",
            "text": "<p>New pods: admit them. Then hand them over.</p>",
            "boost": 0.2,
        },
    ]
    config = {"lang": ["en", "zh"], "separator": "[\\s]+", "pipeline": []}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(
        json.dumps({"config": config, "docs": docs}), encoding="utf-8"
    )
    assert split_index(tmp_path) == {"en": 4, "zh": 4}
    en = json.loads((tmp_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    zh = json.loads((tmp_path / "zh" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert en["config"]["lang"] == ["en"] and zh["config"]["lang"] == ["en", "zh"]
    assert [d["location"] for d in zh["docs"]] == [
        "",
        "chapters/04/",
        "reference/",
        "reference/#minikubelet.kubelet.Kubelet.handle_pod_additions",
    ], "locations are relative to zh/, and the reference's entries are in both"
    assert not any(d["location"].startswith("zh/") for d in en["docs"])
    (entry,) = [d for d in en["docs"] if "#minikubelet" in d["location"]]
    assert entry["text"] == "<p>New pods: admit them.</p>"
    assert entry["title"].endswith("<span hidden> handlepodadditions</span>")
    assert entry["boost"] == 0.2
    chapter = next(d for d in zh["docs"] if d["location"] == "chapters/04/")
    assert "handlepodadditions" in chapter["title"]
