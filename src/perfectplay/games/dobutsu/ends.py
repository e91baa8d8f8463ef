"""Where Dobutsu shogi ends, over views: a lion that can be taken, a try that stands.

As Tanaka (2009) counts them, a position is over when the mover can take the other lion
(a WIN for the mover) or when the other lion stands on the mover's home rank, which the
mover cannot answer (a LOSS). ``end_of`` reads that for the mover; ``open_for_them`` asks
whether the game goes on with the other player to move, as the un-moves need. Both rest on
``attacks``: which squares a side's pieces step onto.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...protocol import kernel
from .board import I64, LION, STEP_COL, STEP_COUNT, STEP_ROW, THEIRS, WIDTH, Codes, view_of


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
def open_for_them(board: I64, height: int) -> bool:
    """Whether the game goes on from a view in which the other player (owner 8) is to
    move: it cannot take the mover's lion, and the mover's lion is not on row 0."""
    mine = -1
    for s in range(height * WIDTH):
        if board[s] == LION:
            mine = s
    return mine // WIDTH != 0 and not attacks(board, height, THEIRS, mine)
