"""Winkers as a compiled game, with the rules GamesmanOne solves (its src/games/winkers,
game name winkers, one variant), on perfectplay's hexagonal board toolkit.

The board is a hexagon of ``side`` cells a side (3: 19 cells in rows of 3, 4, 5, 4, 3),
cells numbered row by row from the top, left to right. X moves first, then O, in turn. A
move names a cell: on an empty cell the mover puts down a neutral checker of their own
supply (``checkers`` each); on a neutral checker, whoever put it there, the mover sets one
of their winks (``winks`` each), which makes the cell theirs for good. Nothing moves or
leaves the board. Three of one player's winks in a line (along any of the hexagon's three
axes) win for that player at once. A board winked all over without such a line is a tie.
As GamesmanOne judges it, a player to move who has no move (no checker left and no neutral
checker to wink, or no wink left and no empty cell) has won.

A position is one int64 of three masks of ``cells`` bits each: bits 0.. X's winks, then
O's winks, then the neutral checkers still unwinked (19 cells: 57 bits). Whose turn it is
and how many checkers each has put down follow from the board: every move puts a checker
down or winks one, so X moves when the checkers on the board plus the winks are even, and
X's moves (checkers plus winks) equal O's, or exceed them by one when O is to move. A move
is the cell's number (shown from 1, as GamesmanOne's). The tier is the moves made so far,
one more at every move (GamesmanOne's tiers split it by who placed what). The key folds the
twelve symmetries of the hexagon (GamesmanOne folds them too).
"""

import math

from perfectplay import LOSS, TIE, WIN
from perfectplay.boards.hexagon import cells_of, count, has_line, least_pair
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import move_attribute, svg


def size(p):
    """The cells of the board: 3 side (side - 1) + 1."""
    return 3 * p[0] * (p[0] - 1) + 1


def boards(p, s):
    """(X's winks, O's winks, the neutral checkers), three masks."""
    c = size(p)
    every = (1 << c) - 1
    return s & every, (s >> c) & every, (s >> (2 * c)) & every


def tally(p, s):
    """(1 when O is to move else 0, the checkers X and O have put down, their winks), from
    the board alone: X's moves (checkers and winks) equal O's, or one more when O moves."""
    x, o, k = boards(p, s)
    placed, x_winks, o_winks = count(x | o | k), count(x), count(o)  # every checker put down
    o_moves = (placed + x_winks + o_winks) & 1
    x_down = (placed + o_winks - x_winks + o_moves) // 2
    return o_moves, x_down, placed - x_down, x_winks, o_winks


def playable(p, s):
    """(1 when O is to move else 0, the cells the mover can play as a mask)."""
    x, o, k = boards(p, s)
    o_moves, x_down, o_down, x_winks, o_winks = tally(p, s)
    checkers = p[1] - (o_down if o_moves else x_down)
    winks = p[2] - (o_winks if o_moves else x_winks)
    empty = ((1 << size(p)) - 1) & ~(x | o | k)
    return o_moves, (empty if checkers > 0 else 0) | (k if winks > 0 else 0)


class Winkers(CompiledGame):
    """Put down neutral checkers, wink them into your own; three winks in a line win."""

    side: int = 3  # or 2: 7 cells, three lines of three (4: 3 x 37 bits, too many)
    checkers: int = 10  # neutral checkers each player puts down, at most
    winks: int = 10  # winks each player sets, at most
    max_moves = 19

    def start(p):
        return 0

    def moves(p, s, out):
        cells = playable(p, s)[1]
        n = 0
        for i in range(size(p)):
            if cells >> i & 1:
                out[n] = i
                n += 1
        return n

    def play(p, s, m):
        c = size(p)
        bit = 1 << m
        if boards(p, s)[2] & bit == 0:  # an empty cell: a checker put down
            return s | (bit << (2 * c))
        o_moves = playable(p, s)[0]
        return (s ^ (bit << (2 * c))) | (bit << (c * o_moves))  # the checker winked

    def outcome(p, s):
        x, o, _ = boards(p, s)
        o_moves, cells = playable(p, s)
        if has_line(x if o_moves else o, p[0], 3):  # the last mover's three in a line
            return LOSS
        if x | o == (1 << size(p)) - 1:
            return TIE
        if cells == 0:
            return WIN  # GamesmanOne's rule for a player with no move
        return ONGOING

    def tier(p, s):
        x, o, k = boards(p, s)
        return count(x | o | k) + count(x | o)  # the moves made

    def key(p, s):
        # The board as two masks (winked; X's or neutral) folded together, then unfolded.
        c = size(p)
        x, o, k = boards(p, s)
        winked, xk = least_pair(x | o, x | k, p[0])
        return (winked & xk) | ((winked & ~xk) << c) | ((xk & ~winked) << (2 * c))

    def letters(self, s):
        """Each cell's letter, as GamesmanOne's: X or O a wink, C a neutral checker, - empty."""
        x, o, k = boards(self.params, s)
        return ["X" if x >> i & 1 else "O" if o >> i & 1 else "C" if k >> i & 1 else "-"
                for i in range(size(self.params))]  # fmt: skip

    def show(self, s):
        """The rows from the top, who moves, and each player's checkers and winks left."""
        letters, n, rows = self.letters(s), self.side, []
        for row in range(2 * n - 1):
            at = sum(n + min(r, 2 * n - 2 - r) for r in range(row))
            rows.append("".join(letters[at : at + n + min(row, 2 * n - 2 - row)]))
        o_moves, *counts = tally(self.params, s)  # checkers put down (X, O), winks (X, O)
        left = [f"{name} {self.checkers - counts[i]}C {self.winks - counts[2 + i]}W"
                for i, name in enumerate("XO")]  # fmt: skip
        return f"{'/'.join(rows)} {'XO'[o_moves]} to move; left {', '.join(left)}"

    def parse_state(self, text):
        """The cells row by row (X, O, C, - or .; slashes allowed), or GamesmanOne's formal
        position: the cells, then "_" and the checkers X has left, "_" and O's."""
        cells, *hands = text.replace("/", "").replace(".", "-").upper().split("_")
        c = size(self.params)
        if len(cells) != c or set(cells) - set("XOC-") or len(hands) not in (0, 2):
            raise ValueError(f"write {c} cells of X, O, C or -, e.g. C-X/----/-----/-O--/---")
        s = sum(1 << (i + c * "XOC".index(a)) for i, a in enumerate(cells) if a != "-")
        _, x_down, o_down, x_winks, o_winks = tally(self.params, s)
        left = [self.checkers - x_down, self.checkers - o_down]
        if min(left) < 0 or max(left) > self.checkers or max(x_winks, o_winks) > self.winks or (
                hands and [int(h) for h in hands] != left):  # fmt: skip
            raise ValueError(f"no play reaches this board (it leaves checkers {left})")
        return s

    def format_move(self, m):
        return str(m + 1)

    def parse_move(self, text):
        return int(text) - 1

    def draw_svg(self, state, last=None):
        """The board as hexagons: a wink red (X) or blue (O), a neutral checker tan; a cell
        the mover can play is clickable."""
        step, legal = 56, set()
        if self.outcome(state) is None:
            legal = set(self.moves(state))
        span = (2 * self.side - 1) * step
        colours = {"X": "firebrick", "O": "royalblue", "C": "tan", "-": "white"}
        body, letters = [], self.letters(state)
        for i, (x, _, z) in enumerate(cells_of(self.side)):
            cx, cy = span / 2 + (x + z / 2) * step, span / 2 + z * step * math.sqrt(3) / 2
            corners = " ".join(
                f"{cx + step / math.sqrt(3) * math.sin(a * math.pi / 3):.1f},"
                f"{cy + step / math.sqrt(3) * math.cos(a * math.pi / 3):.1f}"
                for a in range(6)
            )
            click = move_attribute(self.format_move(i) if i in legal else None)
            fill = colours[letters[i]]
            body.append(f'<polygon class="cell{" last" if last == i else ""}" points="{corners}" '
                        f'fill="{fill}" stroke="black"{click}/>')  # fmt: skip
        return svg(span, span, body)
