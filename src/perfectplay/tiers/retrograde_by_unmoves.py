"""Loopy tiers with un-moves: retrograde analysis inside a tier, by frontiers of remoteness.

Precondition: a loopy tier (it lists itself among its child tiers) of a game that gives
``batch_parents`` (un-moves inside a tier), without moves that give another turn.
Contract: the values and remoteness of retrograde analysis on the explored graph, as
``value_iteration`` (value iteration) gives them, for a pass over the tier plus work per
decided position instead of a pass per round.

One pass over the tier's reached positions reads their ends and their children in the child
tiers (final): per index, the fastest win an outside move gives, the fastest tie, the
slowest loss, and a counter of the children (each child position once, however many
moves lead to it) not yet known to lose (``pending``). Then levels
r = 0, 1, 2, ... are taken in order from buckets: what a bucket decides at level r becomes
the frontier, whose un-moves reach its parents in the tier: a parent of a lost position
wins at r + 1; a parent whose last pending move is now lost loses at the later of r + 1 and
its slowest outside loss. Ties spread the same way from tied positions after that; what is
never decided never ends, a DRAW.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from ..core.records import REACHED, RecordFormat, TierSummary
from ..errors import GameError
from ..terminals import Terminals
from .counted import child_keys, first_of_each
from .files import TierFiles
from .graph import CHUNK, TierGraph, expand_chunk, ranked_parents

_WIN, _LOSS, _TIE, _DRAW = 1, 2, 3, 4
NEVER = np.iinfo(np.int32).max


class _Tier:
    """Per index of one loopy tier: what its outside moves give, and its pending moves."""

    def __init__(self, size: int) -> None:
        self.win = np.full(size, NEVER, dtype=np.int32)
        self.tie = np.full(size, NEVER, dtype=np.int32)
        self.slowest = np.zeros(size, dtype=np.int32)
        self.pending = np.zeros(size, dtype=np.int32)
        self.buckets: dict[int, list[tuple[Any, int]]] = defaultdict(list)

    def push(self, level: Any, indices: Any, value: int) -> None:
        """Candidates to decide as ``value``, each at its level."""
        for r in np.unique(level).tolist():
            self.buckets[int(r)].append((indices[level == r], value))


def solve_with_unmoves(
    graph: TierGraph, files: TierFiles, terminals: Terminals, tier: int, records: Any
) -> TierSummary:
    """Solve the reached positions of a loopy tier in ``records``, every one open (value
    code 7), in place (see the module docstring)."""
    record = files.record
    state = _Tier(graph.sizes[tier])
    _read_outside(graph, files, terminals, tier, records, state)
    for phase in (1, 2):
        if phase == 2:
            values = record.value_codes(np.asarray(records))
            open_ = np.flatnonzero((values == REACHED) & (state.tie < NEVER))
            state.buckets.clear()
            state.push(state.tie[open_], open_, _TIE)
            tied_ends = np.flatnonzero(values == _TIE)  # only ends are tied yet
            state.push(np.zeros(tied_ends.shape, np.int64), tied_ends, -1)
        level = 0
        while state.buckets:
            if level > record.max_remoteness:
                raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")
            frontier = _decide(records, record, state, level)
            if frontier is not None:
                _spread(graph, tier, records, record, state, phase, level, frontier)
            level += 1
    return _finish(graph, tier, records, record)


def _read_outside(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    state: _Tier,
) -> None:
    """One pass: ends settle at level 0; outside children fill the per-index figures."""
    record = files.record
    kids = {k: files.final(k) for k in graph.children[tier]}
    for start in range(0, graph.sizes[tier], CHUNK):
        block = np.asarray(records[start : start + CHUNK])
        indices = start + np.flatnonzero(block != 0)
        chunk = expand_chunk(graph, terminals, tier, indices)
        if chunk.same_mover is not None:
            raise GameError("un-moves in a loopy tier need moves that always pass the turn")
        ends = chunk.outcome != 0
        state.push(np.zeros(int(ends.sum()), np.int64), indices[ends], -1)  # settled below
        records[indices[ends]] = chunk.outcome[ends].astype(record.dtype) << record.shift
        # Counted once per child position, not per move: two moves to one child (or, in a
        # tier whose index stands for a position's images too, to two images of one) are
        # one un-move back from it.
        once = first_of_each(chunk.parents, child_keys(graph, tier, chunk))
        moves = np.bincount(chunk.parents[once], minlength=chunk.open_rows.shape[0])
        rows = indices[chunk.open_rows]
        state.pending[rows] = moves
        state.push(np.zeros(int((moves == 0).sum()), np.int64), rows[moves == 0], _LOSS)
        outside = (chunk.child_tier != tier) & once
        mine = rows[chunk.parents[outside]]
        child = np.empty(int(outside.sum()), dtype=record.dtype)
        for kid, kid_records in kids.items():
            where = chunk.child_tier[outside] == kid
            child[where] = kid_records[chunk.child_index[outside][where]]
        value = record.value_codes(child)
        plies = record.remoteness(child) + 1
        np.minimum.at(state.win, mine[value == _LOSS], plies[value == _LOSS])
        np.minimum.at(state.tie, mine[value == _TIE], plies[value == _TIE])
        lost = value == _WIN
        np.maximum.at(state.slowest, mine[lost], plies[lost])
        np.subtract.at(state.pending, mine[lost], 1)
        done = rows[(state.pending[rows] == 0) & (moves > 0)]
        state.push(state.slowest[done], done, _LOSS)
        winning = rows[state.win[rows] < NEVER]
        state.push(state.win[winning], winning, _WIN)


def _decide(records: Any, record: RecordFormat, state: _Tier, level: int) -> Any:
    """Decide what the bucket of ``level`` holds and is still open; the frontier's indices."""
    entries = state.buckets.pop(level, [])
    decided = []
    for indices, value in entries:
        if value == -1:  # ends, settled when read: they start the frontier
            decided.append(indices)
            continue
        still = indices[record.value_codes(np.asarray(records[indices])) == REACHED]
        still = np.unique(still)
        records[still] = (np.uint64(value) << np.uint64(record.shift) | np.uint64(level)).astype(
            record.dtype
        )
        decided.append(still)
    return np.unique(np.concatenate(decided)) if decided else None


def _spread(
    graph: TierGraph,
    tier: int,
    records: Any,
    record: RecordFormat,
    state: _Tier,
    phase: int,
    level: int,
    frontier: Any,
) -> None:
    """Send the news of a frontier to its parents in the tier, through the un-moves."""
    hooks = graph.hooks
    assert hooks.batch_parents is not None
    values = record.value_codes(np.asarray(records[frontier]))
    wanted = (values == _TIE) if phase == 2 else (values == _WIN) | (values == _LOSS)
    frontier, values = frontier[wanted], values[wanted]
    if not frontier.size:
        return
    codes = np.asarray(hooks.batch_unrank(tier, frontier), dtype=np.int64)
    parents, row = ranked_parents(graph, tier, codes)
    open_ = record.value_codes(np.asarray(records[parents])) == REACHED
    parents, row = parents[open_], row[open_]
    once = first_of_each(row, parents)  # one news a parent from each child (see above)
    parents, child_value = parents[once], values[row[once]]
    if phase == 2:
        state.push(np.full(parents.shape, level + 1), parents, _TIE)
        return
    winners = parents[child_value == _LOSS]
    state.push(np.full(winners.shape, level + 1), winners, _WIN)
    losers = parents[child_value == _WIN]
    np.subtract.at(state.pending, losers, 1)
    done = np.unique(losers[state.pending[losers] == 0])
    state.push(np.maximum(state.slowest[done], level + 1), done, _LOSS)


def _finish(graph: TierGraph, tier: int, records: Any, record: RecordFormat) -> TierSummary:
    """What stayed open never ends: DRAW. The tier's counts."""
    summary = TierSummary()
    for start in range(0, graph.sizes[tier], CHUNK):
        block = np.asarray(records[start : start + CHUNK])
        values = record.value_codes(block)
        block = np.where(values == REACHED, np.uint64(_DRAW << record.shift), block)
        block = block.astype(record.dtype)
        records[start : start + CHUNK] = block
        present = values != 0
        summary.add(record.value_codes(block[present]), record.remoteness(block[present]))
    return summary
