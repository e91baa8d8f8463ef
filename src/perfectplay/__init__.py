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
from .outcomes import Outcome, outcome_class
from .protocol import HOOKS, Expansion, Game
from .rules import Rules
from .solution import MoveValue, Solution, SolveStats
from .solve import METHODS, solve
from .solvers.alphabeta import SearchResult, search
from .spaces import StateGraph, explore
from .sums import SumOfGames, grundy_of_sum
from .tablebase.build import build_tablebase
from .tablebase.header import TablebaseError
from .tablebase.reader import Tablebase, open_tablebase
from .tablebase.write import save_solution
from .values import DRAW, LOSS, TIE, WIN, GameValue, Value

__all__ = [
    "DRAW",
    "HOOKS",
    "LOSS",
    "METHODS",
    "TIE",
    "WIN",
    "CycleError",
    "Expansion",
    "Game",
    "GameError",
    "GameValue",
    "InterruptedSolve",
    "MoveValue",
    "Outcome",
    "PerfectplayError",
    "Rules",
    "SearchResult",
    "Solution",
    "SolveStats",
    "SolverChoiceError",
    "StateBudgetExceeded",
    "StateGraph",
    "SumOfGames",
    "Tablebase",
    "TablebaseError",
    "UnexploredStateError",
    "Value",
    "build_tablebase",
    "explore",
    "grundy_of_sum",
    "open_tablebase",
    "outcome_class",
    "save_solution",
    "search",
    "solve",
]
