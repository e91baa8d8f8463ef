"""The answer of a full solver: value, remoteness and best moves of every reachable state."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generic

import numpy as np
import numpy.typing as npt

from .errors import SolverChoiceError, UnexploredStateError, describe
from .graph import StateGraph
from .protocol import M, S
from .values import GameValue, Value, preference_key


@dataclass(frozen=True)
class SolveStats:
    """What a solve cost: sizes and seconds, and which method ran."""

    method: str
    states: int
    edges: int
    explore_seconds: float
    solve_seconds: float

    @property
    def seconds(self) -> float:
        """Exploration plus solving."""
        return self.explore_seconds + self.solve_seconds

    @property
    def states_per_second(self) -> float:
        """States explored and solved per second, end to end."""
        return self.states / self.seconds if self.seconds > 0 else math.inf


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One legal move and what it is worth to the player making it."""

    move: M
    value: GameValue
    remoteness: int | None


_NO_STATE: Any = object()


def _exact(number: float, integral: bool) -> int | float:
    """A reward as the solution reports numbers: int when every score is a whole number."""
    return int(number) if integral and math.isfinite(number) else number


class Solution(Generic[S, M]):
    """Every reachable state of a game, solved. States default to the initial state.

    ``value`` is from the point of view of the player to move: a Value (WIN, LOSS, TIE,
    DRAW) for outcome games, a number for scored games. ``remoteness`` counts plies to the
    end under perfect play (None for a DRAW, which never ends).
    """

    def __init__(
        self,
        graph: StateGraph,
        method: str,
        values: npt.NDArray[np.int8] | npt.NDArray[np.float64],
        remoteness: npt.NDArray[np.int32],
        solve_seconds: float,
        grundy: npt.NDArray[np.int32] | None = None,
    ) -> None:
        self.graph = graph
        self.rules = graph.rules
        self.method = method
        self._values = values
        self._remoteness = remoteness
        self._grundy = grundy
        self.stats = SolveStats(
            method=method,
            states=graph.n_states,
            edges=graph.n_edges,
            explore_seconds=graph.seconds,
            solve_seconds=solve_seconds,
        )

    @property
    def initial(self) -> S:
        """The initial state of the game."""
        return self.graph.state(self.graph.root)  # type: ignore[no-any-return]

    @property
    def scored(self) -> bool:
        """True for a scored game (values are numbers), False for WIN/LOSS/TIE/DRAW."""
        return self.graph.kind == "scored"

    @property
    def has_grundy(self) -> bool:
        """True when Grundy values were computed (impartial normal-play games)."""
        return self._grundy is not None

    def _id(self, state: S) -> int:
        sid = self.graph.id_of(self.initial if state is _NO_STATE else state)
        if sid is None:
            raise UnexploredStateError(
                f"state {describe(state)} was never reached from the initial state of "
                f"{self.rules.name}, so it has no solution here"
            )
        return sid

    def value_of_id(self, sid: int) -> GameValue:
        """The value of the state with id ``sid``."""
        if self.scored:
            v = float(self._values[sid])
            return int(v) if self.graph.integral_scores and math.isfinite(v) else v
        return Value(int(self._values[sid]))

    def remoteness_of_id(self, sid: int) -> int | None:
        """The remoteness of the state with id ``sid`` (None for a DRAW)."""
        r = int(self._remoteness[sid])
        return None if r < 0 else r

    def value(self, state: S = _NO_STATE) -> GameValue:
        """The value of ``state`` for the player to move."""
        return self.value_of_id(self._id(state))

    def remoteness(self, state: S = _NO_STATE) -> int | None:
        """Plies to the end under perfect play: the winner hurries, the loser stalls."""
        return self.remoteness_of_id(self._id(state))

    def grundy(self, state: S = _NO_STATE) -> int:
        """The Grundy value (nimber) of ``state``; only after a grundy solve."""
        if self._grundy is None:
            raise SolverChoiceError(
                f"no Grundy values: {self.rules.name} was solved by {self.method}; "
                "solve it with method='grundy' (impartial normal-play games only)"
            )
        return int(self._grundy[self._id(state)])

    def move_values(self, state: S = _NO_STATE) -> list[MoveValue[M]]:
        """Every legal move with its value and remoteness for the mover, best first."""
        if state is _NO_STATE:
            state = self.initial
        self._id(state)
        rules = self.rules
        result: list[MoveValue[M]] = []
        for move in rules.legal_moves(state):
            child = rules.play(state, move)
            cid = self._id(child)
            value = self.value_of_id(cid)
            remoteness = self.remoteness_of_id(cid)
            if rules.mover_changes(state, child):
                value = value.flipped() if isinstance(value, Value) else -value
            if rules.reward is not None and not isinstance(value, Value):
                value = value + _exact(rules.reward(state, move), self.graph.integral_scores)
            result.append(MoveValue(move, value, None if remoteness is None else remoteness + 1))
        result.sort(key=lambda mv: preference_key(mv.value, mv.remoteness))
        return result

    def best_moves(self, state: S = _NO_STATE) -> list[M]:
        """The moves of perfect play: best value, and for outcomes the best remoteness too."""
        ranked = self.move_values(state)
        if not ranked:
            return []
        top = ranked[0]
        if self.scored:
            return [mv.move for mv in ranked if mv.value == top.value]
        best = preference_key(top.value, top.remoteness)
        return [mv.move for mv in ranked if preference_key(mv.value, mv.remoteness) == best]

    def principal_variation(self, state: S = _NO_STATE, max_plies: int = 1000) -> list[M]:
        """The line both players follow under perfect play, first best move each time.

        Stops at the end of the game, when a state repeats (a DRAW), or after max_plies.
        """
        if state is _NO_STATE:
            state = self.initial
        line: list[M] = []
        seen = {self._id(state)}
        while len(line) < max_plies:
            best = self.best_moves(state)
            if not best:
                break
            line.append(best[0])
            state = self.rules.play(state, best[0])
            sid = self._id(state)
            if sid in seen:
                break
            seen.add(sid)
        return line
