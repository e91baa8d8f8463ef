"""Files written past the page cache (``core.direct_io``): the same bytes as an ordinary
write, at every size around the chunk and page boundaries, on a file system that takes
``O_DIRECT`` and on one that refuses it."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import numpy as np
import pytest

from perfectplay.core import direct_io
from perfectplay.core.direct_io import CHUNK, copy_direct, write_direct

SIZES = [0, 1, 511, 4095, 4096, 4097, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 12_345]


def _bytes(size: int, seed: int) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()


@pytest.fixture(params=["direct", "refused when set", "refused at write"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test as the machine's file system takes it, then with ``O_DIRECT`` refused
    when it is set on the descriptor (as tmpfs does), then at the first write (as some
    file systems do)."""
    direct = getattr(os, "O_DIRECT", 0)
    if request.param == "refused when set":
        real_fcntl = fcntl.fcntl

        def refusing(descriptor: int, command: int, argument: int = 0) -> int:
            if command == fcntl.F_SETFL and argument & direct:
                raise OSError(errno.EINVAL, "no O_DIRECT here")
            return real_fcntl(descriptor, command, argument)

        monkeypatch.setattr(direct_io.fcntl, "fcntl", refusing)
    elif request.param == "refused at write":
        real_write = os.write

        def refusing_write(descriptor: int, data: object) -> int:
            if fcntl.fcntl(descriptor, fcntl.F_GETFL) & direct:
                raise OSError(errno.EINVAL, "no O_DIRECT here")
            return real_write(descriptor, data)  # type: ignore[arg-type]

        monkeypatch.setattr(direct_io.os, "write", refusing_write)
    return str(request.param)


def test_a_file_past_one_chunk_is_written_with_o_direct(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first chunk goes through the page cache, the rest past it (where the file
    system takes the flag); a file of one chunk never asks for it."""
    direct = getattr(os, "O_DIRECT", 0)
    if not direct:
        pytest.skip("no O_DIRECT on this system")
    real_write = os.write
    chunks: list[bool] = []

    def watched(descriptor: int, data: object) -> int:
        chunks.append(bool(fcntl.fcntl(descriptor, fcntl.F_GETFL) & direct))
        return real_write(descriptor, data)  # type: ignore[arg-type]

    monkeypatch.setattr(direct_io.os, "write", watched)
    write_direct(tmp_path / "small", [bytes(CHUNK)])
    assert chunks == [False]
    chunks.clear()
    write_direct(tmp_path / "large", [bytes(2 * CHUNK + 1)])
    if chunks[1:] == [False, False]:
        pytest.skip("this file system refuses O_DIRECT")
    assert chunks == [False, True, True]


@pytest.mark.parametrize("size", SIZES)
def test_copy_is_the_same_bytes(tmp_path: Path, size: int, mode: str) -> None:
    source = tmp_path / "source"
    data = _bytes(size, size)
    source.write_bytes(data)
    destination = tmp_path / "copy"
    destination.write_bytes(b"older and longer" * 100_000)  # replaced, not overwritten
    copy_direct(source, destination)
    assert destination.read_bytes() == data


def test_copy_sees_a_mapping_not_yet_on_the_disk(tmp_path: Path, mode: str) -> None:
    """A tier's records are written through a mapping; the copy must have those writes."""
    source = tmp_path / "records"
    source.write_bytes(bytes(3 * CHUNK // 2))
    mapped = np.memmap(source, dtype=np.uint16, mode="r+")
    mapped[::997] = 0xBEEF
    copy_direct(source, tmp_path / "copy")
    assert (tmp_path / "copy").read_bytes() == np.asarray(mapped).tobytes()
    del mapped


@pytest.mark.parametrize("sizes", [[], [0], [8, 100], [5, CHUNK, 3], [CHUNK - 8, 8, 4096]])
def test_parts_are_written_one_after_another(tmp_path: Path, sizes: list[int], mode: str) -> None:
    parts = [_bytes(size, i) for i, size in enumerate(sizes)]
    words = np.arange(1000, dtype=np.uint64)  # an array is a part too
    destination = tmp_path / "point"
    write_direct(destination, iter([*parts, words]))  # (taken as they come)
    assert destination.read_bytes() == b"".join(parts) + words.tobytes()
