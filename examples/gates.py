"""Gates (by Miller Hollinger) as a compiled game, with the rules GamesmanOne solves (its
src/games/gates, no variants), on perfectplay's hexagonal board toolkit.

The board: a hexagon of ``side`` cells a side less its centre (3: 18 cells in rows of 3, 4,
4, 4, 3, numbered 1-18 as GamesmanOne's; 2: a ring of 6). White (first) and black own
``gates`` gates, ``triangles`` triangles and ``trapezoids`` trapezoids each (2; triangles
and trapezoids are spikes). In turn they put down any piece not yet down, either colour's,
on an empty cell; black puts down the last and moves in the same turn. A move then takes
a spike of the mover's to an empty cell or its own gate: a triangle one step or two (over
an empty cell next to both); a trapezoid one step, or onto an opponent's spike next to it,
sent to any empty cell or the cell the trapezoid left. A spike onto its own gate scores
(leaves the board), and the opponent's next turn first puts that gate on an empty cell (or
leaves it). Scoring one's last spike wins, no move loses; play can go on for ever (a draw).

A position is one int64: three masks of the toolkit's 19 cells (the centre never set),
black's pieces, then a piece's shape in two bits (1 gate, 2 triangle, 3 trapezoid); a bit
for black to move, one once every piece is down, two for the gate to move first (1 the
scorer's lower-numbered gate, 2 its other: GamesmanOne's g1, g2). A move packs the parts of
GamesmanOne's (PARTS), each a cell + 1 in 5 bits (0: none), or a kind (G g A a Z z) + 1.
The tier is GamesmanOne's, less its white gates' cells: the pieces of each kind down, then
the spikes of each kind scored and whether a gate is to move (moves stay in a tier only
without one). No key: GamesmanOne folds no symmetry of Gates.
"""

import math

from perfectplay import LOSS
from perfectplay.boards.hexagon import cells_of, count, full, neighbours
from perfectplay.boards.morris import lowest
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import move_attribute, svg

LETTERS = "--GgAaZz"  # a piece by its code, black + 2 * shape (kind k of G g A a Z z: k + 2)
PARTS = {"p": (30, 25), "g": (15, 20), "m": (0, 5), "t": (10,)}  # a move's parts, by bit
KIND, PUT, GATE_FROM, GATE_TO, SOURCE, TARGET, SENT = 30, 25, 15, 20, 0, 5, 10
SIZES = (1, 1, 7, 19)  # the toolkit's cells by side, the centre (cell size // 2) among them


def board(p, s):  # (white, black, gates, triangles, trapezoids, empty, turn, moving, gate)
    n, at = SIZES[p[0]], 3 * SIZES[p[0]]
    black, low, high = s & ((1 << n) - 1), (s >> n) & ((1 << n) - 1), (s >> 2 * n) & ((1 << n) - 1)
    white, empty = (low | high) & ~black, full(p[0]) & ~(low | high | (1 << (n // 2)))
    turn, moving, gate = (s >> at) & 1, (s >> (at + 1)) & 1, (s >> (at + 2)) & 3
    return white, black, low & ~high, high & ~low, low & high, empty, turn, moving, gate


def down(p, s, k):  # the pieces of kind k on the board
    white, black, gates, triangles, trapezoids = board(p, s)[0:5]
    shape = gates if k < 2 else triangles if k < 4 else trapezoids
    return count(shape & (black if k & 1 else white))


def place(p, s, cell, code):  # (s with a piece of that code, 0 for none, on cell; what was)
    was = 0
    for j in range(3):
        was |= ((s >> (j * SIZES[p[0]] + cell)) & 1) << j
        s = (s & ~(1 << (j * SIZES[p[0]] + cell))) | ((code >> j) & 1) << (j * SIZES[p[0]] + cell)
    return s, was


def part(m, at):  # a move's part (a cell, or a kind), -1 where the move has none
    return ((m >> at) & 31) - 1


def spike_moves(p, s, base, out, n):  # appends base with each move of the mover's spikes
    white, black, gates, triangles, trapezoids, empty, turn, _, _ = board(p, s)
    mine, theirs = (black, white) if turn else (white, black)
    spikes, reach = (triangles | trapezoids) & mine, empty | (gates & mine)
    while spikes:
        a, spikes = lowest(spikes), spikes & (spikes - 1)
        near, prey, source = neighbours(1 << a, p[0]), 0, base | (a + 1) << SOURCE
        targets = near & reach
        if triangles >> a & 1:  # two steps: beyond an empty neighbour
            targets |= neighbours(near & empty, p[0]) & reach
        else:
            prey = near & theirs & (triangles | trapezoids)
        while targets:
            out[n], n = source | (lowest(targets) + 1) << TARGET, n + 1
            targets &= targets - 1
        while prey:
            b, spots, prey = lowest(prey), empty | (1 << a), prey & (prey - 1)
            while spots:
                out[n], n = source | (b + 1) << TARGET | (lowest(spots) + 1) << SENT, n + 1
                spots &= spots - 1
    return n


class Gates(CompiledGame):
    """Put gates and spikes down, then move spikes into your own gates; score them all."""

    side: int = 3  # or 2: the six cells around the centre (small variants)
    gates: int = 2  # each player's gates, 1 or 2
    triangles: int = 2  # each player's triangles, 0 to 2
    trapezoids: int = 2  # each player's trapezoids, 0 to 2
    max_moves = 640  # at most 10 places for the gate x 64 spike moves (2 trapezoids x 32)

    def start(p):
        return 0

    def moves(p, s, out):
        white, black, gates, _, _, empty, turn, moving, gate = board(p, s)
        if moving and not gate:
            return spike_moves(p, s, 0, out, 0)
        n = 0
        if moving:  # the scorer's gate first, put on an empty cell or left, then a spike
            theirs = gates & (white if turn else black)
            g = lowest(theirs & (theirs - 1)) if gate == 2 else lowest(theirs)
            lifted, code = place(p, s, g, 0)
            cells = empty | (1 << g)
            while cells:
                c, cells = lowest(cells), cells & (cells - 1)
                base = (g + 1) << GATE_FROM | (c + 1) << GATE_TO
                n = spike_moves(p, place(p, lifted, c, code)[0], base, out, n)
            return n
        last = count(white | black) == 2 * (p[1] + p[2] + p[3]) - 1  # black's, then black moves
        for k in range(6):
            cells = empty if down(p, s, k) < p[1 + k // 2] else 0
            while cells:
                c, cells = lowest(cells), cells & (cells - 1)
                out[n] = (k + 1) << KIND | (c + 1) << PUT  # (the last: the base of black's moves)
                n = spike_moves(p, place(p, s, c, k + 2)[0], out[n], out, n) if last else n + 1
        return n

    def play(p, s, m):
        at = 3 * SIZES[p[0]]
        if m >> KIND:  # a piece put down; the last one ends the placing
            s = place(p, s, part(m, PUT), part(m, KIND) + 2)[0]
            s |= (count(board(p, s)[5]) == SIZES[p[0]] - 1 - 2 * (p[1] + p[2] + p[3])) << (at + 1)
        if part(m, GATE_FROM) >= 0:
            s, code = place(p, s, part(m, GATE_FROM), 0)
            s = place(p, s, part(m, GATE_TO), code)[0]
        s &= ~(3 << (at + 2))
        if m & 31:  # a spike moved
            b = part(m, TARGET)
            s, piece = place(p, s, part(m, SOURCE), 0)
            s, there = place(p, s, b, piece)
            if there & 6 == 2:  # onto its own gate: it scores, and the gate is to move first
                white, black, gates, _, _, _, _, _, _ = board(p, s)
                lower = gates & (black if there & 1 else white) & ((1 << b) - 1)
                s = place(p, s, b, there)[0] | (2 if lower else 1) << (at + 2)
            elif there:  # a spike taken, sent where the move says
                s = place(p, s, part(m, SENT), there)[0]
        return s ^ (1 << at)

    def outcome(p, s):  # a loss once the opponent has scored their last spike
        white, black, _, triangles, trapezoids, _, turn, _, gate = board(p, s)
        scorer = white if turn else black
        return LOSS if gate and (triangles | trapezoids) & scorer == 0 else ONGOING

    def tier(p, s):
        found, t = board(p, s), 0
        for k in range(5, 1 if found[7] else -1, -1):
            t = 3 * t + (p[1 + k // 2] - down(p, s, k) if found[7] else down(p, s, k))
        return 729 + 2 * t + (0 if found[8] else 1) if found[7] else t

    def letters(self, s):
        """The cells as GamesmanOne prints them, 1 on: G g A a Z z, - empty."""
        cells = [c for c in range(SIZES[self.side]) if c != SIZES[self.side] // 2]
        return "".join(LETTERS[place(self.params, s, c, 0)[1]] for c in cells)

    def show(self, s):
        """The rows from the top (the middle one without the centre), who moves, and how."""
        turn, moving, gate = board(self.params, s)[6:]
        letters, ends = self.letters(s), (3, 7, 11, 15, 18) if self.side == 3 else (2, 4, 6)
        rows = "/".join(letters[a:b] for a, b in zip((0, *ends), ends, strict=False))
        what = f"move {['black', 'white'][turn]}'s {['', 'first', 'second'][gate]} gate"
        return f"{rows} {['white', 'black'][turn]} to {what if gate else ['place', 'move'][moving]}"

    def format_move(self, m):
        """GamesmanOne's move text: p A 5 (put down), g 3 5 (a gate), m 1 2, t 7 (sent)."""
        words, middle = [], SIZES[self.side] // 2
        for letter, ats in PARTS.items():
            found = [part(m, at) for at in ats]
            words += [letter, *(str(c + (c < middle)) for c in found)] if found[0] >= 0 else []
        if m >> KIND:
            words[1] = LETTERS[part(m, KIND) + 2]
        return " ".join(words)

    def draw_svg(self, state, last=None):
        """The cells, a piece its letter on its owner's colour (white, grey); a cell plays the
        first legal move whose spike (else the piece put down) ends there."""
        legal, body, letters, r = {}, [], iter(self.letters(state)), 56 / math.sqrt(3)
        for move in self.moves(state) if self.outcome(state) is None else []:
            legal.setdefault(part(move, TARGET if move & 31 else PUT), move)
        for i, (x, _, z) in enumerate(cells_of(self.side)):
            if i == SIZES[self.side] // 2:
                continue
            letter, cx, cy = next(letters), 56 * (self.side - 0.5 + x + z / 2), 56 * self.side
            cy += 1.5 * r * z - 28
            corners = " ".join(f"{cx + r * math.sin(a * math.pi / 3):.1f},"
                               f"{cy + r * math.cos(a * math.pi / 3):.1f}"
                               for a in range(6))  # fmt: skip
            fill = "white" if letter.isupper() else "grey" if letter.islower() else "wheat"
            click = move_attribute(self.format_move(legal[i]) if i in legal else None)
            body.append(f'<polygon class="cell{" last" if last == i else ""}" points="{corners}" '
                        f'fill="{fill}" stroke="black"{click}/>')  # fmt: skip
            if letter != "-":
                body.append(f'<text class="piece" x="{cx:.1f}" y="{cy + 6:.1f}" '
                            f'text-anchor="middle">{letter.upper()}</text>')  # fmt: skip
        return svg(56 * (2 * self.side - 1), 56 * (2 * self.side - 1), body)
