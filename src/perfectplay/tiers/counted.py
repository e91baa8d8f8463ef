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
from .graph import Chunk, TierGraph

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


def first_records_of(graph: TierGraph, tier: int, chunk: Chunk, shift: int) -> Any:
    """``first_records`` of a chunk expanded with its children's ends, each child position
    counted once, however many moves lead to it (its un-moves tell a parent once)."""
    assert chunk.child_end is not None  # (expanded with_ends: the caller checks)
    once = first_of_each(chunk.parents, child_keys(graph, tier, chunk))
    return first_records(chunk.outcome, chunk.open_rows, chunk.parents[once],
                         chunk.child_end[once], shift, graph.rules.name)  # fmt: skip


def child_keys(graph: TierGraph, tier: int, chunk: Any) -> Any:
    """One int64 a child: its index, then its tier's place among the tier's children."""
    tiers = np.array(sorted({tier, *graph.children[tier]}), dtype=np.int64)
    index = np.asarray(chunk.child_index, dtype=np.int64)
    return index * tiers.shape[0] + np.searchsorted(tiers, chunk.child_tier)


def first_of_each(blocks: Any, key: Any) -> Any:
    """A mask of the rows whose (block, key) came in no earlier row. Rows come in blocks of
    equal ``blocks`` (a parent's moves, a child's un-moves), compared within their block
    by a kernel; rows not in blocks are sorted instead (a lexsort of three columns took
    half of a Morris database's solve, 16 of 35 s, 2026-11-28)."""
    blocks = np.asarray(blocks, dtype=np.int64)
    key = np.asarray(key, dtype=np.int64)
    size = int(blocks.shape[0])
    if size == 0:
        return np.zeros(0, dtype=bool)
    if size > 1 and bool((blocks[1:] < blocks[:-1]).any()):
        return _first_sorted(blocks, key)
    mask = np.ones(size, dtype=bool)
    first_in_block.run(size, blocks, key, mask)
    return mask


def _first_sorted(*columns: Any) -> Any:
    """first_of_each for rows in any order: a stable sort by all columns."""
    size = int(np.asarray(columns[0]).shape[0])
    if size == 0:
        return np.zeros(0, dtype=bool)
    order = np.lexsort(tuple(np.asarray(c) for c in reversed(columns)))
    differs = np.zeros(size - 1, dtype=bool)
    for column in columns:
        ordered = np.asarray(column)[order]
        differs |= ordered[1:] != ordered[:-1]
    mask = np.zeros(size, dtype=bool)
    mask[order[np.concatenate(([True], differs))]] = True
    return mask


TABLE_SLOTS = 1 << 12
"""Slots of ``first_in_block``'s hash table: blocks of up to half as many rows use it."""


@kernel
def first_in_block(blocks: Any, key: Any, mask: Any) -> None:
    """Clear ``mask`` at each row whose key came earlier in its block (runs of equal
    ``blocks``): a block is a position's moves. A row compares itself with the earlier
    ones only where a 128-bit filter of their keys' hashes says it may repeat one (every
    pair compared took 2.2 s of a 22 s Morris solve); blocks past 32 rows go through a
    small hash table (a side with three stones jumping has 40 moves and more: sorting each
    such block took a fifth of Nine Men's Morris' 9-3 sector), the longest ones are
    sorted."""
    size = blocks.shape[0]
    slot_key = np.zeros(TABLE_SLOTS, dtype=np.int64)
    slot_block = np.full(TABLE_SLOTS, -1, dtype=np.int64)  # which block wrote the slot
    begin = 0
    while begin < size:
        end = begin + 1
        while end < size and blocks[end] == blocks[begin]:
            end += 1
        if end - begin <= 32:
            low = np.uint64(0)
            high = np.uint64(0)
            for i in range(begin, end):
                hashed = (np.uint64(key[i]) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(57)
                bit = np.uint64(1) << (hashed & np.uint64(63))
                word = low if hashed < 64 else high
                if word & bit:
                    for j in range(begin, i):
                        if key[j] == key[i]:
                            mask[i] = False
                            break
                if hashed < 64:
                    low |= bit
                else:
                    high |= bit
        elif 2 * (end - begin) <= TABLE_SLOTS:
            for i in range(begin, end):
                hashed = (np.uint64(key[i]) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
                slot = np.int64(hashed) & (TABLE_SLOTS - 1)
                while slot_block[slot] == begin and slot_key[slot] != key[i]:
                    slot = (slot + 1) & (TABLE_SLOTS - 1)
                if slot_block[slot] == begin:  # the key came earlier in the block
                    mask[i] = False
                else:
                    slot_block[slot] = begin
                    slot_key[slot] = key[i]
        else:
            order = np.argsort(key[begin:end], kind="mergesort")  # stable: earliest first
            for i in range(1, end - begin):
                if key[begin + order[i]] == key[begin + order[i - 1]]:
                    mask[begin + order[i]] = False
        begin = end
