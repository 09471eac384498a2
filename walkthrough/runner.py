"""The runner's commands: list, check, hint, progress and reset, in English or 中文 (watch: watch.py).

Each command prints to ``out`` in the learner's language and returns an exit status (0: fine,
1: a check that does not pass yet or a refused reset, 2: a usage error such as an unknown
exercise). ``python -m walkthrough`` (see ``__main__.py``) parses the command line and calls
them; the tests call them directly.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from minikubelet.base.i18n import text
from walkthrough.catalog import (
    PACKAGE_DIR,
    Chapter,
    Exercise,
    UnknownExercise,
    all_exercises,
    catalog_data,
    discover,
    find,
)
from walkthrough.checker import CheckResult, check
from walkthrough.derive import answer_hint, learner_text, port_function, reference_text
from walkthrough.progress import Progress
from walkthrough.text import display_path, wrap

#: How the commands are spelled in what the runner prints.
PROG = "python -m walkthrough"
#: Lines of the learner's printed output a report shows.
OUTPUT_LINES = 15


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

    def shipped(self, exercise: Exercise, lang: str) -> str:
        """The learner's file as shipped, made from the port now."""
        return learner_text(exercise, self.exercises(), lang)

    def reference(self, exercise: Exercise, lang: str) -> str:
        """The answer: the learner's file with the port's code in the exercise's regions."""
        return reference_text(exercise, self.exercises(), lang)

    def ensure_files(self, lang: str, exercises: list[Exercise] | None = None) -> list[Exercise]:
        """Write each learner's file that is missing, from the port; return those written."""
        written = []
        for exercise in self.exercises() if exercises is None else exercises:
            if not exercise.exercise_file.exists():
                exercise.exercise_file.write_text(self.shipped(exercise, lang), encoding="utf-8")
                written.append(exercise)
        return written


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


def warn_progress(progress: Progress, lang: str, out: TextIO) -> None:
    """Tell the learner that their progress file could not be read, and what was kept."""
    if progress.problem is None:
        return
    why, copy = progress.problem
    out.write(
        text(
            f"Your progress file {display_path(progress.path)} could not be read ({why}). "
            f"It is kept as {display_path(copy)}; progress starts again from nothing. "
            f"`{PROG} check --all` marks again every exercise your files solve.\n",
            f"无法读取进度文件 {display_path(progress.path)}（{why}）。原文件保留为 "
            f"{display_path(copy)}，进度从零开始。运行 `{PROG} check --all` 会把你的文件已经"
            "完成的练习重新标记出来。\n",
            lang,
        )
    )


def save_progress(progress: Progress, lang: str, out: TextIO) -> None:
    """Write the progress file; the first time, say where it is."""
    if progress.save():
        say_where_progress_is(progress, lang, out)


def say_where_progress_is(progress: Progress, lang: str, out: TextIO) -> None:
    """The line printed once, after the progress file was first written."""
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


def current_exercise(ws: Workspace, progress: Progress) -> Exercise | None:
    """The exercise the learner is on: the one ``watch`` last showed if not done, else the next."""
    for exercise in ws.exercises():
        if exercise.key == progress.current and not progress.is_done(exercise.key):
            return exercise
    return next_exercise(ws, progress)


# --- list -------------------------------------------------------------------------------------


def cmd_list(ws: Workspace, lang: str, out: TextIO, *, as_json: bool = False) -> int:
    """Chapters, their exercises, and which are done (``--json``: the catalog, for the site)."""
    if as_json:
        data = catalog_data(ws.chapters())
        progress = ws.progress()
        for chapter in data["chapters"]:
            for exercise in chapter["exercises"]:
                exercise["done"] = progress.is_done(exercise["key"])
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    progress = ws.progress()
    warn_progress(progress, lang, out)
    width = max((len(e.name) for e in ws.exercises()), default=10)
    for chapter in ws.chapters():
        if not chapter.exercises:  # a chapter with none yet (chapter 12) is not in the list
            continue
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
    upcoming = current_exercise(ws, progress)
    if upcoming is not None:
        out.write(
            text(
                f"Next: {upcoming.key}. Start with: {PROG} watch\n",
                f"下一个：{upcoming.key}。从这里开始：{PROG} watch\n",
                lang,
            )
        )
    return 0


# --- check ------------------------------------------------------------------------------------


def _code_part(text: str) -> tuple[list[str], int]:
    """The lines of a learner's file from its first class or function on (imports aside), and
    how many lines come before them."""
    lines = text.splitlines()
    starts = ("class ", "def ", "async def ", "@")
    first = next((i for i, line in enumerate(lines) if line.startswith(starts)), 0)
    return lines[first:], first


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _shift(line: str, mine: int, theirs: int) -> str:
    """A hunk header with the line numbers of the whole files."""
    m = _HUNK.match(line)
    if m is None:
        return line
    a, b = int(m.group(1)) + mine, int(m.group(3)) + theirs
    return f"@@ -{a}{m.group(2) or ''} +{b}{m.group(4) or ''} @@{line[m.end() :]}"


def reference_diff(ws: Workspace, exercise: Exercise, file: Path) -> list[str]:
    """The port's code against the learner's file, as a unified diff (empty: the same)."""
    try:
        mine, skipped = _code_part(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
    best: list[str] | None = None
    for lang in ("en", "zh"):  # the file was made in one of them: compare with that one
        theirs, their_skipped = _code_part(ws.reference(exercise, lang))
        diff = [
            _shift(line, skipped, their_skipped)
            for line in difflib.unified_diff(
                mine, theirs, "your exercise.py", "the port", lineterm="", n=2
            )
        ]
        if best is None or len(diff) < len(best):
            best = diff
    return best or []


def report(
    result: CheckResult,
    lang: str,
    out: TextIO,
    *,
    diff: list[str] | None = None,
    watching: bool = False,
) -> None:
    """Print a check's outcome: the first failure, or the good news and the port's code."""
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
        if diff is not None:
            if diff:
                out.write(
                    t(
                        "\n  The port's own code, beside yours (- yours, + the port's):\n\n",
                        "\n  移植版自己的代码和你的对照（- 你的，+ 移植版的）：\n\n",
                    )
                )
                for line in diff:
                    out.write(f"    {line}\n")
            else:
                out.write(
                    t(
                        "  Your code is the port's, line for line.\n",
                        "  你的代码和移植版的一模一样。\n",
                    )
                )
        _print_output(result, lang, out)
        return
    failure = result.first_failure
    out.write(f"✗ {ex.key} — {ex.title[lang]}\n")
    if watching:  # the learner stays here: what the exercise asks, above what is wrong
        for paragraph in ex.task[lang].split("\n\n"):
            for line in wrap(paragraph, indent="  "):
                out.write(f"{line}\n")
        out.write("\n")
    if failure is None:  # a checks file without checks: nothing was proven
        out.write(t("  This exercise has no checks.\n", "  这个练习没有任何检查。\n"))
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
    if failure.line is not None:
        out.write(
            t(
                f"  at {display_path(result.file)}, line {failure.line}",
                f"  位置：{display_path(result.file)} 第 {failure.line} 行",
            )
        )
        out.write(f":  {failure.source}\n" if failure.source else "\n")
    if failure.check not in ("load",):
        out.write(t(f"  (check: {failure.check})\n", f"  （检查项：{failure.check}）\n"))
    _print_output(result, lang, out)
    if not watching:
        out.write(
            t(
                f"  Edit {display_path(result.file)}; stuck? {PROG} hint\n",
                f"  请修改 {display_path(result.file)}；卡住了？试试 {PROG} hint\n",
            )
        )


def _print_output(result: CheckResult, lang: str, out: TextIO) -> None:
    lines = result.output.rstrip().splitlines()
    if not lines:
        return
    shown = lines[-OUTPUT_LINES:]
    out.write(
        text(
            f"\n  Your code printed{' (the end of it)' if len(shown) < len(lines) else ''}:\n",
            f"\n  你的代码输出了{'（最后一部分）' if len(shown) < len(lines) else ''}：\n",
            lang,
        )
    )
    for line in shown:
        out.write(f"    | {line}\n")
    out.write("\n")


def record(ws: Workspace, result: CheckResult) -> Progress:
    """Mark the exercise done when it passes, not done when it does not; save."""
    progress = ws.progress()
    if result.ok:
        progress.mark_done(result.exercise.key)
    else:
        progress.mark_pending(result.exercise.key)
    return progress


def run_check(
    ws: Workspace, exercise: Exercise, lang: str, out: TextIO, *, show_next: bool = True
) -> CheckResult:
    """Check the learner's file, print the outcome, and record it in the progress file."""
    ws.ensure_files(lang, [exercise])
    result = check(exercise)
    # Saved before anything is printed: a reader that stops reading early (`| head`) ends
    # this process at its next write, and the verdict must already be on disk.
    progress = record(ws, result)
    first_save = progress.save()
    diff = reference_diff(ws, exercise, result.file) if result.ok else None
    report(result, lang, out, diff=diff)
    warn_progress(progress, lang, out)
    if first_save:
        say_where_progress_is(progress, lang, out)
    if result.ok and show_next:
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


def cmd_check(
    ws: Workspace, name: str | None, lang: str, out: TextIO, *, all_: bool = False
) -> int:
    """Check one exercise (default: the current one), or every one (``--all``)."""
    if all_:
        return check_all(ws, lang, out)
    if name is None:
        exercise = current_exercise(ws, ws.progress())
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


def check_all(ws: Workspace, lang: str, out: TextIO) -> int:
    """Check every exercise and mark each as its check says (the progress file follows)."""
    ws.ensure_files(lang)
    progress = ws.progress()
    warn_progress(progress, lang, out)
    width = max(len(e.key) for e in ws.exercises())
    failing = 0
    first_save = False
    for exercise in ws.exercises():
        result = check(exercise)
        if result.ok:
            progress.mark_done(exercise.key)
        else:
            failing += 1
            progress.mark_pending(exercise.key)
        # Each verdict is saved before its line is printed (see run_check).
        first_save = progress.save() or first_save
        mark = "✓" if result.ok else "✗"
        out.write(f"  {mark} {exercise.key:<{width}}  {exercise.title[lang]}\n")
        if hasattr(out, "flush"):
            out.flush()
    if first_save:
        say_where_progress_is(progress, lang, out)
    total = len(ws.exercises())
    out.write(
        text(
            f"{total - failing} of {total} exercises pass.\n",
            f"共 {total} 个练习，通过了 {total - failing} 个。\n",
            lang,
        )
    )
    return 0 if failing == 0 else 1


# --- hint -------------------------------------------------------------------------------------


def hint_text(ws: Workspace, exercise: Exercise, lang: str, chosen: list[int]) -> list[str]:
    """The hints numbered ``chosen`` (1-based), and after the last one where the port's code is."""
    count = exercise.hint_count
    lines: list[str] = []
    for n in chosen:
        hint = exercise.hints[n - 1][lang] if n < count else answer_hint(exercise, lang)
        lines.append(text(f"Hint {n} of {count}:", f"提示 {n}/{count}：", lang))
        lines += [f"  {line}" if line else "" for line in hint.splitlines()]
        lines.append("")
    if max(chosen) == count:
        places = []
        for target in exercise.port:
            fn = port_function(target)
            places.append(f"{display_path(fn.module.path)}:{fn.node.lineno}")
        lines.append(
            text(
                f"That was the last hint. The port's own code is in {', '.join(places)}: "
                "reading it is allowed.",
                f"这是最后一条提示。移植版自己的代码在 {'、'.join(places)}，可以去读。",
                lang,
            )
        )
    return lines


def cmd_hint(
    ws: Workspace,
    name: str | None,
    lang: str,
    out: TextIO,
    *,
    level: int | None = None,
    all_: bool = False,
) -> int:
    """Show the next hint (or hint ``level``, or all of them) of an exercise (default: current)."""
    progress = ws.progress()
    if name is None:
        exercise: Exercise | None = current_exercise(ws, progress) or ws.exercises()[0]
    else:
        exercise = resolve(ws, name, lang, out)
    if exercise is None:
        return 2
    count = exercise.hint_count
    shown = progress.hints_shown.get(exercise.key, 0)
    if all_:
        chosen = list(range(1, count + 1))
    elif level is not None:
        if not 1 <= level <= count:
            out.write(
                text(
                    f"{exercise.key} has hints 1 to {count}.\n",
                    f"{exercise.key} 的提示编号是 1 到 {count}。\n",
                    lang,
                )
            )
            return 2
        chosen = [level]
    else:
        chosen = [min(shown + 1, count)]
    out.write(f"{exercise.key} — {exercise.title[lang]}\n\n")
    for line in hint_text(ws, exercise, lang, chosen):
        out.write(f"{line}\n")
    last = max(chosen)
    if last < count:
        out.write(
            text(
                f"(Run it again for hint {last + 1}; --all shows every hint.)\n",
                f"（再运行一次可看第 {last + 1} 条提示；加 --all 可看全部提示。）\n",
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
    warn_progress(progress, lang, out)
    total = done = 0
    exists = progress.path.exists()
    out.write(
        text(
            f"Progress ({display_path(progress.path)}{'' if exists else ', not written yet'}):\n",
            f"学习进度（{display_path(progress.path)}{'' if exists else '，尚未创建'}）：\n",
            lang,
        )
    )
    width = max((len(c.exercises) for c in ws.chapters()), default=4)
    for chapter in ws.chapters():
        if not chapter.exercises:
            continue
        marks = [progress.is_done(e.key) for e in chapter.exercises]
        bar = "".join("■" if m else "□" for m in marks)
        out.write(
            f"  {chapter.slug}  {bar:<{width}} {sum(marks)}/{len(marks)}  {chapter.title[lang]}\n"
        )
        total += len(marks)
        done += sum(marks)
    out.write(
        text(
            f"{done} of {total} exercises done.\n",
            f"共 {total} 个练习，已完成 {done} 个。\n",
            lang,
        )
    )
    upcoming = current_exercise(ws, progress)
    if upcoming is not None:
        out.write(text(f"Next: {upcoming.key}\n", f"下一个：{upcoming.key}\n", lang))
    return 0


# --- reset ------------------------------------------------------------------------------------


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
    """Make the learner's file again from the port, after asking; its progress is forgotten."""
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
        if e.exercise_file.exists()
        and e.exercise_file.read_text(encoding="utf-8", errors="replace")
        not in (ws.shipped(e, "en"), ws.shipped(e, "zh"))
    ]
    if changed and not yes:
        out.write(
            text(
                "These files will be made again from the port; your changes to them will be "
                "lost:\n",
                "以下文件将根据移植版重新生成，你对它们的修改会丢失：\n",
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
    progress = ws.progress()
    warn_progress(progress, lang, out)
    for e in chosen:
        e.exercise_file.write_text(ws.shipped(e, lang), encoding="utf-8")
        progress.forget(e.key)
        out.write(text(f"Reset {e.key}.\n", f"已重置 {e.key}。\n", lang))
    if progress.path.exists() or progress.problem is not None:
        progress.save()
    return 0
