"""Dobutsu shogi's encoding: a position as one int64 code, the pieces and their steps.

A code is a position as the players see the board, the first player ("sente") at the
bottom::

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

This module holds what every other one reads: the constants of the layout, the steps of
each piece, the two kernels between a code and a view (``view_of``, ``code_of``), and the
plain helpers of the game class (cells, hands, names of pieces and squares).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.compiled import kernel

Codes = npt.NDArray[np.int64]
I64 = npt.NDArray[np.int64]

WIDTH = 3
LION, GIRAFFE, ELEPHANT, CHICK, HEN = 1, 2, 3, 4, 5
THEIRS = 8
HANDS = 48
GOTE = 60

STEPS = {
    LION: [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
    GIRAFFE: [(-1, 0), (0, -1), (0, 1), (1, 0)],
    ELEPHANT: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    CHICK: [(-1, 0)],
    HEN: [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
}
"""Steps of each piece for the mover (row -1 is forward): up to 8 (row, column) pairs."""
STEP_COUNT = np.zeros(6, dtype=np.int64)
STEP_ROW = np.zeros((6, 8), dtype=np.int64)
STEP_COL = np.zeros((6, 8), dtype=np.int64)
for _kind, _steps in STEPS.items():
    STEP_COUNT[_kind] = len(_steps)
    for _j, (_dr, _dc) in enumerate(_steps):
        STEP_ROW[_kind, _j], STEP_COL[_kind, _j] = _dr, _dc

LETTERS = {LION: "L", GIRAFFE: "G", ELEPHANT: "E", CHICK: "C", HEN: "H"}
"""The letter of each kind, as positions and drops are written."""
KINDS = {"g": GIRAFFE, "e": ELEPHANT, "c": CHICK}
"""The kinds a variant may have beside the lions, by the letters of its ``pieces``."""
ANIMALS = {"L": "lion", "G": "giraffe", "E": "elephant", "C": "chick", "H": "hen"}


# --- kernels: a code and the mover's view of it -----------------------------------------------


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


# --- plain helpers of the game class (written apart from the kernels) -------------------------


def cells_of(code: int, squares: int) -> list[int]:
    """The piece on each square of ``code``, as the code holds it (not turned)."""
    return [(code >> (4 * s)) & 15 for s in range(squares)]


def hand_shift(gote: bool, kind: int) -> int:
    """The first bit of the count of ``kind`` in sente's (or gote's) hand."""
    return HANDS + 2 * (kind - GIRAFFE) + (6 if gote else 0)


def in_hand(code: int, gote: bool, kind: int) -> int:
    """How many of ``kind`` sente (or gote) holds."""
    return (code >> hand_shift(gote, kind)) & 3


def gote_to_move(code: int) -> bool:
    """Whether gote is to move (bit 60)."""
    return bool(code >> GOTE & 1)


def kind_of(piece: int) -> int:
    """A piece's kind, a hen counted as the chick it was."""
    return CHICK if piece & 7 == HEN else piece & 7


def square_name(s: int) -> str:
    """``B3``: the column from sente's left, the row from gote's home rank."""
    return f"{'ABC'[s % 3]}{s // 3 + 1}"


def parse_square(column: str, row: str) -> int:
    """The square of a column letter (``a``-``c``) and a row digit, as ``square_name``."""
    return (int(row) - 1) * 3 + "abc".index(column)
