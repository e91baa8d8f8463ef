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
the moves inside a tier (a slide or jump that closed no mill), for the loopy tiers' solve;
``exits`` and ``stays`` split a state's moves at its tier's edge (mills leave it, other
slides stay), so that the solve plays only the moves that leave.
"""

from perfectplay import LOSS
from perfectplay.boards.morris import (
    closers,
    count,
    everywhere,
    in_mill,
    lowest,
    mill_points,
    neighbours,
    slides_count,
    symmetries_of,
    takeable,
)
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.compiled_games.stones import StoneBoard
from perfectplay.drawing import move_attribute, svg

HAND = 24
"""A move's source when the stone comes from the hand; a move's ``taken`` for none."""
RINGS = {24: 3, 16: 2}
M24 = (1 << 24) - 1


def add_move(out, n, base, closes, victims):
    """Write the move ``base`` (its source and target) at out[n]: once with each stone in
    ``victims`` taken when it closes a mill, else once taking none; the new count."""
    if not closes:
        out[n] = base + HAND
        return n + 1
    while victims:
        out[n] = base + lowest(victims)
        victims &= victims - 1
        n += 1
    return n


def placements(p, s, out):
    """Write the placements of s (tried first: mills closed, then mills blocked, then
    junctions), each with its removals; their count."""
    mine, theirs = s & M24, (s >> 24) & M24
    empty = everywhere(p[0]) & ~(mine | theirs)
    victims = takeable(p[0], theirs)
    closing = blocking = junctions = 0
    rest = others = empty
    while rest:
        t = lowest(rest)
        rest &= rest - 1
        if in_mill(p[0], mine | (1 << t), t):
            closing |= 1 << t
        elif in_mill(p[0], theirs | (1 << t), t):
            blocking |= 1 << t
        elif count(neighbours(p[0], t)) >= 3:
            junctions |= 1 << t
    others &= ~(closing | blocking | junctions)
    n = 0
    for targets in (closing, blocking, junctions, others):
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            base = (HAND * 25 + target) * 25
            n = add_move(out, n, base, (closing >> target) & 1 != 0, victims)
    return n


def sliding(p, s):
    """(the mover's stones, the empty points, whether they jump) once all are placed."""
    mine, theirs = s & M24, (s >> 24) & M24
    return mine, everywhere(p[0]) & ~(mine | theirs), p[2] != 0 and count(mine) == 3


def mill_closers(p, mine, flying, target):
    """The mover's stones whose slide (or jump) to ``target`` closes a mill."""
    return closers(p[0], mine, target, mine if flying else neighbours(p[0], target))


def slides(p, s, out):
    """Write the slides (jumps, with three stones and ``jumps`` on) of s, each with its
    removals; their count."""
    mine, empty, flying = sliding(p, s)
    victims = takeable(p[0], (s >> 24) & M24)
    n = 0
    sources = mine
    while sources:
        source = lowest(sources)
        sources &= sources - 1
        targets = empty if flying else neighbours(p[0], source) & empty
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            closes = in_mill(p[0], (mine | (1 << target)) & ~(1 << source), target)
            n = add_move(out, n, (source * 25 + target) * 25, closes, victims)
    return n


class Morris(CompiledGame):
    """Nine Men's Morris (points=24, stones=9) or Six Men's (points=16, stones=6)."""

    points: int = 24
    stones: int = 9
    jumps: bool = True
    max_moves = 600  # moves: 3 stones jumping to 21 points, each with up to 9 removals

    def start(p):
        return p[1] << 48 | p[1] << 52

    def moves(p, s, out):
        if (s >> 48) & 15:
            return placements(p, s, out)
        return slides(p, s, out)

    def exits(p, s, out):  # the moves leaving s's tier: placements, and mills closed
        if (s >> 48) & 15:
            return placements(p, s, out)
        mine, empty, flying = sliding(p, s)
        victims = takeable(p[0], (s >> 24) & M24)
        n = 0
        targets = mill_points(p[0], mine, empty)
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            sources = mill_closers(p, mine, flying, target)
            while sources:
                base = (lowest(sources) * 25 + target) * 25
                sources &= sources - 1
                n = add_move(out, n, base, True, victims)
        return n

    def stays(p, s):  # how many moves stay in s's tier: slides (or jumps) closing no mill
        if (s >> 48) & 15:
            return 0
        mine, empty, flying = sliding(p, s)
        n = count(mine) * count(empty) if flying else slides_count(p[0], mine, empty)
        targets = mill_points(p[0], mine, empty)
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            n -= count(mill_closers(p, mine, flying, target))
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
        # Every position of s's tier one move before s, once per move (the un-moves a
        # loopy tier is solved by): the player who just moved owns s's "theirs" and slid or
        # jumped a stone to ``target`` from an empty ``source``. A move that closed a mill
        # took a stone, and a placement put one on the board: their positions before are
        # in other tiers, solved by moves alone.
        mine, theirs = s & M24, (s >> 24) & M24
        if s >> 48 or count(theirs) < 3:  # stones in hand, or they had lost before
            return 0
        empty = everywhere(p[0]) & ~(mine | theirs)
        flying = p[2] != 0 and count(theirs) == 3
        n = 0
        targets = theirs
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            if in_mill(p[0], theirs, target):
                continue
            sources = empty if flying else neighbours(p[0], target) & empty
            while sources:
                source = lowest(sources)
                sources &= sources - 1
                out[n] = (theirs & ~(1 << target)) | 1 << source | mine << 24
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
        return StoneBoard(self.points, symmetries_of(self.points), theirs_at=24, rest_at=48)

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
