"""Outcome classes of any position of a game with Left's and Right's moves, loopy ones too.

``outcome_class(game, position)`` solves the position twice over, with Left moving first
and with Right moving first, by retrograde analysis (``perfectplay.solvers.retrograde``):
cycles are allowed, and play that never ends is a draw. Without a draw the class is one
of L (Left wins whoever starts), R, N (the starter wins) or P (the starter loses); with
one, both results are given (``Left first: draw; Right first: Right wins``).

A game here has ``left_moves``, ``right_moves`` and ``play`` (see ``perfectplay.cgt.games``),
or, impartial, just ``moves`` and ``play``. Normal play: the player who cannot move loses;
``misere=True``: that player wins.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import GameError
from .protocol import name_of, read_hooks
from .solve import solve
from .values import DRAW, LOSS, WIN, Value

__all__ = ["Outcome", "outcome_class"]

WINNER_NAMES = {"L": "Left wins", "R": "Right wins", "D": "draw"}
PLAIN_CLASSES = {("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P"}


@dataclass(frozen=True)
class Outcome:
    """Who wins a position with Left moving first and with Right moving first.

    ``left_first`` and ``right_first`` are "L", "R" or "D" (a draw: play never ends);
    the remoteness is the number of moves to the end under perfect play (None for a draw).
    """

    left_first: str
    right_first: str
    left_first_remoteness: int | None
    right_first_remoteness: int | None
    misere: bool = False

    @property
    def label(self) -> str:
        """L, R, N or P; D when both starts draw; else "X/Y" (X: Left first, Y: Right first)."""
        pair = (self.left_first, self.right_first)
        if pair in PLAIN_CLASSES:
            return PLAIN_CLASSES[pair]
        if pair == ("D", "D"):
            return "D"
        return f"{self.left_first}/{self.right_first}"

    @property
    def has_draw(self) -> bool:
        """Whether either start leads to endless play."""
        return "D" in (self.left_first, self.right_first)

    def describe(self) -> str:
        """The class in words, e.g. ``N (the player to move wins)`` or
        ``Left first: draw; Right first: Right wins``."""
        words = {
            "L": "L (Left wins, whoever starts)",
            "R": "R (Right wins, whoever starts)",
            "N": "N (the player to move wins)",
            "P": "P (the player to move loses)",
            "D": "D (a draw, whoever starts)",
        }
        if self.label in words:
            return words[self.label]
        return (
            f"Left first: {WINNER_NAMES[self.left_first]}; "
            f"Right first: {WINNER_NAMES[self.right_first]}"
        )

    def winner(self, left_to_move: bool) -> str:
        """ "L", "R" or "D" when the given player moves first."""
        return self.left_first if left_to_move else self.right_first


class _Turns:
    """A partizan game with the player to move in the state: ``(position, Left to move)``."""

    def __init__(self, game: Any, start: tuple[Any, bool], misere: bool) -> None:
        partizan, plain = read_hooks(game, "partizan"), read_hooks(game, "game")
        if "left_moves" in partizan and "right_moves" in partizan:
            self._left: Callable[[Any], Iterable[Any]] = partizan["left_moves"]
            self._right: Callable[[Any], Iterable[Any]] = partizan["right_moves"]
        elif "moves" in plain:
            self._left = self._right = plain["moves"]
        else:
            raise GameError(
                f"{type(game).__name__} has neither left_moves and right_moves nor moves"
            )
        if "play" not in plain:
            raise GameError(f"{type(game).__name__} has no play(state, move)")
        self._play: Callable[[Any, Any], Any] = plain["play"]
        self._start = start
        self._misere = misere
        self.name = name_of(game)

    def initial(self) -> tuple[Any, bool]:
        return self._start

    def moves(self, state: tuple[Any, bool]) -> list[Any]:
        position, left = state
        return list((self._left if left else self._right)(position))

    def play(self, state: tuple[Any, bool], move: Any) -> tuple[Any, bool]:
        position, left = state
        return (self._play(position, move), not left)

    def outcome(self, state: tuple[Any, bool]) -> Value | None:
        """Normal play needs none (no move loses); misère: no move wins."""
        if self._misere and not self.moves(state):
            return WIN
        return None


def _winner(value: Any, left_to_move: bool) -> str:
    if value is DRAW:
        return "D"
    if value not in (WIN, LOSS):
        raise GameError(f"a partizan position cannot end in {value}")
    return "L" if (value is WIN) == left_to_move else "R"


def outcome_class(
    game: Any,
    position: Any = None,
    *,
    misere: bool = False,
    max_states: int | None = None,
) -> Outcome:
    """The outcome class of a position (the game's ``initial()`` by default), cycles allowed.

    Each start is explored and solved by retrograde analysis; ``max_states`` bounds each
    exploration (``StateBudgetExceeded`` past it).
    """
    if position is None:
        initial = read_hooks(game, "game").get("initial")
        if initial is None:
            raise GameError(f"{type(game).__name__} has no initial(): give a position")
        position = initial()
    try:
        hash(position)
    except TypeError:
        raise GameError("positions must be hashable: use tuples, frozensets, strings") from None
    found: dict[bool, tuple[str, int | None]] = {}
    for left in (True, False):
        if left in found:
            continue
        start: tuple[Hashable, bool] = (position, left)
        solution = solve(_Turns(game, start, misere), "retrograde", max_states=max_states)
        for side in (True, False):
            known = solution.lookup((position, side))
            if known is not None:
                found[side] = (_winner(known[0], side), known[1])
    (lf, lr), (rf, rr) = found[True], found[False]
    return Outcome(lf, rf, lr, rr, misere)
