"""The positions a loopy tier's first pass decided for a later level, kept by level.

In a tier whose moves also lead into tiers solved before (``children_beside``: Nine Men's
Morris's mills, which take a stone into a smaller sector), the first pass decides many
positions ahead of the levels: a mill into a position lost in 9 plies wins in 10. Marked
pending (``retrograde_in_records``), such a position was read again by every level's scan
of the pending bits until its own level came: sector 7-5 holds 54 million of them among
134 million indices, and those scans took 13.7 s of its CPU (2026-12-02). Kept here by
level, each is read once, at its level, and the scans read only what the levels decide.

Contract: ``hold`` takes a piece of first records and keeps the wins and losses of
remoteness ``least`` or more (they are then not to be marked pending); after ``arrange``,
``at(level)`` gives those of that remoteness in increasing order. A level before may have
brought one forward since (a quicker win or tie found by the levels): the caller drops the
indices whose record no longer says that level. Memory: 6 bytes a position held while the
first pass runs (its index, 4 bytes below 2**32 indices, 8 above, and its level, 2), then
the index alone.

After a kill, nothing here is saved: ``collect`` finds the same positions again in the
records of a resume point, as those decided (a win or a loss) at a remoteness the levels
have not reached and not pending, since every position the levels decide is pending until
its level is followed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import kernel

U16 = Any
U8 = Any

_WIN, _LOSS = 1, 2
_SCAN = 1 << 22
"""Records read at once by ``collect``."""


class LaterLevels:
    """The positions held for later levels of one tier of ``size`` indices, whose records
    hold a remoteness of at most ``levels``."""

    def __init__(self, size: int, levels: int) -> None:
        self.index_type = np.dtype(np.uint32 if size <= 1 << 32 else np.int64)
        self.counts = np.zeros(levels + 1, dtype=np.int64)
        self._indices: list[Any] = []  # pieces as held, with their levels beside
        self._levels: list[Any] = []
        self._arranged = np.zeros(0, dtype=self.index_type)
        self._starts = np.zeros(levels + 2, dtype=np.int64)

    def hold(self, rows: I64, records: U16, shift: int, least: int) -> Any:
        """Keep the wins and losses among ``records`` (at ``rows``) of remoteness ``least``
        or more; returns a mask of the rows not kept."""
        kept = np.empty(rows.shape[0], dtype=self.index_type)
        levels = np.empty(rows.shape[0], dtype=np.uint16)
        rest = np.empty(rows.shape[0], dtype=np.bool_)
        n = _hold(rows, records, shift, least, self.counts, kept, levels, rest)
        if n:
            self._indices.append(kept[:n].copy())
            self._levels.append(levels[:n].copy())
        return rest

    def collect(self, flat: U16, shift: int, pending: U8, stop: int, least: int) -> None:
        """Hold again, after a resume point, the positions of rows below ``stop`` that the
        first pass held: decided at remoteness ``least`` or more, and not pending."""
        for start in range(0, stop, _SCAN):
            block = np.asarray(flat[start : min(start + _SCAN, stop)])
            bits = np.unpackbits(pending[start >> 3 : (start + block.shape[0] + 7) >> 3],
                                 bitorder="little")[: block.shape[0]]  # fmt: skip
            rows = np.flatnonzero(bits == 0)
            self.hold(start + rows, block[rows], shift, least)

    def arrange(self) -> None:
        """Order what was held by level (the pieces freed as they are placed)."""
        self._starts[1:] = np.cumsum(self.counts)
        self._arranged = np.empty(int(self._starts[-1]), dtype=self.index_type)
        cursor = self._starts[:-1].copy()
        indices, levels = self._indices, self._levels
        self._indices, self._levels = [], []
        for i in range(len(indices)):
            _place(indices[i], levels[i], cursor, self._arranged)
            indices[i] = levels[i] = None

    def at(self, level: int) -> Any:
        """The indices held for ``level``, in increasing order (after ``arrange``)."""
        if level + 1 >= self._starts.shape[0]:
            return self._arranged[:0]
        return self._arranged[self._starts[level] : self._starts[level + 1]]


@kernel
def _hold(
    rows: I64,
    records: U16,
    shift: int,
    least: int,
    counts: I64,
    kept: Any,
    levels: Any,
    rest: Any,
) -> int:
    """Copy the rows of wins and losses of remoteness ``least`` or more, and their
    levels, into ``kept`` and ``levels``, counting them by level; ``rest`` is true at the
    others. Returns how many were kept."""
    mask = (1 << shift) - 1
    n = 0
    for i in range(rows.shape[0]):
        record = records[i]
        value = record >> shift
        level = record & mask
        if value in (_WIN, _LOSS) and level >= least:
            kept[n] = rows[i]
            levels[n] = level
            counts[level] += 1
            n += 1
            rest[i] = False
        else:
            rest[i] = True
    return n


@kernel
def _place(indices: Any, levels: Any, cursor: I64, arranged: Any) -> None:
    """Each index at the next place of its level (``cursor``, moved on)."""
    for i in range(indices.shape[0]):
        level = levels[i]
        arranged[cursor[level]] = indices[i]
        cursor[level] += 1


@kernel
def still_at(flat: U16, indices: Any, shift: int, level: int) -> I64:
    """Those of ``indices`` whose record is still a win or a loss at ``level``."""
    mask = (1 << shift) - 1
    out = np.empty(indices.shape[0], dtype=np.int64)
    n = 0
    for i in range(indices.shape[0]):
        record = flat[indices[i]]
        value = record >> shift
        if value in (_WIN, _LOSS) and (record & mask) == level:
            out[n] = indices[i]
            n += 1
    return out[:n]
