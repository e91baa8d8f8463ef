"""Connect Four's tiers: the positions holding t discs, ranked densely (see ``DiscTiers``).

The tier hooks rank raw codes (``mover + mask``, see ``connect_four_board``), never mirrored
ones. They are kernels: loops over the codes one at a time, compiled for many codes and run
as plain Python over lists for a few (one probe of a tablebase).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..protocol import Kernel, SweepCodes, inlined_kernel, kernel
from .connect_four_board import Board, Codes
from .connect_four_kernels import has_line


def binomials(n: int) -> Codes:
    """binom[i, j] = C(i, j) for i, j in 0..n (0 when j > i); exact in int64 up to n = 66."""
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    binom[:, 0] = 1
    for i in range(1, n + 1):
        binom[i, 1:] = binom[i - 1, 1:] + binom[i - 1, :-1]
    return binom


HEIGHTS_LIMIT = 1 << 21
"""Boards with at most this many vectors of column heights keep the rank of each."""

_LOSS = 2
_TIE = 3
"""Outcome codes for the player to move (as ``values``), constants inside the kernels."""

TABLE_LIMIT = 1 << 20
"""Tiers with at most this many column fillings keep a table of their masks for unranking."""


class Tables(NamedTuple):
    """The tables of ``DiscTiers``, handed whole to its kernels: numpy arrays when these run
    compiled, nested lists when they run interpreted (plain Python indexes lists, and
    computes on their ints, several times faster than on numpy arrays and scalars)."""

    width: int
    stride: int
    held: Any
    """held[v]: the discs of a column with code v < 2**16, the top bit of v + 1."""
    xs: Any
    """xs[t % 2][v]: its X discs in tier t: v - filled, xor filled when O is to move."""
    before: Any
    binom: Any
    """binom[n][k] = C(n, k)."""
    colex: Any
    bits: Any
    """bits[b]: the set bits of a byte."""
    low: Any
    """low[low_start[n] + r]: the word of 16 bits (or cells) with n set and colex rank r."""
    low_start: Any


@kernel
def _count_discs(codes: Codes, t: Tables, out: Codes) -> None:
    """out[i] = the number of discs of codes[i]."""
    width, stride, held, top = t.width, t.stride, t.held, len(t.held)
    column_bits = (1 << stride) - 1
    for i in range(len(codes)):
        code, discs = codes[i], 0
        for _ in range(width):
            column = code & column_bits
            code >>= stride
            if column < top:
                discs += held[column]
            else:  # a tall column: k discs where column + 1 has its top bit at k >= 16
                k = 16
                while (column + 1) >> (k + 1) != 0:
                    k += 1
                discs += k
        out[i] = discs


@kernel
def _rank(codes: Codes, tier: int, t: Tables, out: Codes) -> None:
    """out[i] = the index of codes[i] in tier ``tier`` (see DiscTiers), or -1."""
    width, stride, held, top, xs = t.width, t.stride, t.held, len(t.held), t.xs[tier % 2]
    before, colex, bits = t.before, t.colex, t.bits
    column_bits = (1 << stride) - 1
    x_count, flip = (tier + 1) // 2, -(tier % 2)  # flip: all ones where the mover is O
    colourings = t.binom[tier][x_count]
    for i in range(len(codes)):
        code = codes[i]
        out[i] = -1
        if code < 0 or code >> (width * stride) != 0:
            continue
        left, heights, x_word, position = tier, 0, 0, 0
        for c in range(width):
            column = code & column_bits
            code >>= stride
            if column < top:
                k, x = held[column], xs[column]
            else:  # a tall column, as in _count_discs
                k = 16
                while (column + 1) >> (k + 1) != 0:
                    k += 1
                x = (column + 1 - (1 << k)) ^ (((1 << k) - 1) & flip)
            if k > left or k == stride:  # too many discs, or one in the spare row
                left = -1
                break
            heights += before[c][left][k]
            left -= k
            x_word |= x << position
            position += k
        if left != 0:
            continue
        colour, seen = 0, 0
        for j in range((tier + 7) >> 3):
            byte = x_word & 255
            x_word >>= 8
            colour += colex[j][seen][byte]
            seen += bits[byte]
        if seen == x_count:
            out[i] = heights * colourings + colour


@kernel
def _unrank(indices: Codes, tier: int, masks: Codes, t: Tables, out: Codes) -> None:
    """out[i] = the code with index indices[i] in tier ``tier`` (see DiscTiers), or -1;
    masks[h], if not empty, is the disc mask of the column filling ranked h."""
    colourings = t.binom[tier][(tier + 1) // 2]
    size = t.before[0][tier][t.stride] * colourings
    counts = np.zeros(t.width, dtype=np.int64)
    for i in range(len(indices)):
        index = indices[i]
        out[i] = -1
        if 0 <= index < size:
            out[i] = _unranked(index, tier, colourings, masks, t, counts)[0]


@inlined_kernel
def _unranked(
    index: int, tier: int, colourings: int, masks: Codes, t: Tables, counts: Codes
) -> tuple[int, int, int]:
    """The position of index ``index`` (within range) of tier ``tier`` whose discs have
    ``colourings`` colourings: (code, disc mask, word of X discs), and counts[c] set to the
    discs of column c. ``masks`` as in ``_unrank``."""
    width, stride, held, before, binom = t.width, t.stride, t.held, t.before, t.binom
    low, low_start, column_bits = t.low, t.low_start, (1 << stride) - 1
    flip = -(tier % 2)  # all ones where the mover is O
    heights = index // colourings
    colour = index - heights * colourings
    # Disc p is X when the colour rank left reaches C(p, X discs left), from the top down
    # to disc 16; the rank left then picks the word of the lowest 16 from ``low``.
    x_word, x_left = 0, (tier + 1) // 2
    for p in range(tier - 1, len(low_start) - 2, -1):
        below = binom[p][x_left]
        if colour >= below:
            colour -= below
            x_left -= 1
            x_word |= 1 << p
    x_word |= low[low_start[x_left] + colour]
    listed = heights < len(masks)
    mask, left, code, word, filled_mask = masks[heights] if listed else 0, tier, 0, x_word, 0
    for c in range(width):
        if listed:
            filled = (mask >> (c * stride)) & column_bits
            k = held[filled]
        else:  # column c holds k discs: before[c][left][k] <= heights < ...[k + 1]
            k = 0
            while k < stride - 1 and before[c][left][k + 1] <= heights:
                k += 1
            heights -= before[c][left][k]
            left -= k
            filled = (1 << k) - 1
        counts[c] = k
        code |= (filled + ((word & filled) ^ (filled & flip))) << (c * stride)
        filled_mask |= filled << (c * stride)
        word >>= k  # the X discs, lowest first
    return code, filled_mask, x_word


@kernel
def _ranked_children(
    codes: Codes, tier: int, height: int, t: Tables, by_heights: Codes, parents: Codes, out: Codes
) -> int:
    """The children of codes of tier ``tier`` ranked in tier + 1, with no child code built:
    a disc in every column with room, the row of its code into ``parents`` and its index
    into ``out`` (both at least len(codes) * width long); returns how many. Each code's
    columns are read once for all its children (see ``_rank_children``). For boards whose
    columns ``held`` reads (16 rows at most); runs as plain Python over lists too."""
    width, stride, held, xs = t.width, t.stride, t.held, t.xs[tier % 2]
    column_bits = (1 << stride) - 1
    counts = np.zeros(width, dtype=np.int64)
    later = np.zeros(width + 1, dtype=np.int64)
    count = 0
    for i in range(len(codes)):
        code, x_word, position = codes[i], 0, 0
        for c in range(width):
            column = code & column_bits
            code >>= stride
            counts[c] = held[column]
            x_word |= xs[column] << position
            position += counts[c]
        count = _rank_children(counts, x_word, i, tier, height, t, by_heights, later, parents,
                               out, count)  # fmt: skip
    return count


@kernel
def _expand_indices(
    indices: Codes,
    tier: int,
    height: int,
    connect: int,
    masks: Codes,
    t: Tables,
    by_heights: Codes,
    outcome: Any,
    parents: Codes,
    out: Codes,
) -> int:
    """Unrank, judge and expand in one pass: outcome[i] = LOSS when the player who just
    moved has ``connect`` in a line, TIE on a full board, 0 when the game goes on, -1 for
    an index that is no position; the children of the positions that go on ranked in tier
    + 1 as in ``_ranked_children``, their parents counted among those positions only (the
    j-th that goes on is row j). No code is written out: unranking gives the column heights
    and the word of X discs, which rank the children directly. ``masks`` as in ``_unrank``."""
    colourings = t.binom[tier][(tier + 1) // 2]
    size = t.before[0][tier][t.stride] * colourings
    full = tier == t.width * height
    counts = np.zeros(t.width, dtype=np.int64)
    later = np.zeros(t.width + 1, dtype=np.int64)
    count, going = 0, 0
    for i in range(len(indices)):
        index = indices[i]
        outcome[i] = -1
        if index < 0 or index >= size:
            continue
        code, mask, x_word = _unranked(index, tier, colourings, masks, t, counts)
        if has_line((code - mask) ^ mask, t.stride, connect):  # the player who just moved
            outcome[i] = _LOSS
        elif full:
            outcome[i] = _TIE
        else:
            outcome[i] = 0
            count = _rank_children(counts, x_word, going, tier, height, t, by_heights, later,
                                   parents, out, count)  # fmt: skip
            going += 1
    return count


@inlined_kernel
def _rank_children(
    counts: Codes,
    x_word: int,
    row: int,
    tier: int,
    height: int,
    t: Tables,
    by_heights: Codes,
    later: Codes,
    parents: Codes,
    out: Codes,
    count: int,
) -> int:
    """The children of one position of tier ``tier``, given by its column heights
    ``counts`` and its word of X discs (column by column, bottom up), ranked in tier + 1
    into ``out`` from ``count`` on, with ``row`` into ``parents``; returns the new count.
    A child's heights are the parent's with one column higher, and its word of X discs the
    parent's with the new disc's bit inserted at its place (set when X moves: ``tier``
    even). ``by_heights``, when not empty, holds the rank of every heights vector read as a
    number in base height + 1 (see ``heights_ranks``); else the ranks are summed from
    ``before``, with ``later`` (width + 1 long) as scratch."""
    width, before, colex, bits = t.width, t.before, t.colex, t.bits
    child = tier + 1
    colourings = t.binom[child][(child + 1) // 2]
    new_bit = 1 - tier % 2
    table = len(by_heights) > 0
    digits = 0
    # Without the table, the heights' rank is a sum of one term per column,
    # before[d][discs left][k_d]: for the child of column c, columns left of c see one disc
    # more left than in the parent, columns right of c as many. ``later[c]``: the parent's
    # terms right of c.
    if table:
        for d in range(width - 1, -1, -1):
            digits = digits * (height + 1) + counts[d]
    else:
        left = 0
        later[width] = 0
        for d in range(width - 1, -1, -1):
            later[d] = later[d + 1] + before[d][left + counts[d]][counts[d]]
            left += counts[d]
    below, earlier, place = 0, 0, 1  # discs left of c, their terms in the child, (h+1)^c
    for c in range(width):
        k = counts[c]
        if k < height:
            if table:
                heights = by_heights[digits + place]
            else:
                heights = earlier + before[c][child - below][k + 1] + later[c + 1]
            at = below + k
            word = (x_word & ((1 << at) - 1)) | (new_bit << at) | ((x_word >> at) << (at + 1))
            colour, seen = 0, 0
            for j in range((child + 7) >> 3):
                byte = word & 255
                word >>= 8
                colour += colex[j][seen][byte]
                seen += bits[byte]
            parents[count] = row
            out[count] = heights * colourings + colour
            count += 1
        if not table:
            earlier += before[c][child - below][k]
        below += k
        place *= height + 1
    return count


class SweepTables(NamedTuple):
    """The tables of the tier sweeps (``_mark_sweep``, ``_solve_sweep``), for boards of at
    most SWEEP_ROWS rows."""

    terms: Any
    """terms[((new * (cells + 1) + p) * (cells + 2) + m) * patterns + pattern], flat (the
    kernels index flat arrays fastest): what the X discs of one column add to a child's
    colour rank beyond the parent's when a disc goes in below them (see ``_mark_sweep``):
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
    _, mask, word = _unranked(index, tier, colourings, g.counts[:0], t, g.counts)
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
def _mark_sweep(
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
                if has_line(x_discs if just_moved_x else mask ^ x_discs, stride, connect):
                    records[i] = ended[_LOSS]
                elif full:
                    records[i] = ended[_TIE]
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
def _solve_sweep(
    tier: int,
    start: int,
    records: Any,
    child_records: Any,
    height: int,
    t: Tables,
    s: SweepTables,
    codes: Any,
) -> int:
    """The solving sweep, after ``_mark_sweep``: each position whose record is still
    codes.reached (it goes on) gets codes.record_of[best + 1], best the largest
    codes.worth of its children's records. Returns the positions solved, or the negative
    record_of code of the first that fails. Indices run as in ``_mark_sweep``."""
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


def heights_ranks(width: int, height: int, before: Codes) -> Codes:
    """rank[v]: the rank, among the fillings with as many discs, of the column heights
    whose digits in base height + 1 (column 0 lowest) make v: the sum over columns c of
    before[c, discs in columns c.., k_c], for every v below (height + 1) ** width."""
    digits = np.arange((height + 1) ** width, dtype=np.int64)
    ks = np.empty((width, digits.size), dtype=np.int64)
    for c in range(width):
        ks[c] = digits % (height + 1)
        digits //= height + 1
    left = ks[::-1].cumsum(axis=0)[::-1]  # discs in columns c..
    rank = np.zeros(ks.shape[1], dtype=np.int64)
    for c in range(width):
        rank += before[c, left[c], ks[c]]
    return rank


class DiscTiers:
    """The tier protocol's dense ranking of the positions holding t discs (see ConnectFour).

    index = rank of the column heights * C(t, x) + rank of which discs are X, where x =
    ceil(t / 2) (X moved first). Heights are ranked lexicographically, column 0 first, with
    ``before[c, s, h]``: the fillings of columns c.. with s discs whose column c holds fewer
    than h. The discs, listed column by column and bottom to top, make a t-bit word with a bit
    set for each X; it is ranked in the combinatorial number system (the sum of C(p_i, i)
    over the X positions p_1 < p_2 < ...), eight positions at a time through ``colex``, and
    unranked from the top position down, the lowest 16 at once through ``low``. The kernels
    ``_rank`` and ``_unrank`` do this code by code (compiled for many codes).
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        width, height = board.width, board.height
        self.cells = cells = width * height
        self.binom = binom = binomials(cells + 1)
        self.ways = ways = np.zeros((width + 1, cells + 1), dtype=np.int64)  # ways[c, s]
        ways[width, 0] = 1
        for c in reversed(range(width)):
            for h in range(height + 1):
                ways[c, h:] += ways[c + 1, : cells + 1 - h]
        before = np.zeros((width, cells + 1, height + 2), dtype=np.int64)
        for c in range(width):
            for h in range(1, height + 2):
                before[c, h - 1 :, h] = ways[c + 1, : cells + 2 - h]
        np.cumsum(before, axis=2, out=before)
        column = np.arange(1 << min(board.stride, 16), dtype=np.int64)
        held = np.zeros_like(column)
        for k in range(1, min(board.stride, 16) + 1):
            held[(1 << k) - 1 :] += 1
        x_discs = column - ((1 << held) - 1)
        # colex[j, i, byte]: what the X bits ``byte`` at positions 8j to 8j + 7 add to the
        # rank when i X discs come before them.
        byte = np.arange(256, dtype=np.int64)
        bits = np.array([b.bit_count() for b in range(256)], dtype=np.int64)
        before_x = np.arange(cells + 1, dtype=np.int64)[:, None]
        colex = np.zeros(((cells + 7) // 8, cells + 1, 256), dtype=np.int64)
        for j in range(colex.shape[0]):
            for b in range(min(8, cells - 8 * j)):
                nth = before_x + bits[byte & ((1 << b) - 1)] + 1
                taken = binom[8 * j + b, np.minimum(nth, cells + 1)]
                colex[j] += np.where((byte >> b) & 1 == 1, taken, 0)
        xs = np.stack([x_discs, x_discs ^ ((1 << held) - 1)])
        self.tables = Tables(width, board.stride, held, xs, before, binom, colex, bits,
                             *_low_words(min(cells, 16), bits))  # fmt: skip
        self.plain: Tables | None = None  # the tables as lists, once needed
        self.mask_tables: dict[int, Codes] = {}
        self.no_masks = np.zeros(0, dtype=np.int64)
        self.by_heights: Codes | None = None  # heights_ranks, once needed
        self.sweeping: SweepTables | None = None  # sweep_tables, once needed
        self.sweeping_plain: SweepTables | None = None  # and as lists

    def size(self, tier: int) -> int:
        """How many indices tier ``tier`` has."""
        self._check(tier)
        return int(self.ways[0, tier]) * int(self.binom[tier, (tier + 1) // 2])

    def rank(self, tier: int, codes: Codes) -> Codes:
        """The indices of codes within their tier; -1 for a code holding another number of
        discs (or no code at all)."""
        self._check(tier)
        return self._apply(_rank, codes, tier)

    def unrank(self, tier: int, indices: Codes) -> Codes:
        """The codes with the given indices in tier ``tier``; -1 for an index out of range."""
        self._check(tier)
        return self._apply(_unrank, indices, tier, self._masks(tier, np.size(indices)))

    def ranked_children(self, tier: int, codes: Codes) -> tuple[Codes, Codes] | None:
        """(parents, indices in tier + 1) of the children of codes of tier ``tier``, by
        ``_ranked_children`` (compiled for many codes, as plain Python for a few); None on
        boards of more than 16 rows and for the last tier: the caller expands and ranks."""
        self._check(tier)
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if self.board.stride > 16 or tier >= self.cells:
            return None
        room = codes.shape[0] * self.board.width
        if _ranked_children.compiles_for(codes.size):
            parents = np.empty(room, dtype=np.int64)
            indices = np.empty_like(parents)
            count = _ranked_children.run_compiled(
                codes, tier, self.board.height, self.tables, self._heights_table(), parents,
                indices,
            )  # fmt: skip
            return parents[:count], indices[:count]
        rows, found = [0] * room, [0] * room  # plain Python over lists, as _run_plain
        plain: Any = _ranked_children.interpreted  # lists for arrays; callees too
        height = self.board.height
        count = plain(codes.tolist(), tier, height, self._plain(), [], rows, found)
        return np.array(rows[:count], dtype=np.int64), np.array(found[:count], dtype=np.int64)

    def expand_indices(
        self, tier: int, indices: Codes, connect: int
    ) -> tuple[Any, Codes, Codes] | None:
        """(outcome, parents, indices in tier + 1) of positions of a tier given by index,
        by ``_expand_indices`` with lines of ``connect`` (compiled for many indices, as
        plain Python for a few); None on boards of more than 16 rows and for the last tier."""
        self._check(tier)
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        if self.board.stride > 16 or tier >= self.cells:
            return None
        room = indices.shape[0] * self.board.width
        if _expand_indices.compiles_for(indices.size):
            outcome = np.empty(indices.shape[0], dtype=np.int8)
            parents = np.empty(room, dtype=np.int64)
            found = np.empty_like(parents)
            count = _expand_indices.run_compiled(
                indices, tier, self.board.height, connect, self._masks(tier, indices.size),
                self.tables, self._heights_table(), outcome, parents, found,
            )  # fmt: skip
            return outcome, parents[:count], found[:count]
        ends, rows, kids = [0] * indices.shape[0], [0] * room, [0] * room  # as _run_plain
        plain: Any = _expand_indices.interpreted  # lists for arrays; callees too
        count = plain(indices.tolist(), tier, self.board.height, connect, [], self._plain(), [],
                      ends, rows, kids)  # fmt: skip
        return (
            np.array(ends, dtype=np.int8),
            np.array(rows[:count], dtype=np.int64),
            np.array(kids[:count], dtype=np.int64),
        )

    def sweep(
        self,
        tier: int,
        start: int,
        records: Any,
        child_records: Any,
        codes: SweepCodes,
        connect: int,
        solve: bool,
    ) -> int | None:
        """``_mark_sweep`` (lines of ``connect``) or ``_solve_sweep`` over records[i] for
        index start + i of a tier (compiled for many indices, as plain Python for a few);
        None on boards of more than SWEEP_ROWS rows."""
        self._check(tier)
        if self.board.height > SWEEP_ROWS:
            return None
        size = self.size(tier)
        child_size = self.size(tier + 1) if tier < self.cells else 0
        if (
            not 0 <= start <= start + records.shape[0] <= size
            or child_records.shape != (child_size,)
            or records.dtype != child_records.dtype
            or records.dtype.kind != "u"
            or len(codes.worth) != 1 << (8 * records.dtype.itemsize)
        ):  # the compiled kernels do not check their indices
            raise ValueError(
                f"a sweep of tier {tier} takes a window within its {size} indices (not "
                f"{start}..{start + records.shape[0]}) and the {child_size} records of the "
                f"next tier (not {child_records.shape}), both of the records' type that "
                f"the codes were made for"
            )
        if self.sweeping is None:
            self.sweeping = sweep_tables(self.cells, self.board.height, self.binom)
        task: Kernel[..., int] = _solve_sweep if solve else _mark_sweep
        rules = () if solve else (connect,)  # the solving sweep judges no ends
        if task.compiles_for(records.shape[0] + child_records.shape[0]):
            return int(task.run_compiled(tier, start, records, child_records,
                                         self.board.height, *rules, self.tables,
                                         self.sweeping, codes))  # fmt: skip
        plain: Any = task.interpreted  # lists for the tables; the records stay arrays
        if self.sweeping_plain is None:
            self.sweeping_plain = SweepTables(*(a.tolist() for a in self.sweeping))
        lists = self.sweeping_plain
        codes = SweepCodes(codes.reached, *(np.asarray(a).tolist() for a in codes[1:]))
        return int(plain(tier, start, records, child_records, self.board.height, *rules,
                         self._plain(), lists, codes))  # fmt: skip

    def tiers(self, codes: Codes) -> Codes:
        """The number of discs of each code."""
        return self._apply(_count_discs, codes)

    def locate(self, code: int) -> tuple[int, int]:
        """(tier, index) of one code, as plain Python over the tables as lists: a probe of
        one position pays no array set-up (about 2.5 us instead of 5)."""
        plain, found, codes = self._plain(), [0], [code]
        count: Any = _count_discs.function  # straight to the Python source: runs per probe
        count(codes, plain, found)
        tier = found[0]
        if not 0 <= tier <= self.cells:
            return tier, -1
        rank: Any = _rank.function
        rank(codes, tier, plain, found)
        return tier, found[0]

    def _heights_table(self) -> Codes:
        """``heights_ranks`` of this board, built once, where it has at most HEIGHTS_LIMIT
        entries (7 x 6: 823,543); else empty (the kernel sums the ranks instead)."""
        if self.by_heights is None:
            board = self.board
            entries = (board.height + 1) ** board.width
            self.by_heights = (
                heights_ranks(board.width, board.height, self.tables.before)
                if entries <= HEIGHTS_LIMIT
                else self.no_masks
            )
        return self.by_heights

    def _run_plain(self, task: Kernel[..., None], codes: list[int], *args: Any) -> list[int]:
        """``task`` as plain Python over lists (the kernels it calls too): its ints cannot
        overflow."""
        out = [0] * len(codes)
        plain: Any = task.interpreted  # lists stand for the arrays
        plain(codes, *args, self._plain(), out)
        return out

    def _plain(self) -> Tables:
        """The tables as nested lists, built once: plain Python indexes lists, and computes
        on their ints, several times faster than on numpy arrays and scalars."""
        if self.plain is None:
            lists = (a.tolist() if isinstance(a, np.ndarray) else a for a in self.tables)
            self.plain = Tables(*lists)
        return self.plain

    def _check(self, tier: int) -> None:
        if not 0 <= tier <= self.cells:
            raise ValueError(f"tiers run from 0 to {self.cells} discs, not {tier}")

    def _apply(self, task: Kernel[..., None], values: Codes, *args: Any) -> Codes:
        """``task(values, *args, tables, out)`` over the values flattened, with the tables
        as arrays when it runs compiled and as lists when not; ``out`` shaped like them."""
        values = np.ascontiguousarray(values, dtype=np.int64)
        if values.ndim != 1:
            return self._apply(task, values.reshape(-1), *args).reshape(values.shape)
        out = np.empty(values.shape, dtype=np.int64)
        if task.compiles_for(values.size):
            task.run_compiled(values, *args, self.tables, out)
        else:
            out[:] = self._run_plain(task, values.tolist(), *args)
        return out

    def _masks(self, tier: int, count: int) -> Codes:
        """The disc masks of the column fillings of a tier, by rank (kept once built), where
        they pay: to unrank, compiled, many indices of a tier of not too many fillings, in
        columns that ``held`` reads; else no masks."""
        ways = int(self.ways[0, tier])
        if not _unrank.compiles_for(count):
            return self.no_masks
        if tier not in self.mask_tables:
            if ways > TABLE_LIMIT or 16 * count < ways or self.board.stride > 16:
                return self.no_masks
            first = np.arange(ways, dtype=np.int64) * int(self.binom[tier, (tier + 1) // 2])
            codes = np.empty(ways, dtype=np.int64)
            _unrank.run_compiled(first, tier, self.no_masks, self.tables, codes)
            self.mask_tables[tier] = self.board.boards(codes)[1]
        return self.mask_tables[tier]


def _low_words(positions: int, bits: Codes) -> tuple[Codes, Codes]:
    """``low[start[n] + r]``: the word of ``positions`` bits (16 at most) with n set and colex
    rank r, which is its rank among those words in increasing order."""
    words = np.arange(1 << positions)
    ones = bits[words & 255] + bits[words >> 8]
    low = np.argsort(ones, kind="stable").astype(np.int64)
    return low, np.searchsorted(ones[low], np.arange(positions + 1)).astype(np.int64)
