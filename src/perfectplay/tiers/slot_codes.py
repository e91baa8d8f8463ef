"""One-byte codes of a tier solved in slots, and their settling into the tier's file.

A tier solved in the records of its reached positions alone (``retrograde_in_records.
solve_in_slots``) keeps a byte a slot while it is solved, where its 2-byte records would
take two (Dobutsu shogi: 247 MB where they took 494):

    0          settled: the slot's record is in the tier's working file
    1..63      open, with that many moves not yet known to lose
    64 + 2 d + v - 1   decided: a WIN (v = 1) or LOSS (v = 2) at remoteness base + d,
               d in 0..95

Retrograde analysis decides level r + 1 while it reads level r, so only the levels from
the current one need their remoteness; when the levels reach base + LEVELS, every decided
slot below the current level is settled (its record written into the tier's file, a window
at a time, read and written through the file, never mapped) and ``base`` moves up to the
current level, its slots coded again from there. At the end every slot is settled, the
open ones as draws. A tier with a tied end or a position of more than 63 moves does not
fit these codes: the first pass raises ``TooNarrow`` and the tier is solved in 2-byte
records instead.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import kernel
from ..core.records import REACHED, TierSummary
from .files import TierFiles, tier_file_name
from .reached_set import ReachedSet

U8 = Any
U16 = Any

DECIDED = 64
"""The first code of a decided slot."""
OPEN_MOST = 63
"""The most moves an open slot counts."""
LEVELS = 95
"""Levels read from one base: a level reads d at most LEVELS - 1 and decides d + 1."""
assert DECIDED + 2 * LEVELS + 1 <= 255  # the last decided code still fits a byte
WINDOW = 1 << 22
"""Indices of the tier's file read and written at once when settling."""
_TIE, _DRAW = 3, 4


class TooNarrow(Exception):
    """A tier whose positions these codes cannot hold: a tie, or a position with more than
    OPEN_MOST moves that do not lead to an end the other player wins."""


def narrowed(records: U16, shift: int) -> U8:
    """The codes of the records the first pass writes (remoteness 0 or 1, base 0)."""
    values = records >> shift
    remoteness = records & ((1 << shift) - 1)
    open_ = values == REACHED
    if (values == _TIE).any() or (open_ & (remoteness > OPEN_MOST)).any():
        raise TooNarrow
    codes = np.where(open_, remoteness, DECIDED + 2 * remoteness + values.astype(np.int64) - 1)
    return codes.astype(np.uint8)


@kernel
def _settle_window(
    codes: U8,
    here: I64,
    start: int,
    block: U16,
    base: int,
    below: int,
    final: bool,
    shift: int,
    counts: I64,
) -> int:
    """Settle the decided codes of one window below ``below`` (all, and the open ones as
    draws, when ``final``) into ``block``, the window's records (here[k] is codes[k]'s
    index); the others decided are coded again from base ``below``. Returns how many were
    settled; counts[record] counts them."""
    settled = 0
    for k in range(codes.shape[0]):
        code = int(codes[k])  # (a uint8 run interpreted would lose the value's bits)
        if code == 0:
            continue
        record = -1
        if code >= DECIDED:
            value = ((code - DECIDED) & 1) + 1
            remoteness = base + ((code - DECIDED) >> 1)
            if final or remoteness < below:
                record = (value << shift) | remoteness
            else:
                codes[k] = DECIDED + 2 * (remoteness - below) + value - 1
        elif final:
            record = _DRAW << shift
        if record >= 0:
            block[here[k] - start] = record
            counts[record] += 1
            codes[k] = 0
            settled += 1
    return settled


class SettledSlots:
    """The working file of a tier solved in one-byte slots, written as slots settle."""

    def __init__(self, files: TierFiles, tier: int, size: int, reached: ReachedSet) -> None:
        assert files.record.shift == 13  # 2-byte records, counted as ``count_pairs`` counts
        self.files, self.size, self.reached = files, size, reached
        self.path = files.directory / tier_file_name(tier, "partial")
        with self.path.open("wb") as handle:  # zeros: no position, until settled
            handle.truncate(size * files.record.bytes)
        self.base = 0
        self.summary = TierSummary()

    def settle_below(self, level: int, codes: U8) -> None:
        """Settle every decided slot below ``level`` and code the others from base
        ``level`` (the levels from it on read them)."""
        self._settle(codes, level, final=False)
        self.base = level

    def settle_all(self, codes: U8) -> None:
        """Settle every slot, the open ones as draws: the tier's file is whole."""
        self._settle(codes, 0, final=True)

    def _settle(self, codes: U8, level: int, final: bool) -> None:
        record = self.files.record
        counts = np.zeros(1 << (8 * record.bytes), dtype=np.int64)
        width = record.bytes
        with self.path.open("r+b") as handle:
            fd = handle.fileno()
            for start, stop, here, first in self.reached.windows(self.size, WINDOW):
                data = os.pread(fd, (stop - start) * width, start * width)
                block = np.frombuffer(bytearray(data), dtype=record.dtype)
                if block.shape[0] != stop - start:
                    raise OSError(f"{self.path}: cut short while being written")
                window = codes[first : first + here.shape[0]]
                if _settle_window(window, here, start, block, self.base, level, final,
                                  record.shift, counts):  # fmt: skip
                    os.pwrite(fd, block.tobytes(), start * width)
        self.summary.add_counts(counts)  # a 2-byte record is value << 13 | remoteness
