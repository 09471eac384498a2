"""Reading a file the user names (a manifest, a scenario, an API script): at most so many bytes.

Ours. kubelet reads a manifest with ``utilio.ReadAtMost(file, maxConfigLength)``: whatever the
file is (``/dev/zero``, a log that keeps growing), at most 10 MiB are read, and a longer file is
refused whole. Every file the port reads goes through [`read_at_most`][] with such a limit.
"""

from __future__ import annotations

import os
from pathlib import Path

from minikubelet.base.i18n import both, os_error


class FileReadError(ValueError):
    """A file that cannot be read whole; the message says why, without the file's name."""


class FileTooLarge(FileReadError):
    """A file longer than the limit it is read with."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            both(f"too large: more than {limit} bytes", f"文件太大：超过 {limit} 字节")
        )


def read_at_most(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the file at ``path``; raises [`FileReadError`][] if it cannot be read or is
    longer than ``limit`` bytes."""
    try:
        with Path(path).open("rb") as stream:
            data = stream.read(limit + 1)
    except OSError as err:
        reason = os_error(err)
        raise FileReadError(both(f"cannot read: {reason}", f"无法读取：{reason.zh}")) from None
    if len(data) > limit:
        raise FileTooLarge(limit)
    return data
