"""Kaooa (crows and vulture) as a compiled game, with the rules GamesmanOne solves (its
src/games/kaooa, game name mkaooa, no variants).

The board is a pentagram: five tips (points 0-4, clockwise from the top) and the five
corners of the inner pentagon (point 5 + q lies between tips q and q + 1). Its five lines
each hold four points: tip t, inner t, inner t + 1, tip t + 2 (indices mod 5); points next
to each other on a line are adjacent. The crows (first player, ``crows`` of them) move
first: while some are still in hand, a crow's move drops one on any empty point; once all
are dropped, it slides one crow to an adjacent empty point. The vulture's first move drops
it on any empty point; after that it slides to an adjacent empty point or jumps along a
line over an adjacent crow to the empty point just beyond, taking that crow (one jump a
move; jumping is never forced). The crows lose when ``captures`` of them have been taken
(dropped minus on the board); the side to move loses when the vulture stands with no move
(GamesmanOne asks this whichever side is to move; play only meets it with the vulture to
move, as a vulture that has just moved leaves an empty point it can return to). The crows
always have a move. Play can go on for ever: a draw.

A position is one int64: bits 0-9 the crows' points, bits 10-19 the vulture's (one bit, or
none before its drop), bits 20-22 the crows dropped, bit 23 set when the vulture is to
move. A move is source * 10 + destination, as GamesmanOne's ``from to``: a drop has source
= destination. Tiers: the crows taken, then dropped, then whether the vulture is down
(none ever decreases); only slides stay in a tier.
"""

import numpy as np

from perfectplay import LOSS
from perfectplay.boards.morris import lowest
from perfectplay.boards.square import popcount
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import move_attribute, svg

POINTS = 10
EVERY = (1 << POINTS) - 1
VULTURE = 10  # the vulture's bit, from here
DROPPED = 20  # the crows dropped, three bits from here
TURN = 1 << 23  # set: the vulture is to move
LINES = [(t, 5 + t, 5 + (t + 1) % 5, (t + 2) % 5) for t in range(5)]


def tables():
    """Each point's neighbours (a mask); each point's two jumps (over, to); the point
    jumped over by a move from * 10 + to (-1 where that move is no jump)."""
    near = np.zeros(POINTS, dtype=np.int64)
    over = np.zeros((POINTS, 2), dtype=np.int64)
    to = np.zeros((POINTS, 2), dtype=np.int64)
    middle = np.full(POINTS * POINTS, -1, dtype=np.int64)
    jumps = [0] * POINTS
    for a, b, c, d in LINES:
        for x, y in ((a, b), (b, c), (c, d)):
            near[x] |= 1 << y
            near[y] |= 1 << x
        for x, y, z in ((a, b, c), (b, c, d), (d, c, b), (c, b, a)):
            over[x, jumps[x]], to[x, jumps[x]] = y, z
            jumps[x] += 1
            middle[x * POINTS + z] = y
    return near, over, to, middle


NEAR, OVER, TO, MIDDLE = tables()


def taken(s):
    """The crows taken so far: those dropped less those on the board."""
    return ((s >> DROPPED) & 7) - popcount(s & EVERY)


def vulture_targets(s):
    """Where the vulture (on the board) can go: its slides' and jumps' points, a mask."""
    crows, v = s & EVERY, lowest((s >> VULTURE) & EVERY)
    empty = EVERY & ~(crows | (1 << v))
    targets = NEAR[v] & empty
    for k in range(2):
        if (crows >> OVER[v, k]) & 1:
            targets |= (1 << TO[v, k]) & empty
    return targets


class Kaooa(CompiledGame):
    """Crows (first) drop then slide; the vulture drops then slides or jumps to take them."""

    # GamesmanOne's game: 6 and 3. The traditional one, 7 and 4 (a 7-crow option is
    # commented out in GamesmanOne's source): a win for the crows in 15.
    crows: int = 6  # in hand at the start (1 to 7)
    captures: int = 3  # crows taken that win for the vulture
    max_moves = 20

    def start(p):
        return 0

    def moves(p, s, out):
        crows, vulture = s & EVERY, (s >> VULTURE) & EVERY
        empty = EVERY & ~(crows | vulture)
        if s & TURN and vulture:  # the vulture's slides and jumps
            sources, drop = vulture, False
        elif s & TURN or ((s >> DROPPED) & 7) < p[0]:  # the vulture's or a crow's drop
            sources, drop = empty, True
        else:  # a crow's slide
            sources, drop = crows, False
        n = 0
        while sources:
            source = lowest(sources)
            sources &= sources - 1
            if drop:
                targets = 1 << source
            elif s & TURN:
                targets = vulture_targets(s)
            else:
                targets = NEAR[source] & empty
            while targets:
                out[n] = source * POINTS + lowest(targets)
                targets &= targets - 1
                n += 1
        return n

    def play(p, s, m):
        source, target = m // POINTS, m % POINTS
        if s & TURN:  # the vulture: moved (its old bit cleared), a jumped crow taken
            s = (s & ~(EVERY << VULTURE)) | (1 << (VULTURE + target))
            if MIDDLE[m] >= 0:
                s &= ~(1 << MIDDLE[m])
            return s & ~TURN
        if source == target:  # a crow dropped
            return ((s | (1 << target)) + (1 << DROPPED)) | TURN
        return (s ^ (1 << source) ^ (1 << target)) | TURN

    def outcome(p, s):
        if taken(s) >= p[1]:
            return LOSS
        if (s >> VULTURE) & EVERY and vulture_targets(s) == 0:
            return LOSS  # the vulture trapped, whoever is to move (as GamesmanOne's)
        return ONGOING

    def tier(p, s):
        placed = 1 if (s >> VULTURE) & EVERY else 0
        return (taken(s) * 8 + ((s >> DROPPED) & 7)) * 2 + placed

    def show(self, s):
        """GamesmanOne's board order (tips 0-4 / inner 5-9: C crow, V vulture, - empty),
        who moves, and the crows dropped and taken."""
        cells = "".join(
            "C" if s >> i & 1 else "V" if s >> (VULTURE + i) & 1 else "-" for i in range(POINTS)
        )
        mover = "vulture" if s & TURN else "crows"
        counts = f"dropped {s >> DROPPED & 7}, taken {taken(s)}"
        return f"{cells[:5]}/{cells[5:]} {mover} to move, {counts}"

    def format_move(self, m):
        source, target = divmod(m, POINTS)
        if source == target:
            return str(target)
        return f"{source}{'x' if MIDDLE[m] >= 0 else '-'}{target}"

    def parse_move(self, text):
        if len(text) == 1:
            return int(text) * (POINTS + 1)
        return int(text[0]) * POINTS + int(text[2])

    def draw_svg(self, state, last=None):
        """The pentagram, crows black and the vulture red; a point is clickable with the
        first legal move that ends there."""
        size, centre = 300, 150
        legal = {}
        if self.outcome(state) is None:
            for move in self.moves(state):
                legal.setdefault(move % POINTS, move)
        where = []
        for i in range(POINTS):
            radius, turn = (130, i) if i < 5 else (50, i - 5 + 0.5)
            angle = np.pi / 2 - 2 * np.pi * turn / 5
            where.append((centre + radius * np.cos(angle), centre + 12 - radius * np.sin(angle)))
        body = []
        for a, *_, d in LINES:
            (x1, y1), (x2, y2) = where[a], where[d]
            body.append(f'<line class="line" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                        f'y2="{y2:.1f}" stroke="black"/>')  # fmt: skip
        for i, (x, y) in enumerate(where):
            move = legal.get(i)
            click = move_attribute(None if move is None else self.format_move(move))
            colour = "black" if state >> i & 1 else (
                "firebrick" if state >> (VULTURE + i) & 1 else "grey")  # fmt: skip
            ringed = " last" if last is not None and last % POINTS == i else ""
            body.append(f'<circle class="point{ringed}" cx="{x:.1f}" cy="{y:.1f}" r="11" '
                        f'fill="{colour}" stroke="black"{click}/>')  # fmt: skip
        note = f"dropped {state >> DROPPED & 7}, taken {taken(state)}"
        body.append(f'<text class="note" x="6" y="{size - 6}">{note}</text>')
        return svg(size, size, body)
