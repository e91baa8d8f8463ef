"""All Queens Chess as a compiled game, with the rules GamesmanOne solves as
``mallqueenschess`` (its src/games/mallqueenschess).

Two players, W (moving first) and B, each own six queens on a 5 x 5 board: the top row
holds W B W B W, the bottom row B W B W B, and the middle row a B at its left end and a W
at its right end. A move slides one of the mover's queens any number of blank cells in one
of the eight directions; nothing jumps and nothing is captured. Four queens of one colour
in a line (a row, a column or a diagonal) end the game: the player to move then has lost,
as the player who just moved made the line. Play may go on for ever (a draw). (A player
with no move and no line would be a draw in GamesmanOne, whose solver never decides such a
position, and a loss here: no such board exists, on any of these sizes; the tests say so.)
Smaller boards for tests (``size`` 3 or 4): the top and bottom rows as above, no middle
row pieces, and ``min(4, size)`` in a line. GamesmanOne folds the board's eight symmetries
and the swap of the colours (the turn swapped with them): ``key`` folds all sixteen.

A position is one int64: bit r*size + c for W's queens, the same bits shifted by size*size
for B's, and bit 2*size*size set when B is to move. A move is source * 32 + target (cells
r*size + c, GamesmanOne's own move code).
"""

import numpy as np

from perfectplay import LOSS
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import CELL, move_attribute, svg

STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


def line_masks():
    """[n]: every line of min(4, n) cells of an n x n board (n from 3 to 5) as a mask,
    the row filled out with a mask no board covers (bit 62)."""
    table = np.full((6, 28), 1 << 62, dtype=np.int64)
    for n in range(3, 6):
        k = min(4, n)
        found = [
            sum(1 << ((r + i * dr) * n + c + i * dc) for i in range(k))
            for r, c in np.ndindex(n, n)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            if 0 <= r + (k - 1) * dr < n and 0 <= c + (k - 1) * dc < n
        ]
        table[n, : len(found)] = found
    return table


def row_images():
    """[n, t, r, v]: the board whose cells are those of row r holding v's bits (bit c
    for column c), moved by the t-th symmetry of the n x n board (t & 4: transposed, then
    t & 1: rows reversed, t & 2: columns reversed). A board's image: n lookups."""
    table = np.zeros((6, 8, 5, 32), dtype=np.int64)
    for n, t, r, v, c in np.ndindex(6, 8, 5, 32, 5):
        if n >= 3 and r < n and c < n and v < 1 << n and v >> c & 1:
            a, b = (c, r) if t & 4 else (r, c)
            a, b = n - 1 - a if t & 1 else a, n - 1 - b if t & 2 else b
            table[n, t, r, v] |= 1 << (a * n + b)
    return table


LINES = line_masks()  # 5 x 5: 10 rows, 10 columns, 8 diagonals
IMAGES = row_images().reshape(-1)  # flat: [((n * 8 + t) * 5 + r) * 32 + v]


def images(n, white, black, t):
    """Both boards under the t-th symmetry (see ``row_images``)."""
    w, b, row, at = 0, 0, (1 << n) - 1, (n * 8 + t) * 160
    for r in range(n):
        w |= IMAGES[at + r * 32 + ((white >> (r * n)) & row)]
        b |= IMAGES[at + r * 32 + ((black >> (r * n)) & row)]
    return w, b


def sides(p, s):
    """(W's queens, B's queens, 1 when B is to move), each a board of one bit a cell."""
    area = p[0] * p[0]
    board = (1 << area) - 1
    return s & board, (s >> area) & board, (s >> (2 * area)) & 1


class MallQueensChess(CompiledGame):
    """Slide your queens like chess queens; four of one colour in a line ends the game."""

    name = "mall-queens-chess"
    size: int = 5
    max_moves = 96  # six queens, at most 16 targets each

    def start(p):
        n = p[0]
        white = 0
        black = 0
        for c in range(n):  # the top row from W, the bottom row from B, alternating
            if c % 2 == 0:
                white |= 1 << c
                black |= 1 << ((n - 1) * n + c)
            else:
                black |= 1 << c
                white |= 1 << ((n - 1) * n + c)
        if n == 5:
            black |= 1 << 10  # the middle row: B at its left end, W at its right end
            white |= 1 << 14
        return white | (black << (n * n))

    def moves(p, s, out):
        n = p[0]
        white, black, turn = sides(p, s)
        mine = black if turn else white
        taken = white | black
        k = 0
        for source in range(n * n):
            if not (mine >> source) & 1:
                continue
            for dr, dc in STEPS:
                r, c = source // n + dr, source % n + dc
                while 0 <= r < n and 0 <= c < n and not (taken >> (r * n + c)) & 1:
                    out[k] = source * 32 + r * n + c
                    k += 1
                    r += dr
                    c += dc
        return k

    def play(p, s, m):
        area = p[0] * p[0]
        at = area if (s >> (2 * area)) & 1 else 0  # the mover's queens
        s = (s & ~(1 << (at + m // 32))) | (1 << (at + m % 32))
        return s ^ (1 << (2 * area))  # the other player moves next

    def outcome(p, s):
        # A line of either colour (in play, always the last mover's): the mover has lost.
        white, black, _ = sides(p, s)
        for mask in LINES[p[0]]:
            if white & mask == mask or black & mask == mask:
                return LOSS
        return ONGOING

    def tier(p, s):
        # Nothing a move changes goes one way only: one tier, so that the solve is the tier
        # engine's (one loopy tier, laid out or by rounds) rather than a graph in memory.
        return 0

    def key(p, s):
        # The least code among the board's eight images, and the eight of the board with
        # its colours swapped and the other player to move. (By tables of rows: 130 ns a
        # call on 5 x 5, where square.least_pair on both colourings took 407: check --profile.)
        n, area = p[0], p[0] * p[0]
        white, black, turn = sides(p, s)
        best = s
        for t in range(8):
            w, b = images(n, white, black, t)
            best = min(best, w | (b << area) | (turn << (2 * area)))
            best = min(best, b | (w << area) | ((1 - turn) << (2 * area)))
        return best

    def cell(self, s, i):
        """The piece at cell i: W, B or - (blank)."""
        area = self.size * self.size
        return "W" if s >> i & 1 else "B" if s >> (area + i) & 1 else "-"

    def show(self, s):
        """The rows from the top as GamesmanOne prints them (row 1 first, columns a...)."""
        n = self.size
        rows = ["".join(self.cell(s, r * n + c) for c in range(n)) for r in range(n)]
        return "/".join(rows) + (" B to move" if s >> (2 * n * n) & 1 else " W to move")

    def format_move(self, m):
        """GamesmanOne's move string: source row (1 at the top), column letter, then the
        target's."""
        n = self.size
        return "".join(f"{cell // n + 1}{'abcde'[cell % n]}" for cell in (m // 32, m % 32))

    def parse_move(self, text):
        text, n = text.strip().lower(), self.size
        source, target = ((int(text[i]) - 1) * n + "abcde".index(text[i + 1]) for i in (0, 2))
        return source * 32 + target

    def draw_svg(self, state, last=None):
        """The board (row 1 at the top), W's queens white, B's black. A click plays one
        move: a blank cell a queen can reach plays the first move there (its title says
        which)."""
        n, legal, body = self.size, {}, []
        for move in self.moves(state) if self.outcome(state) is None else ():
            legal.setdefault(move % 32, move)
        for i in range(n * n):
            x, y = (i % n) * CELL + 24, (i // n) * CELL + 4
            ringed = " last" if last is not None and last % 32 == i else ""
            name = self.format_move(legal[i]) if i in legal else None
            title = "" if name is None else f"<title>{name}</title>"
            body.append(f'<rect class="cell{ringed}" x="{x}" y="{y}" width="{CELL}" '
                        f'height="{CELL}" fill="#eed" stroke="black"{move_attribute(name)}>'
                        f"{title}</rect>")  # fmt: skip
            if self.cell(state, i) != "-":
                colour = "white" if self.cell(state, i) == "W" else "black"
                body.append(f'<circle class="token" cx="{x + CELL / 2}" cy="{y + CELL / 2}" '
                            f'r="{CELL / 2 - 7}" fill="{colour}" stroke="black"/>')  # fmt: skip
        for k in range(n):
            body.append(f'<text class="label" x="6" y="{k * CELL + 4 + CELL / 2}">{k + 1}</text>')
            body.append(f'<text class="label" x="{k * CELL + 24 + CELL / 2}" '
                        f'y="{n * CELL + 22}">{"abcde"[k]}</text>')  # fmt: skip
        note = self.show(state).split(" ", 1)[1]
        body.append(f'<text class="note" x="6" y="{n * CELL + 44}">{note}</text>')
        return svg(n * CELL + 30, n * CELL + 52, body)
