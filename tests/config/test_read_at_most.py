"""Reading a manifest in pieces (ours) gives the bytes one read of ``limit + 1`` would give."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from minikubelet.base import files
from minikubelet.base.files import FileTooLarge, read_at_most, read_stream_at_most


@pytest.mark.parametrize("size", [0, 1, 3, 4, 5, 9, 10, 11, 12, 13, 40])
def test_pieces_give_what_one_read_gives(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "_PIECE", 4)
    data = bytes(range(size))
    limit = 10
    assert read_stream_at_most(io.BytesIO(data), limit) == io.BytesIO(data).read(limit + 1)


def test_a_file_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_bytes(b"x" * 11)
    with pytest.raises(FileTooLarge):
        read_at_most(path, 10)
    path.write_bytes(b"x" * 10)
    assert read_at_most(path, 10) == b"x" * 10
