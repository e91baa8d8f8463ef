"""Grundy values (nimbers) of impartial games under normal play, by the mex rule.

Precondition: an outcome game without cycles, without extra turns, whose only ends are
losses for the mover (normal play: who cannot move loses). Contract: a state's Grundy value
is the least non-negative integer that is no child's value; it is 0 exactly for the states
lost for the mover, and the value of a sum of games is the xor of its parts' values. Values
and remoteness come from retrograde analysis, run beside it.
"""

from __future__ import annotations

import numpy as np

from ..core.arrays import I32, I64
from ..core.compiled import kernel
from ..errors import SolverChoiceError, describe
from ..spaces.graph import StateGraph
from ..values import Value
from .retrograde import solve_retrograde
from .solved import Solved


def grundy_problem(graph: StateGraph) -> str | None:
    """Why a game's Grundy values would mean nothing, or None when they are sound."""
    name = graph.rules.name
    if graph.kind != "outcome":
        return f"{name} is scored"
    if graph.extra_turns:
        return f"{name} has moves that give another turn"
    not_loss = graph.terminal & (graph.outcome_code != int(Value.LOSS))
    if not_loss.any():
        sid = int(np.flatnonzero(not_loss)[0])
        shown = " / ".join(graph.rules.show(graph.state(sid)).splitlines())
        return (
            f"{name} ends in a {Value(int(graph.outcome_code[sid])).name.lower()} at "
            f"{shown if len(shown) <= 60 else describe(graph.state(sid))} (normal play: only "
            "a loss for the player who cannot move)"
        )
    return None


def solve_grundy(graph: StateGraph) -> Solved:
    """Values, remoteness and Grundy values of every state of an impartial game."""
    problem = grundy_problem(graph)
    if problem is not None:
        raise SolverChoiceError(f"Grundy values need an impartial normal-play game: {problem}")
    order = graph.acyclic_order("grundy")
    outcomes = solve_retrograde(graph)
    return Solved(outcomes.values, outcomes.remoteness, mex(order, graph.offsets, graph.children))


@kernel
def mex(order: I32, offsets: I64, children: I32) -> I32:
    """The mex of the children's values for every state, in ``order`` (children first).

    ``seen[g] == s`` marks value g as taken among the children of s; values above a
    state's degree cannot change its mex and are skipped. O(edges).
    """
    n = offsets.shape[0] - 1
    value = np.zeros(n, dtype=np.int32)
    widest = 0
    for s in range(n):
        widest = max(widest, offsets[s + 1] - offsets[s])
    seen = np.full(widest + 2, -1, dtype=np.int64)
    for i in range(order.shape[0]):
        s = order[i]
        lo = offsets[s]
        hi = offsets[s + 1]
        degree = hi - lo
        for e in range(lo, hi):
            g = value[children[e]]
            if g <= degree:
                seen[g] = s
        m = 0
        while seen[m] == s:
            m += 1
        value[s] = m
    return value
