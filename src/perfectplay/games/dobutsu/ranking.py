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
``lion_slots`` numbers the kept pairs; ``batch_rank`` and ``batch_unrank`` read them, in one
pass over the squares per code.
"""

from __future__ import annotations

import numpy as np

from ...protocol import kernel
from .board import CHICK, GIRAFFE, HEN, I64, LION, THEIRS, WIDTH, Codes, code_of, view_of
from .symmetry import canonical_view, lion_pair, mirror_square, needs_mirror


@kernel
def rank_view(
    board: I64,
    hands: I64,
    squares: int,
    kinds: I64,
    shares: I64,
    offsets: I64,
    slots: I64,
    scratch: I64,
) -> int:
    """The index of a canonical view (see the module docstring), in one pass over the
    squares; ``slots`` numbers the kept pairs of lion squares (``lion_slots``).

    ``shares[i, n]`` holds the arrangements of kinds i.. on n free squares, ``offsets[i, n,
    k]`` where those with k pieces of kind i on the board begin. A square holding kind j is
    free for kinds 0..j (they are placed before it) and taken for the later ones. Per kind,
    ``scratch`` keeps: free squares seen so far, pieces on the board, their subset rank
    (combinatorial number system) and their owners (and promotions) in base 2 or 4.
    """
    count = kinds.shape[0]
    scratch[:] = 0
    mine = theirs = 0
    for s in range(squares):
        piece = board[s]
        if piece & 7 == LION:
            if piece == LION:
                mine = s
            else:
                theirs = s
            continue
        j = count
        if piece != 0:
            kind = CHICK if piece & 7 == HEN else piece & 7
            for i in range(count):
                if kinds[i] == kind:
                    j = i
            place = scratch[4 * j]
            if scratch[4 * j + 1] == 0:
                scratch[4 * j + 2] += place
            else:
                scratch[4 * j + 2] += place * (place - 1) // 2
            if kind == CHICK:
                here = (2 if piece & THEIRS else 0) + (1 if piece & 7 == HEN else 0)
                scratch[4 * j + 3] = scratch[4 * j + 3] * 4 + here
            else:
                scratch[4 * j + 3] = scratch[4 * j + 3] * 2 + (1 if piece & THEIRS else 0)
            scratch[4 * j + 1] += 1
        for i in range(min(j + 1, count)):
            scratch[4 * i] += 1
    index = slots[lion_pair(mine, theirs, squares)] * shares[0, squares - 2]
    free = squares - 2
    for i in range(count):
        k = scratch[4 * i + 1]
        states = 4 if kinds[i] == CHICK else 2
        held = 2 - k
        within = (scratch[4 * i + 2] * states**k + scratch[4 * i + 3]) * (held + 1)
        within += hands[kinds[i] - GIRAFFE]
        index += offsets[i, free, k] + within * shares[i + 1, free - k]
        free -= k
    return int(index)


@kernel
def batch_rank(codes: Codes, height: int, kinds: I64, shares: I64, offsets: I64, slots: I64) -> I64:
    """The index of each code's key (its mover's view, canonical)."""
    squares = height * WIDTH
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        view_of(codes[i], squares, board, hands)
        canonical_view(board, squares)
        out[i] = rank_view(board, hands, squares, kinds, shares, offsets, slots, scratch)
    return out


@kernel
def batch_unrank(
    indices: I64, height: int, kinds: I64, shares: I64, offsets: I64, pairs: I64
) -> Codes:
    """The view (gote's bit clear) of each index; -1 outside the range and for a hole (see
    the module docstring). ``pairs`` lists the kept pairs of lion squares by slot
    (``lion_slots``)."""
    squares = height * WIDTH
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    used = np.zeros(squares, dtype=np.bool_)
    out = np.empty(indices.shape[0], dtype=np.int64)
    lions = pairs.shape[0]
    block = shares[0, squares - 2]
    for i in range(indices.shape[0]):
        index = indices[i]
        if index < 0 or index >= lions * block:
            out[i] = -1
            continue
        board[:] = 0
        hands[:] = 0
        used[:] = False
        pair, rest = pairs[index // block], index % block
        mine, other = pair // (squares - 1), pair % (squares - 1)
        theirs = other if other < mine else other + 1
        board[mine], board[theirs] = LION, THEIRS | LION
        used[mine] = used[theirs] = True
        free = squares - 2
        for j in range(kinds.shape[0]):
            kind = kinds[j]
            states = 4 if kind == CHICK else 2
            k = 0
            while k < 2 and rest >= offsets[j, free, k + 1]:
                k += 1
            rest -= offsets[j, free, k]
            after = shares[j + 1, free - k]
            within, rest = rest // after, rest % after
            held = 2 - k
            mover_holds = within % (held + 1)
            within //= held + 1
            state, subset = within % states**k, within // states**k
            first = second = -1
            if k == 1:
                first = subset
            elif k == 2:
                second = 1
                while (second + 1) * second // 2 <= subset:
                    second += 1
                first = subset - second * (second - 1) // 2
            hands[kind - GIRAFFE] = mover_holds
            hands[3 + kind - GIRAFFE] = held - mover_holds
            position = 0
            put = 0
            for s in range(squares):
                if used[s]:
                    continue
                if put < k and position == (first if put == 0 else second):
                    here = state // states ** (k - 1 - put) % states
                    owner = THEIRS if (here >> 1 if kind == CHICK else here) & 1 else 0
                    promoted = kind == CHICK and here & 1 == 1
                    board[s] = owner | (HEN if promoted else kind)
                    put += 1
                position += 1
            for s in range(squares):
                if board[s] != 0:
                    used[s] = True
            free -= k
        # a hole: the arrangement's mirror image is the canonical one, ranked elsewhere
        out[i] = -1 if needs_mirror(board, squares) else code_of(squares, board, hands, 0, 0)
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
    """``shares`` and ``offsets`` for ``rank_view`` (exact integers, from Python ints)."""

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
