"""Files written to the disk past the page cache (``O_DIRECT``), for large writes a solve
waits on.

A loopy tier solved in its records saves a resume point between levels with a copy of
its records (``tiers.resume_points``): 2.15 GB for Nine Men's Morris's sector 9-7, the
solve stopped meanwhile. Copied through the page cache, the copy's dirty pages join the
records' own (the tier's working file, mapped and written all over), past the kernel's
threshold for writing back, and the kernel holds the copying thread to the disk's pace
while it writes both: 15 to 23 s for each copy of that sector's records, up to 28 s for
sector 9-8's (2026-12-03, the whole database's build). Written here instead, a chunk at a
time from a buffer of whole pages with ``O_DIRECT``, the bytes go to the disk once and
dirty no page.

A file of one chunk or less (``CHUNK``) is written the ordinary way: too small to stall
anything, and a small ``O_DIRECT`` write waits on the device. So is any file where the
file system refuses ``O_DIRECT`` (tmpfs, some others), when the flag is set or at the
first write. A finished sector's packed file (``core.packed_records``) is written so too:
10 to 16 s for sector 9-7's 1.07 GB through the page cache in the same conditions.
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
        _write_chunks(destination, lambda buffer: _fill_from(handle, buffer), sync=True)


def write_direct(destination: Path, parts: Iterable[Buffer], *, sync: bool = True) -> None:
    """Write ``parts`` (bytes, contiguous arrays; taken one at a time, as they come) one
    after another into ``destination`` (replaced); ``sync``: on the disk when this returns
    (fsync'd), else the caller fsyncs it when it needs to."""
    _write_chunks(destination, _filler(iter(parts)), sync=sync)


def _write_chunks(destination: Path, fill: Fill, *, sync: bool) -> None:
    """Write what ``fill`` puts in a page-aligned buffer, chunk by chunk: the first the
    ordinary way, the others with ``O_DIRECT`` where the file system takes it (the last
    chunk padded to whole pages, the file cut back after); fsync'd if ``sync``."""
    descriptor = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    buffer = mmap.mmap(-1, CHUNK)  # (anonymous: page-aligned)
    view = memoryview(buffer)
    try:
        written = 0
        direct = False
        while count := fill(view):
            whole = -(-count // mmap.PAGESIZE) * mmap.PAGESIZE
            view[count:whole] = bytes(whole - count)
            if written == CHUNK:  # (a second chunk: a file worth writing past the cache)
                direct = _set_direct(descriptor, True)
            try:
                _write_all(descriptor, view[:whole])
            except OSError as error:
                if not direct or error.errno != errno.EINVAL or written > CHUNK:
                    raise
                direct = _set_direct(descriptor, False)  # (refused: nothing written)
                _write_all(descriptor, view[:whole])
            written += count
            if count < CHUNK:
                break
        os.ftruncate(descriptor, written)
        if sync:
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
        view.release()
        buffer.close()


def _set_direct(descriptor: int, on: bool) -> bool:
    """Turn ``O_DIRECT`` on or off for ``descriptor``; whether it is on now (the file
    system may refuse it)."""
    direct = getattr(os, "O_DIRECT", 0)
    if not direct:
        return False
    flags = fcntl.fcntl(descriptor, fcntl.F_GETFL)
    try:
        fcntl.fcntl(descriptor, fcntl.F_SETFL, flags | direct if on else flags & ~direct)
    except OSError as error:
        if error.errno != errno.EINVAL:
            raise
        return False
    return on


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
