"""argparse's own words in Chinese: ``usage:``, the section titles, ``-h`` and its errors. Ours.

Our command lines (``minikubelet``, ``python -m walkthrough``, each chapter's example) write
their help in both languages, but argparse adds words of its own, which it looks up through
``gettext`` each time it prints them. [`speak`][] answers those lookups in the user's language:
the table below holds our Chinese for every message argparse shows a user of Python 3.11; a
message not in it (one a later Python adds) stays in English.
"""

from __future__ import annotations

import argparse
import gettext

#: argparse's message (as its source spells it) → our Chinese for it.
ZH = {
    "usage: ": "用法：",
    "options": "选项",
    "positional arguments": "位置参数",
    "show this help message and exit": "显示本帮助后退出",
    "argument %(argument_name)s: %(message)s": "参数 %(argument_name)s：%(message)s",
    "%(prog)s: error: %(message)s\n": "%(prog)s：错误：%(message)s\n",
    "invalid %(type)s value: %(value)r": "%(type)s 值无效：%(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)": "取值无效：%(value)r（可选值：%(choices)s）",
    "unrecognized arguments: %s": "无法识别的参数：%s",
    "the following arguments are required: %s": "缺少必需的参数：%s",
    "one of the arguments %s is required": "参数 %s 必须给出其中之一",
    "not allowed with argument %s": "不能与参数 %s 同时使用",
    "ignored explicit argument %r": "多余的参数值 %r",
    "expected one argument": "需要一个值",
    "expected at most one argument": "最多需要一个值",
    "expected at least one argument": "至少需要一个值",
    "ambiguous option: %(option)s could match %(matches)s": "选项有歧义：%(option)s 可以匹配 %(matches)s",
    "unexpected option string: %s": "意外的选项：%s",
    "can't open '%(filename)s': %(error)s": "无法打开“%(filename)s”：%(error)s",
}

#: Messages argparse chooses by count (``ngettext``): (singular, plural) → our Chinese.
ZH_COUNTED = {
    ("expected %s argument", "expected %s arguments"): "需要 %s 个值",
}


def _zh(message: str) -> str:
    return ZH.get(message, message)


def _zh_counted(singular: str, plural: str, n: int) -> str:
    counted = ZH_COUNTED.get((singular, plural))
    if counted is not None:
        return counted
    return singular if n == 1 else plural


def speak(lang: str) -> None:
    """Make argparse's own messages come out in ``lang`` (``"zh"`` or ``"en"``) from now on.

    Call it before building a parser: argparse looks up some messages (the ``-h`` help, the
    section titles) when a parser is made, the others when they are printed. It changes the
    argparse module for the whole process, which is what a command line wants.
    """
    # argparse calls the module's own `_` and `ngettext` (imported from gettext) by name.
    zh = lang == "zh"
    setattr(argparse, "_", _zh if zh else gettext.gettext)  # noqa: B010
    setattr(argparse, "ngettext", _zh_counted if zh else gettext.ngettext)  # noqa: B010
