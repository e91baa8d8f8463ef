"""Connect Four as a compiled game: the rules once, in Python, over one int64 per position.

Encoding: column c holds bits c*(height+1) .. c*(height+1)+height. In a column with k discs,
bits 0..k-1 tell whose each disc is (1: the first player's) and bit k is set, a marker
above the top disc. The marker makes the code unique, and a column's height is the position
of its highest set bit.
"""

from perfectplay import LOSS, TIE
from perfectplay.compiled_games import ONGOING, CompiledGame


def filled(p, s):
    """The cells holding a disc, as bits (every column's bits below its marker)."""
    width, height = p
    mask = 0
    for c in range(width):
        column = (s >> (c * (height + 1))) & ((1 << (height + 1)) - 1)
        top = 0
        while column >> (top + 1):
            top += 1
        mask |= ((1 << top) - 1) << (c * (height + 1))
    return mask


def has_four(p, discs):
    """Whether four of these discs are in a row: up, across or along a diagonal."""
    height = p[1]
    for step in (1, height + 1, height, height + 2):
        pairs = discs & (discs >> step)
        if pairs & (pairs >> (2 * step)):
            return True
    return False


class ConnectFour(CompiledGame):
    """Drop discs into columns; four in a row wins."""

    name = "connect-four-compiled"
    width: int = 5
    height: int = 4
    max_moves = 16

    def start(p):
        width, height = p
        s = 0
        for c in range(width):
            s |= 1 << (c * (height + 1))  # every column empty: just its marker
        return s

    def moves(p, s, out):
        width, height = p
        n = 0
        for c in range(width):
            if not (s >> (c * (height + 1) + height)) & 1:  # the top cell is free
                out[n] = c
                n += 1
        return n

    def play(p, s, c):
        height = p[1]
        base = c * (height + 1)
        column = (s >> base) & ((1 << (height + 1)) - 1)
        top = 0
        while column >> (top + 1):
            top += 1
        if popcount(filled(p, s)) % 2 == 1:  # the second player's disc: a 0 bit
            s &= ~(1 << (base + top))
        return s | (1 << (base + top + 1))  # the marker moves up

    def outcome(p, s):
        width, height = p
        discs = filled(p, s)
        count = popcount(discs)
        mine = s & discs if count % 2 == 1 else discs & ~s  # the last mover's discs
        if has_four(p, mine):
            return LOSS
        if count == width * height:
            return TIE
        return ONGOING

    def tier(p, s):
        return popcount(filled(p, s))


def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
