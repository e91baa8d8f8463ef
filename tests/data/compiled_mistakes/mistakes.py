"""Compiled games with one mistake each, as a new user writes them (tests of the errors).

``Base`` is a race: add 1 or 2 to a total from 0; the player to move at ``n`` or more has
lost. Each other class breaks one rule of it.
"""

import numpy as np

from perfectplay.compiled_games import ONGOING, CompiledGame


class Base(CompiledGame):
    n: int = 10
    max_moves = 2

    def start(p):
        return 0

    def moves(p, s, out):
        out[0] = 1
        out[1] = 2
        return 2

    def play(p, s, m):
        return s + m

    def outcome(p, s):
        return 2 if s >= p[0] else ONGOING


class DivZero(Base):  # raises on state 5, which the short check before a solve reaches
    def play(p, s, m):
        return s + m + (1 // (5 - s))


class Deep(Base):  # raises on state 777, far past the short check's playouts
    def play(p, s, m):
        return s + m + (1 // (777 - s))


class NoReturn(Base):  # forgets ONGOING
    def outcome(p, s):
        if s >= p[0]:
            return 2


class TooMany(Base):  # writes three moves into a buffer of two
    def moves(p, s, out):
        for i in range(3):
            out[i] = 1
        return 3


class Huge(Base):  # makes a state of 2**63 or more
    def play(p, s, m):
        return s + m + (1 << 63 if s == 4 else 0)


class Negative(Base):
    def play(p, s, m):
        return s + m - (100 if s == 4 else 0)


class FloatPlay(Base):  # play returns a float
    def play(p, s, m):
        return s + m * 1.5


class Unsearched(Base):  # no max_plies: the search cannot serve it
    pass


class Searched(Base):
    def max_plies(self):
        return self.n


class ScoredSearched(Searched):  # scored: the search gives the exact score
    scored = True

    def outcome(p, s):
        return 1.0 if s >= p[0] else np.nan


class TurnsSearched(Searched):  # extra turns: a child's score kept, not negated
    def to_move(p, s):
        return s & 1


class BoolTier(Base):  # a tier that is a comparison: a bool, which numba reads as 0 or 1
    def tier(p, s):
        return s >= 3


class LogScore(Base):
    """An end worth log(0) = -inf to the player to move (numba's value; numpy warns of a
    division by zero, which is no mistake of the rules)."""

    scored = True

    def outcome(p, s):
        if s >= p[0]:
            return np.log(float(s - s))
        return np.nan
