"""The first records of a loopy tier alone in its game, counted while it is marked.

The counters solver (``retrograde_in_records``) starts from a record per reached position:
its end, a loss without moves, a win by a move to a lost end, or the number of its moves
not leading to a won end. Those need each position's moves and their children's ends,
which the marking in bits (``graph.in_bits``) has in hand as it follows each reached
position once: where the game gives the children's ends with their ranks
(``batch_ranked_children``), the marking writes each position's first record beside its
index in a file (``tier-T.counted``), in the order it follows them, and the solve scatters
them into the slots of the reached positions once the marking is done, instead of
unranking and expanding every reached position again (Dobutsu shogi: about 35 s of a
two-minute solve, 2026-11-27).

Files: the indices (``tier-T.counted-at``: little-endian, 4 bytes each, 8 for a tier of
2**32 indices or more) and beside them the 2-byte records (``tier-T.counted``: value code
above ``shift``, remoteness or counter below), no header. They are whole when both hold
the row count the progress notes with the marking; anything else and the solve counts
the moves in a pass of its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import kernel
from ..core.records import REACHED
from ..errors import GameError

_WIN, _LOSS = 1, 2
PIECE = 1 << 20
"""Rows read at once when the files are scattered (6 MB)."""


def index_type(size: int) -> np.dtype[Any]:
    """The indices of the files of a tier of ``size`` indices."""
    return np.dtype("<u4" if size < 1 << 32 else "<u8")


def counter_mask(shift: int) -> int:
    """The bits of an open record (value code 7) that count its moves not yet known to
    lose; the two above them flag children in other tiers that lose or tie for the mover
    (``retrograde_in_records``): 2,047 moves at most in 2-byte records."""
    return (1 << (shift - 2)) - 1


def first_records(
    outcome: Any, open_rows: I64, parents: I64, ends: Any, shift: int, name: str
) -> Any:
    """Each position's first record (uint16) from its end (``outcome``, 0 goes on) and,
    for those that go on (``open_rows``), their moves' ``parents`` (rows of ``open_rows``)
    and the children's ends: an end at remoteness 0; no move: lost at once; a move to a
    lost end: won at 1; every move to a won end: lost at 1; else open (``REACHED``) with
    the number of moves not leading to a won end."""
    records = np.empty(outcome.shape[0], dtype=np.uint16)
    most = _first_records(np.asarray(outcome, dtype=np.int8), np.asarray(open_rows, np.int64),
                          np.asarray(parents, np.int64), np.asarray(ends, dtype=np.int8), shift,
                          records)  # fmt: skip
    if most > counter_mask(shift):
        raise GameError(f"{name}: a position with more than {counter_mask(shift)} moves")
    return records


@kernel
def _first_records(
    outcome: Any, open_rows: I64, parents: I64, ends: Any, shift: int, records: Any
) -> int:
    """``first_records`` into ``records``, in one pass over the moves and one over the
    positions (the same in numpy passes took 1.2 ms a chunk of 65,536 Dobutsu positions,
    2026-11-27); returns the most moves of a position."""
    width = open_rows.shape[0]
    moves = np.zeros(width, dtype=np.int64)
    losing = np.zeros(width, dtype=np.int64)  # moves to won ends
    wins = np.zeros(width, dtype=np.uint8)  # a move to a lost end
    for m in range(parents.shape[0]):
        row = parents[m]
        moves[row] += 1
        if ends[m] == _WIN:
            losing[row] += 1
        elif ends[m] == _LOSS:
            wins[row] = 1
    for i in range(outcome.shape[0]):
        records[i] = int(outcome[i]) << shift  # an end at remoteness 0
    most = 0
    for row in range(width):
        count = moves[row]
        most = max(most, count)
        left = count - losing[row]
        if count == 0:
            record = _LOSS << shift  # no move and no end: lost at once
        elif wins[row]:
            record = (_WIN << shift) | 1
        elif left == 0:
            record = (_LOSS << shift) | 1  # every move ends lost
        else:
            record = (REACHED << shift) | left
        records[open_rows[row]] = record
    return most


class CountedWriter:
    """The files of first records of a tier being marked, written from the start (a
    marking taken up again follows every reached position again)."""

    def __init__(self, paths: tuple[Path, Path], size: int) -> None:
        self.paths, self.rows, self.whole = paths, 0, True
        self._type = index_type(size)
        self._handles: list[Any] = []
        try:
            for path in paths:
                self._handles.append(path.open("wb"))
        except OSError:
            self.give_up()

    def write(self, indices: I64, records: Any) -> None:
        """Append the first records of a chunk's positions (a disk that cannot take them,
        full or failing, gives them up: the solve counts)."""
        if not self.whole:
            return
        try:
            self._handles[0].write(np.ascontiguousarray(indices, dtype=self._type))
            self._handles[1].write(np.ascontiguousarray(records, dtype="<u2"))
        except OSError:
            self.give_up()
            return
        self.rows += indices.shape[0]

    def give_up(self) -> None:
        """No more first records (a chunk without its children's ends, a disk that cannot
        take them): the files go, the solve counts the moves in a pass of its own."""
        if not self.whole:
            return
        self.whole = False
        self.close()
        for path in self.paths:
            path.unlink(missing_ok=True)

    def finish(self) -> int | None:
        """Flush the files to disk; the rows written, or None when they were given up."""
        if not self.whole:
            return None
        try:
            for handle in self._handles:
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:
            self.give_up()
            return None
        self.close()
        return self.rows

    def close(self) -> None:
        """Close the files (an interrupted marking leaves them to be written again)."""
        for handle in self._handles:
            if not handle.closed:
                try:
                    handle.close()
                except OSError:  # (its last bytes not written: the files are given up)
                    self.whole = False


def counted_pieces(paths: tuple[Path, Path], size: int, rows: int) -> Any:
    """The files' (indices, records), PIECE rows at a time, read through the files (a
    mapping would leave its pages in this process); None when they are not whole (gone,
    or not ``rows`` rows long)."""
    kind = index_type(size)
    for path, width in zip(paths, (kind.itemsize, 2), strict=True):
        if not path.is_file() or path.stat().st_size != rows * width:
            return None

    def pieces() -> Any:
        with paths[0].open("rb") as at, paths[1].open("rb") as records:
            for start in range(0, rows, PIECE):
                count = min(PIECE, rows - start)
                indices = np.fromfile(at, dtype=kind, count=count).astype(np.int64)
                yield indices, np.fromfile(records, dtype="<u2", count=count)

    return pieces()
