"""The server checks are forked from: the port imported once, kept for the next check (ours).

Importing the port takes most of a check's time (a third of a second of CPU on a quiet machine,
seconds on a busy one); running the checks, tens of milliseconds. So the runner asks a server
that has imported the port already, and the server forks one process per check
(:mod:`walkthrough.child` runs in it). The server outlives the command that started it, so the
next ``python -m walkthrough check`` skips the import too:

* **One per workspace**, named by what decides what the check imports: the interpreter, the
  folders of the port and of this package, and the ``PYTHON*`` and locale variables
  (:func:`key`). A runner that differs in any of those starts its own.
* **Never stale.** Before each check the server looks again at every module file it has
  imported (its modification time and size): when one changed (a ``git pull``, a new install),
  it answers ``stale``, takes no more checks and ends once the ones running have, and the runner
  starts a new server. The exercise's checks and the learner's file are imported in the check's
  own process, after the fork, so they are read anew each time anyway.
* **The runner's environment.** A check runs with the environment and working folder of the
  runner that asked for it, not of the one that started the server.
* **It goes away.** After :data:`IDLE_SECONDS` without a check it ends; ``watch`` stops it when
  the learner leaves; a runner that goes away during a check has that check ended (with every
  process below it, as the runner itself would).

The check's process is the server's child, and the runner bounds it exactly as before: it reads
the check's events, sends the signals (a stack dump, the kill) to the process id the check
reports first, and gets the exit status from the server. ``MINIKUBELET_CHECK_SERVER=0`` turns the
server off: each check is then a fresh ``python -m walkthrough.child`` (as when the server cannot
start at all, e.g. where there are no Unix sockets).

    python -m walkthrough.checkserver SOCKET      (started by the runner; not for people)
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import selectors
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Seconds without a check after which the server ends.
IDLE_SECONDS = 900.0
#: ``0`` turns the server off (each check imports the port in a fresh process).
ENV_OFF = "MINIKUBELET_CHECK_SERVER"
#: How long a runner waits for a server it started to take checks (the port's import).
START_SECONDS = 120.0
#: How long a runner waits for a listening server to take a check before it runs the check in
#: a process of its own (a server that is stopped or hung answers nothing).
ANSWER_SECONDS = 10.0
#: Variables that change what an interpreter imports or how it reads text: part of the key.
_KEY_PREFIXES = ("PYTHON", "LC_", "LANG", "VIRTUAL_ENV")
#: The server this process started, while it may still be starting.
_started: subprocess.Popen[bytes] | None = None


def enabled() -> bool:
    """Whether checks go through a server (POSIX with Unix sockets, and not turned off)."""
    return (
        os.environ.get(ENV_OFF, "1") != "0"
        and hasattr(socket, "AF_UNIX")
        and hasattr(os, "fork")
        and hasattr(os, "setsid")
        and _private_folder() is not None
    )


def key() -> str:
    """What makes two runners' servers interchangeable, as a short hash: the interpreter, where
    the port and this package are imported from, and the variables that change imports."""
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(_KEY_PREFIXES))
    port = importlib.util.find_spec("minikubelet")
    facts = [
        sys.executable,
        sys.prefix,
        str(Path(__file__).resolve().parent),
        port.origin if port is not None else None,
        env,
    ]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:20]


def _private_folder() -> Path | None:
    """This user's folder for the servers' sockets, made if missing; None when it is not the
    user's alone (another user made it first in the shared temporary folder, and could listen
    where a runner sends its environment)."""
    path = Path(tempfile.gettempdir()) / f"minikubelet-checks-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return path


def folder() -> Path:
    """Where this user's servers keep their sockets; there is one once :func:`enabled` has
    said so."""
    path = _private_folder()
    if path is None:
        raise OSError("no private folder for the check server's socket")
    return path


def socket_path() -> Path:
    return folder() / f"{key()}.sock"


# --- the runner's side ------------------------------------------------------------------------


class Lines:
    """JSON lines read from a socket or a pipe, without blocking longer than asked."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.ended = False

    def next(self, timeout: float) -> dict[str, Any] | None:
        """The next event, or None if none came within ``timeout`` (or the stream ended)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if self.ended:
                return None
            wait = deadline - time.monotonic()
            with selectors.DefaultSelector() as sel:
                sel.register(self.fd, selectors.EVENT_READ)
                if not sel.select(max(wait, 0)):
                    return None
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.ended = True
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            event = json.loads(line)
        except ValueError:
            return self.next(max(deadline - time.monotonic(), 0))  # not ours: a stray write
        return event if isinstance(event, dict) else None


def _connect(path: Path) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(ANSWER_SECONDS)  # a hung server's full backlog would block for ever
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None
    sock.settimeout(None)
    return sock


def _spawn(path: Path) -> None:
    global _started
    _started = subprocess.Popen(
        [sys.executable, "-m", "walkthrough.checkserver", str(path)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # the learner's Ctrl-C in the runner is not the server's
    )


def _starting() -> bool:
    """Whether the server this process started is still running (it may be importing)."""
    return _started is not None and _started.poll() is None


def ensure_running() -> None:
    """Start this workspace's server unless one runs (it imports the port meanwhile)."""
    if not enabled():
        return
    path = socket_path()
    sock = _connect(path)
    if sock is not None:
        sock.close()
    elif not _starting() and not _serving():
        _spawn(path)


def _serving() -> bool:
    """Whether a server holds this workspace (it may still be importing the port)."""
    import fcntl

    try:
        fd = os.open(folder() / f"{key()}.lock", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _wait_for_server(path: Path) -> socket.socket | None:
    """A connection to the server, starting it if needed; None if none can start."""
    deadline = time.monotonic() + START_SECONDS
    spawned = False
    while time.monotonic() < deadline:
        sock = _connect(path)
        if sock is not None:
            return sock
        if not _serving() and not _starting():
            if spawned:
                return None  # it ended without taking checks (the port does not import)
            _spawn(path)
            spawned = True
        time.sleep(0.01)
    return None


def open_check(request: dict[str, Any]) -> tuple[socket.socket, Lines, int] | None:
    """Hand a check to the server: the connection its events come on, and the process id of
    the check. None when no server can take it (the caller runs the check in a process of its
    own)."""
    global _started
    if not enabled():
        return None
    path = socket_path()
    for _ in range(2):  # a stale server says so once, and the next one is new
        sock = _wait_for_server(path)
        if sock is None:
            return None
        message = {"op": "check", "request": request, "env": dict(os.environ), "cwd": os.getcwd()}
        lines = Lines(sock.fileno())
        try:
            sock.sendall((json.dumps(message) + "\n").encode())
            first = lines.next(ANSWER_SECONDS)
        except OSError:
            first = None
        if first is not None and isinstance(first.get("pid"), int):
            return sock, lines, first["pid"]
        sock.close()
        if first is None or first.get("event") != "stale":
            return None
        _started = None  # the stale one ends once it has finished others' checks
    return None


def stop() -> None:
    """Ask this workspace's server to end (it finishes the checks it is running)."""
    global _started
    if not enabled():
        return
    path = socket_path()
    deadline = time.monotonic() + START_SECONDS
    sock = _connect(path)
    while sock is None and _serving() and time.monotonic() < deadline:
        time.sleep(0.01)  # it is still importing the port: it listens once it has
        sock = _connect(path)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.sendall(b'{"op": "stop"}\n')
            sock.recv(1)  # it closes the connection once it has stopped listening
        sock.close()
    if _started is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            _started.wait(START_SECONDS)
        _started = None


def server_pid() -> int | None:
    """The process id of this workspace's server, if one is running (for the benchmark)."""
    try:
        return int((folder() / f"{key()}.lock").read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None


# --- the server's side ------------------------------------------------------------------------


def _loaded_files() -> dict[str, tuple[int, int]]:
    """Every module file imported so far, with its modification time and size."""
    stamps: dict[str, tuple[int, int]] = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            with contextlib.suppress(OSError):
                stat = os.stat(path)
                stamps[path] = (stat.st_mtime_ns, stat.st_size)
    return stamps


def _unchanged(stamps: dict[str, tuple[int, int]]) -> bool:
    for path, stamp in stamps.items():
        try:
            stat = os.stat(path)
        except OSError:
            return False
        if (stat.st_mtime_ns, stat.st_size) != stamp:
            return False
    return True


def _exit_code(status: int) -> int:
    """A wait status as multiprocessing reports it: the exit status, or minus the signal."""
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


class Server:
    """Takes checks on a Unix socket and forks a process for each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_fd = -1
        self.listener: socket.socket | None = None
        self.sel = selectors.DefaultSelector()
        self.stamps: dict[str, tuple[int, int]] = {}
        #: Running checks: process id -> the runner's connection.
        self.running: dict[int, socket.socket] = {}
        self.last = time.monotonic()
        #: The pipe a signal wakes the loop through.
        self.wake: tuple[int, int] = (-1, -1)

    def claim(self) -> bool:
        """Become this workspace's server, unless another one is (a lock held for life)."""
        import fcntl

        lock = self.path.with_suffix(".lock")
        self.lock_fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        os.ftruncate(self.lock_fd, 0)
        os.write(self.lock_fd, str(os.getpid()).encode())
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a server that was killed left it
        return True

    def listen(self) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(self.path))
        self.listener.listen(16)
        self.sel.register(self.listener, selectors.EVENT_READ, "accept")

    def close(self) -> None:
        """Take no more checks: a runner that connects now starts a new server."""
        if self.listener is None:
            return
        self.sel.unregister(self.listener)
        self.listener.close()
        self.listener = None
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self.lock_fd)  # the next server may claim the workspace now

    def serve(self) -> None:
        wake_r, wake_w = self.wake = os.pipe()
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.sel.register(wake_r, selectors.EVENT_READ, "wake")
        self.stamps = _loaded_files()
        self.listen()
        while self.listener is not None or self.running:
            idle = IDLE_SECONDS - (time.monotonic() - self.last)
            if not self.running and idle <= 0:
                self.close()
                break
            for item, _ in self.sel.select(max(idle, 0) if not self.running else None):
                if item.data == "wake":
                    with contextlib.suppress(OSError):
                        os.read(wake_r, 512)
                elif item.data == "accept":
                    self.accept()
                else:
                    self.gone(item.data)
            self.reap()

    def accept(self) -> None:
        assert self.listener is not None
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        self.last = time.monotonic()
        conn.settimeout(10)
        try:
            with conn.makefile("rb") as reader:
                message = json.loads(reader.readline() or b"{}")
        except (OSError, ValueError):
            conn.close()
            return
        if message.get("op") == "stop":
            self.close()
            conn.close()
            return
        if message.get("op") != "check":
            conn.close()
            return
        if not _unchanged(self.stamps):
            self.close()  # first: the runner's next try must not reach this server
            with contextlib.suppress(OSError):
                conn.sendall(b'{"event": "stale"}\n')
            conn.close()
            return
        pid = os.fork()
        if pid == 0:
            self.check(conn, message)  # never returns
        self.running[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, pid)

    def check(self, conn: socket.socket, message: dict[str, Any]) -> None:
        """In the forked process: the runner's environment, then the check itself."""
        from walkthrough import child

        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in [self.lock_fd, *self.wake, *(i.fd for i in self.sel.get_map().values())]:
            if fd != conn.fileno():
                with contextlib.suppress(OSError):
                    os.close(fd)
        conn.settimeout(None)
        os.environ.clear()
        os.environ.update(message.get("env") or {})
        with contextlib.suppress(OSError, TypeError):
            os.chdir(message.get("cwd") or ".")

        def send(event: dict[str, Any]) -> None:
            conn.sendall((json.dumps(event) + "\n").encode())

        with contextlib.suppress(BaseException):
            send({"event": "pid", "pid": os.getpid()})
        child.serve_check(message.get("request") or {}, send)

    def gone(self, pid: int) -> None:
        """The runner's end of a check closed: a runner that went away has its check ended."""
        conn = self.running.get(pid)
        if conn is None:
            return
        try:
            data = conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            conn.recv(4096)  # runners send nothing more; ignore it
            return
        from walkthrough import proctree

        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGSTOP)
        proctree.kill_descendants(pid)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        self.sel.unregister(conn)
        # The exit status has no one to go to; reap() collects the process.

    def reap(self) -> None:
        while self.running:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.running.pop(pid, None)
            if conn is None:
                continue
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(conn)
            event = {
                "event": "exit",
                "code": _exit_code(status),
                "cpu": usage.ru_utime + usage.ru_stime,
            }
            with contextlib.suppress(OSError):
                conn.sendall((json.dumps(event) + "\n").encode())
            conn.close()
            self.last = time.monotonic()


def main() -> None:
    """``python -m walkthrough.checkserver SOCKET``: import the port, then serve checks."""
    path = Path(sys.argv[1])
    server = Server(path)
    if not server.claim():
        return  # another runner started this workspace's server a moment earlier
    import walkthrough.child  # noqa: F401  (the port, imported once for every check)

    try:
        server.serve()
    finally:
        server.close()


if __name__ == "__main__":
    main()
