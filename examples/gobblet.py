"""Gobblet Gobblers as a compiled game, with the rules GamesmanOne solves (its
src/games/gobblet, the game it calls gobbletg).

X (who moves first) and O each own ``pieces`` pieces of each of three sizes (small, medium,
large; 2 in the real game) for a ``side`` x ``side`` board (3). A move puts a piece from
one's reserve on a cell, or lifts one's own piece showing on top of a cell onto another
cell: onto an empty cell or over a smaller piece, anyone's, which it then hides (a gobble).
Lifting a piece shows what it covered. Only the pieces on top count: after a move, the
player to move wins if a row, column or main diagonal shows only their pieces (even if
another shows only the opponent's); else they lose if one shows only the opponent's (so
a lift that uncovers the opponent's line loses unless the piece put down breaks it).
Pieces never leave the board and a player always has a move: endless play is a draw.

A position is one int64: six layers of side*side bits, layer 2*size + player (size 0
small, player 0 X) from bit layer*area (area = side*side), cell r*side + c; bit 6*area is
set when O is to move. A move is size*area + cell to put a reserve piece down, 3*area +
source*area + target to move a piece on the board. The tier is GamesmanOne's: how many
pieces of each (size, player) are down, in base pieces+1 (a put-down raises it, a move on
the board keeps it). The key folds the board's eight symmetries, all layers at once.
"""

import numpy as np

from perfectplay import LOSS, WIN
from perfectplay.boards.square import has_full_line, popcount
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import move_attribute, svg


def _masks():
    """Per side n, over all six layers: column 0, row 0, each diagonal c - r = d (at d + 2)."""
    columns, rows = np.zeros(4, np.int64), np.zeros(4, np.int64)
    diagonals = np.zeros((4, 5), np.int64)
    for n in range(1, 4):
        for base in range(0, 6 * n * n, n * n):
            for r in range(n):
                columns[n] |= 1 << (base + r * n)
                rows[n] |= 1 << (base + r)
                for c in range(n):
                    diagonals[n, c - r + 2] |= 1 << (base + r * n + c)
    return columns, rows, diagonals


COLUMNS, ROWS, DIAGONALS = _masks()


def reverse(x, n, mask, step):
    """Every layer's rows (step n, mask ROWS[n]) or columns (step 1, COLUMNS[n]) reversed."""
    y = 0
    for i in range(n):
        y |= ((x >> (i * step)) & mask) << ((n - 1 - i) * step)
    return y


def transpose(x, n):
    """Every layer transposed: the diagonal c - r = d moves d * (n - 1) cells."""
    y = x & DIAGONALS[n, 2]
    for d in range(1, n):
        y |= (x & DIAGONALS[n, 2 + d]) << (d * (n - 1)) | (x & DIAGONALS[n, 2 - d]) >> (d * (n - 1))
    return y


def layer(p, s, k):
    """Layer k (2 * size + player) as a board of side*side bits."""
    return (s >> (k * p[0] * p[0])) & ((1 << (p[0] * p[0])) - 1)


def faces(p, s):
    """The cells where X's pieces show, and those where O's show."""
    medium, large = layer(p, s, 2) | layer(p, s, 3), layer(p, s, 4) | layer(p, s, 5)
    x = layer(p, s, 4) | (layer(p, s, 2) & ~large) | (layer(p, s, 0) & ~(medium | large))
    o = layer(p, s, 5) | (layer(p, s, 3) & ~large) | (layer(p, s, 1) & ~(medium | large))
    return x, o


class Gobblet(CompiledGame):
    """Put down or move nesting pieces; three of yours showing in a line wins."""

    name = "gobblet-gobblers"
    side: int = 3
    pieces: int = 2
    max_moves = 75  # 3 sizes x 9 cells to put down; 6 pieces showing x 8 cells to move to

    def start(p):
        return 0

    def moves(p, s, out):
        area = p[0] * p[0]
        mover = (s >> (6 * area)) & 1
        above = 0  # the cells holding a piece larger than size z
        n = 0
        for z in range(2, -1, -1):
            here = layer(p, s, 2 * z) | layer(p, s, 2 * z + 1)
            free = ((1 << area) - 1) & ~(here | above)  # where a piece of size z may go
            mine = layer(p, s, 2 * z + mover)
            sources = (mine & ~above) | (int(popcount(mine) < p[1]) << area)  # (the reserve)
            while sources:
                source = popcount((sources & -sources) - 1)
                sources &= sources - 1
                base = z * area if source == area else 3 * area + source * area
                targets = free
                while targets:
                    out[n] = base + popcount((targets & -targets) - 1)
                    targets &= targets - 1
                    n += 1
            above |= here
        return n

    def play(p, s, m):
        area = p[0] * p[0]
        mover = (s >> (6 * area)) & 1
        if m < 3 * area:  # from the reserve
            return (s | (1 << ((2 * (m // area) + mover) * area + m % area))) ^ (1 << (6 * area))
        source, target = (m - 3 * area) // area, m % area
        z = 2  # the size of the piece on top of the source
        while z > 0 and not ((layer(p, s, 2 * z) | layer(p, s, 2 * z + 1)) >> source) & 1:
            z -= 1
        at = (2 * z + mover) * area
        return ((s & ~(1 << (at + source))) | (1 << (at + target))) ^ (1 << (6 * area))

    def outcome(p, s):
        x, o = faces(p, s)
        if (s >> (6 * p[0] * p[0])) & 1:
            x, o = o, x  # x: the mover's
        return WIN if has_full_line(x, p[0]) else LOSS if has_full_line(o, p[0]) else ONGOING

    def tier(p, s):
        t = 0
        for k in range(5, -1, -1):
            t = t * (p[1] + 1) + popcount(layer(p, s, k))
        return t

    def key(p, s):
        n = p[0]
        best = board = s & ((1 << (6 * n * n)) - 1)
        for y in (board, transpose(board, n)):
            m = reverse(y, n, COLUMNS[n], 1)
            best = min(best, y, m, reverse(y, n, ROWS[n], n), reverse(m, n, ROWS[n], n))
        return best | (s - board)

    def stack(self, s, c):  # cell c's pieces from the bottom up, as (size, player)
        return [(k // 2, k % 2) for k in range(6) if s >> (k * self.side * self.side + c) & 1]

    def show(self, s):
        """Each cell as its small, medium and large piece (X, O or -), rows apart by /."""
        n, cells = self.side, [["-"] * 3 for _ in range(self.side**2)]
        for c, cell in enumerate(cells):
            for z, q in self.stack(s, c):
                cell[z] = "XO"[q]
        rows = [" ".join("".join(cell) for cell in cells[r * n : r * n + n]) for r in range(n)]
        return "/".join(rows) + (" O to move" if s >> (6 * n * n) & 1 else " X to move")

    def format_move(self, m):
        """s5: a small piece put down on cell 5 (cells 1-9, row by row); 3-5: cell 3's top
        piece moved to cell 5."""
        area = self.side * self.side
        if m < 3 * area:
            return f"{'sml'[m // area]}{m % area + 1}"
        return f"{(m - 3 * area) // area + 1}-{m % area + 1}"

    def parse_move(self, text):
        area = self.side * self.side
        if text[0] in "sml":
            return "sml".index(text[0]) * area + int(text[1:]) - 1
        source, target = text.split("-")
        return 3 * area + (int(source) - 1) * area + int(target) - 1

    def draw_svg(self, state, last=None):
        """The cells, the piece on top a disc (X dark, O light, larger for a larger piece) over
        the letters of those hidden; a cell plays the least move onto it; then the reserves."""
        n, area, size = self.side, self.side * self.side, 64
        legal = {}
        for move in sorted(self.moves(state)) if self.outcome(state) is None else []:
            legal.setdefault(move % area, move)
        body = []

        def disc(x, y, r, q, kind):
            return (f'<circle class="{kind}" cx="{x}" cy="{y}" r="{r}" '
                    f'fill="{"white" if q else "black"}" stroke="black"/>')  # fmt: skip

        for c in range(area):
            x, y, move = (c % n) * size, (c // n) * size, legal.get(c)
            click = move_attribute(None if move is None else self.format_move(move))
            ringed = " last" if last is not None and last % area == c else ""
            body.append(f'<rect class="cell{ringed}" x="{x}" y="{y}" width="{size}" '
                        f'height="{size}" fill="wheat" stroke="black"{click}/>')  # fmt: skip
            stack = self.stack(state, c)
            hidden = "".join("xo"[q] + "sml"[z] for z, q in stack[:-1])
            body.append(f'<text class="note" x="{x + 3}" y="{y + size - 4}">{hidden}</text>')
            if stack:
                z, q = stack[-1]
                body.append(disc(x + size / 2, y + size / 2, 10 + 9 * z, q, "mark"))
        for q in (0, 1):  # the reserves
            y = n * size + 16 + 28 * q
            body.append(f'<text class="label" x="4" y="{y + 5}">{"XO"[q]}</text>')
            down = [bin(layer(self.params, state, 2 * z + q)).count("1") for z in range(3)]
            left = [z for z in range(3) for _ in range(self.pieces - down[z])]
            body += [disc(30 + 26 * i, y, 4 + 3 * z, q, "token") for i, z in enumerate(left)]
        return svg(max(n * size, 40 + 78 * self.pieces), n * size + 64, body)
