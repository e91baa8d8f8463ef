"""Tic-tac-toe on an n x n board (n in a row wins), as a compiled game with tiers: the
rules GamesmanOne solves as mttt and, tier by tier, as mtttier.

Players X (first) and O alternately mark an empty cell; a full row, column or main
diagonal of one's marks wins; a full board without one is a tie. A position is one int64:
bits 0 to n*n-1 X's marks (cell r * n + c), the next n*n bits O's. Whose turn it is
follows from the counts (X when they are equal). A tier is the number of marks, each move
one tier up; the key folds the square's eight symmetries (the board toolkit).
"""

from perfectplay import LOSS, TIE
from perfectplay.boards.square import has_full_line, least_pair, popcount
from perfectplay.compiled_games import ONGOING, CompiledGame


def marks(p, s):
    """(X's marks, O's marks) as two boards."""
    area = p[0] * p[0]
    board = (1 << area) - 1
    return s & board, (s >> area) & board


class TicTacToe(CompiledGame):
    """Mark cells in turn; n in a line wins."""

    name = "tictactoe-compiled"
    size: int = 3
    max_moves = 49

    def start(p):
        return 0

    def moves(p, s, out):
        x, o = marks(p, s)
        free = ((1 << (p[0] * p[0])) - 1) & ~(x | o)
        n = 0
        for cell in range(p[0] * p[0]):
            if (free >> cell) & 1:
                out[n] = cell
                n += 1
        return n

    def play(p, s, m):
        x, o = marks(p, s)
        if popcount(x) == popcount(o):  # X to move
            return s | (1 << m)
        return s | (1 << (p[0] * p[0] + m))

    def outcome(p, s):
        # The last mover may have completed a line: the player to move has lost.
        x, o = marks(p, s)
        last = x if popcount(x) > popcount(o) else o
        if has_full_line(last, p[0]):
            return LOSS
        if popcount(x | o) == p[0] * p[0]:
            return TIE
        return ONGOING

    def tier(p, s):
        x, o = marks(p, s)
        return popcount(x | o)

    def key(p, s):
        x, o = marks(p, s)
        a, b = least_pair(x, o, p[0])
        return a | (b << (p[0] * p[0]))

    def show(self, s):
        n = self.size
        rows = []
        for r in range(n):
            row = ""
            for c in range(n):
                bit = r * n + c
                row += "X" if (s >> bit) & 1 else "O" if (s >> (n * n + bit)) & 1 else "."
            rows.append(row)
        return "\n".join(rows)

    def format_move(self, m):
        return f"{'abcdefg'[m % self.size]}{m // self.size + 1}"

    def parse_move(self, text):
        column = "abcdefg".index(text[0])
        return (int(text[1:]) - 1) * self.size + column
