"""Nine Men's Morris (and Six Men's) as a compiled game, with Gasser's rules.

The board is nested squares joined at the midpoints of their sides: three squares, 24
points (Nine Men's Morris), or two, 16 points (Six Men's Morris: ``points=16``). Each
player has ``stones`` stones in hand. While a player has stones in hand, their move places
one on an empty point; afterwards it slides one of their stones to an adjacent empty
point, or, with ``jumps`` on and exactly three stones left, jumps one to any empty point.
A move that closes a mill (three of the mover's stones on a line: a side of a square, or,
on the 24-point board, a line across the midpoints) also removes one of the opponent's
stones that stands in no mill, or any of them if all do; closing two mills at once still
removes one. A player left with fewer than three stones (on the board and in hand), or
with no move, has lost. A position that repeats is not decided by the rules: a draw.

Points: ring r (0 outer) holds points 8r..8r+7, clockwise from its top-left corner (even:
corners, odd: midpoints). A state is one int64 from the mover's side (Gasser's folding: the
player to move is always "mine"): bits 0-23 the mover's stones, 24-47 the opponent's,
48-51 the mover's stones in hand, 52-55 the opponent's. A move is (source * 25 + target) *
25 + taken: source 24 for a stone from the hand, taken 24 for no removal. ``unmoves`` undoes
moves (a placement, a slide or jump, a stone taken put back), for the loopy tiers' solve.
"""

import numpy as np

from perfectplay import LOSS
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.compiled_games.stones import StoneBoard
from perfectplay.drawing import move_attribute, svg

HAND = 24
"""A move's source when the stone comes from the hand; a move's ``taken`` for none."""
RINGS = {24: 3, 16: 2}


def board_tables(points):
    """(neighbours, mills): each point's adjacent points and each mill, as bit masks."""
    rings = RINGS[points]
    neighbours = [0] * 24
    mills = []
    for ring in range(rings):
        for k in range(8):
            here = 8 * ring + k
            neighbours[here] |= 1 << (8 * ring + (k + 1) % 8) | 1 << (8 * ring + (k + 7) % 8)
            if k % 2 and ring + 1 < rings:  # a midpoint joins the next ring's
                neighbours[here] |= 1 << (here + 8)
                neighbours[here + 8] |= 1 << here
        for corner in (0, 2, 4, 6):  # the square's sides
            mills.append(sum(1 << (8 * ring + (corner + j) % 8) for j in range(3)))
    if rings == 3:  # the lines across the midpoints
        for k in (1, 3, 5, 7):
            mills.append(sum(1 << (8 * ring + k) for ring in range(3)))
    return neighbours, mills


def board_symmetries(points):
    """The board's 16 symmetries as permutations of its points: the square's 8 (turns by a
    quarter, mirror images), each also with the rings turned inside out."""
    rings = RINGS[points]
    found = []
    for inside_out in (False, True):
        for quarter in range(4):
            for mirrored in (False, True):
                image = []
                for ring in range(rings):
                    for k in range(8):
                        turned = ((8 - k) % 8 if mirrored else k) + 2 * quarter
                        image.append(8 * (rings - 1 - ring if inside_out else ring) + turned % 8)
                found.append(tuple(image))
    return tuple(found)


def _tables():
    neighbours = np.zeros((2, 24), dtype=np.int64)
    mills = np.zeros((2, 16), dtype=np.int64)
    for row, points in enumerate((24, 16)):
        found, lines = board_tables(points)
        neighbours[row] = found
        mills[row, : len(lines)] = lines
    return neighbours, mills


NEIGHBOURS, MILLS = _tables()
"""Row 0: the 24-point board, row 1: the 16-point one (mills padded with 0: never full)."""
M24 = (1 << 24) - 1


def count(bits):
    """Stones in a 24-bit mask."""
    bits = bits - ((bits >> 1) & 0x555555)
    bits = (bits & 0x333333) + ((bits >> 2) & 0x333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F
    return (bits * 0x010101 & 0xFFFFFF) >> 16


def board_row(p):
    return 0 if p[0] == 24 else 1


def in_mill(p, stones, point):
    """Whether ``point`` stands in a mill of ``stones``."""
    row = board_row(p)
    for i in range(16):
        line = MILLS[row, i]
        if line != 0 and (line >> point) & 1 and stones & line == line:
            return True
    return False


def takeable(p, theirs):
    """The opponent's stones a mill may take: those in no mill, or all if none is free."""
    row = board_row(p)
    milled = 0  # the stones of every full line
    for i in range(16):
        line = MILLS[row, i]
        if line != 0 and theirs & line == line:
            milled |= line
    free = theirs & ~milled
    return free if free else theirs


class Morris(CompiledGame):
    """Nine Men's Morris (points=24, stones=9) or Six Men's (points=16, stones=6)."""

    points: int = 24
    stones: int = 9
    jumps: bool = True
    # Moves: 3 stones jumping to 21 points, each with up to 9 removals: 567. Un-moves: 3
    # stones that jumped into a mill from 19 points, a stone put back on 18: 1,026.
    max_moves = 1100

    def start(p):
        return p[1] << 48 | p[1] << 52

    def moves(p, s, out):
        row = board_row(p)
        mine, theirs = s & M24, (s >> 24) & M24
        everywhere = (1 << p[0]) - 1
        empty = everywhere & ~(mine | theirs)
        placing = ((s >> 48) & 15) > 0
        flying = not placing and p[2] != 0 and count(mine) == 3
        n = 0
        for source in range(25):
            if placing:
                if source != HAND:
                    continue
                targets = empty
            else:
                if source == HAND or not (mine >> source) & 1:
                    continue
                targets = empty if flying else NEIGHBOURS[row, source] & empty
            for target in range(p[0]):
                if not (targets >> target) & 1:
                    continue
                after = mine | (1 << target)
                if source != HAND:
                    after &= ~(1 << source)
                base = (source * 25 + target) * 25
                if in_mill(p, after, target):
                    victims = takeable(p, theirs)
                    for taken in range(24):
                        if (victims >> taken) & 1:
                            out[n] = base + taken
                            n += 1
                else:
                    out[n] = base + HAND
                    n += 1
        return n

    def play(p, s, m):
        taken, target, source = m % 25, (m // 25) % 25, m // 625
        mine, theirs = s & M24, (s >> 24) & M24
        in_hand, their_hand = (s >> 48) & 15, (s >> 52) & 15
        if source == HAND:
            in_hand -= 1
        else:
            mine &= ~(1 << source)
        mine |= 1 << target
        if taken != HAND:
            theirs &= ~(1 << taken)
        return theirs | mine << 24 | their_hand << 48 | in_hand << 52  # the opponent moves

    def outcome(p, s):
        if count(s & M24) + ((s >> 48) & 15) < 3:
            return LOSS
        return ONGOING

    def unmoves(p, s, out):
        # Every position one move before s, once per move: the player who just moved owns
        # s's "theirs"; their stone on ``target`` came from the hand or from ``source``, and
        # where it closed a mill, one of the mover's stones was taken: put back.
        row = board_row(p)
        mine, theirs = s & M24, (s >> 24) & M24
        in_hand, their_hand = (s >> 48) & 15, (s >> 52) & 15
        empty = ((1 << p[0]) - 1) & ~(mine | theirs)
        flying = p[2] != 0 and count(theirs) == 3
        n = 0
        for target in range(p[0]):
            if not (theirs >> target) & 1:
                continue
            closed = in_mill(p, theirs, target)
            for source in range(25):
                if source == HAND:  # placed: one more in hand before, and hands stay even
                    held = their_hand + 1
                    if held < in_hand or held > in_hand + 1:
                        continue
                    before = theirs & ~(1 << target)
                else:  # slid (or jumped): every stone was placed, on both sides
                    if their_hand != 0 or in_hand != 0 or not (empty >> source) & 1:
                        continue
                    if not flying and not (NEIGHBOURS[row, source] >> target) & 1:
                        continue
                    held = 0
                    before = (theirs & ~(1 << target)) | (1 << source)
                if count(before) + held < 3:  # they had lost there: no move
                    continue
                hands = held << 48 | in_hand << 52
                if not closed:
                    out[n] = before | mine << 24 | hands
                    n += 1
                    continue
                for taken in range(p[0]):
                    if (empty >> taken) & 1 and taken != source:
                        back = mine | (1 << taken)
                        if (takeable(p, back) >> taken) & 1:
                            out[n] = before | back << 24 | hands
                            n += 1
        return n

    def tier(p, s):
        # Stones only leave (taken) and hands only empty: a move never lowers the stage
        # (stones taken, then placed). Once all are placed, the stage splits as Gasser's
        # databases do, by the smaller count on the board: a slide swaps the counts (the
        # mover changes), so it stays in the tier; a mill takes a stone, a later stage.
        mine, theirs = count(s & M24), count((s >> 24) & M24)
        hands = ((s >> 48) & 15) + ((s >> 52) & 15)
        every = 2 * p[1]
        stage = (every - mine - theirs - hands) * (every + 1) + (every - hands)
        return stage * 16 + (min(mine, theirs) if hands == 0 else 0)

    # Ranked by stones (perfectplay.compiled_games.stones): a tier's index is computed from
    # the stones on the board, its 16 images folded; no code is kept per position.

    def stone_board(self):
        return StoneBoard(self.points, board_symmetries(self.points), theirs_at=24, rest_at=48)

    def tier_parts(self, tier):
        """(mover's stones on the board, opponent's, hands as bits 48 on) of a tier: its
        stones gone and placed (see ``tier``); the mover's hand holds the odd stone."""
        every = 2 * self.stones
        stage, fewer = divmod(tier, 16)
        gone, placed = divmod(stage, every + 1)  # stones taken, and placed (those too)
        hands = every - placed
        mine_hand, their_hand = (hands + 1) // 2, hands // 2
        left = every - gone - hands
        parts = []
        for mine in range(left + 1):
            theirs = left - mine
            fits = mine + mine_hand <= self.stones and theirs + their_hand <= self.stones
            # The side that just moved kept three stones or more (else the game had ended
            # before its move), the mover at least two (one is taken a move).
            alive = theirs + their_hand >= 3 and mine + mine_hand >= 2
            split = hands > 0 or min(mine, theirs) == fewer
            if fits and alive and split and mine + theirs <= self.points:
                parts.append((mine, theirs, mine_hand | their_hand << 4))
        return parts

    def child_tiers(self, tier):
        """The tiers one move leads to: a stone placed or not, one taken or not."""
        every = 2 * self.stones
        stage, fewer = divmod(tier, 16)
        gone, placed = divmod(stage, every + 1)
        now_placed = placed + 1 if placed < every else placed  # with stones in hand, one is
        # At most every - 5 stones are ever taken: the side left with two has lost, the
        # other keeps three.
        most = min(every - 5, now_placed)
        found = []
        for taken in (0, 1):
            if gone + taken > most:
                continue
            stage = (gone + taken) * (every + 1) + now_placed
            if now_placed < every:
                found.append(stage * 16)
            elif placed < every:  # the last stone placed: any split of what is left
                left = every - gone - taken
                found += [stage * 16 + low for low in range(2, left // 2 + 1)]  # (2 or more
                # stones each: the mover keeps two at least, the other side three)
            elif taken == 0:  # a slide: the same counts, swapped
                found.append(tier)
            else:  # a mill: either side's count less one
                more = every - gone - fewer
                lows = {min(fewer - 1, more), min(fewer, more - 1)}
                found += [stage * 16 + low for low in sorted(lows) if low >= 2]
        return found

    def show(self, s):
        """The rings as rows of their points (X the mover's, O the opponent's), and the
        stones in hand."""
        rows = []
        for ring in range(RINGS[self.points]):
            cells = ""
            for k in range(8):
                point = 8 * ring + k
                cells += "X" if s >> point & 1 else "O" if s >> (24 + point) & 1 else "."
            rows.append(cells)
        return f"{'/'.join(rows)} X to move, in hand X {s >> 48 & 15} O {s >> 52 & 15}"

    def format_move(self, m):
        taken, target, source = m % 25, (m // 25) % 25, m // 625
        text = str(target) if source == HAND else f"{source}-{target}"
        return text if taken == HAND else f"{text}x{taken}"

    def draw_svg(self, state, last=None):
        """The nested squares, the mover's stones dark, a point's moves clickable (the
        first of them: a slide or placement with its first removal)."""
        size, rings = 300, RINGS[self.points]
        step = size / (2 * rings + 2)
        legal = {}
        if self.outcome(state) is None:
            for move in self.moves(state):
                legal.setdefault((move // 25) % 25, move)
        body = []
        corners = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
        for ring in range(rings):
            low, span = step * (ring + 1), size - 2 * step * (ring + 1)
            body.append(f'<rect class="line" x="{low}" y="{low}" width="{span}" '
                        f'height="{span}" fill="none" stroke="black"/>')  # fmt: skip
            for k, (a, b) in enumerate(corners):
                point = 8 * ring + k
                x, y = low + a * span / 2, low + b * span / 2
                move = legal.get(point)
                click = move_attribute(None if move is None else self.format_move(move))
                colour = "black" if state >> point & 1 else (
                    "white" if state >> (24 + point) & 1 else "grey")  # fmt: skip
                ringed = " last" if last is not None and (last // 25) % 25 == point else ""
                body.append(f'<circle class="point{ringed}" cx="{x}" cy="{y}" r="9" '
                            f'fill="{colour}" stroke="black"{click}/>')  # fmt: skip
        return svg(size, size, body)


class MorrisMidgame(Morris):
    """Every position once all stones are placed (Gasser's mid- and endgame databases), each
    solved whether play from the start reaches it or not. Its start, only the entry to the
    first database (every stone on the board, none taken): the mover's on the first points,
    the opponent's on the next."""

    every_position = True

    def start(p):
        stones = (1 << p[1]) - 1
        return stones | stones << (p[1] + 24)
