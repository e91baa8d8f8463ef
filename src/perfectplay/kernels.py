"""Compiled loops over the StateGraph arrays (numba): each solver's inner work, O(edges).

These are worklist algorithms (a queue of decided states, an order of states), which numpy
cannot express without one Python step per level; numba runs them at native speed, so a
chain of 100,000 levels costs no more than a wide graph of the same size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., Any])

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]

# Value codes, as in values.Value.
_WIN = 1
_LOSS = 2
_TIE = 3
_DRAW = 4


def jit(fn: F) -> F:
    """Compile a function with numba, cached on disk, keeping its type for mypy."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


@jit
def retrograde(
    offsets: I64,
    terminal_code: I8,
    rev_offsets: I64,
    rev_parents: I32,
    rev_same: B,
) -> tuple[I8, I32]:
    """Backward induction from the ends of the game, cycles allowed.

    Phase 1 settles WIN and LOSS: a state wins as soon as one child is a loss for it, and
    loses once every child is a win for the opponent. The queue is processed in order of
    remoteness, so a win takes its fastest child and a loss its slowest. Phase 2 spreads
    ties from tied ends through the states still open; what remains never ends: DRAW.
    """
    n = offsets.shape[0] - 1
    value = np.zeros(n, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int32)
    pending = (offsets[1:] - offsets[:-1]).astype(np.int32)
    queue = np.empty(n, dtype=np.int32)
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
    turns = rev_same.shape[0] > 0  # empty when no move ever gives another turn
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
                remoteness[p] = r
                queue[tail] = p
                tail += 1
            else:
                pending[p] -= 1
                if pending[p] == 0:
                    value[p] = _LOSS
                    remoteness[p] = r
                    queue[tail] = p
                    tail += 1
    head = 0
    tail = 0
    for s in range(n):
        if terminal_code[s] == _TIE:
            value[s] = _TIE
            remoteness[s] = 0
            queue[tail] = s
            tail += 1
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
    for s in range(n):
        if value[s] == 0:
            value[s] = _DRAW
    return value, remoteness


@jit
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


@jit
def negamax(
    order: I32,
    offsets: I64,
    children: I32,
    same_mover: B,
    terminal: B,
    score: F64,
    reward: F64,
) -> tuple[F64, I32]:
    """Scores for the player to move, children before parents.

    A move is worth its reward plus the child's score, negated across a move that changes
    the mover and kept across one that gives another turn. ``reward`` is empty when the game
    has none. Remoteness follows the shortest of the best moves. A state with no moves and
    no outcome scores -inf (normal play: it has lost).
    """
    has_reward = reward.shape[0] > 0
    turns = same_mover.shape[0] > 0  # empty when no move ever gives another turn
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


@jit
def grundy(order: I32, offsets: I64, children: I32) -> I32:
    """Grundy values of an impartial normal-play game: the mex of the children's values."""
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


@jit
def reverse_csr(offsets: I64, children: I32, same_mover: B) -> tuple[I64, I32, B]:
    """Reverse edges in CSR form (offsets, parents, same_mover) by counting sort, O(edges)."""
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


@jit
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


@jit
def is_index_run(parents: I64, size: int) -> bool:
    """Whether ``parents`` is non-decreasing and within 0..size-1."""
    if parents[0] < 0 or parents[parents.shape[0] - 1] >= size:
        return False
    for i in range(1, parents.shape[0]):  # noqa: SIM110 (numba compiles loops, not all())
        if parents[i] < parents[i - 1]:
            return False
    return True


@jit
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


# An open-addressing hash table from state codes (non-negative int64) to ids, kept as two
# arrays: ``keys`` (-1 marks an empty slot) and ``ids``; its size is a power of two.
_EMPTY = -1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@jit
def _slot(code: np.int64, mask: np.int64) -> np.int64:
    mixed = np.uint64(code) * _GOLDEN
    return np.int64(mixed >> np.uint64(20)) & mask


@jit
def hash_intern(
    keys: I64,
    ids: I32,
    codes: I64,
    start: np.int64,
    next_id: np.int64,
    room: np.int64,
    result: I32,
    new_codes: I64,
    fresh: np.int64,
) -> tuple[np.int64, np.int64]:
    """Ids of ``codes[start:]`` into ``result``; each unseen code gets the next id and is
    listed in ``new_codes`` after the ``fresh`` already there.

    Stops early once ``room`` more codes have been added (the table must then grow).
    Returns where it stopped and the new count of fresh codes.
    """
    mask = np.int64(keys.shape[0] - 1)
    limit = fresh + room
    for i in range(start, codes.shape[0]):
        if fresh >= limit:
            return np.int64(i), fresh
        code = codes[i]
        slot = _slot(code, mask)
        while True:
            key = keys[slot]
            if key == code:
                result[i] = ids[slot]
                break
            if key == _EMPTY:
                keys[slot] = code
                ids[slot] = next_id + fresh
                result[i] = next_id + fresh
                new_codes[fresh] = code
                fresh += 1
                break
            slot = (slot + 1) & mask
    return np.int64(codes.shape[0]), fresh


@jit
def hash_find(keys: I64, ids: I32, code: np.int64) -> np.int64:
    """The id stored for ``code``, or -1."""
    mask = np.int64(keys.shape[0] - 1)
    slot = _slot(code, mask)
    while True:
        key = keys[slot]
        if key == code:
            return np.int64(ids[slot])
        if key == _EMPTY:
            return np.int64(-1)
        slot = (slot + 1) & mask


@jit
def hash_grow(keys: I64, ids: I32, capacity: np.int64) -> tuple[I64, I32]:
    """The same table in ``capacity`` slots (a power of two)."""
    new_keys = np.full(capacity, _EMPTY, dtype=np.int64)
    new_ids = np.empty(capacity, dtype=np.int32)
    mask = np.int64(capacity - 1)
    for i in range(keys.shape[0]):
        code = keys[i]
        if code == _EMPTY:
            continue
        slot = _slot(code, mask)
        while new_keys[slot] != _EMPTY:
            slot = (slot + 1) & mask
        new_keys[slot] = code
        new_ids[slot] = ids[i]
    return new_keys, new_ids
