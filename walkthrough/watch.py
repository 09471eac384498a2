"""``python -m walkthrough watch``: the learner's home, from the first exercise to the last.

It checks the exercise the learner is on, then again each time any exercise file is saved (the
saved one becomes the current one), and moves on when one passes. In a terminal it redraws one
screen — the check's outcome, a hint if asked, a progress bar "N of M", the current file — and
reads single keys::

    n  next exercise          h  one more hint        l  list, and go to any exercise
    r  check again            c  check every one      q  quit

Without a terminal (CI, an editor's task panel, ``--plain``) it prints each outcome in turn,
moves on to the next exercise by itself after a pass, and reads the same letters as lines
from standard input when there is one; when that input ends (``</dev/null``, a pipe that
closes), the session ends as ``q`` would.

Every event goes through one queue: saves (watchfiles, in a thread), keys (a thread that reads
standard input and pauses while a check runs, so that ``pdb`` in a check gets the keyboard) and,
in tests, a list given to :func:`cmd_watch`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from minikubelet.base.i18n import text
from walkthrough.catalog import Exercise
from walkthrough.checker import CheckResult, check, debugging
from walkthrough.runner import (
    PROG,
    Workspace,
    current_exercise,
    hint_text,
    next_exercise,
    record,
    reference_diff,
    report,
    resolve,
    warn_progress,
)
from walkthrough.text import columns, display_path

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
Event = tuple[str, Any]  # ("saved", Path) | ("key", str) | ("line", str) | ("eof", None)


def progress_bar(done: int, total: int, width: int, lang: str) -> str:
    """``Progress: [####>-----]  5/16``, fitting ``width`` columns."""
    label = text("Progress: ", "进度：", lang)
    count = f"{done:>2}/{total}"
    inner = width - columns(label) - len(count) - 4
    if inner < 8 or total == 0:
        return f"{label}{count}"
    filled = inner * done // total
    bar = "#" * filled + (">" + "-" * (inner - filled - 1) if filled < inner else "")
    return f"{label}[{bar}]  {count}"


@dataclass
class Watch:
    """The state of one ``watch`` session and what each event does to it."""

    ws: Workspace
    lang: str
    out: TextIO
    interactive: bool
    current: Exercise
    result: CheckResult | None = None
    diff: list[str] | None = None
    hints: list[int] = field(default_factory=list)
    listing: bool = False
    typed: str = ""
    note: str = ""
    paused: threading.Event = field(default_factory=threading.Event)

    def t(self, en: str, zh: str) -> str:
        return text(en, zh, self.lang)

    # --- what happens --------------------------------------------------------------------

    def go_to(self, exercise: Exercise) -> None:
        """Make ``exercise`` the current one and check it."""
        self.current = exercise
        self.hints = []
        self.listing = False
        progress = self.ws.progress()
        progress.current = exercise.key
        progress.save()
        self.run_check()

    def run_check(self) -> None:
        exercise = self.current
        self.ws.ensure_files(self.lang, [exercise])
        if not self.interactive:
            stamp = datetime.now().strftime("%H:%M:%S")
            self.out.write(f"\n--- {stamp} {exercise.key} ---\n")
        elif debugging(exercise.exercise_file):
            self.out.write(CLEAR)
        self.paused.set()  # a breakpoint() in the check gets the keyboard
        try:
            with _cooked_terminal() if self.interactive else contextlib.nullcontext():
                self.result = check(exercise)
        finally:
            self.paused.clear()
        self.diff = (
            reference_diff(self.ws, exercise, exercise.exercise_file) if self.result.ok else None
        )
        if self.result.ok:
            self.hints = []  # solved: the port's code replaces the hints
        progress = record(self.ws, self.result)
        progress.current = exercise.key
        progress.save()
        if self.result.ok and not self.interactive:
            self.render()
            upcoming = next_exercise(self.ws, progress, after=exercise)
            if upcoming is not None:
                self.out.write(
                    self.t(
                        f"\nOn to the next exercise: {upcoming.key} — {upcoming.title['en']}\n",
                        f"\n进入下一个练习：{upcoming.key} — {upcoming.title['zh']}\n",
                    )
                )
                self.go_to(upcoming)
            return
        self.render()

    def handle(self, event: Event) -> bool:
        """Do what ``event`` asks; False when the session ends."""
        kind, value = event
        self.note = ""
        if kind == "saved":
            exercise = self._exercise_of(value)
            if exercise is not None:
                if exercise is not self.current:
                    self.hints = []
                self.current = exercise
                self.listing = False
                self.run_check()
            return True
        if kind == "eof":  # nothing more can be typed: end rather than linger unseen
            self.out.write(
                self.t(
                    f"\nStandard input closed: watch ends. `{PROG} watch` takes you back "
                    "where you were.\n",
                    f"\n标准输入已关闭，watch 结束。运行 `{PROG} watch` 会回到你现在的位置。\n",
                )
            )
            return False
        if kind == "line":
            value = value.strip()
            if value.isdigit():
                return self._choose(value)
            return self.handle(("key", value[:1])) if value else True
        if self.listing:
            return self._list_key(value)
        match value.lower():
            case "q":
                self.out.write(
                    self.t(
                        f"\nSee you soon. `{PROG} watch` takes you back where you were.\n",
                        f"\n下次见。运行 `{PROG} watch` 会回到你现在的位置。\n",
                    )
                )
                return False
            case "h":
                if len(self.hints) < self.current.hint_count:
                    self.hints.append(len(self.hints) + 1)
                    progress = self.ws.progress()
                    shown = progress.hints_shown.get(self.current.key, 0)
                    progress.hints_shown[self.current.key] = max(shown, len(self.hints))
                    progress.save()
                else:
                    self.note = self.t("That was the last hint.", "已经是最后一条提示了。")
                self.render()
            case "r":
                self.run_check()
            case "n":
                upcoming = next_exercise(self.ws, self.ws.progress(), after=self.current)
                if upcoming is None:
                    self.note = self.t(
                        "Every exercise is done: nothing comes next. (l: the list)",
                        "所有练习都完成了，没有下一个了。（l：练习列表）",
                    )
                    self.render()
                else:
                    self.go_to(upcoming)
            case "l":
                self.listing = True
                self.typed = ""
                self.render()
            case "c":
                self.check_every_one()
            case _:
                pass
        return True

    def _exercise_of(self, path: Path) -> Exercise | None:
        for exercise in self.ws.exercises():
            if Path(path).resolve() == exercise.exercise_file.resolve():
                return exercise
        return None

    def _list_key(self, key: str) -> bool:
        if key.isdigit():
            self.typed += key
            self.render()
            return True
        if key in ("\n", "\r"):
            return self._choose(self.typed) if self.typed else self._leave_list()
        if key in ("\x7f", "\b"):
            self.typed = self.typed[:-1]
            self.render()
            return True
        if key.lower() == "q":
            return self.handle(("key", "q")) if not self.typed else self._leave_list()
        return self._leave_list()

    def _leave_list(self) -> bool:
        self.listing = False
        self.typed = ""
        self.render()
        return True

    def _choose(self, number: str) -> bool:
        exercises = self.ws.exercises()
        self.typed = ""
        if not 1 <= int(number) <= len(exercises):
            self.note = self.t(
                f"There is no exercise {number}: choose 1 to {len(exercises)}.",
                f"没有第 {number} 个练习：请输入 1 到 {len(exercises)}。",
            )
            self.render()
            return True
        self.go_to(exercises[int(number) - 1])
        return True

    def check_every_one(self) -> None:
        self.out.write(self.t("\nChecking every exercise…\n", "\n正在检查所有练习……\n"))
        for exercise in self.ws.exercises():
            self.ws.ensure_files(self.lang, [exercise])
            with _cooked_terminal() if self.interactive else contextlib.nullcontext():
                result = check(exercise, debug=False)
            record(self.ws, result).save()
            self.out.write(f"  {'✓' if result.ok else '✗'} {exercise.key}\n")
            if hasattr(self.out, "flush"):
                self.out.flush()
        self.listing = True
        self.render()

    # --- what the learner sees -----------------------------------------------------------

    def render(self) -> None:
        out = self.out
        if self.interactive:
            out.write(CLEAR)
        progress = self.ws.progress()
        if self.listing:
            self._render_list(progress)
        else:
            if self.result is not None:
                report(self.result, self.lang, out, diff=self.diff, watching=True)
            if self.hints:
                out.write("\n")
                for line in hint_text(self.ws, self.current, self.lang, self.hints):
                    out.write(f"{line}\n")
            if self.result is not None and self.result.ok:
                upcoming = next_exercise(self.ws, progress, after=self.current)
                out.write(
                    self.t(
                        f"\n✓ Exercise done. Press n to go on to {upcoming.key}.\n"
                        if upcoming
                        else "\n✓ Every exercise is done. 🎉\n",
                        f"\n✓ 练习完成。按 n 进入 {upcoming.key}。\n"
                        if upcoming
                        else "\n✓ 所有练习都完成了。🎉\n",
                    )
                    if self.interactive
                    else ""
                )
        done = sum(progress.is_done(e.key) for e in self.ws.exercises())
        width = min(shutil.get_terminal_size((100, 30)).columns, 100)
        out.write("\n" + progress_bar(done, len(self.ws.exercises()), width, self.lang) + "\n")
        out.write(
            self.t(
                f"Current exercise: {display_path(self.current.exercise_file)}\n",
                f"当前练习：{display_path(self.current.exercise_file)}\n",
            )
        )
        if self.note:
            out.write(f"{self.note}\n")
        if self.interactive and not self.listing:
            out.write(
                self.t(
                    "\nn:next / h:hint / l:list / r:check again / c:check all / q:quit ",
                    "\nn:下一个 / h:提示 / l:列表 / r:重新检查 / c:全部检查 / q:退出 ",
                )
            )
        elif not self.interactive:
            out.write(
                self.t(
                    "(Save an exercise file to check it; type h, l, n, r, c or q and Enter.)\n",
                    "（保存练习文件即可检查；输入 h、l、n、r、c 或 q 后回车。）\n",
                )
            )
        out.flush()

    def _render_list(self, progress: Any) -> None:
        out = self.out
        number = 0
        for chapter in self.ws.chapters():
            if not chapter.exercises:
                continue
            out.write(f"{chapter.slug}  {chapter.title[self.lang]}\n")
            for exercise in chapter.exercises:
                number += 1
                mark = "✓" if progress.is_done(exercise.key) else "·"
                here = "▶" if exercise is self.current else " "
                out.write(
                    f" {here}{number:>3}  {mark} {exercise.name:<22} {exercise.title[self.lang]}\n"
                )
        out.write(
            self.t(
                f"\nType a number and Enter to go to that exercise; Enter alone goes back. {self.typed}",
                f"\n输入编号并回车即可转到那个练习；直接回车返回。{self.typed}",
            )
            + ("" if self.interactive else "\n")
        )


# --- the terminal and the event sources --------------------------------------------------------


_saved_modes: list[Any] = []


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """Single keys without echo for the session; the terminal as it was on the way out."""
    import termios
    import tty

    before = termios.tcgetattr(fd)
    _saved_modes.append((fd, before))
    tty.setcbreak(fd)
    try:
        yield
    finally:
        _saved_modes.pop()
        # A terminal that hung up has no modes to restore.
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSADRAIN, before)


@contextlib.contextmanager
def _cooked_terminal() -> Iterator[None]:
    """The terminal as the learner had it, while a check runs (pdb needs it)."""
    if not _saved_modes:
        yield
        return
    import termios
    import tty

    fd, before = _saved_modes[-1]
    with contextlib.suppress(termios.error, OSError):
        termios.tcsetattr(fd, termios.TCSADRAIN, before)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):
            tty.setcbreak(fd)


def _read_keys(events: queue.Queue[Event], paused: threading.Event, stop: threading.Event) -> None:
    fd = sys.stdin.fileno()
    while not stop.is_set():
        if paused.is_set():
            stop.wait(0.05)
            continue
        try:
            ready, _, _ = select.select([fd], [], [], 0.1)
            data = os.read(fd, 32) if ready and not paused.is_set() else None
        except (OSError, ValueError):  # the terminal went away (EIO after a hang-up)
            data = b""
        if data == b"":
            events.put(("eof", None))
            return
        for ch in (data or b"").decode("utf-8", errors="ignore"):
            events.put(("key", ch))


def _read_lines(events: queue.Queue[Event], stream: TextIO) -> None:
    try:
        for line in stream:
            events.put(("line", line))
    except (OSError, ValueError):
        pass
    events.put(("eof", None))


def _watch_saves(ws: Workspace, events: queue.Queue[Event], stop: threading.Event) -> None:
    import watchfiles

    names = {e.exercise_file.resolve() for e in ws.exercises()}
    try:
        for batch in watchfiles.watch(
            ws.root,
            watch_filter=lambda _change, path: (
                Path(path).name == "exercise.py" and Path(path).resolve() in names
            ),
            stop_event=stop,
            raise_interrupt=False,
            debounce=400,
        ):
            for path in sorted({Path(p) for _, p in batch if Path(p).exists()}):
                events.put(("saved", path))
    except Exception as err:  # the watcher died: say so, keys still work
        events.put(("watch-error", str(err)))


def _events(source: queue.Queue[Event], stop: threading.Event) -> Iterator[Event]:
    while not stop.is_set():
        try:
            event = source.get(timeout=0.2)
        except queue.Empty:
            continue
        if event[0] == "saved":  # an editor's save can be several writes: check once
            while True:
                try:
                    more = source.get_nowait()
                except queue.Empty:
                    break
                if more != event:
                    source.put(more)
                    break
        yield event


def cmd_watch(
    ws: Workspace,
    name: str | None,
    lang: str,
    out: TextIO,
    *,
    events: Iterable[Event] | None = None,
    plain: bool | None = None,
) -> int:
    """Check the current exercise, then follow saves and keys until q (or Ctrl+C)."""
    progress = ws.progress()
    warn_progress(progress, lang, out)
    if name is not None:
        exercise = resolve(ws, name, lang, out)
        if exercise is None:
            return 2
    else:
        exercise = current_exercise(ws, progress) or ws.exercises()[0]
    written = ws.ensure_files(lang)
    if written:
        out.write(
            text(
                f"Wrote {len(written)} exercise files from the port (each is yours to edit; "
                f"`{PROG} reset NAME` makes one again).\n",
                f"已根据移植版生成 {len(written)} 个练习文件（随便改；`{PROG} reset 练习名` "
                "可以重新生成）。\n",
                lang,
            )
        )
    tty_ok = events is None and sys.stdin.isatty() and getattr(out, "isatty", lambda: False)()
    interactive = tty_ok if plain is None else (not plain and tty_ok)
    session = Watch(ws, lang, out, interactive, exercise)
    if events is not None:
        session.go_to(exercise)
        for event in events:
            if not session.handle(event):
                break
        return 0

    source: queue.Queue[Event] = queue.Queue()
    stop = threading.Event()
    threads = [threading.Thread(target=_watch_saves, args=(ws, source, stop), daemon=True)]
    if interactive:
        threads.append(
            threading.Thread(target=_read_keys, args=(source, session.paused, stop), daemon=True)
        )
    elif sys.stdin is not None and not sys.stdin.closed:
        threads.append(threading.Thread(target=_read_lines, args=(source, sys.stdin), daemon=True))
    terminal = _cbreak(sys.stdin.fileno()) if interactive else contextlib.nullcontext()
    try:
        with terminal:
            for thread in threads:
                thread.start()
            session.go_to(exercise)
            for event in _events(source, stop):
                if event[0] == "watch-error":
                    session.note = text(
                        f"Watching the files stopped ({event[1]}): press r to check.",
                        f"文件监视停止了（{event[1]}）：按 r 检查。",
                        lang,
                    )
                    session.render()
                    continue
                if not session.handle(event):
                    break
    except KeyboardInterrupt:
        out.write("\n")
        return 130  # as the shell reports a command that Ctrl+C ended (128 + SIGINT)
    finally:
        stop.set()
        for thread in threads:
            if thread.name and thread.is_alive() and thread.daemon:
                thread.join(timeout=0.5)
    return 0
