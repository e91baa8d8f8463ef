"""Negamax: exact scores of scored games, children before parents.

Precondition: a scored game (``graph.kind == "scored"``) without cycles.
Contract: a state's value is the best, for its mover, over its moves of the move's reward
plus the child's value, negated across a move that passes the turn and kept across one
that gives another turn; an end is worth its score; a state with no moves and no outcome is
worth -inf (normal play: it has lost). Remoteness follows the shortest of the best moves.
"""

from __future__ import annotations

import numpy as np

from ..core.arrays import F64, I32, I64, NO_BOOLS, NO_FLOATS, B
from ..core.compiled import kernel
from ..errors import SolverChoiceError
from ..spaces.graph import StateGraph
from .solved import Solved


def solve_negamax(graph: StateGraph) -> Solved:
    """Scores and remoteness of every state of an acyclic scored game."""
    if graph.kind != "scored" or graph.score is None:
        raise SolverChoiceError(
            f"negamax solves scored games, but {graph.rules.name} returns WIN/LOSS/TIE; "
            "use retrograde (it also handles cycles)"
        )
    order = graph.acyclic_order("negamax")
    values, remoteness = negamax(
        order,
        graph.offsets,
        graph.children,
        NO_BOOLS if graph.same_mover is None else graph.same_mover,
        graph.terminal,
        graph.score,
        NO_FLOATS if graph.reward is None else graph.reward,
    )
    return Solved(values, remoteness)


@kernel
def negamax(
    order: I32,
    offsets: I64,
    children: I32,
    same_mover: B,
    terminal: B,
    score: F64,
    reward: F64,
) -> tuple[F64, I32]:
    """Scores for the player to move, in ``order`` (children first); O(edges).

    ``same_mover`` and ``reward`` are empty when the game has no extra turns or no rewards.
    """
    has_reward = reward.shape[0] > 0
    turns = same_mover.shape[0] > 0
    n = offsets.shape[0] - 1
    value = np.empty(n, dtype=np.float64)
    remoteness = np.zeros(n, dtype=np.int32)
    for i in range(order.shape[0]):
        s = order[i]
        if terminal[s]:
            value[s] = score[s]
            continue
        lo = offsets[s]
        hi = offsets[s + 1]
        if lo == hi:
            value[s] = -np.inf
            continue
        best = 0.0
        best_r = 0
        for e in range(lo, hi):
            c = children[e]
            v = value[c] if turns and same_mover[e] else -value[c]
            if has_reward:
                v += reward[e]
            r = remoteness[c] + 1
            if e == lo or v > best or (v == best and r < best_r):
                best = v
                best_r = r
        value[s] = best
        remoteness[s] = best_r
    return value, remoteness
