"""Connect Four's tier ranking: positions holding t discs <-> dense indices 0..size - 1.

index = rank of the column heights * C(t, x) + rank of which discs are X, where x =
ceil(t / 2) (X moved first). Heights are ranked lexicographically, column 0 first, with
``before[c, s, h]``: the fillings of columns c.. with s discs whose column c holds fewer
than h. The discs, listed column by column and bottom to top, make a t-bit word with a bit
set for each X; it is ranked in the combinatorial number system (the sum of C(p_i, i)
over the X positions p_1 < p_2 < ...), eight positions at a time through ``colex``, and
unranked from the top position down, the lowest 16 at once through ``low``.

This module holds the tables (``Tables``, built by ``ranking_tables``) and the kernels that
rank and unrank code by code (compiled for many codes, run as plain Python over the tables
as lists for a few). Codes are raw (``mover + mask``, see ``board``), never mirrored.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.compiled import inlined_kernel, kernel
from .board import Codes


def binomials(n: int) -> Codes:
    """binom[i, j] = C(i, j) for i, j in 0..n (0 when j > i); exact in int64 up to n = 66."""
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    binom[:, 0] = 1
    for i in range(1, n + 1):
        binom[i, 1:] = binom[i - 1, 1:] + binom[i - 1, :-1]
    return binom


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


def ranking_tables(width: int, height: int) -> tuple[Tables, Codes]:
    """The ``Tables`` of a board, and ``ways[c, s]``: the fillings of columns c.. with s
    discs."""
    stride = height + 1
    cells = width * height
    binom = binomials(cells + 1)
    ways = np.zeros((width + 1, cells + 1), dtype=np.int64)
    ways[width, 0] = 1
    for c in reversed(range(width)):
        for h in range(height + 1):
            ways[c, h:] += ways[c + 1, : cells + 1 - h]
    before = np.zeros((width, cells + 1, height + 2), dtype=np.int64)
    for c in range(width):
        for h in range(1, height + 2):
            before[c, h - 1 :, h] = ways[c + 1, : cells + 2 - h]
    np.cumsum(before, axis=2, out=before)
    column = np.arange(1 << min(stride, 16), dtype=np.int64)
    held = np.zeros_like(column)
    for k in range(1, min(stride, 16) + 1):
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
    tables = Tables(width, stride, held, xs, before, binom, colex, bits,
                    *_low_words(min(cells, 16), bits))  # fmt: skip
    return tables, ways


def _low_words(positions: int, bits: Codes) -> tuple[Codes, Codes]:
    """``low[start[n] + r]``: the word of ``positions`` bits (16 at most) with n set and colex
    rank r, which is its rank among those words in increasing order."""
    words = np.arange(1 << positions)
    ones = bits[words & 255] + bits[words >> 8]
    low = np.argsort(ones, kind="stable").astype(np.int64)
    return low, np.searchsorted(ones[low], np.arange(positions + 1)).astype(np.int64)


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


@inlined_kernel
def tall_discs(column: int) -> int:
    """The discs of a tall column, one whose code ``held`` does not list (2**16 or more):
    k where column + 1 has its top bit, 16 or more."""
    k = 16
    while (column + 1) >> (k + 1) != 0:
        k += 1
    return k


@kernel
def count_discs(codes: Codes, t: Tables, out: Codes) -> None:
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
            else:
                discs += tall_discs(column)
        out[i] = discs


@kernel
def rank_codes(codes: Codes, tier: int, t: Tables, out: Codes) -> None:
    """out[i] = the index of codes[i] in tier ``tier`` (see the module docstring), or -1."""
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
            else:
                k = tall_discs(column)
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
def unrank_indices(indices: Codes, tier: int, masks: Codes, t: Tables, out: Codes) -> None:
    """out[i] = the code with index indices[i] in tier ``tier`` (see the module docstring),
    or -1; masks[h], if not empty, is the disc mask of the column filling ranked h."""
    colourings = t.binom[tier][(tier + 1) // 2]
    size = t.before[0][tier][t.stride] * colourings
    counts = np.zeros(t.width, dtype=np.int64)
    for i in range(len(indices)):
        index = indices[i]
        out[i] = -1
        if 0 <= index < size:
            out[i] = unranked(index, tier, colourings, masks, t, counts)[0]


@inlined_kernel
def unranked(
    index: int, tier: int, colourings: int, masks: Codes, t: Tables, counts: Codes
) -> tuple[int, int, int]:
    """The position of index ``index`` (within range) of tier ``tier`` whose discs have
    ``colourings`` colourings: (code, disc mask, word of X discs), and counts[c] set to the
    discs of column c. ``masks`` as in ``unrank_indices``."""
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
