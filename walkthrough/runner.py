"""The runner's commands: list, check, hint, watch, progress and reset, in English or 中文.

Each command prints to ``out`` in the learner's language and returns an exit status (0: fine,
1: a check that does not pass yet or a refused reset, 2: a usage error such as an unknown
exercise). ``python -m walkthrough`` (see ``__main__.py``) parses the command line and calls
them; the tests call them directly.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from minikubelet.sim.i18n import text
from walkthrough.catalog import (
    PACKAGE_DIR,
    Chapter,
    Exercise,
    UnknownExercise,
    all_exercises,
    discover,
    find,
)
from walkthrough.checker import CheckResult, check
from walkthrough.progress import Progress
from walkthrough.shipped import shipped_text

#: How the commands are spelled in what the runner prints.
PROG = "python -m walkthrough"


@dataclass
class Workspace:
    """Where the chapters are and where progress is kept (tests point both at a copy)."""

    root: Path = PACKAGE_DIR
    progress_path: Path | None = None
    _chapters: list[Chapter] | None = field(default=None, repr=False)

    def chapters(self) -> list[Chapter]:
        if self._chapters is None:
            self._chapters = discover(self.root)
        return self._chapters

    def exercises(self) -> list[Exercise]:
        return all_exercises(self.chapters())

    def progress(self) -> Progress:
        return Progress.load(self.progress_path)


def display_path(path: Path) -> str:
    """``path`` relative to the current folder when it is below it, else absolute."""
    try:
        return (
            os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
        )
    except ValueError:
        return str(path)


def _width(s: str) -> int:
    """Columns ``s`` takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


#: A word of Latin text, a run of spaces, or one CJK character (Chinese may break anywhere).
_TOKEN = re.compile(r"[^\s\u2e80-\uffef]+|\s+|[\u2e80-\uffef]")


def wrap(message: str, width: int = 92, indent: str = "    ") -> list[str]:
    """``message`` as lines of at most ``width`` columns; lines that start indented stay."""
    lines: list[str] = []
    for paragraph in message.splitlines():
        if paragraph.startswith(" ") or _width(indent + paragraph) <= width:
            lines.append(indent + paragraph)
            continue
        current = ""
        for token in _TOKEN.findall(paragraph):
            if current and _width(indent + current + token.rstrip()) > width:
                lines.append(indent + current.rstrip())
                current = "" if token.isspace() else token
            else:
                current += token
        if current.strip():
            lines.append(indent + current.rstrip())
    return lines


def port_location(port: str) -> tuple[str, int] | None:
    """Where the port's original is: ``minikubelet.kubelet:Kubelet.sync_loop`` → (file, line)."""
    module_name, _, qualname = port.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
        lines, start = inspect.getsourcelines(obj)
        source = inspect.getsourcefile(obj)
    except (ImportError, AttributeError, OSError, TypeError):
        return None
    if source is None:
        return None
    offset = next(
        (i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def "))), 0
    )
    return display_path(Path(source)), start + offset


def resolve(ws: Workspace, name: str, lang: str, out: TextIO) -> Exercise | None:
    """The exercise called ``name``, or None after telling the learner which ones exist."""
    try:
        return find(ws.chapters(), name)
    except UnknownExercise as err:
        names = [e.name for e in ws.exercises()]
        close = difflib.get_close_matches(name, names + err.known, n=1)
        maybe = (
            text(f" Did you mean {close[0]}?", f"你是不是想输入 {close[0]}？", lang)
            if close
            else ""
        )
        out.write(
            text(
                f"There is no exercise called {name!r}.{maybe}\n"
                f"The exercises are: {', '.join(err.known)}\n"
                f"({PROG} list shows them with their titles.)\n",
                f"没有名为 {name!r} 的练习。{maybe}\n"
                f"现有的练习：{', '.join(err.known)}\n"
                f"（{PROG} list 会列出它们和标题。）\n",
                lang,
            )
        )
        return None


def save_progress(progress: Progress, lang: str, out: TextIO) -> None:
    """Write the progress file; the first time, say where it is."""
    if progress.save():
        out.write(
            text(
                f"(Your progress is kept in {display_path(progress.path)}; delete that file to "
                "start over.)\n",
                f"（进度保存在 {display_path(progress.path)}，删除这个文件即可从头开始。）\n",
                lang,
            )
        )


def next_exercise(
    ws: Workspace, progress: Progress, after: Exercise | None = None
) -> Exercise | None:
    """The first exercise not done yet (after ``after`` if given, wrapping around)."""
    exercises = ws.exercises()
    if after is not None and after in exercises:
        i = exercises.index(after)
        exercises = exercises[i + 1 :] + exercises[:i]
    return next((e for e in exercises if not progress.is_done(e.key)), None)


# --- list -------------------------------------------------------------------------------------


def cmd_list(ws: Workspace, lang: str, out: TextIO) -> int:
    """Chapters, their exercises, and which are done."""
    progress = ws.progress()
    width = max((len(e.name) for e in ws.exercises()), default=10)
    for chapter in ws.chapters():
        out.write(f"{chapter.slug}  {chapter.title[lang]}\n")
        for exercise in chapter.exercises:
            mark = "✓" if progress.is_done(exercise.key) else "·"
            out.write(f"  {mark} {exercise.name:<{width}}  {exercise.title[lang]}\n")
    done = sum(progress.is_done(e.key) for e in ws.exercises())
    total = len(ws.exercises())
    out.write(
        text(
            f"\n✓ done   · to do   ({done} of {total} done)\n",
            f"\n✓ 已完成   · 未完成   （已完成 {done}/{total}）\n",
            lang,
        )
    )
    upcoming = next_exercise(ws, progress)
    if upcoming is not None:
        out.write(
            text(
                f"Next: {upcoming.key}. Open {display_path(upcoming.exercise_file)}, "
                f"then: {PROG} check {upcoming.name}\n",
                f"下一个：{upcoming.key}。打开 {display_path(upcoming.exercise_file)}，"
                f"然后运行：{PROG} check {upcoming.name}\n",
                lang,
            )
        )
    return 0


# --- check ------------------------------------------------------------------------------------


def report(result: CheckResult, lang: str, out: TextIO) -> None:
    """Print a check's outcome: the first unmet expectation, or the good news."""
    ex = result.exercise
    t = lambda en, zh: text(en, zh, lang)  # noqa: E731
    if result.ok:
        out.write(f"✓ {ex.key} — {ex.title[lang]}\n")
        out.write(
            t(
                f"  All {result.total} checks pass. Well done!\n",
                f"  全部 {result.total} 项检查都通过了，干得好！\n",
            )
        )
        return
    failure = result.first_failure
    out.write(f"✗ {ex.key} — {ex.title[lang]}\n")
    if failure is None:  # a test file without tests: nothing was proven
        out.write(t("  This exercise has no tests.\n", "  这个练习没有任何测试。\n"))
        return
    if failure.kind == "load":
        out.write(t("  Your file could not be checked:\n\n", "  无法检查你的文件：\n\n"))
    else:
        out.write(
            t(
                f"  {len(result.passed)} of {result.total} checks pass. The first that does not:\n\n",
                f"  {result.total} 项检查中通过了 {len(result.passed)} 项。第一项没通过的是：\n\n",
            )
        )
    for line in wrap(failure.message(lang)):
        out.write(f"{line}\n")
    out.write("\n")
    if failure.location is not None:
        _, line_no = failure.location
        out.write(
            t(
                f"  at {display_path(result.file)}, line {line_no}",
                f"  位置：{display_path(result.file)} 第 {line_no} 行",
            )
        )
        out.write(f":  {failure.source_line}\n" if failure.source_line else "\n")
    if failure.test != "load":
        out.write(t(f"  (test: {failure.test})\n", f"  （测试：{failure.test}）\n"))
    out.write(
        t(
            f"  Edit {display_path(result.file)}; stuck? {PROG} hint {ex.name}\n",
            f"  请修改 {display_path(result.file)}；卡住了？试试 {PROG} hint {ex.name}\n",
        )
    )


def run_check(ws: Workspace, exercise: Exercise, lang: str, out: TextIO) -> CheckResult:
    """Check the learner's file, print the outcome, and record a pass in the progress file."""
    result = check(exercise)
    report(result, lang, out)
    if result.ok:
        progress = ws.progress()
        progress.mark_done(exercise.key)
        save_progress(progress, lang, out)
        upcoming = next_exercise(ws, progress, after=exercise)
        if upcoming is None:
            out.write(text("  Every exercise is done. 🎉\n", "  所有练习都完成了。🎉\n", lang))
        else:
            out.write(
                text(
                    f"  Next: {upcoming.key} — {upcoming.title['en']}: {PROG} check {upcoming.name}\n",
                    f"  下一个：{upcoming.key} — {upcoming.title['zh']}：{PROG} check {upcoming.name}\n",
                    lang,
                )
            )
    return result


def cmd_check(ws: Workspace, name: str | None, lang: str, out: TextIO) -> int:
    """Check one exercise (default: the first not done yet)."""
    if name is None:
        exercise = next_exercise(ws, ws.progress())
        if exercise is None:
            out.write(
                text(
                    f"Every exercise is done. Check one again with {PROG} check NAME.\n",
                    f"所有练习都已完成。想再检查某一个，请运行 {PROG} check 练习名。\n",
                    lang,
                )
            )
            return 0
    else:
        exercise = resolve(ws, name, lang, out)
        if exercise is None:
            return 2
    return 0 if run_check(ws, exercise, lang, out).ok else 1


# --- hint -------------------------------------------------------------------------------------


def cmd_hint(
    ws: Workspace,
    name: str,
    lang: str,
    out: TextIO,
    *,
    level: int | None = None,
    all_: bool = False,
) -> int:
    """Show the next hint (or hint ``level``, or all of them)."""
    exercise = resolve(ws, name, lang, out)
    if exercise is None:
        return 2
    hints = exercise.hints
    progress = ws.progress()
    shown = progress.hints_shown.get(exercise.key, 0)
    if all_:
        chosen = list(range(1, len(hints) + 1))
    elif level is not None:
        if not 1 <= level <= len(hints):
            out.write(
                text(
                    f"{exercise.key} has hints 1 to {len(hints)}.\n",
                    f"{exercise.key} 的提示编号是 1 到 {len(hints)}。\n",
                    lang,
                )
            )
            return 2
        chosen = [level]
    else:
        chosen = [min(shown + 1, len(hints))]
    out.write(f"{exercise.key} — {exercise.title[lang]}\n")
    for n in chosen:
        out.write(text(f"\nHint {n} of {len(hints)}:\n", f"\n提示 {n}/{len(hints)}：\n", lang))
        for line in hints[n - 1][lang].splitlines():
            out.write(f"  {line}\n")
    last = max(chosen)
    if last < len(hints):
        out.write(
            text(
                f"\n(Run it again for hint {last + 1}; --all shows every hint.)\n",
                f"\n（再运行一次可看第 {last + 1} 条提示；加 --all 可看全部提示。）\n",
                lang,
            )
        )
    else:
        where = port_location(exercise.port) if exercise.port else None
        if where is not None:
            out.write(
                text(
                    f"\nThat was the last hint. The port's own version is in {where[0]}, "
                    f"line {where[1]}: reading it is allowed.\n",
                    f"\n这是最后一条提示。移植版里的原始代码在 {where[0]} 第 {where[1]} 行，"
                    "可以去读。\n",
                    lang,
                )
            )
    if last > shown:
        progress.hints_shown[exercise.key] = last
        save_progress(progress, lang, out)
    return 0


# --- progress ---------------------------------------------------------------------------------


def cmd_progress(ws: Workspace, lang: str, out: TextIO) -> int:
    """Exercises done per chapter."""
    progress = ws.progress()
    total = done = 0
    exists = progress.path.exists()
    out.write(
        text(
            f"Progress ({display_path(progress.path)}{'' if exists else ', not written yet'}):\n",
            f"学习进度（{display_path(progress.path)}{'' if exists else '，尚未创建'}）：\n",
            lang,
        )
    )
    for chapter in ws.chapters():
        marks = [progress.is_done(e.key) for e in chapter.exercises]
        bar = "".join("■" if m else "□" for m in marks)
        out.write(f"  {chapter.slug}  {bar:<4} {sum(marks)}/{len(marks)}  {chapter.title[lang]}\n")
        total += len(marks)
        done += sum(marks)
    out.write(
        text(
            f"{done} of {total} exercises done.\n",
            f"共 {total} 个练习，已完成 {done} 个。\n",
            lang,
        )
    )
    upcoming = next_exercise(ws, progress)
    if upcoming is not None:
        out.write(
            text(
                f"Next: {PROG} check {upcoming.name}\n",
                f"下一个：{PROG} check {upcoming.name}\n",
                lang,
            )
        )
    return 0


# --- reset ------------------------------------------------------------------------------------


def shipped_version(exercise: Exercise) -> str:
    """The exercise file as shipped, made from the solution."""
    return shipped_text(
        exercise.solution_file.read_text(encoding="utf-8"), str(exercise.solution_file)
    )


def cmd_reset(
    ws: Workspace,
    names: list[str],
    lang: str,
    out: TextIO,
    *,
    yes: bool = False,
    all_: bool = False,
    ask: Callable[[str], str] = input,
) -> int:
    """Put the shipped version back in place of the learner's file, after asking."""
    if all_:
        chosen = ws.exercises()
    else:
        chosen = []
        for name in names:
            exercise = resolve(ws, name, lang, out)
            if exercise is None:
                return 2
            chosen.append(exercise)
    if not chosen:
        out.write(
            text(
                "Name an exercise to reset (or --all).\n",
                "请指定要重置的练习（或 --all）。\n",
                lang,
            )
        )
        return 2
    changed = [
        e
        for e in chosen
        if not e.exercise_file.exists()
        or e.exercise_file.read_text(encoding="utf-8") != shipped_version(e)
    ]
    progress = ws.progress()
    if not changed:
        out.write(
            text(
                "Nothing to reset: the file is as shipped.\n"
                if len(chosen) == 1
                else "Nothing to reset: the files are as shipped.\n",
                "无需重置：文件与发布时一致。\n",
                lang,
            )
        )
        return 0
    if not yes:
        out.write(
            text(
                "These files will be replaced by their shipped version; your changes to them "
                "will be lost:\n",
                "以下文件将恢复为发布时的版本，你对它们的修改会丢失：\n",
                lang,
            )
        )
        for e in changed:
            out.write(f"  {display_path(e.exercise_file)}\n")
        try:
            answer = ask(text("Reset? [y/N] ", "确定重置吗？[y/N] ", lang))
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes", "是", "是的"):
            out.write(text("Nothing was changed.\n", "没有做任何修改。\n", lang))
            return 1
    for e in changed:
        e.exercise_file.write_text(shipped_version(e), encoding="utf-8")
        progress.forget(e.key)
        out.write(text(f"Reset {e.key}.\n", f"已重置 {e.key}。\n", lang))
    if progress.path.exists():
        progress.save()
    return 0


# --- watch ------------------------------------------------------------------------------------


def file_changes(exercise: Exercise, stop_event: Any = None) -> Iterable[Any]:
    """Each batch of saves of the exercise file, as watchfiles reports them (Ctrl+C ends)."""
    import watchfiles

    # Watch the folder, not the file: many editors save by writing a new file and renaming it.
    target = exercise.exercise_file.name
    return watchfiles.watch(
        exercise.dir,
        watch_filter=lambda _change, path: Path(path).name == target,
        raise_interrupt=False,
        stop_event=stop_event,
    )


def cmd_watch(
    ws: Workspace,
    name: str | None,
    lang: str,
    out: TextIO,
    *,
    changes: Iterable[Any] | None = None,
) -> int:
    """Check now, then again on every save of the exercise file."""
    if name is None:
        exercise = next_exercise(ws, ws.progress()) or ws.exercises()[0]
    else:
        exercise = resolve(ws, name, lang, out)
        if exercise is None:
            return 2
    out.write(
        text(
            f"Watching {display_path(exercise.exercise_file)}: save it to check again; "
            "Ctrl+C stops.\n\n",
            f"正在监视 {display_path(exercise.exercise_file)}：保存文件即重新检查；按 Ctrl+C 退出。\n\n",
            lang,
        )
    )
    on_change(ws, exercise, lang, out)
    for _batch in file_changes(exercise) if changes is None else changes:
        out.write(f"\n--- {datetime.now().strftime('%H:%M:%S')} ---\n")
        on_change(ws, exercise, lang, out)
    return 0


def on_change(ws: Workspace, exercise: Exercise, lang: str, out: TextIO) -> CheckResult:
    """What watch does after each save: check and print."""
    result = run_check(ws, exercise, lang, out)
    if hasattr(out, "flush"):
        out.flush()
    return result
