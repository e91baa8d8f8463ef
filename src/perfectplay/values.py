"""Game values: the four outcomes a position can have, and how they are coded in arrays."""

from __future__ import annotations

import enum
import math
from numbers import Real


class Value(enum.IntEnum):
    """The outcome of a position for the player to move.

    WIN, LOSS and TIE describe how the game ends under perfect play; DRAW means it never
    ends (only possible in games whose state graph has cycles). A game's ``outcome`` may
    return WIN, LOSS or TIE; DRAW is only ever a solver's answer.
    """

    WIN = 1
    LOSS = 2
    TIE = 3
    DRAW = 4

    def flipped(self) -> Value:
        """The same outcome seen by the other player."""
        if self is Value.WIN:
            return Value.LOSS
        if self is Value.LOSS:
            return Value.WIN
        return self

    def __str__(self) -> str:
        return self.name.lower()


WIN = Value.WIN
LOSS = Value.LOSS
TIE = Value.TIE
DRAW = Value.DRAW

UNDECIDED = 0
"""The array code of a state not (yet) decided, or not an end; Values are coded 1-4."""

GameValue = Value | int | float
"""What a solver reports for a position: an outcome or a score."""

# Largest integer a float64 holds exactly: scores beyond it would be silently rounded.
EXACT_INTEGER_LIMIT = 2**53


def is_score(obj: object) -> bool:
    """True for a real number that is a score (bool and Value are not scores)."""
    return isinstance(obj, Real) and not isinstance(obj, (bool, Value))


def score_problem(score: object) -> str | None:
    """Why a number cannot serve as a score, or None when it can."""
    value = float(score)  # type: ignore[arg-type]
    if math.isnan(value):
        return "NaN is not a score"
    if isinstance(score, int) and abs(score) > EXACT_INTEGER_LIMIT:
        return f"integer scores must lie within +-2**53 to be solved exactly, got {score}"
    return None


def preference_key(value: GameValue, remoteness: int | None) -> tuple[float, float]:
    """Sort key, smallest first, for choosing among moves from the mover's point of view.

    Outcomes: win fastest, then tie fastest, then draw, then lose slowest. Scores: highest
    first, then the shortest game.
    """
    plies = float("inf") if remoteness is None else float(remoteness)
    if isinstance(value, Value):
        if value is Value.WIN:
            return (0.0, plies)
        if value is Value.TIE:
            return (1.0, plies)
        if value is Value.DRAW:
            return (2.0, 0.0)
        return (3.0, -plies)
    return (-float(value), plies)
