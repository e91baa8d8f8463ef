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

File: rows of a little-endian index (4 bytes, 8 for a tier of 2**32 indices or more) and
a 2-byte record (as the tier's records: value code above ``shift``, remoteness or counter
below), no header. It is whole when its row count is the one the progress notes with the
marking; anything else and the solve counts the moves in a pass of its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GameError
from ..spaces.graph import I64
from ..values import UNDECIDED
from .records import REACHED

_WIN, _LOSS = 1, 2
PIECE = 1 << 20
"""Rows read at once when the file is scattered (6 MB)."""


def row_type(size: int) -> np.dtype[Any]:
    """The rows of the file of a tier of ``size`` indices."""
    index = "<u4" if size < 1 << 32 else "<u8"
    return np.dtype([("index", index), ("record", "<u2")])


def first_records(
    outcome: Any, open_rows: I64, parents: I64, ends: Any, shift: int, name: str
) -> Any:
    """Each position's first record (uint16) from its end (``outcome``, 0 goes on) and,
    for those that go on (``open_rows``), their moves' ``parents`` (rows of ``open_rows``)
    and the children's ends: an end at remoteness 0; no move: lost at once; a move to a
    lost end: won at 1; every move to a won end: lost at 1; else open (``REACHED``) with
    the number of moves not leading to a won end."""
    limit = (1 << shift) - 1
    width = outcome.shape[0]
    moves = np.zeros(width, dtype=np.int64)
    wins = np.zeros(width, dtype=np.bool_)
    losing = np.zeros(width, dtype=np.int64)
    if open_rows.size:
        count = open_rows.shape[0]
        moves[open_rows] = np.bincount(parents, minlength=count)
        wins[open_rows] = np.bincount(parents[ends == _LOSS], minlength=count) > 0
        losing[open_rows] = np.bincount(parents[ends == _WIN], minlength=count)
    if moves.max(initial=0) > limit:
        raise GameError(f"{name}: a position with more than {limit} moves")
    ended = outcome != UNDECIDED
    left = moves - losing
    record = np.where(ended, outcome.astype(np.int64) << shift, (REACHED << shift) | left)
    record[~ended & (left == 0)] = (_LOSS << shift) | 1  # every move ends lost
    record[~ended & wins] = (_WIN << shift) | 1
    record[~ended & (moves == 0)] = _LOSS << shift  # no move and no end: lost at once
    return record.astype(np.uint16)


class CountedWriter:
    """The file of first records of a tier being marked, written from the start (a
    marking taken up again follows every reached position again)."""

    def __init__(self, path: Path, size: int) -> None:
        self.path, self.rows, self.whole = path, 0, True
        self._type = row_type(size)
        self._handle: Any = path.open("wb")

    def write(self, indices: I64, records: Any) -> None:
        """Append the first records of a chunk's positions."""
        if not self.whole:
            return
        rows = np.empty(indices.shape[0], dtype=self._type)
        rows["index"], rows["record"] = indices, records
        self._handle.write(rows.tobytes())
        self.rows += indices.shape[0]

    def give_up(self) -> None:
        """A chunk came without its children's ends: the file is dropped, the solve counts."""
        self.whole = False
        self.close()
        self.path.unlink(missing_ok=True)

    def finish(self) -> int | None:
        """Flush the file to disk; the rows written, or None when it was given up."""
        if not self.whole:
            return None
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.close()
        return self.rows

    def close(self) -> None:
        """Close the file (an interrupted marking leaves it to be written again)."""
        if not self._handle.closed:
            self._handle.close()


def counted_pieces(path: Path, size: int, rows: int) -> Any:
    """The file's (indices, records), PIECE rows at a time, read through the file (a
    mapping would leave its pages in this process); None when it is not whole (gone, or
    not ``rows`` rows long)."""
    kind = row_type(size)
    if not path.is_file() or path.stat().st_size != rows * kind.itemsize:
        return None

    def pieces() -> Any:
        with path.open("rb") as handle:
            for start in range(0, rows, PIECE):
                piece = np.fromfile(handle, dtype=kind, count=min(PIECE, rows - start))
                yield piece["index"].astype(np.int64), piece["record"]

    return pieces()
