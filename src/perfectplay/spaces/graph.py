"""The StateGraph: a game's reachable states as arrays that every full solver shares.

States are numbered 0..n-1 (the root is ``root``, 0 unless a batch universe keeps codes as
ids); children are stored in CSR form: the moves of state s lead to
``children[offsets[s]:offsets[s + 1]]``. Beside the graph live its helpers, compiled
kernels over the same arrays: reverse edges, a children-first order, a breadth-first
order and relabelling.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..core.arrays import F64, I8, I32, I64, NO_BOOLS, B
from ..core.compiled import kernel
from ..errors import CycleError, describe
from ..rules import Rules
from ..terminals import Kind


@dataclass(eq=False)
class StateGraph:
    """The explored game: one integer id per reachable state (keyed by the game's key())."""

    rules: Rules[Any, Any]
    states: Sequence[Any] | I64
    """The state behind each id: a list (plain games) or an array of codes (batch games)."""
    lookup: Callable[[Hashable], int | None]
    """The id of a canonical key, or None."""
    offsets: I64
    children: I32
    kind: Kind
    terminal: B
    outcome_code: I8
    """WIN / LOSS / TIE codes of the ends of an outcome game (0 elsewhere)."""
    score: F64 | None
    """Scores of the ends of a scored game (NaN elsewhere); None for an outcome game."""
    integral_scores: bool
    seconds: float
    same_mover: B | None = None
    """Per edge, whether the mover stays; None when no move gives another turn."""
    reward: F64 | None = None
    """Points the mover collects along each edge (scored games with a reward hook)."""
    root: int = 0
    """The id of the initial state."""

    @property
    def n_states(self) -> int:
        """How many distinct states (keys) were reached."""
        return int(self.offsets.shape[0] - 1)

    @property
    def n_edges(self) -> int:
        """How many (state, move) pairs were expanded."""
        return int(self.children.shape[0])

    @property
    def extra_turns(self) -> bool:
        """Whether some move keeps the same player on move."""
        return self.same_mover is not None

    def state(self, sid: int) -> Any:
        """The (representative) state with id ``sid``."""
        state = self.states[sid]
        if isinstance(state, np.integer):
            code = int(state)
            return code if self.rules.from_code is None else self.rules.from_code(code)
        return state

    def id_of(self, state: Any) -> int | None:
        """The id of a state, or None if exploration never reached it."""
        try:
            return self.lookup(self.rules.key_of(state))
        except (TypeError, ValueError, OverflowError):
            return None

    def children_of(self, sid: int) -> I32:
        """Ids of the children of state ``sid``, one per move."""
        return self.children[self.offsets[sid] : self.offsets[sid + 1]]

    @cached_property
    def reverse(self) -> tuple[I64, I32, B]:
        """Reverse edges in CSR form: (offsets, parents, same_mover), built on first use;
        the flags are empty when no move gives another turn."""
        same = NO_BOOLS if self.same_mover is None else self.same_mover
        return reverse_csr(self.offsets, self.children, same)

    @cached_property
    def children_first(self) -> I32:
        """States ordered children before parents, built on first use; shorter than
        n_states when the graph has a cycle (the states left out are on or lead into one)."""
        rev_offsets, rev_parents, _ = self.reverse
        return reverse_topological_order(self.offsets, rev_offsets, rev_parents)

    def acyclic_order(self, solver: str) -> I32:
        """The children-first order of every state; CycleError, naming a state on a cycle
        and the ``solver`` that needs none, when the graph has one."""
        order = self.children_first
        if order.shape[0] < self.n_states:
            raise CycleError(
                f"{solver} needs a game without cycles, but {self.rules.name} returns to "
                f"state {describe(self.state(self.state_on_cycle()))}; retrograde analysis "
                "handles cycles in WIN/LOSS/TIE games"
            )
        return order

    def state_on_cycle(self) -> int:
        """Some state lying on a cycle, for a graph whose children-first order stops short.

        Every state left out of the order has a child also left out, so walking such
        children must come back to a state already seen.
        """
        ordered = np.zeros(self.n_states, dtype=np.bool_)
        ordered[self.children_first] = True
        sid = int(np.flatnonzero(~ordered)[0])
        seen: set[int] = set()
        while sid not in seen:
            seen.add(sid)
            kids = self.children_of(sid)
            sid = int(kids[~ordered[kids]][0])
        return sid


@kernel
def reverse_csr(offsets: I64, children: I32, same_mover: B) -> tuple[I64, I32, B]:
    """Reverse edges in CSR form (offsets, parents, same_mover) by counting sort, O(edges).

    ``same_mover`` is empty when no move gives another turn; so is the reversed copy.
    """
    n = offsets.shape[0] - 1
    m = children.shape[0]
    rev_offsets = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        rev_offsets[children[e] + 1] += 1
    for s in range(n):
        rev_offsets[s + 1] += rev_offsets[s]
    fill = rev_offsets[:-1].copy()
    parents = np.empty(m, dtype=np.int32)
    turns = same_mover.shape[0] > 0
    same = np.empty(m if turns else 0, dtype=np.bool_)
    for s in range(n):
        for e in range(offsets[s], offsets[s + 1]):
            c = children[e]
            parents[fill[c]] = s
            if turns:
                same[fill[c]] = same_mover[e]
            fill[c] += 1
    return rev_offsets, parents, same


@kernel
def reverse_topological_order(offsets: I64, rev_offsets: I64, rev_parents: I32) -> I32:
    """States ordered children first (Kahn's algorithm from the sinks).

    Returns fewer than n states when the graph has a cycle: the missing ones are those on
    a cycle or leading into one.
    """
    n = offsets.shape[0] - 1
    pending = offsets[1:] - offsets[:-1]
    order = np.empty(n, dtype=np.int32)
    tail = 0
    for s in range(n):
        if pending[s] == 0:
            order[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = order[head]
        head += 1
        for e in range(rev_offsets[s], rev_offsets[s + 1]):
            p = rev_parents[e]
            pending[p] -= 1
            if pending[p] == 0:
                order[tail] = p
                tail += 1
    return order[:tail]


@kernel
def breadth_first_order(offsets: I64, children: I64, root: np.int64) -> I64:
    """The states reachable from ``root``, in breadth-first order (root first)."""
    n = offsets.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    order = np.empty(n, dtype=np.int64)
    order[0] = root
    seen[root] = True
    tail = 1
    head = 0
    while head < tail:
        s = order[head]
        head += 1
        for e in range(offsets[s], offsets[s + 1]):
            c = children[e]
            if not seen[c]:
                seen[c] = True
                order[tail] = c
                tail += 1
    return order[:tail]


@kernel
def relabel(order: I64, offsets: I64, children: I64, want_source: bool) -> tuple[I64, I32, I64]:
    """The subgraph on ``order`` renumbered 0..k-1 in that order.

    Returns the new offsets, the new children, and (with ``want_source``) for each new edge
    the old edge it came from, to carry per-edge data along. Every child must itself be in
    ``order``.
    """
    n = offsets.shape[0] - 1
    new_id = np.full(n, -1, dtype=np.int64)
    for i in range(order.shape[0]):
        new_id[order[i]] = i
    k = order.shape[0]
    new_offsets = np.zeros(k + 1, dtype=np.int64)
    for i in range(k):
        s = order[i]
        new_offsets[i + 1] = new_offsets[i] + offsets[s + 1] - offsets[s]
    new_children = np.empty(new_offsets[k], dtype=np.int32)
    source_edge = np.empty(new_offsets[k] if want_source else 0, dtype=np.int64)
    for i in range(k):
        s = order[i]
        j = new_offsets[i]
        for e in range(offsets[s], offsets[s + 1]):
            new_children[j] = new_id[children[e]]
            if want_source:
                source_edge[j] = e
            j += 1
    return new_offsets, new_children, source_edge
