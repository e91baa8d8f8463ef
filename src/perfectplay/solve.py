"""solve(): explore a game once, then run the full solver that fits it."""

from __future__ import annotations

import time
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from . import kernels
from .errors import CycleError, InterruptedSolve, SolverChoiceError, describe
from .graph import ProgressCallback, StateGraph, explore
from .protocol import Game, Rules
from .solution import Solution
from .values import Value

Method = Literal["auto", "retrograde", "negamax", "grundy"]
METHODS: tuple[str, ...] = get_args(Method)


def solve(
    game: Game[Any, Any] | Rules[Any, Any] | StateGraph,
    method: str = "auto",
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
) -> Solution[Any, Any]:
    """Solve every reachable state of ``game`` exactly.

    ``auto`` picks negamax for scored games, Grundy values for games that declare
    ``impartial = True`` and qualify, and retrograde analysis otherwise; the choice is in
    ``solution.method``. For the root value alone of a game too large to explore, see
    ``perfectplay.search``. ``batch=False`` explores a batch game through its plain methods.
    """
    if method not in METHODS:
        raise SolverChoiceError(
            f"unknown method {method!r}; choose one of {', '.join(METHODS)} "
            "(or alphabeta, through search())"
        )
    graph = (
        game
        if isinstance(game, StateGraph)
        else explore(game, max_states=max_states, progress=progress, batch=batch)
    )
    if method == "auto":
        method = choose_method(graph)
    started = time.perf_counter()
    try:
        if method == "negamax":
            values, remoteness = _negamax(graph)
            return Solution(graph, method, values, remoteness, time.perf_counter() - started)
        codes, remoteness = _retrograde(graph)
        nimbers = _grundy(graph) if method == "grundy" else None
        return Solution(
            graph, method, codes, remoteness, time.perf_counter() - started, grundy=nimbers
        )
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {graph.rules.name} by {method} "
            f"({graph.n_states:,} states explored)"
        ) from None


def choose_method(graph: StateGraph) -> str:
    """The full solver that fits an explored game."""
    if graph.kind == "scored":
        return "negamax"
    acyclic = graph.rules.impartial and graph.children_first.shape[0] == graph.n_states
    if acyclic and _grundy_problem(graph) is None:
        return "grundy"
    return "retrograde"


def _retrograde(graph: StateGraph) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    if graph.kind != "outcome":
        raise SolverChoiceError(
            f"retrograde analysis solves WIN/LOSS/TIE games, but {graph.rules.name} is "
            "scored; use negamax"
        )
    rev_offsets, rev_parents, rev_same = graph.reverse
    return kernels.retrograde(graph.offsets, graph.outcome_code, rev_offsets, rev_parents, rev_same)


def _negamax(graph: StateGraph) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
    if graph.kind != "scored":
        raise SolverChoiceError(
            f"negamax solves scored games, but {graph.rules.name} returns WIN/LOSS/TIE; "
            "use retrograde (it also handles cycles)"
        )
    order = _acyclic_order(graph, "negamax")
    reward = graph.reward if graph.reward is not None else np.empty(0, dtype=np.float64)
    return kernels.negamax(
        order, graph.offsets, graph.children, graph.same_mover, graph.terminal, graph.score, reward
    )


def _grundy(graph: StateGraph) -> npt.NDArray[np.int32]:
    problem = _grundy_problem(graph)
    if problem is not None:
        raise SolverChoiceError(f"Grundy values need an impartial normal-play game: {problem}")
    order = _acyclic_order(graph, "grundy")
    return kernels.grundy(order, graph.offsets, graph.children)


def _grundy_problem(graph: StateGraph) -> str | None:
    name = graph.rules.name
    if graph.kind != "outcome":
        return f"{name} is scored"
    if graph.extra_turns:
        return f"{name} has moves that give another turn"
    ends = graph.outcome_code[graph.terminal]
    if (ends != int(Value.LOSS)).any():
        sid = int(np.flatnonzero(graph.terminal & (graph.outcome_code != int(Value.LOSS)))[0])
        return (
            f"{name} ends in {Value(int(graph.outcome_code[sid])).name} at "
            f"{describe(graph.state(sid))} (normal play allows only LOSS for the mover)"
        )
    return None


def _acyclic_order(graph: StateGraph, method: str) -> npt.NDArray[np.int32]:
    order = graph.children_first
    if order.shape[0] < graph.n_states:
        state = describe(graph.state(state_on_cycle(graph, order)))
        raise CycleError(
            f"{method} needs a game without cycles, but {graph.rules.name} returns to state "
            f"{state}; retrograde analysis handles cycles in WIN/LOSS/TIE games"
        )
    return order


def state_on_cycle(graph: StateGraph, order: npt.NDArray[np.int32]) -> int:
    """Some state lying on a cycle, given a topological order that stopped short.

    Every state left out of the order has a child also left out, so walking such children
    must come back to a state already seen.
    """
    ordered = np.zeros(graph.n_states, dtype=np.bool_)
    ordered[order] = True
    sid = int(np.flatnonzero(~ordered)[0])
    seen: set[int] = set()
    while sid not in seen:
        seen.add(sid)
        kids = graph.children_of(sid)
        sid = int(kids[~ordered[kids]][0])
    return sid
