"""Dobutsu shogi as a user writes it, beside the hand-ranked built-in: Tanaka's rules, variants.

Lion, giraffe, elephant and chick a side on 3 columns and ``height`` rows (on 3 the chicks
start in hand; ``giraffes``, ``elephants``, ``chicks`` False leave a kind out). The lion
steps any way, the giraffe orthogonally, the elephant diagonally, the chick ahead, a hen
(a chick on the far rank) any way but diagonally back. A piece taken goes to the taker's
hand (a hen as a chick) and may be dropped on any empty square. The mover wins when they
can take the other lion and loses when it stands on their home rank; endless play draws.

A position is the built-in's int64: square q = 3 * row + column (rows from gote's side) in
4 bits from bit 4q (1 lion, 2 giraffe, 3 elephant, 4 chick, 5 hen, + 8 gote's), hands of
giraffes, elephants, chicks in 2 bits each from bit 48 (sente) and 54 (gote), bit 60 when
gote moves. A move is 16 * source + target, a drop's source 12-14 (G, E, C). The key folds
the half turn and the mirror, as the built-in does. One tier: taken pieces come back.
"""

import numpy as np

from perfectplay import LOSS, WIN
from perfectplay.boards.square import popcount
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.drawing import letter_grid

LION, GIRAFFE, ELEPHANT, CHICK, HEN = 1, 2, 3, 4, 5
GOTES = 8  # the owner bit of a square's 4 bits
HANDS, GOTE = 48, 60
LETTERS = ".LGECH..?lgech"  # by a square's 4 bits
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]  # row -1: forward
STEPS = {LION: KING, GIRAFFE: [d for d in KING if 0 in d], CHICK: [(-1, 0)],
         ELEPHANT: [d for d in KING if 0 not in d], HEN: [*KING[:5], (1, 0)]}  # fmt: skip
COLUMN_A = 0x00F00F00F00F  # column A's squares, 4 bits each
LOW = 0x111111111111  # the low bit of each square's 4 bits: a mask of squares


def steps_of(piece, q):
    """Where a piece (kind and owner) on square q steps, as LOW's bits."""
    sign = -1 if piece & GOTES else 1  # (gote's forward is sente's back)
    squares = [(q // 3 + sign * dr, q % 3 + sign * dc) for dr, dc in STEPS.get(piece & 7, [])]
    return sum(1 << (4 * (3 * r + c)) for r, c in squares if 0 <= r < 4 and 0 <= c < 3)


TARGETS = np.array([[steps_of(piece, q) for q in range(12)] for piece in range(16)])


def at(s, q):
    """The piece on square q (0 for none)."""
    return (s >> (4 * q)) & 15


def first(squares):
    """The first square of a mask that is not empty."""
    return popcount((squares & -squares) - 1) >> 2


def sides(p, s):
    """(gote moves?, the mover's pieces, empty squares, the other lion), masks as LOW's."""
    mover, squares = (s >> GOTE) & 1, LOW & ((1 << (12 * p[0])) - 1)
    board = s & ((1 << (12 * p[0])) - 1)
    pieces, gotes = (board | board >> 1 | board >> 2) & LOW, (board >> 3) & LOW
    x = board ^ ((GOTES - GOTES * mover) | LION) * LOW  # 0 where the other lion stands
    lion = ~(x | x >> 1 | x >> 2 | x >> 3) & squares
    return mover, gotes if mover else pieces & ~gotes, squares & ~pieces, lion


def turned(p, s):
    """The board turned half round, owners and hands swapped: sente (bit 60 clear) to move."""
    board = 0
    for r in range(p[0]):  # rows in reverse order, each row's columns reversed
        row = (s >> (12 * r)) & 0xFFF
        board |= (((row & 15) << 8) | (row & 0xF0) | (row >> 8)) << (12 * (p[0] - 1 - r))
    board ^= ((board | board >> 1 | board >> 2) & LOW) << 3  # owners swapped
    return board | ((s >> 54) & 63) << 48 | ((s >> 48) & 63) << 54


def ending(p, s):
    """WIN: the mover can take the other lion; LOSS: it stands on the mover's home rank."""
    mover, mine, _, lion = sides(p, s)
    while mine:
        q = first(mine)
        mine &= mine - 1
        if TARGETS[at(s, q), q] & lion:
            return WIN
    return LOSS if first(lion) // 3 == (1 - mover) * (p[0] - 1) else ONGOING


class Dobutsu(CompiledGame):
    """Step or drop animals on 3 x 4; take the other lion, or reach the far rank safely."""

    name = "dobutsu-compiled"
    height: int = 4  # rows: 4, or 3 (the chicks start in hand)
    giraffes: bool = True
    elephants: bool = True
    chicks: bool = True
    max_moves = 160  # moves: 43 at most; un-moves more (a step may have taken one of 4)

    def start(p):
        home = 4 * (3 * p[0] - 3)  # sente's home rank (E L G) as a shift; gote's: g l e
        s = (GOTES | LION) << 4 | LION << (home + 4)
        s |= p[1] * (GOTES | GIRAFFE | GIRAFFE << (home + 8))
        s |= p[2] * ((GOTES | ELEPHANT) << 8 | ELEPHANT << home)
        if p[3] and p[0] == 4:
            return s | (GOTES | CHICK) << 16 | CHICK << 28  # in front of the lions
        return s | p[3] * (1 << (HANDS + 4) | 1 << (HANDS + 10))  # in hand

    def moves(p, s, out):
        mover, mine, empty, lion = sides(p, s)
        free = LOW & ((1 << (12 * p[0])) - 1) & ~mine & ~lion  # (the lion is never taken)
        n = 0
        while mine:
            q = first(mine)
            mine &= mine - 1
            targets = TARGETS[at(s, q), q] & free
            while targets:
                out[n] = 16 * q + first(targets)
                targets &= targets - 1
                n += 1
        for slot in range(3):
            drops = empty if (s >> (HANDS + 6 * mover + 2 * slot)) & 3 else 0
            while drops:
                out[n] = 16 * (12 + slot) + first(drops)
                drops &= drops - 1
                n += 1
        return n

    def play(p, s, m):
        source, target, mover = m >> 4, m & 15, (s >> GOTE) & 1
        hand = HANDS + 6 * mover
        if source >= 12:  # a drop
            s -= 1 << (hand + 2 * (source - 12))
            return (s | (GOTES * mover | (source - 10)) << (4 * target)) ^ 1 << GOTE
        piece, taken = at(s, source), at(s, target)
        if taken:  # into the mover's hand, a hen as a chick
            s += 1 << (hand + 2 * (min(taken & 7, CHICK) - GIRAFFE))
        if piece & 7 == CHICK and target // 3 == mover * (p[0] - 1):  # the far rank
            piece += HEN - CHICK
        s &= ~(15 << (4 * source) | 15 << (4 * target))
        return (s | piece << (4 * target)) ^ 1 << GOTE

    def outcome(p, s):
        return ending(p, s)

    def unmoves(p, s, out):
        # The side that just moved put a piece on t: dropped it from its hand, or stepped
        # it from an empty square (a hen on its far rank may have come as a chick), perhaps
        # taking there a piece of s's mover (a chick in hand may have been a hen).
        last = 1 - ((s >> GOTE) & 1)
        hand, s, n = HANDS + 6 * last, s ^ 1 << GOTE, 0
        for t in range(3 * p[0]):
            v = at(s, t)
            if v == 0 or v >> 3 != last:
                continue
            cleared = s & ~(15 << (4 * t))
            if GIRAFFE <= v & 7 <= CHICK:
                out[n] = cleared + (1 << (hand + 2 * ((v & 7) - GIRAFFE)))
                n += ending(p, out[n]) == ONGOING  # (a parent where play went on)
            far = t // 3 == last * (p[0] - 1)  # a hen there: a hen or a chick before;
            for piece in range(v - (v & 7 == HEN and far), v + 1 - (v & 7 == CHICK and far)):
                for q in range(3 * p[0]):  # (a chick there: dropped, never stepped)
                    if at(s, q) or not TARGETS[piece, q] >> (4 * t) & 1:
                        continue
                    out[n] = stepped = cleared | piece << (4 * q)
                    n += ending(p, stepped) == ONGOING
                    for kind in range(GIRAFFE, HEN + 1):  # the piece taken, now in hand
                        slot = hand + 2 * (min(kind, CHICK) - GIRAFFE)
                        if s >> slot & 3:
                            out[n] = stepped - (1 << slot) | (GOTES * (1 - last) | kind) << 4 * t
                            n += ending(p, out[n]) == ONGOING
        return n

    def tier(p, s):
        return 0  # one tier (see above): solved by the tier engine, out of core

    def key(p, s):
        s = turned(p, s) if s >> GOTE & 1 else s
        return min(s, (s & ~(COLUMN_A * 0x101)) | (s & COLUMN_A) << 8 | (s >> 8) & COLUMN_A)

    def show(self, s):
        """Rows from gote's side, hands, who moves: ``gle/.c./.C./ELG - sente to move``."""
        cells = "".join(LETTERS[at(s, q)] for q in range(3 * self.height))
        rows = "/".join(cells[i : i + 3] for i in range(0, len(cells), 3))
        hands = "".join("GECgec"[j] * (s >> (HANDS + 2 * j) & 3) for j in range(6))
        return f"{rows} {hands or '-'} {'gote' if s >> GOTE & 1 else 'sente'} to move"

    def published_plies(self, s):  # Tanaka counts the lion's capture as a ply
        return 1 if self.outcome(s) == WIN else 0

    def format_move(self, m):
        """B3-B2 (column A-C from sente's left, row from gote's side), G*B2 (a drop)."""
        source, target = (f"{'ABC'[q % 3]}{q // 3 + 1}" for q in (m >> 4, m & 15))
        return f"{'GEC'[(m >> 4) - 12]}*{target}" if m >> 4 >= 12 else f"{source}-{target}"

    def draw_svg(self, state, last=None):
        """The board (gote's pieces upside down), a square clickable with a move onto it."""
        ended = self.outcome(state) is not None
        legal = {m & 15: self.format_move(m) for m in ([] if ended else self.moves(state)[::-1])}
        pieces = [at(state, q) for q in range(3 * self.height)]
        return letter_grid(3, [LETTERS[v].upper() * (v > 0) for v in pieces], legal,
                           last=None if last is None else last & 15,
                           turned=[v >> 3 == 1 for v in pieces],
                           note=self.show(state).split(" ", 1)[1])  # fmt: skip
