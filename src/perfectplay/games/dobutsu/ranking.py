"""Dobutsu shogi's one tier ranked: every arrangement of the pieces up to the mirror, an index.

Ranking (of canonical views, ``symmetry``): lions first, a pair of squares whose mirror
image does not come before it (``lion_slots``: of the N (N - 1) pairs, those with both
lions in column B and one of each other pair and its image); then, for each kind of the
variant in turn (giraffes, elephants, chicks), how many of its two pieces are on the board
(k), which of the free squares (combinatorial number system over the squares not yet used),
who owns each (and, for chicks, whether it is a hen), and how the 2 - k in hand are shared
(3 - k ways). Every index is an arrangement: the 3x4 game's 132 pairs of lion squares give
132 * 11,878,227 = 1,567,925,964 arrangements (the count of positions Tanaka gives for the
game, 2009), and its 72 kept pairs 855,232,344 indices. Where both lions stand in column B,
an arrangement and its image share a pair: the index of the one that is not canonical is a
hole, which no code ranks to, play never reaches and ``batch_unrank`` gives as -1.

``ranking_tables`` counts the arrangements once per variant (exact Python integers),
``lion_slots`` numbers the kept pairs; ``batch_rank`` (on a code's bits, with the small
tables of ``bit_tables``) and ``batch_unrank`` (its inverse, also on the bits) read them.
"""

from __future__ import annotations

import numpy as np

from ...protocol import inlined_kernel, kernel
from .board import CHICK, GIRAFFE, GOTE, HANDS, HEN, I64, LION, THEIRS, WIDTH, Codes
from .symmetry import image_first, lion_pair, mirror_square, mirrored_cells


@inlined_kernel
def _nibbles_equal(board: int, value: int, ones: int) -> int:
    """A 1 at bit 4s for each 4-bit cell s of ``board`` that holds ``value`` (``ones``: a 1
    at bit 4s of every cell of the board)."""
    x = board ^ (ones * value)
    return ~(x | (x >> 1) | (x >> 2) | (x >> 3)) & ones


@inlined_kernel
def _packed(flags: int) -> int:
    """Bits 4s of ``flags`` (s < 16) as bits s: a mask of squares."""
    flags = (flags | (flags >> 3)) & 0x0303030303030303
    flags = (flags | (flags >> 6)) & 0x000F000F000F000F
    flags = (flags | (flags >> 12)) & 0x000000FF000000FF
    return (flags | (flags >> 24)) & 0xFFFF


@inlined_kernel
def _owner_digit(piece: int, kind: int) -> int:
    """Who owns a piece of ``kind`` (and, for chicks, whether it is a hen), as ``rank_code``
    numbers them: 0-1 (the other player's is 1), for chicks 0-3 (2 the other's, +1 a hen)."""
    return (piece >> 3) * (2 if kind == CHICK else 1) + (1 if piece & 7 == HEN else 0)


@kernel
def rank_code(
    code: int, squares: int, kinds: I64, shares: I64, offsets: I64, slots: I64, bits: I64
) -> int:
    """The index of a code's key (see the module docstring), on the code's bits: no board
    is filled. ``bits`` holds the population count (row 0) and the lowest set bit (row 1)
    of each 12-bit mask of squares (``bit_tables``); ``slots`` numbers the kept pairs of
    lion squares; ``shares[i, n]`` holds the arrangements of kinds i.. on n free squares
    and ``offsets[i, n, k]`` where those with k pieces of kind i on the board begin
    (``ranking_tables``).

    The mover's view is the board's cells in reverse order, each piece's owner bit
    flipped; the mirror image swaps the cells of columns A and C; the squares of each kind
    are found for all cells at once (the cells equal to a value, ``_nibbles_equal``). A
    piece's place among the squares free for its kind (neither a lion's nor an earlier
    kind's) is a count of bits, so the work does not branch on what each square holds
    (a pass over the squares did, 190 ns a code against 56, 2026-11-27)."""
    used = (1 << (4 * squares)) - 1
    ones = 0x111111111111 & used
    board = code & used
    turned = ((board & 0x0F0F0F0F0F0F) << 4) | ((board >> 4) & 0x0F0F0F0F0F0F)
    turned = ((turned & 0x00FF00FF00FF) << 8) | ((turned >> 8) & 0x00FF00FF00FF)
    turned = ((turned & 0xFFFF) << 32) | (turned & 0xFFFF0000) | ((turned >> 32) & 0xFFFF)
    turned >>= 4 * (12 - squares)  # the cells in reverse order
    turned ^= ((turned | (turned >> 1) | (turned >> 2) | (turned >> 3)) & ones) << 3
    hands = (code >> HANDS) & 0xFFF
    if (code >> GOTE) & 1:
        board = turned
        hands = ((hands >> 6) | (hands << 6)) & 0xFFF  # the mover's hand first
    count, low = bits[0], bits[1]
    mine = low[_packed(_nibbles_equal(board, LION, ones))]
    theirs = low[_packed(_nibbles_equal(board, THEIRS | LION, ones))]
    if image_first(mine, theirs, board, squares):
        board = mirrored_cells(board, squares)
        mine, theirs = mirror_square(mine), mirror_square(theirs)
    index = slots[lion_pair(mine, theirs, squares)] * shares[0, squares - 2]
    free_squares = ((1 << squares) - 1) & ~((1 << mine) | (1 << theirs))
    kinds_only = board & (ones * 7)  # owners dropped
    free = squares - 2
    for i in range(kinds.shape[0]):
        kind = kinds[i]
        mask = _packed(_nibbles_equal(kinds_only, kind, ones))
        if kind == CHICK:
            mask |= _packed(_nibbles_equal(kinds_only, HEN, ones))
        k = count[mask]
        states = 4 if kind == CHICK else 2
        subset = owners = 0
        if k >= 1:
            first = low[mask]
            subset = count[free_squares & ((1 << first) - 1)]
            owners = _owner_digit((board >> (4 * first)) & 15, kind)
            if k == 2:
                second = low[mask & (mask - 1)]
                place = count[free_squares & ((1 << second) - 1)]
                subset += place * (place - 1) // 2
                owners = owners * states + _owner_digit((board >> (4 * second)) & 15, kind)
        power = 1 if k == 0 else (states if k == 1 else states * states)
        held = 2 - k
        within = (subset * power + owners) * (held + 1) + ((hands >> (2 * (kind - GIRAFFE))) & 3)
        index += offsets[i, free, k] + within * shares[i + 1, free - k]
        free -= k
        free_squares &= ~mask
    return int(index)


@kernel
def batch_rank(
    codes: Codes, height: int, kinds: I64, shares: I64, offsets: I64, slots: I64, bits: I64
) -> I64:
    """The index of each code's key (its mover's view, canonical)."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        out[i] = rank_code(codes[i], height * WIDTH, kinds, shares, offsets, slots, bits)
    return out


def bit_tables() -> I64:
    """``rank_code``'s tables: the population count and the lowest set bit (0 for none) of
    every 12-bit mask of squares, rows 0 and 1."""
    masks = np.arange(4096, dtype=np.int64)
    count = np.zeros(4096, dtype=np.int64)
    low = np.zeros(4096, dtype=np.int64)
    for bit in reversed(range(12)):
        count += (masks >> bit) & 1
        low = np.where((masks >> bit) & 1 == 1, bit, low)
    return np.stack([count, low])


@inlined_kernel
def _nth_square(squares: int, n: int, low: I64) -> int:
    """The n-th (from 0) square of the mask ``squares``."""
    for _ in range(n):
        squares &= squares - 1
    return int(low[squares])


@inlined_kernel
def _piece(kind: int, digit: int) -> int:
    """The piece of ``kind`` whose owner digit (``_owner_digit``) is ``digit``."""
    if kind == CHICK:
        return (THEIRS if digit & 2 else 0) | (HEN if digit & 1 else CHICK)
    return (THEIRS if digit & 1 else 0) | kind


@kernel
def unrank_index(
    index: int, squares: int, kinds: I64, shares: I64, offsets: I64, pairs: I64, bits: I64
) -> int:
    """The view (gote's bit clear) of an index, -1 outside the range and for a hole: the
    inverse of ``rank_code``, built on the code's bits. Divisions by the small counts
    (owners, what each hand holds) are shifts or a division by 3, one division a kind is
    left; the squares come from masks (filling a board square by square took about 155 ns
    an index, this 90, 2026-11-27; a floating-point division in place of the one left
    measured no faster)."""
    block = shares[0, squares - 2]
    if index < 0 or index >= pairs.shape[0] * block:
        return -1
    low = bits[1]
    slot = index // block
    rest = index - slot * block
    pair = pairs[slot]
    mine = pair // (squares - 1)
    theirs = pair - mine * (squares - 1)
    theirs += 1 if theirs >= mine else 0
    code = (LION << (4 * mine)) | ((THEIRS | LION) << (4 * theirs))
    free_squares = ((1 << squares) - 1) & ~((1 << mine) | (1 << theirs))
    free = squares - 2
    for j in range(kinds.shape[0]):
        kind = kinds[j]
        digits = 2 if kind == CHICK else 1  # bits of one piece's owner digit
        k = 0
        while k < 2 and rest >= offsets[j, free, k + 1]:
            k += 1
        rest -= offsets[j, free, k]
        after = shares[j + 1, free - k]
        within = rest // after
        rest -= within * after
        held = 2 - k
        mover_holds = 0
        if held == 2:
            mover_holds = within % 3
            within //= 3
        elif held == 1:
            mover_holds = within & 1
            within >>= 1
        owners = within & ((1 << (digits * k)) - 1)
        subset = within >> (digits * k)
        if k == 1:
            at = _nth_square(free_squares, subset, low)
            code |= _piece(kind, owners) << (4 * at)
            free_squares &= ~(1 << at)
        elif k == 2:
            second = 1
            while (second + 1) * second // 2 <= subset:
                second += 1
            first = subset - second * (second - 1) // 2
            at = _nth_square(free_squares, first, low)
            later = _nth_square(free_squares, second, low)
            code |= _piece(kind, owners >> digits) << (4 * at)
            code |= _piece(kind, owners & ((1 << digits) - 1)) << (4 * later)
            free_squares &= ~((1 << at) | (1 << later))
        hand = HANDS + 2 * (kind - GIRAFFE)
        code |= (mover_holds << hand) | ((held - mover_holds) << (hand + 6))
        free -= k
    if image_first(mine, theirs, code & ((1 << (4 * squares)) - 1), squares):
        return -1  # a hole: the image is the canonical one (both lions in column B)
    return int(code)


@kernel
def batch_unrank(
    indices: I64, height: int, kinds: I64, shares: I64, offsets: I64, pairs: I64, bits: I64
) -> Codes:
    """The view (gote's bit clear) of each index; -1 outside the range and for a hole (see
    the module docstring). ``pairs`` lists the kept pairs of lion squares by slot
    (``lion_slots``)."""
    out = np.empty(indices.shape[0], dtype=np.int64)
    for i in range(indices.shape[0]):
        out[i] = unrank_index(indices[i], height * WIDTH, kinds, shares, offsets, pairs, bits)
    return out


def lion_slots(squares: int) -> tuple[I64, I64]:
    """(slots, pairs): the slot of each pair of lion squares whose mirror image does not
    come before it (-1 for the others), and the pairs by slot."""
    slots = np.full(squares * (squares - 1), -1, dtype=np.int64)
    kept: list[int] = []
    for mine in range(squares):
        for theirs in range(squares):
            if theirs == mine:
                continue
            pair = lion_pair.function(mine, theirs, squares)
            image = mirror_square.function(mine), mirror_square.function(theirs)
            if lion_pair.function(*image, squares) >= pair:
                slots[pair] = len(kept)
                kept.append(pair)
    return slots, np.array(kept, dtype=np.int64)


def ranking_tables(kinds: list[int], free: int) -> tuple[I64, I64]:
    """``shares`` and ``offsets`` for ``rank_code`` (exact integers, from Python ints)."""

    def binom(n: int, k: int) -> int:
        if k < 0 or k > n:
            return 0
        out = 1
        for j in range(k):
            out = out * (n - j) // (j + 1)
        return out

    shares = np.zeros((len(kinds) + 1, free + 1), dtype=np.int64)
    offsets = np.zeros((max(len(kinds), 1), free + 1, 4), dtype=np.int64)
    shares[len(kinds), :] = 1
    for i in range(len(kinds) - 1, -1, -1):
        states = 4 if kinds[i] == CHICK else 2
        for n in range(free + 1):
            total = 0
            for k in range(3):
                offsets[i, n, k] = total
                if k <= n:
                    total += binom(n, k) * states**k * (3 - k) * int(shares[i + 1, n - k])
            offsets[i, n, 3] = total
            shares[i, n] = total
    return shares, offsets
