"""Which language (English or 中文) to speak to the user in, for every user-facing text.

Texts are written in both languages by us and chosen at the call site with [`text`][]; there is
no machine translation and no catalogue lookup by key.
"""

from __future__ import annotations

import errno
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


def language_of(argv: list[str]) -> str:
    """The language a command line asks for: its ``--lang``, else [`language`][]'s choice.

    Read before the command line is parsed whole, so that its help and errors are in it.
    """
    import argparse  # only the command lines need it

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", choices=LANGUAGES)
    known, _ = pre.parse_known_args(argv)
    return language(known.lang)


def text(en: str, zh: str, lang: str | None = None) -> str:
    """Pick the English or the Chinese wording of a message for ``lang`` (see [`language`][])."""
    return zh if language(lang) == "zh" else en


class Bilingual(str):
    """A message in both languages: the English text itself, with its Chinese twin in ``zh``.

    For messages made where the language is not known (a manifest's validation errors are
    made by the port and shown by the CLI or the exercise runner): the message behaves as
    its English text everywhere (logs, ``==``, tests), and whoever shows it to a user picks
    the language with [`in_language`][].
    """

    zh: str

    def __new__(cls, en: str, zh: str | None = None) -> Bilingual:
        message = super().__new__(cls, en)
        message.zh = en if zh is None else zh
        return message


def both(en: str, zh: str) -> Bilingual:
    """A message written in both languages (see [`Bilingual`][])."""
    return Bilingual(en, zh)


def in_language(message: object, lang: str | None = None) -> str:
    """``message`` (a string or an error) in ``lang``: its Chinese twin where it has one."""
    if language(lang) == "zh":
        zh = getattr(message, "zh", None)
        if isinstance(zh, str):
            return zh
        if isinstance(message, BaseException) and len(message.args) == 1:
            zh = getattr(message.args[0], "zh", None)
            if isinstance(zh, str):
                return zh
    return str(message)


def os_error(err: OSError) -> Bilingual:
    """Why an operating-system call failed, in both languages.

    The English is the system's own text (``strerror``); the Chinese is ours for the errors a
    user meets when naming a file or a URL, else the system's text as well.
    """
    reason = err.strerror or str(err)
    return both(reason, _OS_ERRORS_ZH.get(err.errno or 0, reason))


_OS_ERRORS_ZH = {
    errno.ENOENT: "没有这个文件或目录",
    errno.EACCES: "权限不足",
    errno.EPERM: "不允许的操作",
    errno.EISDIR: "这是一个目录",
    errno.ENOTDIR: "路径中有一段不是目录",
    errno.ELOOP: "符号链接层数过多",
    errno.ENAMETOOLONG: "文件名太长",
    errno.ENXIO: "没有这个设备或地址",
    errno.ENODEV: "没有这个设备",
    errno.EIO: "输入/输出错误",
    errno.EMFILE: "打开的文件过多",
    errno.ENOSPC: "设备上没有空间",
    errno.EROFS: "只读文件系统",
    errno.ECONNREFUSED: "连接被拒绝",
    errno.ETIMEDOUT: "连接超时",
    errno.EHOSTUNREACH: "无法访问主机",
    errno.ENETUNREACH: "无法访问网络",
    errno.ECONNRESET: "连接被对方重置",
}
