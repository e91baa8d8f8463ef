"""perfectplay: exact solutions of finite two-player games of perfect information.

Write a game as a plain class (see ``perfectplay.protocol``), then::

    from perfectplay import solve
    solution = solve(MyGame())
    solution.value(), solution.remoteness(), solution.best_moves()
"""

from .errors import (
    CycleError,
    GameError,
    InterruptedSolve,
    PerfectplayError,
    SolverChoiceError,
    StateBudgetExceeded,
    UnexploredStateError,
)
from .graph import StateGraph, explore
from .grundy import SumOfGames, grundy_of_sum
from .protocol import Game, Rules
from .search import SearchResult, search
from .solution import MoveValue, Solution, SolveStats
from .solve import METHODS, solve
from .values import DRAW, LOSS, TIE, WIN, GameValue, Value

__all__ = [
    "DRAW",
    "LOSS",
    "METHODS",
    "TIE",
    "WIN",
    "CycleError",
    "Game",
    "GameError",
    "GameValue",
    "InterruptedSolve",
    "MoveValue",
    "PerfectplayError",
    "Rules",
    "SearchResult",
    "Solution",
    "SolveStats",
    "SolverChoiceError",
    "StateBudgetExceeded",
    "StateGraph",
    "SumOfGames",
    "UnexploredStateError",
    "Value",
    "explore",
    "grundy_of_sum",
    "search",
    "solve",
]
