"""Teeko as a compiled game, with the rules GamesmanOne solves (its src/games/teeko, standard).

On a 5 x 5 board each player has four pieces. First the players take turns to drop them on
blank cells, the first player first; once all eight are down, the player to move slides one
of their pieces to a blank cell next to it (in any of the eight directions). Four pieces in
a line (a row, a column or a diagonal) or on the corners of a unit square win: the player
who makes one wins, so the player to move loses when the board holds one.

A position is one int64: bit r*5 + c for the first player's pieces, the same bits shifted by
25 for the second player's, and bit 50 set when the second player is to move. A drop is its
cell (0-24); a slide is 25 + 25*source + destination.
"""

import numpy as np

from perfectplay import LOSS
from perfectplay.compiled_games import ONGOING, CompiledGame

SIDE = 5
AREA = 25
FULL = (1 << AREA) - 1


def winning_shapes():
    """The 44 sets of four cells that win: 10 rows, 10 columns, 8 diagonals, 16 squares."""
    shapes = []
    for r in range(SIDE):
        for c in range(SIDE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= a < SIDE and 0 <= b < SIDE for a, b in cells):
                    shapes.append(sum(1 << (a * SIDE + b) for a, b in cells))
            if r < SIDE - 1 and c < SIDE - 1:
                shapes.append(sum(1 << ((r + a) * SIDE + c + b) for a in (0, 1) for b in (0, 1)))
    return np.array(shapes, dtype=np.int64)


SHAPES = winning_shapes()


def wins(pieces):
    """Whether ``pieces`` (one bit a cell) hold a winning shape."""
    for shape in SHAPES:  # noqa: SIM110 (numba compiles no generator)
        if pieces & shape == shape:
            return True
    return False


def count(bits):
    """How many bits are set (of the low 32), by adding neighbouring fields."""
    bits = bits - ((bits >> 1) & 0x55555555)
    bits = (bits & 0x33333333) + ((bits >> 2) & 0x33333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F
    return ((bits * 0x01010101) & 0xFFFFFFFF) >> 24


COLUMN = sum(1 << (r * SIDE) for r in range(SIDE))  # the first column's cells
ABOVE = [sum(1 << (r * SIDE + r + k) for r in range(SIDE - k)) for k in range(SIDE)]
A0, A1, A2, A3, A4 = ABOVE  # A_k: the cells k to the right of the diagonal


def image(x, t):
    """A 5 x 5 board of bits (bit 5r + c) transposed (t & 4), rows reversed (t & 1) and
    columns reversed (t & 2), by moving bits in groups."""
    if t & 4:  # cell (r, c + k) and cell (c + k, r) are 4k bits apart
        x = (
            (x & A0)
            | ((x & A1) << 4) | ((x >> 4) & A1)
            | ((x & A2) << 8) | ((x >> 8) & A2)
            | ((x & A3) << 12) | ((x >> 12) & A3)
            | ((x & A4) << 16) | ((x >> 16) & A4)
        )  # fmt: skip
    if t & 1:
        x = ((x & 31) << 20) | (((x >> 5) & 31) << 15) | (x & (31 << 10)) | (
            ((x >> 15) & 31) << 5) | ((x >> 20) & 31)  # fmt: skip
    if t & 2:
        x = (
            ((x & COLUMN) << 4) | ((x >> 4) & COLUMN)
            | ((x & (COLUMN << 1)) << 2) | ((x >> 2) & (COLUMN << 1))
            | (x & (COLUMN << 2))
        )  # fmt: skip
    return x


class Teeko(CompiledGame):
    """Drop four pieces each, then slide them: four in a line or a square wins."""

    name = "teeko-compiled"
    max_moves = 32

    def start(p):
        return 0

    def moves(p, s, out):
        first = s & FULL
        second = (s >> AREA) & FULL
        blank = FULL & ~(first | second)
        n = 0
        if count(first | second) < 8:  # dropping
            for cell in range(AREA):
                if (blank >> cell) & 1:
                    out[n] = cell
                    n += 1
            return n
        mine = second if (s >> 50) & 1 else first
        for cell in range(AREA):
            if not (mine >> cell) & 1:
                continue
            r, c = cell // SIDE, cell % SIDE
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    a, b = r + dr, c + dc
                    if 0 <= a < SIDE and 0 <= b < SIDE and (blank >> (a * SIDE + b)) & 1:
                        out[n] = AREA + AREA * cell + a * SIDE + b
                        n += 1
        return n

    def play(p, s, m):
        shift = AREA if (s >> 50) & 1 else 0
        board = s & ((1 << 50) - 1)
        if m >= AREA:  # a slide: lift the piece first
            board &= ~(1 << (shift + (m - AREA) // AREA))
        board |= 1 << (shift + m % AREA)
        return board | ((1 - ((s >> 50) & 1)) << 50)  # the other player moves next

    def outcome(p, s):
        # Whoever just moved made any shape on the board (one made earlier ended the game).
        if wins(s & FULL) or wins((s >> AREA) & FULL):
            return LOSS
        return ONGOING

    def tier(p, s):
        # Pieces are never taken off: the drops go up one tier each, the slides stay in tier 8.
        return count(s & FULL) + count((s >> AREA) & FULL)

    def key(p, s):
        # The board's eight symmetries give positions of the same value: the least code.
        first = s & FULL
        second = (s >> AREA) & FULL
        turn = s & (1 << 50)
        best = s
        for t in range(1, 8):
            best = min(best, image(first, t) | (image(second, t) << AREA) | turn)
        return best

    def show(self, s):
        rows = []
        for r in range(SIDE):
            row = ""
            for c in range(SIDE):
                bit = r * SIDE + c
                row += "X" if (s >> bit) & 1 else "O" if (s >> (AREA + bit)) & 1 else "."
            rows.append(row)
        return "/".join(rows) + (" O to move" if (s >> 50) & 1 else " X to move")

    def format_move(self, m):
        def name(cell):
            return "abcde"[cell % SIDE] + str(SIDE - cell // SIDE)

        if m < AREA:
            return name(m)
        return name((m - AREA) // AREA) + "-" + name(m % AREA)
