"""The questions every solved game answers, whatever holds the values: a Solution in memory
or a Tablebase on disk. A subclass says how to find one state's value and remoteness; the
moves, their order and the line of perfect play are derived here, once."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic

from .errors import SolverChoiceError, UnexploredStateError, describe
from .notebook import PositionView
from .protocol import M, S
from .rules import Rules
from .values import GameValue, Value, preference_key

NO_STATE: Any = object()
"""Stands for "the initial state" in every method's default."""


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One legal move and what it is worth to the player making it."""

    move: M
    value: GameValue
    remoteness: int | None


def exact(number: float, integral: bool) -> int | float:
    """A number as answers report it: int when every score is a whole number."""
    return int(number) if integral and math.isfinite(number) else number


class Answers(ABC, Generic[S, M]):
    """Value, remoteness, moves and perfect play of the states of one solved game.

    ``value`` is from the point of view of the player to move: a Value (WIN, LOSS, TIE,
    DRAW) for outcome games, a number for scored games. ``remoteness`` counts plies to the
    end under perfect play (None for a DRAW, which never ends).
    """

    rules: Rules[S, M]
    integral_scores: bool = True

    @property
    @abstractmethod
    def initial(self) -> S:
        """The initial state of the game."""

    @property
    @abstractmethod
    def scored(self) -> bool:
        """True for a scored game (values are numbers), False for WIN/LOSS/TIE/DRAW."""

    @property
    def has_grundy(self) -> bool:
        """True when Grundy values are kept (impartial normal-play games)."""
        return False

    def grundy(self, state: S = NO_STATE) -> int:
        """The Grundy value (nimber) of ``state``, where they are kept."""
        raise SolverChoiceError(f"no Grundy values are kept for {self.rules.name}")

    @abstractmethod
    def lookup(self, state: S) -> tuple[GameValue, int | None] | None:
        """The value and remoteness of ``state``, or None when it was never solved."""

    def _known(self, state: S) -> tuple[GameValue, int | None]:
        found = self.lookup(self.initial if state is NO_STATE else state)
        if found is None:
            raise UnexploredStateError(
                f"state {describe(state)} was never reached from the initial state of "
                f"{self.rules.name}, so it has no solution here"
            )
        return found

    def position(self, state: S = NO_STATE) -> PositionView:
        """``state`` (the start by default) as a notebook shows it: drawn, with its value,
        remoteness and every move's value (``perfectplay.notebook``)."""
        return PositionView(self, self.initial if state is NO_STATE else state)

    def _repr_html_(self) -> str:
        """A notebook shows a solved game as its start, drawn and valued."""
        return PositionView(self, self.initial, f"{self.rules.name}: the start")._repr_html_()

    def value(self, state: S = NO_STATE) -> GameValue:
        """The value of ``state`` for the player to move."""
        return self._known(state)[0]

    def get_value(self, state: S, default: GameValue | None = None) -> GameValue | None:
        """The value of ``state``, or ``default`` when it was never reached."""
        found = self.lookup(state)
        return default if found is None else found[0]

    def remoteness(self, state: S = NO_STATE) -> int | None:
        """Plies to the end under perfect play: the winner hurries, the loser stalls."""
        return self._known(state)[1]

    def move_values(self, state: S = NO_STATE) -> list[MoveValue[M]]:
        """Every legal move with its value and remoteness for the mover, best first."""
        if state is NO_STATE:
            state = self.initial
        self._known(state)
        rules = self.rules
        result: list[MoveValue[M]] = []
        for move in rules.legal_moves(state):
            child = rules.play(state, move)
            value, remoteness = self._known(child)
            if rules.mover_changes(state, child):
                value = value.flipped() if isinstance(value, Value) else -value
            if rules.reward is not None and not isinstance(value, Value):
                value = value + exact(rules.reward(state, move), self.integral_scores)
            result.append(MoveValue(move, value, None if remoteness is None else remoteness + 1))
        result.sort(key=lambda mv: preference_key(mv.value, mv.remoteness))
        return result

    def best_moves(self, state: S = NO_STATE) -> list[M]:
        """The moves of perfect play: best value, and for outcomes the best remoteness too."""
        ranked = self.move_values(state)
        if not ranked:
            return []
        top = ranked[0]
        if self.scored:
            return [mv.move for mv in ranked if mv.value == top.value]
        best = preference_key(top.value, top.remoteness)
        return [mv.move for mv in ranked if preference_key(mv.value, mv.remoteness) == best]

    def best_move(self, state: S = NO_STATE) -> M | None:
        """One move of perfect play (the first of ``best_moves``), or None when no move is
        left. Answers that search override it to find one without valuing every move."""
        best = self.best_moves(state)
        return best[0] if best else None

    def principal_variation(self, state: S = NO_STATE, max_plies: int = 1000) -> list[M]:
        """The line both players follow under perfect play, first best move each time.

        Stops at the end of the game, when a state repeats (a DRAW), or after max_plies.
        """
        if state is NO_STATE:
            state = self.initial
        self._known(state)
        line: list[M] = []
        seen: set[Hashable] = {self.rules.key_of(state)}
        while len(line) < max_plies:
            best = self.best_moves(state)
            if not best:
                break
            line.append(best[0])
            state = self.rules.play(state, best[0])
            key = self.rules.key_of(state)
            if key in seen:
                break
            seen.add(key)
        return line
