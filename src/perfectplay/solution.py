"""The answer of a full solver: value, remoteness and best moves of every reachable state."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .answers import NO_STATE, Answers, MoveValue, exact
from .errors import SolverChoiceError
from .protocol import M, S
from .solvers.solved import Solved
from .spaces.graph import StateGraph
from .values import GameValue, Value

__all__ = ["MoveValue", "Solution", "SolveStats"]


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


class Solution(Answers[S, M]):
    """Every reachable state of a game, solved in memory. States default to the initial
    state; the questions it answers are those of ``Answers``."""

    def __init__(
        self, graph: StateGraph, method: str, solved: Solved, solve_seconds: float
    ) -> None:
        self.graph = graph
        self.rules = graph.rules
        self.integral_scores = graph.integral_scores
        self.method = method
        self.solved = solved
        """The arrays behind the answers, one entry per state id of ``graph``."""
        self._values = solved.values
        self._remoteness = solved.remoteness
        self._grundy = solved.grundy
        self.stats = SolveStats(
            method=method,
            states=graph.n_states,
            edges=graph.n_edges,
            explore_seconds=graph.seconds,
            solve_seconds=solve_seconds,
        )

    @property
    def initial(self) -> S:
        """The initial state of the game: the rules' own, not the graph's representative of
        its key (a key may fold the start to an image whose moves are not the start's)."""
        return self.rules.initial_state()

    @property
    def scored(self) -> bool:
        """True for a scored game (values are numbers), False for WIN/LOSS/TIE/DRAW."""
        return self.graph.kind == "scored"

    @property
    def has_grundy(self) -> bool:
        """True when Grundy values were computed (impartial normal-play games)."""
        return self._grundy is not None

    def lookup(self, state: S) -> tuple[GameValue, int | None] | None:
        """The value and remoteness of ``state``, or None when it was never reached."""
        sid = self.graph.id_of(state)
        return None if sid is None else (self.value_of_id(sid), self.remoteness_of_id(sid))

    def _id(self, state: S) -> int:
        self._known(state)  # raises the error that names a state never reached
        sid = self.graph.id_of(self.initial if state is NO_STATE else state)
        assert sid is not None
        return sid

    def value_of_id(self, sid: int) -> GameValue:
        """The value of the state with id ``sid``."""
        if self.scored:
            return exact(float(self._values[sid]), self.integral_scores)
        return Value(int(self._values[sid]))

    def remoteness_of_id(self, sid: int) -> int | None:
        """The remoteness of the state with id ``sid`` (None for a DRAW)."""
        r = int(self._remoteness[sid])
        return None if r < 0 else r

    def grundy(self, state: S = NO_STATE) -> int:
        """The Grundy value (nimber) of ``state``; only after a grundy solve."""
        if self._grundy is None:
            raise SolverChoiceError(
                f"no Grundy values: {self.rules.name} was solved by {self.method}; "
                "solve it with method='grundy' (impartial normal-play games only)"
            )
        return int(self._grundy[self._id(state)])
