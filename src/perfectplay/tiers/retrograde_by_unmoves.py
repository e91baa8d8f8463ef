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

from ..core.compiled import kernel
from ..core.records import REACHED, RecordFormat, TierSummary
from ..errors import GameError
from ..terminals import Terminals
from .files import TierFiles
from .graph import CHUNK, TierGraph, expand_chunk

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
            child[where] = np.asarray(kid_records)[chunk.child_index[outside][where]]
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


def child_keys(graph: TierGraph, tier: int, chunk: Any) -> Any:
    """One int64 a child: its index, then its tier's place among the tier's children."""
    tiers = np.array(sorted({tier, *graph.children[tier]}), dtype=np.int64)
    index = np.asarray(chunk.child_index, dtype=np.int64)
    return index * tiers.shape[0] + np.searchsorted(tiers, chunk.child_tier)


def first_of_each(blocks: Any, key: Any) -> Any:
    """A mask of the rows whose (block, key) came in no earlier row. Rows come in blocks of
    equal ``blocks`` (a parent's moves, a child's un-moves), compared within their block
    by a kernel; rows not in blocks are sorted instead (a lexsort of three columns took
    half of a Morris database's solve, 16 of 35 s, 2026-11-28)."""
    blocks = np.asarray(blocks, dtype=np.int64)
    key = np.asarray(key, dtype=np.int64)
    size = int(blocks.shape[0])
    if size == 0:
        return np.zeros(0, dtype=bool)
    if size > 1 and bool((blocks[1:] < blocks[:-1]).any()):
        return _first_sorted(blocks, key)
    mask = np.ones(size, dtype=bool)
    first_in_block.run(size, blocks, key, mask)
    return mask


def _first_sorted(*columns: Any) -> Any:
    """first_of_each for rows in any order: a stable sort by all columns."""
    size = int(np.asarray(columns[0]).shape[0])
    if size == 0:
        return np.zeros(0, dtype=bool)
    order = np.lexsort(tuple(np.asarray(c) for c in reversed(columns)))
    differs = np.zeros(size - 1, dtype=bool)
    for column in columns:
        ordered = np.asarray(column)[order]
        differs |= ordered[1:] != ordered[:-1]
    mask = np.zeros(size, dtype=bool)
    mask[order[np.concatenate(([True], differs))]] = True
    return mask


TABLE_SLOTS = 1 << 12
"""Slots of ``first_in_block``'s hash table: blocks of up to half as many rows use it."""


@kernel
def first_in_block(blocks: Any, key: Any, mask: Any) -> None:
    """Clear ``mask`` at each row whose key came earlier in its block (runs of equal
    ``blocks``): a block is a position's moves. A row compares itself with the earlier
    ones only where a 128-bit filter of their keys' hashes says it may repeat one (every
    pair compared took 2.2 s of a 22 s Morris solve); blocks past 32 rows go through a
    small hash table (a side with three stones jumping has 40 moves and more: sorting each
    such block took a fifth of Nine Men's Morris' 9-3 sector), the longest ones are
    sorted."""
    size = blocks.shape[0]
    slot_key = np.zeros(TABLE_SLOTS, dtype=np.int64)
    slot_block = np.full(TABLE_SLOTS, -1, dtype=np.int64)  # which block wrote the slot
    begin = 0
    while begin < size:
        end = begin + 1
        while end < size and blocks[end] == blocks[begin]:
            end += 1
        if end - begin <= 32:
            low = np.uint64(0)
            high = np.uint64(0)
            for i in range(begin, end):
                hashed = (np.uint64(key[i]) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(57)
                bit = np.uint64(1) << (hashed & np.uint64(63))
                word = low if hashed < 64 else high
                if word & bit:
                    for j in range(begin, i):
                        if key[j] == key[i]:
                            mask[i] = False
                            break
                if hashed < 64:
                    low |= bit
                else:
                    high |= bit
        elif 2 * (end - begin) <= TABLE_SLOTS:
            for i in range(begin, end):
                hashed = (np.uint64(key[i]) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
                slot = np.int64(hashed) & (TABLE_SLOTS - 1)
                while slot_block[slot] == begin and slot_key[slot] != key[i]:
                    slot = (slot + 1) & (TABLE_SLOTS - 1)
                if slot_block[slot] == begin:  # the key came earlier in the block
                    mask[i] = False
                else:
                    slot_block[slot] = begin
                    slot_key[slot] = key[i]
        else:
            order = np.argsort(key[begin:end], kind="mergesort")  # stable: earliest first
            for i in range(1, end - begin):
                if key[begin + order[i]] == key[begin + order[i - 1]]:
                    mask[begin + order[i]] = False
        begin = end


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
    back = hooks.batch_parents(tier, codes)
    before = np.asarray(back.children, np.int64)  # the positions one move before
    row = np.asarray(back.parents, np.int64)
    if hooks.batch_tier is not None:  # un-moves may also lead back into parent tiers
        here = np.asarray(hooks.batch_tier(before), np.int64) == tier
        before, row = before[here], row[here]
    parents = np.asarray(hooks.batch_rank(tier, before), np.int64)
    indexed = parents >= 0  # (a parent the tier has no index for: play never makes it)
    parents, row = parents[indexed], row[indexed]
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
