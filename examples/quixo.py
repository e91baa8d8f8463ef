"""Quixo as a compiled game, with the rules GamesmanOne solves (its src/games/quixo).

On a size x size board, the player to move takes a cube from the border that is blank or
their own, and pushes it back into its row or column from an end it is not already at: the
cubes between shift one place toward where it was, and the cube, now theirs, lands at
that end. The player to move wins when they have a full line (row, column or diagonal),
whether or not the other player has one; else they lose when the other player has one.

A position is one int64: bit r*size + c for the first player's cubes, the same bits
shifted by size*size for the second player's, and bit 2*size*size set when the second
player is to move. A move is source cell * 4 + direction (0 left, 1 right, 2 down, 3 up).
"""

from perfectplay import LOSS, WIN
from perfectplay.compiled_games import ONGOING, CompiledGame


def full_line(p, cubes):
    """Whether ``cubes`` (one bit a cell) hold a whole row, column or diagonal."""
    size = p[0]
    row = (1 << size) - 1
    column = 0
    diagonal = 0
    anti = 0
    for i in range(size):
        column |= 1 << (i * size)
        diagonal |= 1 << (i * size + i)
        anti |= 1 << (i * size + size - 1 - i)
    for i in range(size):
        if cubes & (row << (i * size)) == row << (i * size):
            return True
        if cubes & (column << i) == column << i:
            return True
    return cubes & diagonal == diagonal or cubes & anti == anti


def image_4x4(x, t):
    """A 4 x 4 board of bits (bit 4r + c) transposed (t & 4), rows reversed (t & 1) and
    columns reversed (t & 2), by swapping bits in place."""
    if t & 4:
        d = (x ^ (x >> 3)) & 0x0A0A  # within 2 x 2 blocks
        x ^= d ^ (d << 3)
        d = (x ^ (x >> 6)) & 0x00CC  # the two off-diagonal blocks
        x ^= d ^ (d << 6)
    if t & 1:
        x = ((x >> 4) & 0x0F0F) | ((x & 0x0F0F) << 4)
        x = ((x >> 8) & 0x00FF) | ((x & 0x00FF) << 8)
    if t & 2:
        x = ((x >> 1) & 0x5555) | ((x & 0x5555) << 1)
        x = ((x >> 2) & 0x3333) | ((x & 0x3333) << 2)
    return x


def least_image_4x4(s):
    """The least code among a 4 x 4 position's eight symmetric images."""
    first = s & 0xFFFF
    second = (s >> 16) & 0xFFFF
    turn = s & (1 << 32)
    best = s
    for t in range(1, 8):
        best = min(best, image_4x4(first, t) | (image_4x4(second, t) << 16) | turn)
    return best


def count(bits):
    """How many bits are set (of the low 32), by adding neighbouring fields."""
    bits = bits - ((bits >> 1) & 0x55555555)
    bits = (bits & 0x33333333) + ((bits >> 2) & 0x33333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F
    return ((bits * 0x01010101) & 0xFFFFFFFF) >> 24


def cell(p, s, r, c):
    """0 blank, 1 the first player's cube, 2 the second's."""
    size = p[0]
    bit = r * size + c
    return ((s >> bit) & 1) | (((s >> (size * size + bit)) & 1) << 1)


class Quixo(CompiledGame):
    """Push cubes into rows and columns; a full line of yours wins."""

    name = "quixo-compiled"
    size: int = 4
    max_moves = 64

    def start(p):
        return 0

    def moves(p, s, out):
        size = p[0]
        mover = 1 + ((s >> (2 * size * size)) & 1)
        n = 0
        for r in range(size):
            for c in range(size):
                if 0 < r < size - 1 and 0 < c < size - 1:
                    continue  # not on the border
                if cell(p, s, r, c) == 3 - mover:
                    continue  # the other player's cube
                if c > 0:
                    out[n] = (r * size + c) * 4 + 0
                    n += 1
                if c < size - 1:
                    out[n] = (r * size + c) * 4 + 1
                    n += 1
                if r > 0:
                    out[n] = (r * size + c) * 4 + 2
                    n += 1
                if r < size - 1:
                    out[n] = (r * size + c) * 4 + 3
                    n += 1
        return n

    def play(p, s, m):
        size = p[0]
        area = size * size
        mover = 1 + ((s >> (2 * area)) & 1)
        r = (m // 4) // size
        c = (m // 4) % size
        direction = m % 4
        dr, dc = 0, 0
        end_r, end_c = r, c
        if direction == 0:
            dc, end_c = -1, 0
        elif direction == 1:
            dc, end_c = 1, size - 1
        elif direction == 2:
            dr, end_r = -1, 0
        else:
            dr, end_r = 1, size - 1
        board = s & ((1 << (2 * area)) - 1)
        while r != end_r or c != end_c:  # shift the cubes toward the source
            here = cell(p, board, r + dr, c + dc)
            bit = r * size + c
            board &= ~((1 << bit) | (1 << (area + bit)))
            if here == 1:
                board |= 1 << bit
            elif here == 2:
                board |= 1 << (area + bit)
            r, c = r + dr, c + dc
        bit = end_r * size + end_c
        board &= ~((1 << bit) | (1 << (area + bit)))
        board |= 1 << (bit if mover == 1 else area + bit)
        return board | ((2 - mover) << (2 * area))  # the other player moves next

    def outcome(p, s):
        size = p[0]
        area = size * size
        first = s & ((1 << area) - 1)
        second = (s >> area) & ((1 << area) - 1)
        mine, theirs = (second, first) if (s >> (2 * area)) & 1 else (first, second)
        if full_line(p, mine):
            return WIN
        if full_line(p, theirs):
            return LOSS
        return ONGOING

    def tier(p, s):
        # Cubes are never taken off the board: neither player's count ever falls.
        area = p[0] * p[0]
        return count(s & ((1 << area) - 1)) * (area + 1) + count((s >> area) & ((1 << area) - 1))

    def key(p, s):
        # The board's eight symmetries give positions of the same value: the least code.
        size = p[0]
        area = size * size
        if size == 4:
            return least_image_4x4(s)
        best = s
        for t in range(1, 8):
            moved = s & (1 << (2 * area))  # whose turn it is stays
            for r in range(size):
                for c in range(size):
                    a, b = (c, r) if t & 4 else (r, c)
                    if t & 1:
                        a = size - 1 - a
                    if t & 2:
                        b = size - 1 - b
                    here, there = r * size + c, a * size + b
                    moved |= ((s >> here) & 1) << there
                    moved |= ((s >> (area + here)) & 1) << (area + there)
            best = min(best, moved)
        return best

    def show(self, s):
        area = self.size * self.size
        rows = []
        for r in range(self.size):
            row = ""
            for c in range(self.size):
                bit = r * self.size + c
                row += "X" if (s >> bit) & 1 else "O" if (s >> (area + bit)) & 1 else "."
            rows.append(row)
        return "/".join(rows) + (" O to move" if (s >> (2 * area)) & 1 else " X to move")
