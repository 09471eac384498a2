"""Search: one index per language, identifiers found whole and by their parts, a light reference.

mkdocs-material writes one search index for the site, and mkdocs-static-i18n fills it with the
pages of every language, so the Chinese site found English pages first, and every page loaded
both languages' index.  After the build (`tools.site.hooks`), `split_index`:

- writes ``search/search_index.json`` with the English pages only, and
  ``zh/search/search_index.json`` with the Chinese ones (locations relative to ``zh/``, which
  is where Chinese pages look for it: the hook points their ``__config`` base there);
- makes identifiers findable whole and lower-case: the search separator splits ``syncLoop``
  and ``sync_loop`` into ``sync`` and ``loop`` (so each part finds it), and each entry also gets
  the joined form ``syncloop`` in a hidden span (so ``syncloop`` finds it too);
- keeps only the first sentence of each API reference entry (its title and a line say what it
  is; the page holds the rest; its front matter ranks it below the chapters); the reference is
  in both languages' indexes (its docstrings are English, and the build drops duplicates).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

REFERENCE = "reference/"
LANGUAGES = {"en": ["en"], "zh": ["en", "zh"]}  # lunr languages of each index
IDENTIFIER = re.compile(
    r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*"
)
PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
TAG = re.compile(r"<[^>]+>")
SENTENCE = re.compile(r"^(.*?[.!?。！？])(?:\s|<|$)", re.S)


def joined_forms(html: str) -> list[str]:
    """The lower-case joined form of every identifier of two or more parts in `html`'s text.

    ``HandlePodAdditions`` → ``handlepodadditions``, ``sync_loop_iteration`` →
    ``syncloopiteration``; in order of appearance, once each.
    """
    text = TAG.sub(" ", html).replace("\u200b", "")
    out: list[str] = []
    for word in IDENTIFIER.findall(text):
        parts = [p for chunk in word.split("_") for p in PARTS.findall(chunk)]
        joined = "".join(parts).lower()
        if len(parts) > 1 and joined not in out:
            out.append(joined)
    return out


def with_joined_forms(html: str) -> str:
    forms = joined_forms(html)
    return f"{html}<span hidden> {' '.join(forms)}</span>" if forms else html


def first_sentence(html: str, limit: int = 200) -> str:
    """The first sentence of an entry's text (its first paragraph, at most `limit` characters)."""
    first = html.split("</p>", 1)[0]
    paragraph = first.startswith("<p>")
    found = SENTENCE.match(first)
    cut = found.group(1) if found else first
    plain = TAG.sub("", cut)
    if len(plain) > limit:
        cut = plain[:limit].rsplit(" ", 1)[0] + " …"
        cut = "<p>" + cut if paragraph else cut
    if paragraph and not cut.endswith("</p>"):
        cut += "</p>"
    return cut


def _entry(doc: dict, location: str) -> dict:
    out = {**doc, "location": location}
    if location.startswith(REFERENCE):
        out["text"] = first_sentence(doc["text"])
    out["title"] = with_joined_forms(out["title"])
    out["text"] = with_joined_forms(out["text"])
    return out


def split_index(site: Path, default: str = "en") -> dict[str, int]:
    """Rewrite the site's combined search index as one index per language (see the module
    docstring); the number of entries of each."""
    path = site / "search" / "search_index.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    docs: dict[str, list[dict]] = {lang: [] for lang in LANGUAGES}
    for doc in data["docs"]:
        lang, _, rest = doc["location"].partition("/")
        if lang in LANGUAGES and lang != default:
            docs[lang].append(_entry(doc, rest))
        else:
            docs[default].append(_entry(doc, doc["location"]))
    for lang in LANGUAGES:  # the reference, once in the combined index, belongs to every language
        have = {d["location"] for d in docs[lang]}
        docs[lang] += [
            d
            for d in docs[default]
            if d["location"].startswith(REFERENCE) and d["location"] not in have
        ]
    counts = {}
    for lang, entries in docs.items():
        folder = site / "search" if lang == default else site / lang / "search"
        folder.mkdir(parents=True, exist_ok=True)
        config = {**data["config"], "lang": LANGUAGES[lang]}
        text = json.dumps(
            {"config": config, "docs": entries}, ensure_ascii=False, separators=(",", ":")
        )
        (folder / "search_index.json").write_text(text, encoding="utf-8")
        counts[lang] = len(entries)
    return counts
