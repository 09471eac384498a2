"""``python -m walkthrough`` (or ``minikubelet-walkthrough``): the exercises' runner.

Commands: ``watch [EXERCISE]`` (the learner's home), ``list [--json]``, ``check [EXERCISE|--all]``,
``hint [EXERCISE]``, ``progress``, ``reset EXERCISE…|--all``. Messages are in English or 中文: ``--lang en|zh``, else from
``MINIKUBELET_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``.
"""

from __future__ import annotations

import sys

from walkthrough.checker import start_server

if __name__ == "__main__" and {"check", "watch"} & set(sys.argv[1:]):
    # Checks fork from a server that imports the port (a third of a second): started before
    # this process imports the rest, it works beside it (ours: a fresh check's wait).
    start_server()

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from minikubelet.base.i18n import language_of, text
from minikubelet.sim.argparse_messages import speak
from walkthrough.catalog import PACKAGE_DIR, CatalogError
from walkthrough.runner import (
    Workspace,
    cmd_check,
    cmd_hint,
    cmd_list,
    cmd_progress,
    cmd_reset,
    resolve,
)
from walkthrough.text import reader_has_gone
from walkthrough.watch import cmd_watch

#: Another folder of chapters (a copy, for trying the runner without touching the tree).
ROOT_ENV = "MINIKUBELET_WALKTHROUGH_DIR"


def build_parser(lang: str) -> argparse.ArgumentParser:
    """The command line, with its help in ``lang``."""

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    speak(lang)
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
    # In the order `--help` lists them.
    for add in (_add_list_and_check, _add_hint_and_watch, _add_progress_and_reset, _add_vet):
        add(commands, common, t, exercise_help)
    return parser


_Commands = Any  # argparse's _SubParsersAction, which it does not export
_Text = Callable[[str, str], str]


def _add_list_and_check(
    commands: _Commands, common: argparse.ArgumentParser, t: _Text, exercise_help: str
) -> None:
    listing = commands.add_parser(
        "list",
        parents=[common],
        help=t("chapters and exercises, done or not", "列出各章练习及完成情况"),
    )
    listing.add_argument(
        "--json",
        action="store_true",
        help=t(
            "the catalog as JSON (for the site and tools)",
            "以 JSON 输出练习目录（供网站和工具使用）",
        ),
    )
    check = commands.add_parser(
        "check",
        parents=[common],
        help=t(
            "run an exercise's checks on your file (default: the one you are on)",
            "用练习的检查项检查你的文件（默认：当前的练习）",
        ),
    )
    check.add_argument("exercise", nargs="?", help=exercise_help)
    check.add_argument(
        "--all",
        action="store_true",
        help=t("check every exercise and mark each as it is", "检查所有练习，并据实标记完成情况"),
    )


def _add_hint_and_watch(
    commands: _Commands, common: argparse.ArgumentParser, t: _Text, exercise_help: str
) -> None:
    hint = commands.add_parser(
        "hint", parents=[common], help=t("a nudge, one more each time", "给一点提示，每次多一条")
    )
    hint.add_argument("exercise", nargs="?", help=exercise_help)
    hint.add_argument("--level", type=int, help=t("show this hint", "显示第几条提示"))
    hint.add_argument("--all", action="store_true", help=t("show every hint", "显示全部提示"))
    watch = commands.add_parser(
        "watch",
        parents=[common],
        help=t(
            "your home: checks on every save, moves on when one passes (keys h l n r c q)",
            "学习主界面：每次保存都检查，通过后进入下一个（按键 h l n r c q）",
        ),
    )
    watch.add_argument("exercise", nargs="?", help=exercise_help)
    watch.add_argument(
        "--plain",
        action="store_true",
        help=t(
            "no screen redraws or single keys (CI, editors); default without a terminal",
            "不重绘屏幕、不读单个按键（用于 CI 和编辑器）；没有终端时默认如此",
        ),
    )


def _add_progress_and_reset(
    commands: _Commands, common: argparse.ArgumentParser, t: _Text, exercise_help: str
) -> None:
    commands.add_parser(
        "progress", parents=[common], help=t("exercises done per chapter", "各章完成进度")
    )
    reset = commands.add_parser(
        "reset",
        parents=[common],
        help=t(
            "make your file again from the port (asks first)",
            "根据移植版重新生成你的文件（会先询问）",
        ),
    )
    reset.add_argument("exercise", nargs="*", help=exercise_help)
    reset.add_argument("--all", action="store_true", help=t("every exercise", "所有练习"))
    reset.add_argument(
        "--yes", "-y", action="store_true", help=t("do not ask", "不再询问，直接重置")
    )


def _add_vet(
    commands: _Commands, common: argparse.ArgumentParser, t: _Text, exercise_help: str
) -> None:
    vet = commands.add_parser(
        "vet",
        parents=[common],
        help=t(
            "for authors: prove exercises fail as shipped, pass with the port, catch each mutant",
            "供练习作者使用：证明练习发布时不通过、用移植版代码能通过、每个错误答案都会被发现",
        ),
    )
    vet.add_argument("exercise", nargs="*", help=exercise_help)


def cmd_vet(ws: Workspace, names: list[str], lang: str, out: TextIO) -> int:
    """Vet the named exercises (default: all); 1 when one has a problem."""
    from walkthrough.vet import report, vet

    chosen = []
    for name in names or [e.name for e in ws.exercises()]:
        exercise = resolve(ws, name, lang, out)
        if exercise is None:
            return 2
        chosen.append(exercise)
    bad = 0
    for exercise in chosen:
        result = vet(exercise, ws.exercises())
        report(result, out)
        bad += not result.ok
        out.flush()
    return 1 if bad else 0


def main(
    argv: list[str] | None = None, out: TextIO | None = None, ws: Workspace | None = None
) -> int:
    """Entry point of ``python -m walkthrough`` and of the ``minikubelet-walkthrough`` script."""
    argv = sys.argv[1:] if argv is None else argv
    out = out if out is not None else sys.stdout
    ws = ws if ws is not None else Workspace(Path(os.environ.get(ROOT_ENV) or PACKAGE_DIR))
    lang = language_of(argv)
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    if args.command in ("check", "watch"):
        start_server()  # imports the port while the chapters are read
    try:
        match args.command:
            case "list":
                return cmd_list(ws, lang, out, as_json=args.json)
            case "check":
                return cmd_check(ws, args.exercise, lang, out, all_=args.all)
            case "hint":
                return cmd_hint(ws, args.exercise, lang, out, level=args.level, all_=args.all)
            case "watch":
                return cmd_watch(ws, args.exercise, lang, out, plain=True if args.plain else None)
            case "vet":
                return cmd_vet(ws, args.exercise, lang, out)
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
    except OSError as err:
        if not reader_has_gone(err):
            raise
        return 0


if __name__ == "__main__":
    sys.exit(main())
