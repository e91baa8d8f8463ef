"""Connect Four's search rules over bitboards: the template that ``search.bit_rules`` compiles.

A template (see ``perfectplay.specialised``): ``bit_rules`` copies this file per board, sets
the board's constants below (and ``line_ends``, ``board``'s line test, compiled), and
compiles the functions with numba's disk cache, so a fresh process loads them instead of
compiling. The encoding is drawn on ``board``'s page; the scores and the contract are on
``search``'s. The values below are placeholders (a 7 x 6 board).
"""

from typing import Any

import numpy as np

from perfectplay.games.connect_four.board import line_ends
from perfectplay.games.connect_four.intrinsics import popcount
from perfectplay.protocol import NOT_OVER

WIDTH = 7
CELLS = 42
K = 4  # the length of a winning line
STRIDE = 7  # bits per column: height + 1
DIRECTIONS = (1, 7, 6, 8)  # up a column, along a row, the two diagonals (stride = height + 1)
BOTTOM_ROW = 0  # one bit at the bottom of each column
BOARD = 0  # every cell of the board
COLUMN_MASKS = np.zeros(7, dtype=np.int64)  # each column's cells
ORDER = np.zeros(7, dtype=np.int64)  # the columns from the centre out


def shifted(discs: int, s: int) -> int:
    """The cell x of the result holds the cell x + s of discs (s may be negative)."""
    return discs >> s if s >= 0 else discs << -s


def spots(discs: int, mask: int) -> int:
    """Empty cells that would complete a line of K for discs: x is one when, for some
    direction d and place j of x in a window of K, the other K - 1 cells are discs."""
    found = 0
    for d in DIRECTIONS:
        for j in range(K):
            run = -1
            for i in range(K):
                if i != j:
                    run &= shifted(discs, (i - j) * d)
            found |= run
    return found & (BOARD ^ mask)


def end(s: Any, p: int) -> int:
    """The score of row p when known at once, else NOT_OVER (the safe moves kept in s[p, 3])."""
    mover: int = s[p, 0]
    mask: int = s[p, 1]
    m: int = s[p, 2]
    other = mover ^ mask
    if line_ends(other, STRIDE, K) != 0:
        return -((CELLS + 2 - m) // 2)  # the previous disc made a line
    possible = (mask + BOTTOM_ROW) & BOARD
    if spots(mover, mask) & possible:
        return (CELLS + 1 - m) // 2  # a win now
    threats = spots(other, mask)
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -((CELLS - m) // 2)  # two threats: lost next move
        possible = forced
    safe = possible & ~(threats >> 1)  # never under a threat of the opponent
    if safe == 0:
        return -((CELLS - m) // 2)
    if m >= CELLS - 2:
        return 0  # no win now nor next: the last discs draw
    s[p, 3] = safe
    return NOT_OVER


def bounds(s: Any, p: int) -> tuple[int, int]:
    """Neither player wins on the next move (``end`` said so)."""
    m: int = s[p, 2]
    return -((CELLS - 2 - m) // 2), (CELLS - 1 - m) // 2


def moves(s: Any, p: int, out: Any) -> int:
    """Non-losing moves, those making the most threats first, ties centre first; out[p,
    WIDTH + j] holds the rank of out[p, j] (insertion sort, stable)."""
    mover = s[p, 0]
    mask = s[p, 1]
    safe = s[p, 3]
    n = 0
    for i in range(WIDTH):
        move = safe & COLUMN_MASKS[ORDER[i]]
        if move:
            rank: int = popcount(spots(mover | move, mask | move))  # type: ignore[call-arg]
            j = n
            while j > 0 and out[p, WIDTH + j - 1] < rank:
                out[p, WIDTH + j] = out[p, WIDTH + j - 1]
                out[p, j] = out[p, j - 1]
                j -= 1
            out[p, WIDTH + j] = rank
            out[p, j] = move
            n += 1
    return n


def play(s: Any, p: int, move: int) -> None:
    """Row p + 1: row p after ``move`` (the other player to move)."""
    mask = s[p, 1]
    s[p + 1, 0] = s[p, 0] ^ mask
    s[p + 1, 1] = mask | move
    s[p + 1, 2] = s[p, 2] + 1


def key(s: Any, p: int) -> int:
    """mover + mask: unique per position (the plain game's code)."""
    k: int = s[p, 0] + s[p, 1]
    return k
