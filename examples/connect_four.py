"""Connect Four as a compiled game: the rules once, in Python, over one int64 per position.

A position is one int64: bit c*height + r tells whose disc is in column c, row r (1: the
first player's; 0: the second player's, or no disc), and three bits per column above those
(from bit width*height) hold the column's height. 7 x 6 takes 42 + 21 = 63 bits.
"""

from perfectplay import LOSS, TIE
from perfectplay.compiled_games import ONGOING, CompiledGame


def column_height(p, s, c):
    width, height = p
    return (s >> (width * height + 3 * c)) & 7


def discs(p, s):
    """How many discs are on the board."""
    n = 0
    for c in range(p[0]):
        n += column_height(p, s, c)
    return n


def has_four(p, bits):
    """Whether four of ``bits`` (one bit a cell, columns height + 1 bits apart, so that no
    line wraps from one column into the next) are in a row."""
    height = p[1]
    for step in (1, height + 1, height, height + 2):
        pairs = bits & (bits >> step)
        if pairs & (pairs >> (2 * step)):
            return True
    return False


class ConnectFour(CompiledGame):
    """Drop discs into columns; four in a row wins."""

    name = "connect-four-compiled"
    width: int = 5
    height: int = 4
    max_moves = 7

    def start(p):
        return 0  # every column empty

    def moves(p, s, out):
        n = 0
        for c in range(p[0]):
            if column_height(p, s, c) < p[1]:
                out[n] = c
                n += 1
        return n

    def play(p, s, c):
        width, height = p
        row = column_height(p, s, c)
        if discs(p, s) % 2 == 0:  # the first player's disc: a 1 bit
            s |= 1 << (c * height + row)
        return s + (1 << (width * height + 3 * c))  # the column grows by one

    def outcome(p, s):
        width, height = p
        first = 0  # the first player's discs, and the second's, columns height + 1 apart
        second = 0
        count = 0
        for c in range(width):
            k = column_height(p, s, c)
            count += k
            column = (s >> (c * height)) & ((1 << k) - 1)
            first |= column << (c * (height + 1))
            second |= (column ^ ((1 << k) - 1)) << (c * (height + 1))
        if has_four(p, first if count % 2 == 1 else second):  # the last mover's discs
            return LOSS
        if count == width * height:
            return TIE
        return ONGOING

    def tier(p, s):
        return discs(p, s)

    def max_plies(self):  # the longest game: the compiled search takes positions from here
        return self.width * self.height

    def show(self, s):
        rows = []
        for r in reversed(range(self.height)):
            row = ""
            for c in range(self.width):
                k = (s >> (self.width * self.height + 3 * c)) & 7
                row += "." if r >= k else "XO"[1 - (s >> (c * self.height + r)) & 1]
            rows.append(row)
        return "/".join(rows)
