"""Dobutsu shogi's moves and un-moves over arrays of codes, in the mover's view.

A move steps a piece (taking what stands there into the mover's hand, a hen as a chick;
a chick stepping onto the far rank becomes a hen) or drops a piece from the hand on any
empty square. An un-move is a move of the other player taken back: the positions one move
before a code from which the game went on; they let the one loopy tier be solved by
retrograde analysis. Each kernel fills preallocated arrays: ``*_into`` for one code, the
``batch_*`` ones for many.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.compiled import inlined_kernel, kernel
from .board import (
    CHICK,
    ELEPHANT,
    GIRAFFE,
    GOTE,
    HANDS,
    HEN,
    I64,
    LION,
    STEP_COL,
    STEP_COUNT,
    STEP_ROW,
    THEIRS,
    WIDTH,
    Codes,
    view_of,
)
from .ends import STRIKES, square_of, striking_squares
from .symmetry import mirrored_cells, needs_mirror

I8 = npt.NDArray[np.int8]

MOST_MOVES = 64
"""More than any position has: 8 pieces of at most 8 steps, and 3 kinds to drop on at most
10 empty squares, never both at full."""
MOST_UNMOVES = 512


@inlined_kernel
def moves_into(code: int, height: int, out: Codes, ends: I8, at: int) -> int:
    """Write the children of ``code`` (open: no lion can be taken) from ``out[at]`` on,
    and where each ends for its mover (``end_of_code``: 1 a WIN, 2 a LOSS, 0 it goes on)
    from ``ends[at]`` on; returns how many. Captures go to the mover's hand (a hen as a
    chick); a chick that steps onto the far rank becomes a hen; pieces in hand drop on any
    empty square.

    A child's end needs no look at the child: no piece slides, so a move changes what
    strikes a square only by the piece it takes. The other player can take the mover's
    lion after the move when one of their pieces strikes its square (the lion's, or where
    the lion steps), the piece taken on that move aside; else the lion on the mover's far
    rank is a try that stands.

    Worked on the code itself, not on a view: gote's pieces step the other way, and each
    child is the code with two cells (or one cell and a hand) changed and the turn passed,
    where writing the view back took a pass over the squares a child (280-330 ns a
    position of 10 children against 130, 2026-11-27). The children come in the view's
    order: squares from the mover's side of the board, each piece's steps in ``STEPS``
    order, then drops."""
    squares = height * WIDTH
    gote = (code >> GOTE) & 1
    own = THEIRS if gote else 0
    sign = -1 if gote else 1  # the view's steps, as seen on the board
    far = height - 1 if gote else 0  # the mover's far rank, where a chick becomes a hen
    hand = HANDS + (6 if gote else 0)  # the mover's hand
    passed = code ^ (1 << GOTE)
    lion = square_of(code, squares, own | LION)
    them = 1 - gote  # the other player's side, as STRIKES reads it: to move in a child
    strike_lion = striking_squares(code, squares, STRIKES[them, :, lion])
    n = at
    for v in range(squares):
        a = squares - 1 - v if gote else v
        piece = (code >> (4 * a)) & 15
        if piece == 0 or piece & THEIRS != own:
            continue
        kind = piece & 7
        row, column = a // WIDTH, a % WIDTH
        for j in range(STEP_COUNT[kind]):
            r, c = row + sign * STEP_ROW[kind, j], column + sign * STEP_COL[kind, j]
            if r < 0 or r >= height or c < 0 or c >= WIDTH:
                continue
            b = r * WIDTH + c
            taken = (code >> (4 * b)) & 15
            if taken != 0 and (taken & THEIRS == own or taken & 7 == LION):
                continue
            moved = own | HEN if kind == CHICK and r == far else piece
            child = passed & ~((15 << (4 * a)) | (15 << (4 * b))) | (moved << (4 * b))
            if taken != 0:
                child += 1 << (hand + 2 * ((CHICK if taken & 7 == HEN else taken & 7) - GIRAFFE))
            out[n] = child
            if kind == LION:
                struck = striking_squares(code, squares, STRIKES[them, :, b]) & ~(1 << b)
                ends[n] = 1 if struck != 0 else (2 if r == far else 0)
            else:
                struck = strike_lion & ~(1 << b)
                ends[n] = 1 if struck != 0 else (2 if lion // WIDTH == far else 0)
            n += 1
    for slot in range(3):
        if (code >> (hand + 2 * slot)) & 3 == 0:
            continue
        dropped = passed - (1 << (hand + 2 * slot))
        for v in range(squares):
            b = squares - 1 - v if gote else v
            if (code >> (4 * b)) & 15 == 0:
                out[n] = dropped | ((own | (GIRAFFE + slot)) << (4 * b))
                ends[n] = 1 if strike_lion != 0 else (2 if lion // WIDTH == far else 0)
                n += 1
    return n - at


@kernel
def batch_moves(codes: Codes, height: int) -> tuple[I64, Codes, I8]:
    """(parents, children, ends) of every code: children of one code together, in order,
    and where each ends for its mover (``moves_into``)."""
    children = np.empty(codes.shape[0] * MOST_MOVES, dtype=np.int64)
    parents = np.empty(codes.shape[0] * MOST_MOVES, dtype=np.int64)
    ends = np.empty(codes.shape[0] * MOST_MOVES, dtype=np.int8)
    n = 0
    for i in range(codes.shape[0]):
        made = moves_into(codes[i], height, children, ends, n)
        parents[n : n + made] = i
        n += made
    return parents[:n].copy(), children[:n].copy(), ends[:n].copy()


@kernel
def unmoves_into(code: int, height: int, out: Codes, at: int, limit: int) -> int:
    """Write every position one move of the other player before ``code`` (from which it is
    that player's turn and the game goes on) from ``out[at]`` on; returns how many, or -1
    when more than ``limit`` would not fit.

    On the code itself, as ``moves_into``: each position before is the code with a cell or
    two (and a hand) changed and the turn given back, kept when the game went on from it
    (as ``end_of_code`` says of it): the mover's lion was not on their home rank, and none
    of their pieces could take it. The lion stays where it is in every position before, so
    the squares from which their pieces strike it are found once (``STRIKES``); a position
    before differs only by the piece taken back, off its square and, after a step, on the
    square it came from (asking ``end_of_code`` of each took 380 ns a position, 6.4
    positions before each, against 185, 2026-11-27). Their pieces are taken in the view's
    order, and for each: a drop taken back, then each step taken back (and each piece of
    the mover's it may have taken)."""
    squares = height * WIDTH
    gote = (code >> GOTE) & 1
    them = 0 if gote else THEIRS  # the owner bit of the pieces of the player who moved
    mover = THEIRS - them
    sign = -1 if gote else 1  # the mover's steps on the board: theirs taken back
    far = 0 if gote else height - 1  # their far rank, where their chick became a hen
    their_hand = HANDS + (0 if gote else 6)
    before = code ^ (1 << GOTE)  # their turn
    lion = square_of(code, squares, mover | LION)
    if lion // WIDTH == (height - 1 if gote else 0):  # on their home rank: no game went on
        return 0
    strikes = STRIKES[1 - gote, :, lion]  # by their pieces (their turn before)
    striking = striking_squares(code, squares, strikes)  # their pieces that strike it now
    end = at + limit
    n = at
    for v in range(squares):
        b = squares - 1 - v if gote else v
        piece = (code >> (4 * b)) & 15
        if piece == 0 or piece & THEIRS != them:
            continue
        kind = piece & 7
        br, bc = b // WIDTH, b % WIDTH
        lifted = before & ~(15 << (4 * b))
        others = striking & ~(1 << b)  # their other pieces that strike the lion
        if kind in (GIRAFFE, ELEPHANT, CHICK) and others == 0:  # dropped from hand
            n = _kept(lifted + (1 << (their_hand + 2 * (kind - GIRAFFE))), out, n, end)
            if n < 0:
                return -1
        if others != 0:
            continue  # the lion could be taken before any move of this piece
        for option in range(2):
            # what stood on ``a`` before: the same piece, or (a hen on their far rank) a chick
            # that stepped there and was promoted; an unpromoted chick there was dropped
            was = kind if option == 0 else CHICK
            if option == 1 and not (kind == HEN and br == far):
                continue
            if option == 0 and kind == CHICK and br == far:
                continue
            for j in range(STEP_COUNT[was]):
                r, c = br + sign * STEP_ROW[was, j], bc + sign * STEP_COL[was, j]
                if r < 0 or r >= height or c < 0 or c >= WIDTH:
                    continue
                a = r * WIDTH + c
                if (code >> (4 * a)) & 15 != 0 or (strikes[them | was] >> a) & 1:
                    continue  # an occupied square, or one from which it struck the lion
                stepped = lifted | ((them | was) << (4 * a))
                n = _kept(stepped, out, n, end)
                if n < 0:
                    return -1
                for slot in range(3):  # or it took a piece of the mover's, now in its hand
                    if (code >> (their_hand + 2 * slot)) & 3 == 0:
                        continue
                    took = stepped - (1 << (their_hand + 2 * slot))
                    for lost in (GIRAFFE + slot, HEN):
                        if lost == HEN and slot != CHICK - GIRAFFE:
                            continue
                        n = _kept(took | ((mover | lost) << (4 * b)), out, n, end)
                        if n < 0:
                            return -1
    return n - at


@inlined_kernel
def _kept(before: int, out: Codes, n: int, end: int) -> int:
    """Write a position before at ``out[n]``; the next free place, or -1 when ``end`` is
    reached."""
    if n >= end:
        return -1
    out[n] = before
    return n + 1


@kernel
def batch_unmoves(codes: Codes, height: int) -> tuple[I64, Codes]:
    """(children, parents) of every code: the positions one move before it, as many times
    as the moves from their key into the code's key (keys fold the mirror image).

    A key's moves are counted from its view alone, and a move into the mirror image of a
    code is the mirror of a move into the code. So where the code is not its own image,
    every parent stands for its key once, but a parent that is its own image moves into the
    code's key also by the mirror of each move: it is given twice. Where the code is its own
    image, each parent that is not meets the code also through its image: only the one that
    is its key's view is given."""
    squares = height * WIDTH
    cells = (1 << (4 * squares)) - 1
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    found = np.empty(MOST_UNMOVES, dtype=np.int64)
    size = codes.shape[0] * 32 + 2 * MOST_UNMOVES
    before = np.empty(size, dtype=np.int64)
    rows = np.empty(size, dtype=np.int64)
    n = 0
    for i in range(codes.shape[0]):
        if before.shape[0] - n < 2 * MOST_UNMOVES:  # room for each parent given twice
            grown = np.empty(2 * before.shape[0], dtype=np.int64)
            grown[:n] = before[:n]
            before = grown
            grown_rows = np.empty(2 * rows.shape[0], dtype=np.int64)
            grown_rows[:n] = rows[:n]
            rows = grown_rows
        own_image = mirrored_cells(codes[i] & cells, squares) == codes[i] & cells
        made = unmoves_into(codes[i], height, found, 0, MOST_UNMOVES)
        if made < 0:
            raise ValueError("a position has more un-moves than MOST_UNMOVES")
        for k in range(made):
            parent = found[k]
            if own_image:
                view_of(parent, squares, board, hands)
                if needs_mirror(board, squares):
                    continue
                copies = 1
            else:
                copies = 2 if mirrored_cells(parent & cells, squares) == parent & cells else 1
            for _ in range(copies):
                rows[n] = i
                before[n] = parent
                n += 1
    return rows[:n].copy(), before[:n].copy()
