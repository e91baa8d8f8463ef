"""Random wide games (``perfectplay.compiled_games.wide``) for the tests of the search.

Each is one of ``compiled_random``'s random games with its state ``s`` spread over two
words: word 0 holds ``s >> 3`` and word 1 ``(s & 7) << 1`` (so states order as tuples as
they do as ints). Many states share a word, so a table that kept one word, or trusted a
hash alone, would mix them up. Word 1's bit 0 is noise that every move flips and no rule
reads: the keyed games' ``key`` clears it, a true symmetry that merges positions whose
words differ.
"""

from __future__ import annotations

import numpy as np
from compiled_random import child_of, degree_of, random_end, rnd, upward_child, upward_moves

from perfectplay.compiled_games.wide import WideGame

NOISE = 1


def logical(s):
    """The random game's state of a row of words."""
    return (s[0] << 3) | (s[1] >> 1)


def spread(x, noise, t):
    t[0] = x >> 3
    t[1] = ((x & 7) << 1) | noise


class WideOutcomes(WideGame):
    """Win/loss/tie, no cycle: a move leads into the next block of states (mode 3)."""

    seed: int = 0
    n: int = 240
    degree: int = 3
    mode: int = 3
    block: int = 12
    sym: bool = False
    max_moves = 8

    def start(p, s):
        s[0] = 0
        s[1] = 0

    def moves(p, s, out):
        x = logical(s)
        k = degree_of(p, x)
        for j in range(k):
            out[j] = (rnd(p[0], x, 50 + j) % 1000) * 8 + j
        return k

    def play(p, s, m, t):
        spread(child_of(p, logical(s), m & 7), (s[1] & NOISE) ^ NOISE, t)

    def outcome(p, s):
        return random_end(p, logical(s))

    def max_plies(self):
        return self.n // self.block + 1


class WideOutcomesKeyed(WideOutcomes):
    def key(p, s, t):
        t[0] = s[0]
        t[1] = s[1] & ~NOISE


class WideOutcomesTurns(WideOutcomes):
    def to_move(p, s):
        return rnd(p[0], logical(s), 3) & 1


class WideScored(WideGame):
    """``compiled_random.ScoredGame`` over two words: ends score -5..5, a mover with no
    move -inf."""

    seed: int = 0
    n: int = 60
    degree: int = 3
    scored = True
    max_moves = 8

    def start(p, s):
        s[0] = 0
        s[1] = 0

    def moves(p, s, out):
        x = logical(s)
        if x + 1 >= p[1]:
            return 0
        return upward_moves(p, x, out)

    def play(p, s, m, t):
        spread(upward_child(p, logical(s), m), (s[1] & NOISE) ^ NOISE, t)

    def outcome(p, s):
        x = logical(s)
        if x + 1 >= p[1] or (x != 0 and rnd(p[0], x, 2) % 16 == 0):
            return float(rnd(p[0], x, 4) % 11) - 5.0
        return np.nan

    def max_plies(self):
        return self.n + 1


class WideRewardTurns(WideScored):
    """Moves that earn -3..3 points, and extra turns."""

    def reward(p, s, m):
        return float(rnd(p[0], logical(s), 20 + m // 8) % 7) - 3.0

    def to_move(p, s):
        return rnd(p[0], logical(s), 3) & 1


class WideRewardTurnsKeyed(WideRewardTurns):
    def key(p, s, t):
        t[0] = s[0]
        t[1] = s[1] & ~NOISE


class WideOutcomesTabled(WideOutcomesKeyed):
    """The table keeps about half the positions (the ``tabled`` rule), a random half."""

    def tabled(p, s):
        return rnd(p[0], logical(s), 7) % 2 == 0


class WideRewardTurnsTabled(WideRewardTurnsKeyed):
    def tabled(p, s):
        return rnd(p[0], logical(s), 7) % 2 == 0


class WideScoredUntabled(WideScored):
    """The table keeps no position."""

    def tabled(p, s):
        return False
