"""``python -m walkthrough`` (or ``minikubelet-walkthrough``): the exercises' runner.

Commands: ``list``, ``check [EXERCISE]``, ``hint EXERCISE``, ``watch [EXERCISE]``, ``progress``,
``reset EXERCISE…``. Messages are in English or 中文: ``--lang en|zh``, else from
``MINIKUBELET_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from minikubelet.sim.i18n import language, text
from walkthrough.catalog import CatalogError
from walkthrough.runner import (
    Workspace,
    cmd_check,
    cmd_hint,
    cmd_list,
    cmd_progress,
    cmd_reset,
    cmd_watch,
)


def build_parser(lang: str) -> argparse.ArgumentParser:
    """The command line, with its help in ``lang``."""

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    lang_help = t(
        "language of messages (default: from MINIKUBELET_LANG or the locale)",
        "输出语言（默认读取 MINIKUBELET_LANG 或系统 locale）",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=["en", "zh"], help=lang_help)

    parser = argparse.ArgumentParser(
        prog="python -m walkthrough",
        parents=[common],
        description=t(
            "Exercises on the port of kubelet: edit a file with TODOs, and check it.",
            "kubelet 移植版上的练习：修改带 TODO 的文件，然后检查。",
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    exercise_help = t(
        "the exercise, e.g. config-ops or ch03/config-ops",
        "练习名，例如 config-ops 或 ch03/config-ops",
    )

    commands.add_parser(
        "list",
        parents=[common],
        help=t("chapters and exercises, done or not", "列出各章练习及完成情况"),
    )
    check = commands.add_parser(
        "check",
        parents=[common],
        help=t(
            "run an exercise's tests on your file (default: the next one to do)",
            "用练习的测试检查你的文件（默认：下一个未完成的练习）",
        ),
    )
    check.add_argument("exercise", nargs="?", help=exercise_help)
    hint = commands.add_parser(
        "hint", parents=[common], help=t("a nudge, one more each time", "给一点提示，每次多一条")
    )
    hint.add_argument("exercise", help=exercise_help)
    hint.add_argument("--level", type=int, help=t("show this hint", "显示第几条提示"))
    hint.add_argument("--all", action="store_true", help=t("show every hint", "显示全部提示"))
    watch = commands.add_parser(
        "watch",
        parents=[common],
        help=t("check again on every save", "每次保存文件时重新检查"),
    )
    watch.add_argument("exercise", nargs="?", help=exercise_help)
    commands.add_parser(
        "progress", parents=[common], help=t("exercises done per chapter", "各章完成进度")
    )
    reset = commands.add_parser(
        "reset",
        parents=[common],
        help=t("put the shipped version back (asks first)", "把文件恢复为发布时的版本（会先询问）"),
    )
    reset.add_argument("exercise", nargs="*", help=exercise_help)
    reset.add_argument("--all", action="store_true", help=t("every exercise", "所有练习"))
    reset.add_argument(
        "--yes", "-y", action="store_true", help=t("do not ask", "不再询问，直接重置")
    )
    return parser


def main(
    argv: list[str] | None = None, out: TextIO | None = None, ws: Workspace | None = None
) -> int:
    """Entry point of ``python -m walkthrough`` and of the ``minikubelet-walkthrough`` script."""
    argv = sys.argv[1:] if argv is None else argv
    out = out if out is not None else sys.stdout
    ws = ws if ws is not None else Workspace()
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", choices=["en", "zh"])
    known, _ = pre.parse_known_args(argv)
    lang = language(known.lang)
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    try:
        match args.command:
            case "list":
                return cmd_list(ws, lang, out)
            case "check":
                return cmd_check(ws, args.exercise, lang, out)
            case "hint":
                return cmd_hint(ws, args.exercise, lang, out, level=args.level, all_=args.all)
            case "watch":
                return cmd_watch(ws, args.exercise, lang, out)
            case "progress":
                return cmd_progress(ws, lang, out)
            case "reset":
                return cmd_reset(ws, args.exercise, lang, out, yes=args.yes, all_=args.all)
            case _:
                parser.print_help(out)
                return 0
    except CatalogError as err:
        out.write(
            text(
                f"walkthrough: broken exercise files: {err}\n",
                f"walkthrough：练习文件有误：{err}\n",
                lang,
            )
        )
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
