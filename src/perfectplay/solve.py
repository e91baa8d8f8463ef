"""solve(): explore a game once, then run the full solver that fits it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .errors import InterruptedSolve, SolverChoiceError
from .progress import ProgressCallback
from .protocol import Game
from .rules import Rules
from .solution import Solution
from .solvers.grundy import grundy_problem
from .solvers.registry import AUTO, solver_named
from .solvers.registry import SOLVERS as REGISTRY
from .solvers.solved import Solved
from .spaces.explore import explore_for
from .spaces.graph import StateGraph

SOLVERS: dict[str, Callable[[StateGraph], Solved]] = {
    entry.name: entry.function for entry in REGISTRY if entry.kind == "graph"
}
"""The full solvers by name, from the one table of solvers (``solvers.registry``); each
checks its own precondition (see its module)."""

METHODS: tuple[str, ...] = (AUTO, *SOLVERS)


def solve(
    game: Game[Any, Any] | StateGraph,
    method: str = "auto",
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
    memory: int | None = None,
) -> Solution[Any, Any]:
    """Solve every reachable state of ``game`` exactly.

    ``auto`` picks negamax for scored games, Grundy values for games that declare
    ``impartial = True`` and qualify, and retrograde analysis otherwise; the choice is in
    ``solution.method``. For the root value alone of a game too large to explore, see
    ``perfectplay.search``. ``batch=False`` explores a batch game through its plain methods;
    ``memory`` is the budget in bytes (default: most of the memory available).
    """
    if isinstance(game, StateGraph):
        return solve_graph(game, method)
    return solve_for(
        Rules(game), method, max_states=max_states, progress=progress, batch=batch, memory=memory
    )


def solve_for(
    rules: Rules[Any, Any],
    method: str = "auto",
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
    memory: int | None = None,
) -> Solution[Any, Any]:
    """``solve`` of a game read already (its ``Rules``)."""
    _full_solver(method)  # (refused before any exploring)
    graph = explore_for(rules, max_states=max_states, progress=progress, batch=batch, memory=memory)
    return _solved(graph, method)


def _full_solver(method: str) -> None:
    """Refuse a method that answers one position only."""
    entry = None if method == AUTO else solver_named(method)
    if entry is not None and entry.kind != "graph":
        raise SolverChoiceError(
            f"{method} answers one position, not every one: run it by {entry.called}; "
            f"solving every position takes {', '.join(METHODS)}"
        )


def solve_graph(graph: StateGraph, method: str = "auto") -> Solution[Any, Any]:
    """Solve an explored game (``solve``'s second half)."""
    _full_solver(method)
    return _solved(graph, method)


def _solved(graph: StateGraph, method: str) -> Solution[Any, Any]:
    """An explored game solved by ``method`` (refused already if it solves no graph)."""
    if method == AUTO:
        method = choose_method(graph)
    started = time.perf_counter()
    try:
        solved = SOLVERS[method](graph)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {graph.rules.name} by {method} "
            f"({graph.n_states:,} states explored)"
        ) from None
    return Solution(graph, method, solved, time.perf_counter() - started)


def choose_method(graph: StateGraph) -> str:
    """The full solver that fits an explored game."""
    if graph.kind == "scored":
        return "negamax"
    acyclic = graph.rules.kind.impartial and graph.children_first.shape[0] == graph.n_states
    if acyclic and grundy_problem(graph) is None:
        return "grundy"
    return "retrograde"
