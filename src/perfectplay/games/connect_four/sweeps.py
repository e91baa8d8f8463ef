"""Connect Four's tier sweeps: a window of a tier marked, or solved, in one pass by index.

The tier solver's records of a tier are indexed by ``ranking``'s ranks. A sweep walks a
window of them index by index without unranking each: indices run through one column
filling at a time (its first index unranked by ``_enter_group``), the next colourings
follow by ``_next_word``, and each child's index is the parent's plus terms read from
``SweepTables`` per column (``_read_columns``). ``mark_sweep`` records the ends and marks the
children reached; ``solve_sweep`` gives each position that goes on the best of its
children's records. Boards of at most SWEEP_ROWS rows.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.compiled import inlined_kernel, kernel
from .board import Codes, line_ends
from .kernels import LOSS, TIE
from .ranking import Tables, unranked


class SweepTables(NamedTuple):
    """The tables of the tier sweeps (``mark_sweep``, ``solve_sweep``), for boards of at
    most SWEEP_ROWS rows."""

    terms: Any
    """terms[((new * (cells + 1) + p) * (cells + 2) + m) * patterns + pattern], flat (the
    kernels index flat arrays fastest): what the X discs of one column add to a child's
    colour rank beyond the parent's when a disc goes in below them (see ``mark_sweep``):
    over its set bits j (the r-th, from 0), C(p + j, m + r + 2) if the new disc is X (new
    = 1), else C(p + j, m + r); p is the column's first bit in the word, m the X discs
    below it."""
    choose: Any
    """choose[n * (cells + 2) + k] = C(n, k), flat."""
    ones: Any
    """ones[pattern]: the set bits of a column's pattern."""
    debruijn: Any
    """The trailing zeros of a power of two below 2**32 by its de Bruijn product."""


SWEEP_ROWS = 8
"""Boards of more rows decline the sweeps (their terms table would hold 2**rows patterns)."""

_DEBRUIJN = 0x077CB531


def sweep_tables(cells: int, height: int, binom: Codes) -> SweepTables:
    """``SweepTables`` of a board of ``cells`` cells and ``height`` rows."""
    patterns = np.arange(1 << height, dtype=np.int64)
    ones = np.zeros_like(patterns)
    terms = np.zeros((2, cells + 1, cells + 2, patterns.size), dtype=np.int64)
    p = np.arange(cells + 1, dtype=np.int64)[:, None, None]
    m = np.arange(cells + 2, dtype=np.int64)[None, :, None]
    for j in range(height):
        on = (patterns >> j) & 1 == 1
        for new, lift in ((0, 0), (1, 2)):
            bit_p = np.minimum(p + j, binom.shape[0] - 1)
            taken = binom[bit_p, np.minimum(m + ones + lift, binom.shape[1] - 1)]
            taken = np.where(p + j <= cells, taken, 0)
            terms[new] += np.where(on, taken, 0)
        ones += on
    debruijn = np.zeros(32, dtype=np.int64)
    for z in range(32):
        debruijn[(((1 << z) * _DEBRUIJN) & 0xFFFFFFFF) >> 27] = z
    return SweepTables(terms.reshape(-1), binom.reshape(-1), ones, debruijn)


@inlined_kernel
def _next_word(word: int, debruijn: Codes) -> int:
    """The next larger word with as many set bits (the next colouring in colex order)."""
    low = word & -word
    ripple = word + low
    zeros = 0
    if low >> 32 != 0:
        low >>= 32
        zeros = 32
    zeros += int(debruijn[((low * _DEBRUIJN) & 0xFFFFFFFF) >> 27])
    return ripple | (((ripple ^ word) >> 2) >> zeros)


class Group(NamedTuple):
    """Scratch arrays of a sweep, one entry per column (``_enter_group``, ``_read_columns``)."""

    counts: Any
    """Discs of each column."""
    first: Any
    """The column's first bit in the word of X discs."""
    low: Any
    """2**discs - 1: the column's bits once shifted down by ``first``."""
    base: Any
    """The index in the child tier of the move into the column, less the parent's colour
    rank and less the child's colour terms (0 when the column is full)."""
    at: Any
    """The new disc's place in the child's word."""
    room: Any
    """1 when the column has room."""
    later: Any
    """Scratch: the heights rank's terms of the columns right of each (width + 1)."""
    term: Any
    """Per position: the column's ``terms``."""
    x_below: Any
    """Per position: the X discs in the columns up to this one."""


@inlined_kernel
def _group(width: int) -> Group:
    """Fresh scratch arrays for a sweep."""
    n = width + 1
    return Group(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                 np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                 np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                 np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                 np.zeros(n, dtype=np.int64))  # fmt: skip


@inlined_kernel
def _enter_group(index: int, tier: int, height: int, t: Tables, g: Group) -> tuple[int, int, int]:
    """Unrank the first index of a sweep's column filling and read what the filling
    decides into ``g``; returns (the filling's first index, its disc mask, the word of X
    discs at ``index``)."""
    width, before, binom = t.width, t.before, t.binom
    colourings = binom[tier][(tier + 1) // 2]
    child = tier + 1
    last = tier == width * height  # a full board: no child tier, no room
    child_colourings = 0 if last else binom[child][(child + 1) // 2]
    group = index // colourings * colourings
    _, mask, word = unranked(index, tier, colourings, g.counts[:0], t, g.counts)
    left = 0
    g.later[width] = 0
    for d in range(width - 1, -1, -1):
        g.later[d] = g.later[d + 1] + before[d][left + g.counts[d]][g.counts[d]]
        left += g.counts[d]
    below, earlier = 0, 0
    for c in range(width):
        k = g.counts[c]
        g.first[c] = below
        g.low[c] = (1 << k) - 1
        g.at[c] = below + k
        g.room[c] = 1 if k < height else 0
        if not last:
            if k < height:
                heights = earlier + before[c][child - below][k + 1] + g.later[c + 1]
                g.base[c] = heights * child_colourings - group
            earlier += before[c][child - below][k]
        below += k
    return group, mask, word


@inlined_kernel
def _read_columns(
    word: int, width: int, stride: int, terms: Any, at: int, rows: int, ones: Any,
    first: Any, low: Any, term: Any, x_below: Any,
) -> int:  # fmt: skip
    """Each column's ``terms`` (this tier's half starts at ``at``, ``rows`` X counts of
    ``len(ones)`` patterns for each first bit) into ``term`` and the X discs up to it into
    ``x_below``; returns the X discs as a bitboard. Takes a ``Group``'s arrays one by one:
    a whole tuple of arrays passed per position costs reference counting per array."""
    total, x_discs = 0, 0
    patterns = len(ones)
    for c in range(width):
        pattern = (word >> first[c]) & low[c]
        x_discs |= pattern << (c * stride)
        term[c] = terms[at + (first[c] * rows + total) * patterns + pattern]
        total += ones[pattern]
        x_below[c] = total
    return x_discs


@kernel
def mark_sweep(
    tier: int,
    start: int,
    records: Any,
    child_records: Any,
    height: int,
    connect: int,
    t: Tables,
    s: SweepTables,
    codes: Any,
) -> int:
    """The marking sweep over indices start.. of a tier (records[i] for index start + i):
    each position whose record is codes.reached (see ``records.SweepCodes``) and has ended
    gets its record, the children of one that goes on are marked reached in
    ``child_records``. Returns the positions visited.

    Indices run through one column filling at a time: its first index is unranked
    (``_enter_group``), the next colourings follow by ``_next_word``. A child's colour rank
    is the parent's plus, for an X disc, C(at, X discs below it + 1), plus ``terms`` of the
    columns right of the move (their discs one place higher in the word, and one more X
    disc below them when the new one is X)."""
    width, stride, binom, choose = t.width, t.stride, t.binom, s.choose
    new = 1 - tier % 2
    terms, ones, debruijn = s.terms, s.ones, s.debruijn
    row = width * (stride - 1) + 2  # cells + 2: the X counts of ``terms``, C's row length
    half = new * (row - 1) * row * len(ones)  # where this tier's half of ``terms`` starts
    full = tier == width * height
    just_moved_x = tier % 2 == 1
    reached, ended = codes.reached, codes.ended
    g = _group(width)
    first, low, base, place, room, term, x_below = (
        g.first, g.low, g.base, g.at, g.room, g.term, g.x_below
    )  # fmt: skip
    visited = 0
    index, stop = start, start + len(records)
    colourings = binom[tier][(tier + 1) // 2]
    while index < stop:
        group, mask, word = _enter_group(index, tier, height, t, g)
        end = min(stop, group + colourings)
        for i in range(index - start, end - start):
            if records[i] == reached:
                visited += 1
                x_discs = _read_columns(word, width, stride, terms, half, row, ones, first, low,
                                        term, x_below)  # fmt: skip
                if line_ends(x_discs if just_moved_x else mask ^ x_discs, stride, connect) != 0:
                    records[i] = ended[LOSS]
                elif full:
                    records[i] = ended[TIE]
                else:
                    rank = start + i  # plus the terms of the columns right of c
                    for c in range(width - 1, -1, -1):
                        if room[c]:
                            kid = base[c] + rank
                            if new:
                                kid += choose[place[c] * row + x_below[c] + 1]
                            child_records[kid] = reached
                        rank += term[c]
            word = _next_word(word, debruijn)
        index = end
    return visited


@kernel
def solve_sweep(
    tier: int,
    start: int,
    records: Any,
    child_records: Any,
    height: int,
    t: Tables,
    s: SweepTables,
    codes: Any,
) -> int:
    """The solving sweep, after ``mark_sweep``: each position whose record is still
    codes.reached (it goes on) gets codes.record_of[best + 1], best the largest
    codes.worth of its children's records. Returns the positions solved, or the negative
    record_of code of the first that fails. Indices run as in ``mark_sweep``."""
    width, stride, binom, choose = t.width, t.stride, t.binom, s.choose
    new = 1 - tier % 2
    terms, ones, debruijn = s.terms, s.ones, s.debruijn
    row = width * (stride - 1) + 2
    half = new * (row - 1) * row * len(ones)
    reached, worth, record_of = codes.reached, codes.worth, codes.record_of
    g = _group(width)
    first, low, base, place, room, term, x_below = (
        g.first, g.low, g.base, g.at, g.room, g.term, g.x_below
    )  # fmt: skip
    solved = 0
    index, stop = start, start + len(records)
    colourings = binom[tier][(tier + 1) // 2]
    while index < stop:
        group, _, word = _enter_group(index, tier, height, t, g)
        end = min(stop, group + colourings)
        for i in range(index - start, end - start):
            if records[i] == reached:
                _read_columns(word, width, stride, terms, half, row, ones, first, low, term,
                              x_below)  # fmt: skip
                best, rank = -1, start + i
                for c in range(width - 1, -1, -1):
                    if room[c]:
                        kid = base[c] + rank
                        if new:
                            kid += choose[place[c] * row + x_below[c] + 1]
                        best = max(best, worth[child_records[kid]])
                    rank += term[c]
                record = record_of[best + 1]
                if record < 0:
                    return int(record)
                records[i] = record
                solved += 1
            word = _next_word(word, debruijn)
        index = end
    return solved
