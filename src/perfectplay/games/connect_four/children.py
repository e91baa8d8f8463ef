"""Connect Four's moves ranked without codes: each child's index in the next tier at once.

The tier solver's moves are (parent, index of the child in tier + 1). Building each child's
code and ranking it reads the child's columns again; these kernels read a position's
columns once (from its code, or straight from its index: ``expand_indices`` unranks,
judges and expands in one pass) and derive every child's index from the parent's column
heights and word of X discs (``rank_children``). The ranking is ``ranking``'s; compiled for
many positions, run as plain Python over the tables as lists for a few.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.compiled import inlined_kernel, kernel
from .board import Codes, line_ends
from .kernels import LOSS, TIE
from .ranking import Tables, unranked


@kernel
def ranked_children(
    codes: Codes, tier: int, height: int, t: Tables, by_heights: Codes, parents: Codes, out: Codes
) -> int:
    """The children of codes of tier ``tier`` ranked in tier + 1, with no child code built:
    a disc in every column with room, the row of its code into ``parents`` and its index
    into ``out`` (both at least len(codes) * width long); returns how many. Each code's
    columns are read once for all its children (see ``rank_children``). For boards whose
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
        count = rank_children(counts, x_word, i, tier, height, t, by_heights, later, parents,
                               out, count)  # fmt: skip
    return count


@kernel
def expand_indices(
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
    + 1 as in ``ranked_children``, their parents counted among those positions only (the
    j-th that goes on is row j). No code is written out: unranking gives the column heights
    and the word of X discs, which rank the children directly. ``masks`` as in
    ``ranking.unrank_indices``."""
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
        code, mask, x_word = unranked(index, tier, colourings, masks, t, counts)
        if line_ends((code - mask) ^ mask, t.stride, connect) != 0:  # the player who just moved
            outcome[i] = LOSS
        elif full:
            outcome[i] = TIE
        else:
            outcome[i] = 0
            count = rank_children(counts, x_word, going, tier, height, t, by_heights, later,
                                   parents, out, count)  # fmt: skip
            going += 1
    return count


@inlined_kernel
def rank_children(
    counts: Codes, x_word: int, row: int, tier: int, height: int, t: Tables, by_heights: Codes,
    later: Codes, parents: Codes, out: Codes, count: int,
) -> int:  # fmt: skip
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
