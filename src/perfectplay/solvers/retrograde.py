"""Retrograde analysis: backward induction from the ends, for WIN / LOSS / TIE games.

Precondition: an outcome game (``graph.kind == "outcome"``); cycles are allowed.
Contract, for the player to move in every state:
- WIN when some move leads to a position lost for the player then to move (or won, across
  a move that gives another turn); LOSS when every move leads to one won for them, or there
  is no move; TIE when the best that can be forced is a tied end; DRAW when play never ends.
- Remoteness (plies to the end): the winner takes the fastest win, the loser the slowest
  loss, a tie is reached as soon as possible; -1 for a draw.
"""

from __future__ import annotations

import numpy as np

from ..core.arrays import I8, I32, I64, B
from ..core.compiled import kernel
from ..errors import SolverChoiceError
from ..spaces.graph import StateGraph
from .solved import Solved

# Value codes, as in values.Value.
_WIN = 1
_LOSS = 2
_TIE = 3
_DRAW = 4


def solve_retrograde(graph: StateGraph) -> Solved:
    """Values and remoteness of every state of an outcome game."""
    if graph.kind != "outcome":
        raise SolverChoiceError(
            f"retrograde analysis solves WIN/LOSS/TIE games, but {graph.rules.name} is "
            "scored; use negamax"
        )
    rev_offsets, rev_parents, rev_same = graph.reverse
    values, remoteness = retrograde(
        graph.offsets, graph.outcome_code, rev_offsets, rev_parents, rev_same
    )
    return Solved(values, remoteness)


@kernel
def retrograde(
    offsets: I64,
    terminal_code: I8,
    rev_offsets: I64,
    rev_parents: I32,
    rev_same: B,
) -> tuple[I8, I32]:
    """Backward induction from the ends of the game, cycles allowed; O(edges).

    Wins and losses are settled first, then ties spread through what is left; what remains
    never ends: DRAW. ``rev_same`` is empty when no move gives another turn.
    """
    n = offsets.shape[0] - 1
    value = np.zeros(n, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    _settle_wins_and_losses(
        offsets, terminal_code, rev_offsets, rev_parents, rev_same, value, remoteness, queue
    )
    _spread_ties(terminal_code, rev_offsets, rev_parents, value, remoteness, queue)
    for s in range(n):
        if value[s] == 0:
            value[s] = _DRAW
    return value, remoteness


@kernel
def _settle_wins_and_losses(
    offsets: I64,
    terminal_code: I8,
    rev_offsets: I64,
    rev_parents: I32,
    rev_same: B,
    value: I8,
    remoteness: I32,
    queue: I32,
) -> None:
    """A state wins as soon as one child is a loss for it, and loses once every child is a
    win for the opponent (``pending`` counts the children not yet known to be such wins).

    The queue is processed in order of remoteness, so a win takes its fastest child and a
    loss its slowest.
    """
    n = offsets.shape[0] - 1
    pending = (offsets[1:] - offsets[:-1]).astype(np.int32)
    tail = 0
    for s in range(n):
        code = terminal_code[s]
        if code in (_WIN, _LOSS):
            value[s] = code
        elif code == 0 and pending[s] == 0:
            value[s] = _LOSS
        else:
            continue
        remoteness[s] = 0
        queue[tail] = s
        tail += 1
    turns = rev_same.shape[0] > 0
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        v = value[s]
        r = remoteness[s] + 1
        for e in range(rev_offsets[s], rev_offsets[s + 1]):
            p = rev_parents[e]
            if value[p] != 0:
                continue
            # The child's value seen by the parent's mover.
            parent_wins = (v == _WIN) if turns and rev_same[e] else (v == _LOSS)
            if parent_wins:
                value[p] = _WIN
            else:
                pending[p] -= 1
                if pending[p] != 0:
                    continue
                value[p] = _LOSS
            remoteness[p] = r
            queue[tail] = p
            tail += 1


@kernel
def _spread_ties(
    terminal_code: I8, rev_offsets: I64, rev_parents: I32, value: I8, remoteness: I32, queue: I32
) -> None:
    """Ties spread from tied ends, breadth first, through every state still open: such a
    state cannot win, and avoids its losing moves by reaching the nearest tie."""
    tail = 0
    for s in range(terminal_code.shape[0]):
        if terminal_code[s] == _TIE:
            value[s] = _TIE
            remoteness[s] = 0
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        r = remoteness[s] + 1
        for e in range(rev_offsets[s], rev_offsets[s + 1]):
            p = rev_parents[e]
            if value[p] == 0:
                value[p] = _TIE
                remoteness[p] = r
                queue[tail] = p
                tail += 1
