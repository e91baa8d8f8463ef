"""Loopy tiers: a tier whose positions also move among themselves, solved by rounds.

Precondition: the tier lists itself among its child tiers; its other child tiers are solved.
Contract: the values and remoteness of retrograde analysis on the explored graph. Without
un-moves (value iteration): round r decides the positions whose value first shows with
remoteness r, reading the records of the tier as they stand and of its children:
- phase 1, wins and losses: a position wins in r when some move reaches a position lost for
  its mover in r - 1; it loses in r when every move reaches a position won for its mover,
  the slowest in r - 1 (a tied or undecided child keeps it open);
- phase 2, ties: an open position ties in r when some move reaches a tie in r - 1;
- what is still open after both never ends: DRAW.
A round decides nothing new once it passes the longest remoteness of the child tiers and the
round before it decided nothing. Each round expands the positions still open, so the cost
is rounds x open positions: fine for small tiers; un-moves (frontiers) are the way to scale.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I8, I32, I64, NO_BOOLS, B
from ..core.compiled import kernel
from ..core.records import REACHED, RecordFormat, TierSummary
from ..errors import GameError
from ..terminals import Terminals
from .files import TierFiles
from .graph import CHUNK, TierGraph, expand_chunk

_WIN = 1
_LOSS = 2
_TIE = 3
_DRAW = 4


def solve_loopy_tier(
    graph: TierGraph, files: TierFiles, terminals: Terminals, tier: int, records: Any
) -> TierSummary:
    """Solve the reached positions of a loopy tier in ``records``, every one open (value
    code 7), in place (see the module docstring)."""
    record = files.record
    kids = {k: files.final(k) for k in graph.children[tier]}
    kids[tier] = records
    outer = [files.progress["solved"][str(k)]["remoteness"] for k in graph.children[tier]]
    for phase, kinds in ((1, ("1", "2")), (2, ("3",))):
        longest = max(
            (int(key.split(":")[1]) for counts in outer for key in counts if key[0] in kinds),
            default=0,
        )
        r = 0 if phase == 1 else 1
        while True:
            if r > record.max_remoteness:
                raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")
            decided = _round(graph, terminals, tier, records, kids, record, phase, r)
            if decided == 0 and r > longest + 1:
                break
            r += 1
    summary = TierSummary()
    for start in range(0, graph.sizes[tier], CHUNK):
        block = np.asarray(records[start : start + CHUNK])
        values = record.value_codes(block)
        open_ = values == REACHED
        block = np.where(open_, np.uint64(_DRAW << record.shift), block).astype(record.dtype)
        records[start : start + CHUNK] = block
        present = values != 0
        summary.add(record.value_codes(block[present]), record.remoteness(block[present]))
    return summary


def _round(
    graph: TierGraph,
    terminals: Terminals,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    record: RecordFormat,
    phase: int,
    r: int,
) -> int:
    """One round over the positions still open; how many it decided."""
    decided = 0
    for start in range(0, graph.sizes[tier], CHUNK):
        block = np.asarray(records[start : start + CHUNK])
        indices = start + np.flatnonzero(record.value_codes(block) == REACHED)
        if not indices.size:
            continue
        chunk = expand_chunk(graph, terminals, tier, indices)
        child = np.empty(chunk.child_index.shape[0], dtype=record.dtype)
        for kid, kid_records in kids.items():
            where = chunk.child_tier == kid
            child[where] = kid_records[chunk.child_index[where]]
        values, remoteness = decide(
            r,
            phase,
            chunk.outcome,
            chunk.open_rows,
            chunk.parents,
            record.value_codes(child),
            record.remoteness(child),
            NO_BOOLS if chunk.same_mover is None else chunk.same_mover,
        )
        now = values != REACHED
        decided += int(now.sum())
        encoded = (values.astype(record.dtype) << record.shift) | remoteness.astype(record.dtype)
        records[indices[now]] = encoded[now]
    return decided


@kernel
def decide(
    r: int,
    phase: int,
    outcome: I8,
    open_rows: I64,
    parents: I64,
    child_value: Any,
    child_remoteness: I32,
    same: B,
) -> tuple[Any, I32]:
    """The value codes (REACHED where still open) and remoteness a round gives a chunk.

    Round 0 settles the ends and the positions without moves; see the module docstring for
    the rest. ``parents`` (non-decreasing) gives, per move, its row in ``open_rows``.
    """
    n = outcome.shape[0]
    value = np.full(n, REACHED, dtype=np.uint8)
    remoteness = np.zeros(n, dtype=np.int32)
    if r == 0:
        for row in range(n):
            if outcome[row] != 0:
                value[row] = outcome[row]
    turns = same.shape[0] > 0
    e = 0
    for j in range(open_rows.shape[0]):
        row = open_rows[j]
        moves = 0
        losing = 0
        slowest = -1
        found = False
        while e < parents.shape[0] and parents[e] == j:
            v = child_value[e]
            if not (turns and same[e]) and v in (_WIN, _LOSS):
                v = _WIN + _LOSS - v  # the child's value seen by this position's mover
            last = child_remoteness[e] == r - 1
            if (phase == 1 and v == _WIN and last) or (phase == 2 and v == _TIE and last):
                found = True
            if v == _LOSS:
                losing += 1
                slowest = max(slowest, child_remoteness[e])
            moves += 1
            e += 1
        if r == 0:
            if moves == 0:
                value[row] = _LOSS
        elif found:
            value[row] = _WIN if phase == 1 else _TIE
            remoteness[row] = r
        elif phase == 1 and moves > 0 and losing == moves and slowest == r - 1:
            value[row] = _LOSS
            remoteness[row] = r
    return value, remoteness
