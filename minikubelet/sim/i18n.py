"""Which language (English or 中文) to speak to the user in, for every user-facing text.

Texts are written in both languages by us and chosen at the call site with [`text`][]; there is
no machine translation and no catalogue lookup by key.
"""

import os

LANGUAGES = ("en", "zh")


def language(explicit: str | None = None) -> str:
    """Return ``"zh"`` or ``"en"``: ``explicit`` if given, else from the environment.

    The environment is read as gettext does: ``MINIKUBELET_LANG`` first (ours), then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; any value starting with ``zh`` means Chinese.
    """
    if explicit is not None:
        if explicit not in LANGUAGES:
            raise ValueError(f"unknown language {explicit!r}: choose one of {', '.join(LANGUAGES)}")
        return explicit
    for name in ("MINIKUBELET_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def text(en: str, zh: str, lang: str | None = None) -> str:
    """Pick the English or the Chinese wording of a message for ``lang`` (see [`language`][])."""
    return zh if language(lang) == "zh" else en
