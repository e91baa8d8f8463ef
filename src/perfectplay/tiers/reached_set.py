"""A tier's reached positions as a set of bits, and a numbering of them alone (slots).

For a tier of which play reaches a small part (Dobutsu shogi: 246.8 million of 855 million
indices), records of every index cost memory that nothing uses. Here a loopy tier is marked
in two bit sets (``reached``, and ``fresh``: reached, its moves not followed yet), an
eighth of a byte an index each, and solved in records of the reached positions only: the
slot of a reached index is how many reached indices lie below it.

Bits: index i is bit i & 63 of 64-bit word i >> 6 (little-endian words, so byte i >> 3
holds bit i & 7 of it). ``ReachedSet.below[b]`` counts the reached indices under 512 b
(a block of 8 words), so an index's slot is one table read and at most 8 words' counts of
bits, and the index of a slot is found by walking the blocks forward from the previous
one (callers ask for slots in ascending order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import inlined_kernel, kernel, read_only
from ..errors import GameError

U8 = Any
U64 = Any

BLOCK_WORDS = 8
"""Words (of 64 indices) per entry of ``below``: 13 MB of table for Dobutsu's 855 million.
The kernels read it as a shift of 3 (``BLOCK_SHIFT``)."""
BLOCK_SHIFT = 3
assert 1 << BLOCK_SHIFT == BLOCK_WORDS
NONE = -1
"""The slot of an index that is not reached."""


@inlined_kernel
def _ones(word: Any) -> int:
    """How many bits of a 64-bit word are set: the adds of bit fields that LLVM compiles to
    one popcnt instruction (0.29 ns a word against 1.7 for four reads of a 16-bit table,
    2026-11-27)."""
    x = word - ((word >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel
def _blocks_below(words: U64, below: U64) -> None:
    """below[b] = the set bits of words[0 : 8 b], for every block b (and one past them)."""
    total = 0
    for b in range(below.shape[0]):
        below[b] = total
        first = b << BLOCK_SHIFT
        for w in range(first, min(first + BLOCK_WORDS, words.shape[0])):
            total += _ones(words[w])


@kernel
def slots_of(words: U64, below: U64, indices: I64) -> I64:
    """The slot of each index, NONE where it is not reached."""
    out = np.empty(indices.shape[0], dtype=np.int64)
    for k in range(indices.shape[0]):
        i = indices[k]
        w = i >> 6
        word = words[w]
        bit = np.uint64(i & 63)
        if not (word >> bit) & np.uint64(1):
            out[k] = NONE
            continue
        slot = int(below[w >> BLOCK_SHIFT])
        for v in range((w >> BLOCK_SHIFT) << BLOCK_SHIFT, w):
            slot += _ones(words[v])
        slot += _ones(word & ((np.uint64(1) << bit) - np.uint64(1)))
        out[k] = slot
    return out


@kernel
def indices_of(words: U64, below: U64, slots: I64) -> I64:
    """The index of each slot (``slots`` ascending, each below the number reached)."""
    out = np.empty(slots.shape[0], dtype=np.int64)
    if slots.shape[0] == 0:
        return out
    lo, hi = 0, below.shape[0] - 1  # the last block whose count below is <= the first slot
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if below[mid] <= slots[0]:
            lo = mid
        else:
            hi = mid - 1
    b = lo
    for k in range(slots.shape[0]):
        s = slots[k]
        while b + 1 < below.shape[0] and below[b + 1] <= s:
            b += 1
        left = s - int(below[b])
        w = b << BLOCK_SHIFT
        while True:
            here = _ones(words[w])
            if left < here:
                break
            left -= here
            w += 1
        word = words[w]
        for _ in range(left):  # the lower set bits cleared, then the lowest left
            word &= word - np.uint64(1)
        low = word & (~word + np.uint64(1))
        out[k] = (w << 6) + _ones(low - np.uint64(1))
    return out


@kernel
def set_indices(words: U64, start: int, stop: int) -> I64:
    """The indices in [start, stop) whose bits are set, ascending (start a multiple of 64)."""
    count = 0
    for w in range(start >> 6, (stop + 63) >> 6):
        count += _ones(words[w])
    out = np.empty(count, dtype=np.int64)
    n = 0
    for w in range(start >> 6, (stop + 63) >> 6):
        word = words[w]
        while word:
            low = word & (~word + np.uint64(1))  # the lowest bit set
            bit = _ones(low - np.uint64(1))
            i = (w << 6) + bit
            if i < stop:
                out[n] = i
                n += 1
            word ^= low
    return out[:n]


@kernel
def add_reached(
    reached: U8, fresh: U8, found: I64, ends: Any, followed: I64, new_ended: I64
) -> tuple[int, int]:
    """Mark ``found`` (indices reached by a move) reached and fresh where they were not
    reached, but for those ``ends`` (one per index of ``found``, 0 goes on; empty: none
    known) says end: reached, not fresh (no moves to follow), their rows of ``found``
    written to ``new_ended``; then ``followed`` (positions whose moves are now marked) no
    longer fresh. Returns (how many were new, how many of those end). Bytes, so one
    thread writes them (bit by bit, no races)."""
    new = ended = 0
    known = ends.shape[0] > 0
    for row in range(found.shape[0]):
        i = found[row]
        byte, bit = i >> 3, np.uint8(1 << (i & 7))
        if not reached[byte] & bit:
            reached[byte] |= bit
            new += 1
            if known and ends[row] != 0:
                new_ended[ended] = row
                ended += 1
            else:
                fresh[byte] |= bit
    for i in followed:
        fresh[i >> 3] &= ~np.uint8(1 << (i & 7))
    return new, ended


class ReachedSet:
    """The reached indices of a tier (a word array of bits, ``words``) and their slots."""

    def __init__(self, words: U64) -> None:
        self.words = read_only(words)  # one signature a kernel, mapped or not
        blocks = -(-words.shape[0] // BLOCK_WORDS)
        self.below = np.zeros(blocks + 1, dtype=np.uint64)
        _blocks_below(self.words, self.below)
        self.count = int(self.below[-1])
        """How many indices are reached (the number of slots)."""

    def slots(self, indices: I64) -> I64:
        """The slot of each index, NONE where it is not reached."""
        return slots_of(self.words, self.below, np.asarray(indices, dtype=np.int64))

    def indices(self, slots: I64) -> I64:
        """The index of each slot; ``slots`` ascending."""
        return indices_of(self.words, self.below, np.asarray(slots, dtype=np.int64))

    def first_slot(self, index: int) -> int:
        """How many reached indices lie below ``index`` (a multiple of 64)."""
        block, word = divmod(index >> 6, BLOCK_WORDS)
        first = block * BLOCK_WORDS
        held = np.asarray(self.words[first : first + word]).view(np.uint8)
        return int(self.below[block]) + int(np.unpackbits(held).sum())

    def windows(self, size: int, window: int) -> Any:
        """(start, stop, indices, first slot) of each window of ``window`` indices (a
        multiple of 64) of [0, size) that holds a reached index: its reached indices,
        ascending, and the slot of the first of them (the others follow it)."""
        for start in range(0, size, window):
            stop = min(start + window, size)
            here = set_indices(self.words, start, stop)
            if here.shape[0]:
                yield start, stop, here, self.first_slot(start)


class FreshMarks:
    """A loopy tier being marked in bit sets (byte arrays of whole words, ``reached`` and
    ``fresh``): the fresh positions a window at a time, and the children found added."""

    def __init__(self, reached: U8, fresh: U8, size: int) -> None:
        self.reached, self.fresh, self.size = reached, fresh, size
        self.found = 0
        """How many fresh positions the last pass over ``batches`` handed out."""

    def batches(self, window: int, chunk: int) -> Any:
        """The fresh indices, ``chunk`` at most at once, each window of ``window`` indices
        read as it is reached (positions found fresh in a window already read wait for the
        next pass); counts them in ``found``."""
        self.found = 0
        words = read_only(self.fresh.view(np.uint64))
        for start in range(0, self.size, window):
            rows = set_indices(words, start, min(start + window, self.size))
            self.found += rows.shape[0]
            for piece in range(0, rows.shape[0], chunk):
                yield rows[piece : piece + chunk]

    def add(self, found: I64, followed: I64, ends: Any = None) -> I64:
        """``found`` reached (fresh where new), then ``followed`` no longer fresh; an index
        outside the tier is the game's ranking at fault (the kernel reads no bounds). With
        the ``ends`` of ``found`` (0 goes on), those that end are not made fresh: the rows
        of ``found`` of the new ones that end are returned (their first records are their
        ends: Dobutsu shogi's 146 million ends of 247 million positions are never unranked
        and judged); else none."""
        found = np.asarray(found, dtype=np.int64)
        if found.size and (int(found.min()) < 0 or int(found.max()) >= self.size):
            bad = int(found[(found < 0) | (found >= self.size)][0])
            raise GameError(f"a move was ranked {bad}, outside its tier of {self.size:,} indices")
        known = np.zeros(0, dtype=np.int8) if ends is None else np.asarray(ends, dtype=np.int8)
        new_ended = np.empty(known.shape[0], dtype=np.int64)
        _, ended = add_reached(self.reached, self.fresh, found, known,
                               np.asarray(followed, dtype=np.int64), new_ended)  # fmt: skip
        return new_ended[:ended]
