"""The two symmetries of Dobutsu shogi: the half turn and the mirror, folded into one key.

A position and its half-turned copy with the other player to move are one position (the
mover's view, ``view_of``); a position and its mirror image (columns A and C swapped) are
one too, as Tanaka (2009) counts them: the rules are the same, so both have the same value.
Of a view and its mirror image, the canonical one (the key) is the one whose pair of lion
squares comes first in the ranking's order of pairs (``lion_pair``); when both lions stand
in column B the pairs are the same, and the one whose board, read from the last square
down (as codes compare), is smaller. ``needs_mirror`` says which, without changing the
board; ``canonical_view`` turns a board into the canonical one.
"""

from __future__ import annotations

import numpy as np

from ...core.compiled import inlined_kernel, kernel
from .board import I64, LION, THEIRS, WIDTH, Codes, code_of, view_of


@inlined_kernel
def mirror_square(s: int) -> int:
    """The square across column B: A1 <-> C1, B1 stays."""
    column = s % WIDTH
    return s - column + WIDTH - 1 - column


@inlined_kernel
def lion_pair(mine: int, theirs: int, squares: int) -> int:
    """The pair of lion squares as the ranking numbers it: the mover's, then the other's
    among the squares left."""
    return mine * (squares - 1) + (theirs if theirs < mine else theirs - 1)


@kernel
def needs_mirror(board: I64, squares: int) -> bool:
    """Whether the mirror image of the view ``board`` is the canonical one (see the module
    docstring); a position that is its own mirror image needs none."""
    mine = theirs = 0
    for s in range(squares):
        if board[s] == LION:
            mine = s
        elif board[s] == THEIRS | LION:
            theirs = s
    pair = lion_pair(mine, theirs, squares)
    image = lion_pair(mirror_square(mine), mirror_square(theirs), squares)
    if image != pair:
        return image < pair
    for s in range(squares - 1, -1, -1):
        other = board[mirror_square(s)]
        if other != board[s]:
            return bool(other < board[s])
    return False


@inlined_kernel
def mirrored_cells(cells: int, squares: int) -> int:
    """The board part of a code (4 bits a square, nothing above) reflected left to right:
    the cells of columns A and C swapped in one step, as bit operations."""
    used = (1 << (4 * squares)) - 1
    column_a = 0x00F00F00F00F & used
    return (cells & (column_a << 4)) | ((cells & column_a) << 8) | ((cells >> 8) & column_a)


@inlined_kernel
def image_first(mine: int, theirs: int, cells: int, squares: int) -> bool:
    """``needs_mirror`` on a code's bits: whether the mirror image of the view whose board
    part is ``cells``, the lions on ``mine`` and ``theirs``, is the canonical one."""
    pair = lion_pair(mine, theirs, squares)
    image = lion_pair(mirror_square(mine), mirror_square(theirs), squares)
    if image != pair:
        return image < pair
    return mirrored_cells(cells, squares) < cells


@kernel
def mirror_board(board: I64, squares: int) -> None:
    """Swap columns A and C of ``board`` in place."""
    for s in range(0, squares, WIDTH):
        board[s], board[s + WIDTH - 1] = board[s + WIDTH - 1], board[s]


@kernel
def canonical_view(board: I64, squares: int) -> None:
    """Turn the view ``board`` into its canonical one, in place (hands are not mirrored)."""
    if needs_mirror(board, squares):
        mirror_board(board, squares)


@kernel
def batch_key(codes: Codes, height: int) -> Codes:
    """Each code's key: its mover's view (bit 60 clear), reflected where the image is the
    canonical one."""
    squares = height * WIDTH
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        view_of(codes[i], squares, board, hands)
        canonical_view(board, squares)
        out[i] = code_of(squares, board, hands, 0, 0)
    return out
