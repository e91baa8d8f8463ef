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
tables of ``bit_tables``, ``row_tables`` and ``lion_table``) and ``batch_unrank`` (its
inverse, also on the bits, with ``place_tables``) read them.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from ...core.compiled import inlined_kernel, kernel
from .board import CHICK, ELEPHANT, GIRAFFE, GOTE, HANDS, HEN, I64, LION, THEIRS, WIDTH, Codes
from .symmetry import image_first, lion_pair, mirror_square

FIELD = 12
"""Bits of one mask of squares in the words of ``row_tables`` (a square s at bit s)."""
ROW_LEFT = sum(1 << (3 * j) for j in range(20))
"""A 1 at the first square of each row of every field of a packed word (``mirrored_rows``)."""


@inlined_kernel
def mirrored_rows(packed: int) -> int:
    """A word of packed masks of squares (``row_tables``) reflected left to right: in each
    row of three squares, the first and the last exchanged, every field at once."""
    return (packed & (ROW_LEFT << 1)) | ((packed & ROW_LEFT) << 2) | ((packed >> 2) & ROW_LEFT)


@inlined_kernel
def rank_code(
    code: int,
    squares: int,
    kinds: I64,
    shares: I64,
    offsets: I64,
    lions: I64,
    count: npt.NDArray[np.uint8],
    low: npt.NDArray[np.uint8],
    rows: I64,
) -> int:
    """The index of a code's key (see the module docstring), on the code's bits: no board
    is filled. ``rows[turned, cells]`` packs the masks of the squares of one row of three
    cells (``row_tables``), as the mover sees them, so four reads give the squares of every
    kind and owner in the mover's view at once; ``count`` and ``low`` hold the population
    count and the lowest set bit of each 12-bit mask of squares (``bit_tables``);
    ``lions`` gives the slot of the kept pair of two lion squares and whether the image is
    the key (``lion_table``); ``shares[i, n]`` holds the arrangements of kinds i.. on
    n free squares and ``offsets[i, n, k]`` where those with k pieces of kind i on the
    board begin (``ranking_tables``).

    A piece's place among the squares free for its kind (neither a lion's nor an earlier
    kind's) is a count of bits, so the work does not branch on what each square holds (a
    pass over the squares took 190 ns a code; comparing every cell with each kind's value
    56; the row tables 28, 2026-11-27)."""
    height = squares // WIDTH
    gote = (code >> GOTE) & 1
    packed = owners_and_hens = 0
    for r in range(height):
        cells = (code >> (12 * r)) & 0xFFF
        shift = 3 * (height - 1 - r if gote else r)
        packed |= rows[gote, cells, 0] << shift
        owners_and_hens |= rows[gote, cells, 1] << shift
    hands = (code >> HANDS) & 0xFFF
    if gote:
        hands = ((hands >> 6) | (hands << 6)) & 0xFFF  # the mover's hand first
    mine = int(low[packed & 0xFFF])
    theirs = int(low[(packed >> FIELD) & 0xFFF])
    pair = lions[mine * 12 + theirs]
    flip = (pair >> MIRRORED) & 1
    if (pair >> SHARED) & 1:  # both lions in column B: the boards decide
        flip = int(_image_first(code, mine, theirs, squares))
    flip = -flip  # all ones when mirrored
    packed ^= (packed ^ mirrored_rows(packed)) & flip
    owners_and_hens ^= (owners_and_hens ^ mirrored_rows(owners_and_hens)) & flip
    index = (pair & 0xFFFF) * shares[0, squares - 2]
    free_squares = ((1 << squares) - 1) & ~((packed | (packed >> FIELD)) & 0xFFF)
    their_squares = owners_and_hens & 0xFFF
    hens = (owners_and_hens >> FIELD) & 0xFFF
    free = squares - 2
    for i in range(kinds.shape[0]):
        # Without a branch on how many of the kind stand on the board (k): the lowest
        # square of an empty mask reads as 0, below which no square is free.
        kind = kinds[i]
        mask = (packed >> (FIELD * kind)) & 0xFFF  # (a chick's field holds the hens too)
        k = int(count[mask])
        one, two = int(k >= 1), int(k == 2)
        digit = 2 if kind == CHICK else 1  # bits of one piece's owner digit
        first, second = int(low[mask]), int(low[mask & (mask - 1)])
        place = int(count[free_squares & ((1 << second) - 1)])
        subset = int(count[free_squares & ((1 << first) - 1)]) + ((place * (place - 1)) >> 1)
        owners = (_owner_digit(their_squares, hens, first, digit) * one) << (digit * two)
        owners |= _owner_digit(their_squares, hens, second, digit) * two
        within = ((subset << (digit * k)) | owners) * (3 - k)
        within += (hands >> (2 * (kind - GIRAFFE))) & 3
        index += offsets[i, free, k] + within * shares[i + 1, free - k]
        free -= k
        free_squares &= ~mask
    return int(index)


@inlined_kernel
def _owner_digit(their_squares: int, hens: int, square: int, digit: int) -> int:
    """Who owns the piece on ``square`` (and, for chicks, whether it is a hen), as
    ``rank_code`` numbers them: 0-1 (the other player's is 1), for chicks (``digit`` = 2
    bits) 0-3 (2 the other's, +1 a hen: only a chick's square can hold one)."""
    return (((their_squares >> square) & 1) << (digit - 1)) | ((hens >> square) & 1)


@inlined_kernel
def _image_first(code: int, mine: int, theirs: int, squares: int) -> bool:
    """Whether the mirror image of the mover's view of ``code`` is its key (the view's
    cells turned where gote moves)."""
    board = code & ((1 << (4 * squares)) - 1)
    if (code >> GOTE) & 1:
        board = _turned_cells(board, squares)
    return image_first(mine, theirs, board, squares)


@inlined_kernel
def _turned_cells(board: int, squares: int) -> int:
    """The cells of a board in reverse order (turned half a turn), each piece's owner bit
    flipped: the other player's view."""
    ones = 0x111111111111 & ((1 << (4 * squares)) - 1)
    turned = ((board & 0x0F0F0F0F0F0F) << 4) | ((board >> 4) & 0x0F0F0F0F0F0F)
    turned = ((turned & 0x00FF00FF00FF) << 8) | ((turned >> 8) & 0x00FF00FF00FF)
    turned = ((turned & 0xFFFF) << 32) | (turned & 0xFFFF0000) | ((turned >> 32) & 0xFFFF)
    turned >>= 4 * (12 - squares)  # the cells in reverse order
    return turned ^ (((turned | (turned >> 1) | (turned >> 2) | (turned >> 3)) & ones) << 3)


@kernel
def batch_rank(
    codes: Codes,
    height: int,
    kinds: I64,
    shares: I64,
    offsets: I64,
    lions: I64,
    bits: npt.NDArray[np.uint8],
    rows: I64,
) -> I64:
    """The index of each code's key (its mover's view, canonical)."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    count, low = bits[0], bits[1]
    for i in range(codes.shape[0]):
        out[i] = rank_code(codes[i], height * WIDTH, kinds, shares, offsets, lions, count, low,
                           rows)  # fmt: skip
    return out


def bit_tables() -> npt.NDArray[np.uint8]:
    """``rank_code``'s tables: the population count and the lowest set bit (0 for none) of
    every 12-bit mask of squares, rows 0 and 1 (bytes: the tables stay in the first-level
    cache; read through ``int()``, so that the interpreter's arithmetic does not wrap)."""
    masks = np.arange(4096, dtype=np.int64)
    count = np.zeros(4096, dtype=np.int64)
    low = np.zeros(4096, dtype=np.int64)
    for bit in reversed(range(12)):
        count += (masks >> bit) & 1
        low = np.where((masks >> bit) & 1 == 1, bit, low)
    return np.stack([count, low]).astype(np.uint8)


@functools.cache
def row_tables() -> I64:
    """``rank_code``'s row tables: ``rows[turned, cells, w]`` for the 4-bit cells of one
    row of a code (12 bits), as the mover sees them (``turned``: gote moves, so the row is
    read right to left and each piece's owner flipped), the squares (bit c of each field
    of 12 bits, c the column in the mover's view) of: in word 0, the mover's lion (field
    0), the other lion (1), giraffes (2), elephants (3), chicks and hens (4), each kind in
    the field of its number; in word 1, the other player's pieces (0) and hens (1).
    Shifted by three bits a row, fields and all, and or-ed, they give the whole view.
    Made once (9 ms) and shared: no kernel writes it."""
    rows = np.zeros((2, 4096, 2), dtype=np.int64)
    for turned in range(2):
        for cells in range(4096):
            for column in range(WIDTH):
                piece = (cells >> (4 * column)) & 15
                if piece == 0:
                    continue
                if turned:
                    piece ^= THEIRS
                    column = WIDTH - 1 - column
                kind = piece & 7
                if piece == LION:
                    field = 0
                elif piece == THEIRS | LION:
                    field = 1
                elif kind in (GIRAFFE, ELEPHANT, CHICK, HEN):
                    field = CHICK if kind == HEN else kind
                else:
                    continue  # no piece has this number
                rows[turned, cells, 0] |= 1 << (FIELD * field + column)
                if piece & THEIRS:
                    rows[turned, cells, 1] |= 1 << column
                if kind == HEN:
                    rows[turned, cells, 1] |= 1 << (FIELD + column)
    return rows


@inlined_kernel
def _piece(kind: int, digit: int) -> int:
    """The piece of ``kind`` whose owner digit (``_owner_digit``) is ``digit``."""
    if kind == CHICK:
        return (THEIRS if digit & 2 else 0) | (HEN if digit & 1 else CHICK)
    return (THEIRS if digit & 1 else 0) | kind


@kernel
def batch_unrank(
    indices: I64,
    height: int,
    kinds: I64,
    shares: I64,
    offsets: I64,
    pairs: I64,
    places: npt.NDArray[np.uint8],
) -> Codes:
    """The view (gote's bit clear) of each index, -1 outside the range and for a hole: the
    inverse of ``rank_code``, built on the code's bits (see the module docstring).
    ``pairs`` lists the kept pairs of lion squares by slot (``lion_slots``). One division
    a kind by a count of arrangements; how the pieces off the board are shared between
    the hands is a multiplication (``HAND_SHARES``); a piece's square is read from
    ``places`` (``place_tables``: the n-th square of a mask; the places of the n-th pair in
    ``PAIR_PLACES``); nothing branches on how many of a kind stand on the board (a piece
    not there is written as nothing, a factor of 0). Filling a board square by square took
    about 155 ns an index, this 42; written in the loop, not as a kernel of one index,
    which numba inlined at twice the cost; multiplying by inverses in place of the
    divisions measured no faster (2026-11-27)."""
    squares = height * WIDTH
    block = shares[0, squares - 2]
    size = pairs.shape[0] * block
    out = np.empty(indices.shape[0], dtype=np.int64)
    for i in range(indices.shape[0]):
        index = indices[i]
        if index < 0 or index >= size:
            out[i] = -1
            continue
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
            k = int(rest >= offsets[j, free, 1]) + int(rest >= offsets[j, free, 2])
            rest -= offsets[j, free, k]
            after = shares[j + 1, free - k]
            within = rest // after
            rest -= within * after
            held = 2 - k
            shared = (within * HAND_SHARES[held]) >> 33  # within // (held + 1)
            mover_holds = within - shared * (held + 1)
            owners = shared & ((1 << (digits * k)) - 1)
            subset = shared >> (digits * k)
            one, two = int(k >= 1), int(k == 2)
            both = PAIR_PLACES[subset] if two else subset  # places among the free squares
            at = int(places[free_squares, both & 15])
            later = int(places[free_squares, both >> 4])
            code |= (_piece(kind, owners >> (digits * two)) * one) << (4 * at)
            code |= (_piece(kind, owners & ((1 << digits) - 1)) * two) << (4 * later)
            free_squares &= ~((one << at) | (two << later))
            hand = HANDS + 2 * (kind - GIRAFFE)
            code |= (mover_holds << hand) | ((held - mover_holds) << (hand + 6))
            free -= k
        cells = code & ((1 << (4 * squares)) - 1)
        if mine % WIDTH == 1 == theirs % WIDTH and image_first(mine, theirs, cells, squares):
            code = -1  # both lions in column B, and the image is the canonical one: a hole
        out[i] = code
    return out


HAND_SHARES = np.array([1 << 33, 1 << 32, 0xAAAAAAAB], dtype=np.int64)
"""x // (h + 1) = (x * HAND_SHARES[h]) >> 33 for 0 <= x < 2**31: how the 2 - k pieces of a
kind not on the board are shared between the hands (a division by 1, 2 or 3)."""
PAIR_PLACES = np.array(
    [first + 16 * second for second in range(12) for first in range(second)], dtype=np.int64
)
"""The n-th pair of places (a, b), a < b, among a mask's squares in the ranking's order
(the pair comes at b (b - 1) / 2 + a), as a + 16 b."""


@functools.cache
def place_tables() -> npt.NDArray[np.uint8]:
    """``batch_unrank``'s squares: row ``mask`` holds at n the n-th square of the mask
    (from the lowest). Made once and shared: no kernel writes it."""
    table = np.zeros((4096, 16), dtype=np.uint8)
    for mask in range(4096):
        held = [s for s in range(12) if mask >> s & 1]
        table[mask, : len(held)] = held
    return table


MIRRORED, SHARED = 16, 17
"""Bits of an entry of ``lion_table`` above the slot: the image's pair is kept, or both
lions stand in column B (the pair is its own image: the boards decide)."""


def lion_table(squares: int) -> I64:
    """``rank_code``'s table of lion squares: at ``mine * 12 + theirs``, the slot of the
    kept pair of the two (``lion_slots``: the pair's or its image's), with the bits
    MIRRORED and SHARED."""
    slots, _ = lion_slots(squares)
    table = np.zeros(144, dtype=np.int64)
    for mine in range(squares):
        for theirs in range(squares):
            if theirs == mine:
                continue
            pair = lion_pair.function(mine, theirs, squares)
            image = lion_pair.function(mirror_square.function(mine),
                                       mirror_square.function(theirs), squares)  # fmt: skip
            kept = min(pair, image)
            table[mine * 12 + theirs] = (
                int(slots[kept]) | (int(image < pair) << MIRRORED) | (int(image == pair) << SHARED)
            )
    return table


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
