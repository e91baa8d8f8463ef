"""Dobutsu shogi over arrays of codes: moves, un-moves, ends, and the dense ranking.

A code (int64) is a position as the players see the board, the first player ("sente") at
the bottom::

    bits 0..4N-1   square s (s = row * 3 + column, row 0 at the top) in 4 bits:
                   0 empty, 1 lion, 2 giraffe, 3 elephant, 4 chick, 5 hen; +8 for the
                   second player ("gote")
    bits 48..53    sente's hand: giraffes, elephants, chicks (2 bits each)
    bits 54..59    gote's hand, the same
    bit 60         gote to move

The kernels work in the mover's view: the board turned half a turn when gote moves, owners
swapped, so that the mover's pieces carry owner 0 and move up (row 0 is the mover's far
rank). The rules are the same for both players, so a position and its view have the same
value for the mover: the view with bit 60 clear is the position's canonical code (its key).

Ranking (of views): lions first, the mover's on one of N squares and the other's on one of
the N - 1 left; then, for each kind of the variant in turn (giraffes, elephants, chicks),
how many of its two pieces are on the board (k), which of the free squares (combinatorial
number system over the squares not yet used), who owns each (and, for chicks, whether it
is a hen), and how the 2 - k in hand are shared (k + 1 ways... 3 - k of them). Every index
is a position, so the 3x4 game has 132 * 11,878,227 = 1,567,925,964 indices, the count of
positions Tanaka gives for the game (2009).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..protocol import kernel

Codes = npt.NDArray[np.int64]
I64 = npt.NDArray[np.int64]

WIDTH = 3
LION, GIRAFFE, ELEPHANT, CHICK, HEN = 1, 2, 3, 4, 5
THEIRS = 8
HANDS = 48
GOTE = 60

# Steps of each piece for the mover (row -1 is forward): up to 8 (row, column) pairs.
_STEPS = {
    LION: [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
    GIRAFFE: [(-1, 0), (0, -1), (0, 1), (1, 0)],
    ELEPHANT: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    CHICK: [(-1, 0)],
    HEN: [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
}
STEP_COUNT = np.zeros(6, dtype=np.int64)
STEP_ROW = np.zeros((6, 8), dtype=np.int64)
STEP_COL = np.zeros((6, 8), dtype=np.int64)
for _kind, _steps in _STEPS.items():
    STEP_COUNT[_kind] = len(_steps)
    for _j, (_dr, _dc) in enumerate(_steps):
        STEP_ROW[_kind, _j], STEP_COL[_kind, _j] = _dr, _dc

MOST_MOVES = 64
"""More than any position has: 8 pieces of at most 8 steps, and 3 kinds to drop on at most
10 empty squares, never both at full."""
MOST_UNMOVES = 512


@kernel
def view_of(code: int, squares: int, board: I64, hands: I64) -> int:
    """Fill ``board`` and ``hands`` (mover's giraffes, elephants, chicks, then the other
    player's) with the mover's view of ``code``; returns 1 when gote is to move."""
    gote = (code >> GOTE) & 1
    for s in range(squares):
        piece = (code >> (4 * s)) & 15
        if gote == 1:
            board[squares - 1 - s] = piece ^ THEIRS if piece != 0 else 0
        else:
            board[s] = piece
    for j in range(6):
        count = (code >> (HANDS + 2 * j)) & 3
        hands[(j + 3) % 6 if gote == 1 else j] = count
    return gote


@kernel
def code_of(squares: int, board: I64, hands: I64, turned: int, gote_moves: int) -> int:
    """The code of a view: turned half a turn back when ``turned``; ``gote_moves`` sets bit 60."""
    code = 0
    for s in range(squares):
        piece = board[s]
        if turned == 1:
            code |= (piece ^ THEIRS if piece != 0 else 0) << (4 * (squares - 1 - s))
        else:
            code |= piece << (4 * s)
    for j in range(6):
        code |= hands[(j + 3) % 6 if turned == 1 else j] << (HANDS + 2 * j)
    return code | (gote_moves << GOTE)


@kernel
def batch_view(codes: Codes, height: int) -> Codes:
    """Each code as its mover sees it (bit 60 clear): the key of the position."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        view_of(codes[i], height * WIDTH, board, hands)
        out[i] = code_of(height * WIDTH, board, hands, 0, 0)
    return out


@kernel
def batch_mirror(codes: Codes, height: int) -> Codes:
    """Each position reflected left to right (columns A and C swapped): the rules are the
    same, so it has the same value for the mover."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        code = codes[i]
        mirrored = code & ~((1 << (4 * WIDTH * height)) - 1)
        for s in range(WIDTH * height):
            r, c = s // WIDTH, s % WIDTH
            piece = (code >> (4 * s)) & 15
            mirrored |= piece << (4 * (r * WIDTH + WIDTH - 1 - c))
        out[i] = mirrored
    return out


@kernel
def attacks(board: I64, height: int, owner: int, target: int) -> bool:
    """Whether a piece of ``owner`` (0 the mover, 8 the other) steps onto ``target``."""
    sign = 1 if owner == 0 else -1
    tr, tc = target // WIDTH, target % WIDTH
    for s in range(height * WIDTH):
        piece = board[s]
        if piece == 0 or (piece & THEIRS) != owner:
            continue
        kind = piece & 7
        for j in range(STEP_COUNT[kind]):
            if (s // WIDTH) + sign * STEP_ROW[kind, j] == tr and (s % WIDTH) + sign * STEP_COL[
                kind, j
            ] == tc:
                return True
    return False


@kernel
def end_of(board: I64, height: int) -> int:
    """The end for the mover: 1 (WIN) when it can take the other lion, 2 (LOSS) when the
    other lion stands on the mover's home rank (a try the mover cannot answer), else 0."""
    theirs = -1
    for s in range(height * WIDTH):
        if board[s] == THEIRS | LION:
            theirs = s
    if attacks(board, height, 0, theirs):
        return 1
    if theirs // WIDTH == height - 1:
        return 2
    return 0


@kernel
def batch_end(codes: Codes, height: int) -> npt.NDArray[np.int8]:
    """end_of for every code."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    out = np.zeros(codes.shape[0], dtype=np.int8)
    for i in range(codes.shape[0]):
        view_of(codes[i], height * WIDTH, board, hands)
        out[i] = end_of(board, height)
    return out


@kernel
def moves_into(code: int, height: int, out: Codes, at: int, board: I64, hands: I64) -> int:
    """Write the children of ``code`` (open: no lion can be taken) from ``out[at]`` on;
    returns how many. Captures go to the mover's hand (a hen as a chick); a chick that
    steps onto the far rank becomes a hen; pieces in hand drop on any empty square."""
    squares = height * WIDTH
    turned = view_of(code, squares, board, hands)
    after = 1 - turned
    n = at
    for a in range(squares):
        piece = board[a]
        if piece == 0 or piece & THEIRS:
            continue
        for j in range(STEP_COUNT[piece]):
            r, c = a // WIDTH + STEP_ROW[piece, j], a % WIDTH + STEP_COL[piece, j]
            if r < 0 or r >= height or c < 0 or c >= WIDTH:
                continue
            b = r * WIDTH + c
            taken = board[b]
            if (taken != 0 and not taken & THEIRS) or taken == THEIRS | LION:
                continue
            slot = -1
            if taken != 0:
                slot = (CHICK if taken & 7 == HEN else taken & 7) - GIRAFFE
                hands[slot] += 1
            board[b] = HEN if piece == CHICK and r == 0 else piece
            board[a] = 0
            out[n] = code_of(squares, board, hands, turned, after)
            n += 1
            board[a], board[b] = piece, taken
            if slot >= 0:
                hands[slot] -= 1
    for slot in range(3):
        if hands[slot] == 0:
            continue
        hands[slot] -= 1
        for b in range(squares):
            if board[b] == 0:
                board[b] = GIRAFFE + slot
                out[n] = code_of(squares, board, hands, turned, after)
                n += 1
                board[b] = 0
        hands[slot] += 1
    return n - at


@kernel
def batch_moves(codes: Codes, height: int) -> tuple[I64, Codes]:
    """(parents, children) of every code, children of one code together, in order."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    children = np.empty(codes.shape[0] * MOST_MOVES, dtype=np.int64)
    parents = np.empty(codes.shape[0] * MOST_MOVES, dtype=np.int64)
    n = 0
    for i in range(codes.shape[0]):
        made = moves_into(codes[i], height, children, n, board, hands)
        parents[n : n + made] = i
        n += made
    return parents[:n].copy(), children[:n].copy()


@kernel
def unmoves_into(
    code: int, height: int, out: Codes, at: int, board: I64, hands: I64, limit: int
) -> int:
    """Write every position one move of the other player before ``code`` (from which it is
    that player's turn and the game goes on) from ``out[at]`` on; returns how many, or -1
    when more than ``limit`` would not fit."""
    squares = height * WIDTH
    turned = view_of(code, squares, board, hands)
    n = at
    for b in range(squares):
        piece = board[b]
        if not piece & THEIRS:
            continue
        kind = piece & 7
        br, bc = b // WIDTH, b % WIDTH
        if kind in (GIRAFFE, ELEPHANT, CHICK):  # dropped from hand
            board[b] = 0
            hands[3 + kind - GIRAFFE] += 1
            n = _keep(board, hands, height, turned, out, n, at + limit)
            if n < 0:
                return -1
            hands[3 + kind - GIRAFFE] -= 1
            board[b] = piece
        for option in range(2):
            # what stood on ``a`` before: the same piece, or (a hen on their far rank) a chick
            # that stepped there and was promoted; an unpromoted chick there was dropped
            was = kind if option == 0 else CHICK
            if option == 1 and not (kind == HEN and br == height - 1):
                continue
            if option == 0 and kind == CHICK and br == height - 1:
                continue
            for j in range(STEP_COUNT[was]):
                # their steps are the mover's turned round: they came from b - (-step)
                r, c = br + STEP_ROW[was, j], bc + STEP_COL[was, j]
                if r < 0 or r >= height or c < 0 or c >= WIDTH:
                    continue
                a = r * WIDTH + c
                if board[a] != 0:
                    continue
                board[a] = THEIRS | was
                board[b] = 0
                n = _keep(board, hands, height, turned, out, n, at + limit)
                if n < 0:
                    return -1
                for slot in range(3):  # or it took a piece of the mover's, now in its hand
                    if hands[3 + slot] == 0:
                        continue
                    hands[3 + slot] -= 1
                    for lost in (GIRAFFE + slot, HEN):
                        if lost == HEN and slot != CHICK - GIRAFFE:
                            continue
                        board[b] = lost
                        n = _keep(board, hands, height, turned, out, n, at + limit)
                        if n < 0:
                            return -1
                    hands[3 + slot] += 1
                board[a], board[b] = 0, piece
    return n - at


@kernel
def _keep(board: I64, hands: I64, height: int, turned: int, out: Codes, n: int, end: int) -> int:
    """Write the view as a position before, from ``out[n]``, if the game goes on from it;
    the next free place, or -1 when ``end`` is reached."""
    if not _open_for_them(board, height):
        return n
    if n >= end:
        return -1
    out[n] = code_of(height * WIDTH, board, hands, turned, 1 - turned)
    return n + 1


@kernel
def _open_for_them(board: I64, height: int) -> bool:
    """Whether the game goes on from a view in which the other player (owner 8) is to
    move: it cannot take the mover's lion, and the mover's lion is not on row 0."""
    mine = -1
    for s in range(height * WIDTH):
        if board[s] == LION:
            mine = s
    return mine // WIDTH != 0 and not attacks(board, height, THEIRS, mine)


@kernel
def batch_unmoves(codes: Codes, height: int) -> tuple[I64, Codes]:
    """(children, parents) of every code: for each, the positions one move before it."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    size = codes.shape[0] * 32 + MOST_UNMOVES
    before = np.empty(size, dtype=np.int64)
    rows = np.empty(size, dtype=np.int64)
    n = 0
    for i in range(codes.shape[0]):
        if before.shape[0] - n < MOST_UNMOVES:
            grown = np.empty(2 * before.shape[0], dtype=np.int64)
            grown[:n] = before[:n]
            before = grown
            grown_rows = np.empty(2 * rows.shape[0], dtype=np.int64)
            grown_rows[:n] = rows[:n]
            rows = grown_rows
        made = unmoves_into(codes[i], height, before, n, board, hands, MOST_UNMOVES)
        if made < 0:
            raise ValueError("a position has more un-moves than MOST_UNMOVES")
        rows[n : n + made] = i
        n += made
    return rows[:n].copy(), before[:n].copy()


@kernel
def rank_view(
    board: I64, hands: I64, squares: int, kinds: I64, shares: I64, offsets: I64, scratch: I64
) -> int:
    """The index of a view (see the module docstring), in one pass over the squares.

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
    pair = mine * (squares - 1) + (theirs if theirs < mine else theirs - 1)
    index = pair * shares[0, squares - 2]
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
def batch_rank(codes: Codes, height: int, kinds: I64, shares: I64, offsets: I64) -> I64:
    """The index of each code's view."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        view_of(codes[i], height * WIDTH, board, hands)
        out[i] = rank_view(board, hands, height * WIDTH, kinds, shares, offsets, scratch)
    return out


@kernel
def batch_unrank(indices: I64, height: int, kinds: I64, shares: I64, offsets: I64) -> Codes:
    """The view (gote's bit clear) of each index; -1 outside the range."""
    squares = height * WIDTH
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    used = np.zeros(squares, dtype=np.bool_)
    out = np.empty(indices.shape[0], dtype=np.int64)
    lions = squares * (squares - 1)
    block = shares[0, squares - 2]
    for i in range(indices.shape[0]):
        index = indices[i]
        if index < 0 or index >= lions * block:
            out[i] = -1
            continue
        board[:] = 0
        hands[:] = 0
        used[:] = False
        pair, rest = index // block, index % block
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
        out[i] = code_of(squares, board, hands, 0, 0)
    return out


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
