"""Where Dobutsu shogi ends: a lion that can be taken, a try that stands.

As Tanaka (2009) counts them, a position is over when the mover can take the other lion
(a WIN for the mover) or when the other lion stands on the mover's home rank, which the
mover cannot answer (a LOSS). ``end_of_code`` reads that for the mover from a code; its
table of striking squares (``STRIKES``) also tells the un-moves which positions before
went on.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.compiled import inlined_kernel, kernel
from .board import GOTE, I64, LION, STEPS, THEIRS, WIDTH, Codes


def _attack_table() -> npt.NDArray[np.int64]:
    """``STRIKES[gote, piece, target]``: the squares (bit s, on a board of up to 4 rows)
    from which ``piece`` (as a code holds it: owner bit and kind), when it belongs to the
    side to move (gote when ``gote`` is 1), steps onto ``target``; 0 for a piece of the
    other side and for an empty cell."""
    table = np.zeros((2, 16, 12), dtype=np.int64)
    for gote in range(2):
        sign = -1 if gote else 1
        for kind, steps in STEPS.items():
            piece = (THEIRS if gote else 0) | kind
            for source in range(12):
                for dr, dc in steps:
                    r, c = source // WIDTH + sign * dr, source % WIDTH + sign * dc
                    if 0 <= r < 4 and 0 <= c < WIDTH:
                        table[gote, piece, r * WIDTH + c] |= 1 << source
    return table


STRIKES = _attack_table()


@inlined_kernel
def square_of(code: int, squares: int, piece: int) -> int:
    """The square of ``piece`` (as a code holds it), which stands once on the board."""
    at = 0
    for s in range(squares):
        at += s * (((code >> (4 * s)) & 15) == piece)
    return at


@inlined_kernel
def striking_squares(code: int, squares: int, strikes: I64) -> int:
    """The squares (bit s) of the pieces of ``code`` that strike a target, ``strikes``
    being ``STRIKES[side, :, target]``: one table read a square, no branch."""
    found = 0
    for s in range(squares):
        found |= ((strikes[(code >> (4 * s)) & 15] >> s) & 1) << s
    return found


@kernel
def end_of_code(code: int, height: int, strikes: I64) -> int:
    """The end of a position for its mover: 1 (WIN) when it can take the other lion, 2
    (LOSS) when the other lion stands on the mover's home rank (a try the mover cannot
    answer), else 0. On the code itself, with no branch on what a square holds: the other
    lion's square, then one table read a square (``STRIKES``): 21 ns a code where filling
    the mover's view and scanning each piece's steps took 43 (2026-11-27)."""
    squares = height * WIDTH
    gote = (code >> GOTE) & 1
    target = square_of(code, squares, (THEIRS if gote == 0 else 0) | LION)  # the other lion
    if striking_squares(code, squares, strikes[gote, :, target]) != 0:
        return 1
    home = 0 if gote else height - 1  # the mover's home rank, as the code's rows run
    return 2 if target // WIDTH == home else 0


@kernel
def batch_end(codes: Codes, height: int) -> npt.NDArray[np.int8]:
    """end_of_code for every code."""
    out = np.zeros(codes.shape[0], dtype=np.int8)
    for i in range(codes.shape[0]):
        out[i] = end_of_code(codes[i], height, STRIKES)
    return out
