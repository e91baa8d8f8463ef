"""Small compiled games with symmetry keys, for the tests of keys that are (or are not)
symmetries of the rules.

``Counters``: two counters, one a player, each 0..goal; the player to move raises or
lowers their own by one, and whoever brings theirs to ``goal`` wins. A state is
a * 64 + b * 2 + turn (a the first player's counter, b the second's, turn 1 when the
second player moves); ``to_move`` says who moves. ``SwappedCounters`` keys a state where
the second player moves as the same position with the players swapped (the first to
move): a true symmetry that changes who is to move. Both have one tier, with cycles.

``TicTacToe``: X's cells in bits 0-8, O's in bits 9-17 (cell 3r + c); X moves when the
counts are equal. Its key is the least image under the 8 symmetries of the square, given
as permutations of the cells; ``wrong`` swaps in a permutation that is no symmetry.
"""

from __future__ import annotations

import numpy as np

from perfectplay.compiled_games import ONGOING, CompiledGame

WIN, LOSS, TIE = 1, 2, 3


class Counters(CompiledGame):
    goal: int = 3
    max_moves = 2

    def start(p):
        return 0

    def moves(p, s, out):
        turn = s & 1
        mine = (s >> 6) if turn == 0 else (s >> 1) & 31
        k = 0
        if mine < p[0]:
            out[k] = 1
            k += 1
        if mine > 0:
            out[k] = -1
            k += 1
        return k

    def play(p, s, m):
        if s & 1 == 0:
            return s + m * 64 + 1
        return s + m * 2 - 1

    def outcome(p, s):
        turn = s & 1
        theirs = (s >> 1) & 31 if turn == 0 else (s >> 6)
        return LOSS if theirs == p[0] else ONGOING

    def to_move(p, s):
        return s & 1

    def tier(p, s):
        return 0


class SwappedCounters(Counters):
    def key(p, s):
        if s & 1 == 0:
            return s
        return ((s >> 1) & 31) * 64 + (s >> 6) * 2


LINES = np.array([7, 56, 448, 73, 146, 292, 273, 84], dtype=np.int64)
SYMMETRIES = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8],
        [2, 1, 0, 5, 4, 3, 8, 7, 6],
        [6, 7, 8, 3, 4, 5, 0, 1, 2],
        [8, 7, 6, 5, 4, 3, 2, 1, 0],
        [0, 3, 6, 1, 4, 7, 2, 5, 8],
        [2, 5, 8, 1, 4, 7, 0, 3, 6],
        [6, 3, 0, 7, 4, 1, 8, 5, 2],
        [8, 5, 2, 7, 4, 1, 6, 3, 0],
    ],
    dtype=np.int64,
)
NOT_A_SYMMETRY = np.array([1, 0, 2, 3, 4, 5, 6, 7, 8], dtype=np.int64)


def has_line(bits):
    for line in LINES:  # noqa: SIM110 (numba compiles no generator)
        if bits & line == line:
            return True
    return False


def image(s, perm):
    out = 0
    for cell in range(9):
        if (s >> cell) & 1:
            out |= 1 << perm[cell]
        if (s >> (cell + 9)) & 1:
            out |= 1 << (perm[cell] + 9)
    return out


class TicTacToe(CompiledGame):
    wrong: bool = False
    max_moves = 9

    def start(p):
        return 0

    def moves(p, s, out):
        taken = (s | (s >> 9)) & 511
        k = 0
        for cell in range(9):
            if not (taken >> cell) & 1:
                out[k] = cell
                k += 1
        return k

    def play(p, s, m):
        x, o = s & 511, s >> 9
        x_moves = bin_count(x) == bin_count(o)
        return s | (1 << m) if x_moves else s | (1 << (m + 9))

    def outcome(p, s):
        x, o = s & 511, s >> 9
        if has_line(x) or has_line(o):
            return LOSS  # whoever moved last made the line
        if (x | o) == 511:
            return TIE
        return ONGOING

    def key(p, s):
        best = s
        for t in range(1, 8):
            perm = NOT_A_SYMMETRY if p[0] and t == 5 else SYMMETRIES[t]
            best = min(best, image(s, perm))
        return best


def bin_count(bits):
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


class CornerStart(TicTacToe):
    """X in the bottom-right corner and O in the centre, X to move: a start that is not its
    own key (the key's image has X in the top-left corner)."""

    def start(p):
        return 1 << 8 | 1 << (9 + 4)
