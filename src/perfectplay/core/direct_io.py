"""Files written to the disk past the page cache (``O_DIRECT``), for large writes a solve
waits on.

A loopy tier solved in its records saves a resume point between levels with a copy of
its records (``tiers.resume_points``): 2.15 GB for Nine Men's Morris's sector 9-7, the
solve stopped meanwhile. Copied through the page cache, the copy's dirty pages join the
records' own (the tier's working file, mapped and written all over), past the kernel's
threshold for writing back, and the kernel holds the copying thread to the disk's pace
while it writes both: 18 to 25 s for that copy and its fsync (2026-12-03, the whole
database's build, each copy of that sector's records). Written here instead, a chunk at a
time from a buffer of whole pages with ``O_DIRECT``, the bytes go to the disk once and
dirty no page.

Where the file system refuses ``O_DIRECT`` (tmpfs, some others), the same bytes are
written the ordinary way. Either way the file is fsync'd before the call returns. A
finished sector's packed file (``core.packed_records``) is written so too: 16 s for
sector 9-7's 1.07 GB through the page cache in the same conditions.
"""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
from collections.abc import Callable, Iterable, Iterator
from io import RawIOBase
from pathlib import Path
from typing import Any

CHUNK = 1 << 24
"""Bytes written at once (a multiple of every block size ``O_DIRECT`` asks to align to)."""

Buffer = Any
"""What ``memoryview`` takes: bytes, a contiguous numpy array."""

Fill = Callable[[memoryview], int]
"""Puts the next bytes to write into a buffer; returns how many (fewer than it holds: the
last)."""


def copy_direct(source: Path, destination: Path) -> None:
    """Copy ``source`` to ``destination`` (replaced), on the disk when this returns. The
    source is read through the page cache, so a mapping's writes not yet on the disk are
    copied too."""
    with source.open("rb", buffering=0) as handle:
        _write_chunks(destination, lambda buffer: _fill_from(handle, buffer))


def write_direct(destination: Path, parts: Iterable[Buffer]) -> None:
    """Write ``parts`` (bytes, contiguous arrays; taken one at a time, as they come) one
    after another into ``destination`` (replaced), on the disk when this returns."""
    _write_chunks(destination, _filler(iter(parts)))


def _write_chunks(destination: Path, fill: Fill) -> None:
    """Write what ``fill`` puts in a page-aligned buffer, chunk by chunk, with ``O_DIRECT``
    (the last chunk padded to whole pages, the file cut back after), then fsync. Where the
    file system refuses ``O_DIRECT``, at the opening or at the first write, the same
    descriptor goes on without it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    direct = getattr(os, "O_DIRECT", 0)
    try:
        descriptor = os.open(destination, flags | direct, 0o644)
    except OSError as error:
        if not direct or error.errno != errno.EINVAL:
            raise
        descriptor, direct = os.open(destination, flags, 0o644), 0
    buffer = mmap.mmap(-1, CHUNK)  # (anonymous: page-aligned)
    view = memoryview(buffer)
    try:
        written = 0
        while count := fill(view):
            whole = -(-count // mmap.PAGESIZE) * mmap.PAGESIZE
            view[count:whole] = bytes(whole - count)
            try:
                _write_all(descriptor, view[:whole])
            except OSError as error:
                if not direct or error.errno != errno.EINVAL or written:
                    raise
                fcntl.fcntl(descriptor, fcntl.F_SETFL, 0)  # (O_DIRECT off: nothing written)
                direct = 0
                _write_all(descriptor, view[:whole])
            written += count
            if count < CHUNK:
                break
        os.ftruncate(descriptor, written)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
        view.release()
        buffer.close()


def _write_all(descriptor: int, data: memoryview) -> None:
    """``os.write`` until all of ``data`` is written."""
    while data:
        data = data[os.write(descriptor, data) :]


def _fill_from(handle: RawIOBase, buffer: memoryview) -> int:
    """Read ``handle`` into ``buffer`` until it is full or the file ends; the bytes read."""
    filled = 0
    while filled < len(buffer):
        count = handle.readinto(buffer[filled:])
        if not count:
            break
        filled += count
    return filled


def _filler(parts: Iterator[Buffer]) -> Fill:
    """A ``fill`` that puts ``parts`` into the buffer one after another, each taken from
    the iterator when the one before is used up."""
    left = [memoryview(b"")]  # what is left of the part in hand

    def fill(buffer: memoryview) -> int:
        filled = 0
        while filled < len(buffer):
            if not left[0]:
                part = next(parts, None)
                if part is None:
                    break
                left[0] = memoryview(part).cast("B")
                continue
            count = min(len(left[0]), len(buffer) - filled)
            buffer[filled : filled + count] = left[0][:count]
            filled += count
            left[0] = left[0][count:]
        return filled

    return fill
