"""Neutron (Robert Kraus) as a compiled game, with the rules GamesmanOne solves (its
src/games/neutron).

On a size x size board (5 x 5, or 3 or 4 for small tests), the first player's pieces (X)
fill the bottom row, the second player's (O) the top row, the neutron stands in the middle.
Every move slides a piece in one of the eight directions as far as it goes: it stops at
the edge of the board or next to any piece (the neutron included), and it must move one
cell at least. A turn is two slides, made as one move: first the neutron, then one of the
mover's own pieces. The first turn of the game has no neutron slide (X slides a piece). A
turn whose neutron slide ends on a home row (the top or the bottom row) stops there, and
the game is over: the neutron on the bottom row wins for X, on the top row for O, whoever
slid it there. A neutron slide after which the mover has no piece to slide cannot be
made; a player with no turn to make (the neutron stuck, or every slide of it leaving the
mover's pieces stuck) has lost. Positions repeat; play that never ends is a draw. The
board's mirror image (columns reversed) is its only symmetry, as GamesmanOne folds it.

A position is one int64: bit r*size + c for X's pieces, the same bits shifted by
size*size for O's, then 5 bits for the neutron's cell (r*size + c), a bit set when O is to
move, and a bit for the start (the turn without a neutron slide). A move is
neutron direction * 256 + source cell * 8 + piece direction, the directions numbered 0-7
as GamesmanOne's (UL, U, UR, L, R, DL, D, DR): neutron direction 8 for the first turn's
move, source cell 31 (direction 0) for a turn that ends with the neutron on a home row.
"""

import numpy as np

from perfectplay import LOSS, WIN
from perfectplay.boards.square import full, mirror, neighbours
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import move_attribute, svg

DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
NAMES = ("UL", "U", "UR", "L", "R", "DL", "D", "DR")
NO_NEUTRON = 8  # the first turn's neutron direction
NO_PIECE = 31  # the source cell of a turn that ends with the neutron on a home row


def parts(p, s):
    """(X's pieces, O's pieces, the neutron's cell, 1 if O is to move, 1 at the start)."""
    area = p[0] * p[0]
    board = (1 << area) - 1
    rest = s >> (2 * area)
    return s & board, (s >> area) & board, rest & 31, (rest >> 5) & 1, (rest >> 6) & 1


def slide(n, occupied, cell, d):
    """Where a piece on ``cell`` stops sliding in direction d (``cell`` when blocked)."""
    r, c, dr, dc = cell // n, cell % n, DR[d], DC[d]
    while 0 <= r + dr < n and 0 <= c + dc < n and not occupied >> ((r + dr) * n + c + dc) & 1:
        r, c = r + dr, c + dc
    return r * n + c


def piece_moves(p, mine, occupied, base, out, k):
    """Writes base + every slide of one of ``mine``'s pieces into out from k; the new k."""
    n = p[0]
    for cell in range(n * n):
        if (mine >> cell) & 1:
            for d in range(8):
                if slide(n, occupied, cell, d) != cell:
                    out[k] = base + cell * 8 + d
                    k += 1
    return k


class Neutron(CompiledGame):
    """Slide the neutron, then a piece of one's own; the neutron on one's home row wins."""

    name = "neutron-compiled"
    size: int = 5  # 3 to 5 (the neutron starts at cell (size // 2, size // 2))
    max_moves = 320  # 8 neutron slides, then 5 pieces x 8 directions

    def start(p):
        n, area = p[0], p[0] * p[0]
        row, centre = (1 << n) - 1, (n // 2) * n + n // 2  # a row of pieces, the middle
        return row << (area - n) | row << area | centre << (2 * area) | 1 << (2 * area + 6)

    def moves(p, s, out):
        n = p[0]
        x, o, neutron, o_turn, first = parts(p, s)
        mine = o if o_turn else x
        occupied = x | o | (1 << neutron)
        if first:
            return piece_moves(p, mine, occupied, NO_NEUTRON * 256, out, 0)
        k = 0
        for d in range(8):
            dest = slide(n, occupied, neutron, d)
            if dest == neutron:
                continue
            if dest < n or dest >= n * (n - 1):  # on a home row: the turn ends
                out[k] = d * 256 + NO_PIECE * 8
                k += 1
            else:
                after = occupied ^ (1 << neutron) ^ (1 << dest)
                k = piece_moves(p, mine, after, d * 256, out, k)
        return k

    def play(p, s, m):
        n = p[0]
        area = n * n
        x, o, neutron, o_turn, _ = parts(p, s)
        occupied = x | o | (1 << neutron)
        if m >> 8 != NO_NEUTRON:
            dest = slide(n, occupied, neutron, m >> 8)
            occupied ^= (1 << neutron) | (1 << dest)
            neutron = dest
        source = (m >> 3) & 31
        if source != NO_PIECE:
            moved = (1 << source) | (1 << slide(n, occupied, source, m & 7))
            if o_turn:
                o ^= moved
            else:
                x ^= moved
        return x | o << area | neutron << (2 * area) | (1 - o_turn) << (2 * area + 5)

    def outcome(p, s):
        n = p[0]
        x, o, neutron, o_turn, first = parts(p, s)
        if neutron >= n * (n - 1):  # on X's home row: X has won
            return LOSS if o_turn else WIN
        if neutron < n:  # on O's home row: O has won
            return WIN if o_turn else LOSS
        if first:
            return ONGOING
        mine = o if o_turn else x
        occupied = x | o | (1 << neutron)
        for d in range(8):  # a turn to make: a neutron slide, then a piece's if needed
            dest = slide(n, occupied, neutron, d)
            if dest != neutron:
                after = occupied ^ (1 << neutron) ^ (1 << dest)
                if dest < n or dest >= n * (n - 1) or neighbours(mine, n) & ~after & full(n):
                    return ONGOING
        return LOSS  # no turn to make

    def key(p, s):
        # The mirror image (columns reversed): the least of the two codes.
        n = p[0]
        area = n * n
        x, o, neutron, _, _ = parts(p, s)
        image = neutron - neutron % n + n - 1 - neutron % n
        other = mirror(x, n) | mirror(o, n) << area | image << (2 * area)
        return min(s, other | (s >> (2 * area + 5)) << (2 * area + 5))

    def cell_name(self, cell):
        """GamesmanOne's name of a cell: its column's letter, its row counted from the
        bottom (a1 the bottom left, X's side)."""
        return "abcde"[cell % self.size] + str(self.size - cell // self.size)

    def show(self, s):
        n = self.size
        x, o, neutron, o_turn, first = parts((n,), s)
        cells = "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "N" if i == neutron
                        else "." for i in range(n * n))  # fmt: skip
        rows = "/".join(cells[r * n : r * n + n] for r in range(n))
        return rows + (" O" if o_turn else " X") + " to move" + (", first turn" if first else "")

    def format_move(self, m):
        """GamesmanOne's formal move: "a1 U" (the first turn), "N UL" (the neutron onto a
        home row), "N UL c1 U" (the neutron, then a piece)."""
        piece = "" if (m >> 3) & 31 == NO_PIECE else (
            f"{self.cell_name((m >> 3) & 31)} {NAMES[m & 7]}")  # fmt: skip
        if m >> 8 == NO_NEUTRON:
            return piece
        return f"N {NAMES[m >> 8]}" + (f" {piece}" if piece else "")

    def parse_move(self, text):
        words = text.split()
        neutron = NAMES.index(words[1]) if words[0] == "N" else NO_NEUTRON
        piece = words[2:] if words[0] == "N" else words
        if not piece:
            return neutron * 256 + NO_PIECE * 8
        cell = (self.size - int(piece[0][1:])) * self.size + "abcde".index(piece[0][0])
        return neutron * 256 + cell * 8 + NAMES.index(piece[1])

    def draw_svg(self, state, last=None):
        """The board, X's pieces dark, O's light, the neutron red; a piece or the neutron
        is clickable with its first move (the neutron's slide with its first piece slide)."""
        n, step = self.size, 60
        x, o, neutron, _, _ = parts((n,), state)
        legal = {}
        if self.outcome(state) is None:
            for move in self.moves(state):
                source = neutron if move >> 8 != NO_NEUTRON else (move >> 3) & 31
                legal.setdefault(source, move)
        body = []
        for cell in range(n * n):
            cx, cy = step * (cell % n) + step / 2, step * (cell // n) + step / 2
            body.append(f'<rect class="cell" x="{cx - step / 2}" y="{cy - step / 2}" width='
                        f'"{step}" height="{step}" fill="beige" stroke="black"/>')  # fmt: skip
            colour = "black" if x >> cell & 1 else "white" if o >> cell & 1 else (
                "red" if cell == neutron else None)  # fmt: skip
            if colour is None:
                continue
            move = legal.get(cell)
            click = move_attribute(None if move is None else self.format_move(move))
            ringed = " last" if cell == neutron and last is not None and last >> 8 < 8 else ""
            body.append(f'<circle class="piece{ringed}" cx="{cx}" cy="{cy}" r="20" '
                        f'fill="{colour}" stroke="black"{click}/>')  # fmt: skip
        return svg(n * step, n * step, body)
