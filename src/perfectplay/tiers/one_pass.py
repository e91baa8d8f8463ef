"""One pass over a tier whose moves all leave it: its children solved, its records follow.

By the game's (or the engine's) sweep, ``batch_solve_tier``, over windows of the tier on
every core (``solve_by_sweeps``; a span of it, ``solve_span_by_sweep``, on Dask), or a
chunk of positions at a time, each chunk expanded and its children's records read and
combined in one compiled kernel (``solve_span``: the whole tier, or a span of it). The
winner hurries, the loser stalls, a tie comes as soon as possible. Which of them solves a
tier is the table of tier methods' choice (``tiers.methods``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I8, I32, I64, NO_BOOLS, B
from ..core.compiled import inlined_kernel, kernel
from ..core.packed_records import PackedRecords
from ..core.parallel import in_parallel
from ..core.records import (
    REACHED,
    TOO_REMOTE,
    UNSOLVED_CHILD,
    RecordFormat,
    TierSummary,
    count_pairs,
    sweep_codes,
)
from ..errors import GameError
from ..progress import ProgressCallback
from ..terminals import Terminals
from .files import TierFiles, let_go
from .graph import CHUNK, Chunk, TierGraph, expand_chunk
from .marking import reached_indices
from .sweeps import sweep_child, sweep_tier

U8 = Any  # uint8 arrays, for the kernel's signature

COUNT_WINDOW = 1 << 24
"""Records of a solved tier counted at once (then let go from memory)."""
_WIN = 1
_LOSS = 2
_TIE = 3
_DRAW = 4


def solve_by_sweeps(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    progress: ProgressCallback | None,
    done: int,
) -> TierSummary | None:
    """Solve a tier marked by batch_mark_tier (its ended positions recorded) by the game's
    batch_solve_tier, a window per task on every core, in place; the summary is counted
    from the records once they are all written (a solve taken up again after an
    interruption counts what it finds). None when the game declines."""
    kids = {k: files.final(k) for k in graph.children[tier]}
    solved = [done]

    def count(visited: int) -> None:
        _check_status(-visited if visited < 0 else 0, tier, files.record)
        solved[0] += visited
        if progress is not None:
            progress(solved[0], solved[0], level=tier)

    if not sweep_tier(graph, files, tier, records, kids, "batch_solve_tier", count):
        return None
    summary = TierSummary()
    flat = np.asarray(records)
    for start in range(0, flat.shape[0], COUNT_WINDOW):  # counted a window at a time, each
        stop = min(start + COUNT_WINDOW, flat.shape[0])  # let go after: never all resident
        summary.add_records(flat[start:stop], files.record)
        let_go(records, start, stop)
    if REACHED in summary.values:
        raise GameError(
            f"{graph.rules.name}.batch_solve_tier left {summary.values[REACHED]:,} positions "
            f"of tier {tier} unsolved"
        )
    return summary


def solve_span_by_sweep(
    graph: TierGraph, files: TierFiles, tier: int, marks: Any, span: tuple[int, int]
) -> tuple[Any, TierSummary] | None:
    """The records and summary of indices ``span`` of a tier whose ends were recorded while
    marking, by the game's batch_solve_tier on a copy of their marks; None when the game
    declines (or the tier has moves inside it or into several tiers)."""
    hook = graph.hooks.batch_solve_tier
    kids = {k: files.final(k) for k in graph.children[tier]}
    child = sweep_child(graph, tier, kids, files.record.dtype)
    if hook is None or child is None:
        return None
    start, stop = span
    out = np.array(marks[start:stop])
    solved = hook(tier, start, out, child, sweep_codes(files.record))
    if solved is None:
        return None
    _check_status(-solved if solved < 0 else 0, tier, files.record)
    summary = TierSummary()
    summary.add_records(out, files.record)
    if REACHED in summary.values:
        raise GameError(f"{graph.rules.name}.batch_solve_tier left positions of tier {tier} "
                        "unsolved")  # fmt: skip
    return out, summary


def _child_records(chunk: Chunk, kids: dict[int, Any], record: RecordFormat) -> Any:
    """Each move's child's record, read from the finished child tiers."""
    if chunk.single_kid is not None:  # every move into one tier
        return kids[chunk.single_kid][chunk.child_index]
    child_records = np.empty(chunk.child_index.shape[0], dtype=record.dtype)
    for kid, kid_records in kids.items():
        where = chunk.child_tier == kid
        child_records[where] = kid_records[chunk.child_index[where]]
    return child_records


def solve_span(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    marks: Any,
    span: tuple[int, int],
    out: Any,
    progress: ProgressCallback | None = None,
    done: int = 0,
) -> TierSummary:
    """Solve the reached positions (by ``marks``) of indices ``span`` = (start, stop) of a
    tier whose moves all lead into solved child tiers; their records go to ``out``, at
    their index when ``out`` is the whole tier, else at index - start. Spans of a tier are
    independent: tasks on several machines may solve them at once."""
    record = files.record
    start, stop = span
    offset = 0 if out.shape[0] == graph.sizes[tier] else start
    kids = {k: files.final(k) for k in graph.children[tier]}
    summary = TierSummary()

    def combine_chunk(indices: I64) -> tuple[I64, Any, Any]:
        chunk = expand_chunk(graph, terminals, tier, indices)
        single = None if chunk.single_kid is None else kids[chunk.single_kid]
        whole = single is not None and not isinstance(single, PackedRecords)  # (packed: read
        if whole and chunk.same_mover is None and graph.longest:  # below, as records)
            # The common case, in one kernel: no child records gathered into new arrays.
            counts = np.zeros((_DRAW + 1, graph.longest + 2), dtype=np.int64)
            status = solve_rows(chunk.outcome, chunk.open_rows, chunk.parents,
                                chunk.child_index, np.asarray(single),
                                record.shift, indices, offset, np.asarray(out), counts)  # fmt: skip
            _check_status(status, tier, record)
            return indices, None, counts
        values, remoteness = _combine_chunk(chunk, record, _child_records(chunk, kids, record))
        if remoteness.shape[0] and remoteness.max() > record.max_remoteness:
            raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")
        records = (values.astype(record.dtype) << record.shift) | remoteness.astype(record.dtype)
        return indices, records, count_pairs(values, remoteness)

    def write(solved: tuple[I64, Any, Any]) -> None:  # in order, in this thread: keep it short
        indices, records, counts = solved
        if records is None:  # written by solve_rows, counted by value and remoteness
            summary.add_table(counts)
        else:
            out[indices - offset] = records
            summary.add_counts(counts)
        if progress is not None:
            progress(done + summary.positions, done + summary.positions, level=tier)

    in_parallel(
        (reached_indices(marks, a, min(a + CHUNK, stop)) for a in range(start, stop, CHUNK)),
        combine_chunk,
        write,
    )
    return summary


def _combine_chunk(chunk: Chunk, record: RecordFormat, child_records: Any) -> tuple[Any, Any]:
    """Values and remoteness of a chunk's positions from their ends and children."""
    child_values = record.value_codes(child_records)
    if (child_values == 0).any() or (child_values > _DRAW).any():
        raise GameError("a child position was not solved: the tier files are inconsistent")
    return combine(
        chunk.outcome,
        chunk.open_rows,
        chunk.parents,
        child_values,
        record.remoteness(child_records),
        NO_BOOLS if chunk.same_mover is None else chunk.same_mover,
    )


def _check_status(status: int, tier: int, record: RecordFormat) -> None:
    """The error ``solve_rows`` reported, if any."""
    if status == _UNSOLVED_CHILD:
        raise GameError("a child position was not solved: the tier files are inconsistent")
    if status == _TOO_REMOTE:
        raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")


_UNSOLVED_CHILD = -UNSOLVED_CHILD
_TOO_REMOTE = -TOO_REMOTE


@kernel
def solve_rows(
    outcome: I8,
    open_rows: I64,
    parents: I64,
    child_index: I64,
    kid_records: Any,
    shift: int,
    indices: I64,
    offset: int,
    out: Any,
    counts: I64,
) -> int:
    """``combine`` and the records written in one pass, for a chunk whose moves all lead
    into one child tier and all pass the turn: each move's child record read from
    ``kid_records`` at its index, each position's record written to ``out`` at its index
    minus ``offset``, and counted in counts[value code, remoteness] (remoteness below
    ``counts.shape[1]``, the longest game). Returns 0, or _UNSOLVED_CHILD for a child
    record that holds no value, or _TOO_REMOTE for a remoteness the records cannot hold
    (nothing is then trusted: the tier is not marked solved)."""
    mask = (1 << shift) - 1
    e = 0
    j = 0
    for i in range(outcome.shape[0]):
        if j < open_rows.shape[0] and open_rows[j] == i:
            win = tie = 1 << 30
            loss = -1
            draw = False
            while e < parents.shape[0] and parents[e] == j:
                record = kid_records[child_index[e]]
                v = record >> shift
                if v == 0 or v > _DRAW:
                    return _UNSOLVED_CHILD
                if v in (_WIN, _LOSS):
                    v = _WIN + _LOSS - v  # the child's value seen by this position's mover
                win, tie, draw, loss = _take(v, (record & mask) + 1, win, tie, draw, loss)
                e += 1
            j += 1
            value, plies = _decide(win, tie, draw, loss)
        else:
            value, plies = int(outcome[i]), 0  # (an int8 shifted interpreted loses bits)
        if plies > mask or plies >= counts.shape[1]:
            return _TOO_REMOTE
        out[indices[i] - offset] = (value << shift) | plies
        counts[value, plies] += 1
    return 0


@kernel
def combine(
    outcome: I8, open_rows: I64, parents: I64, child_value: U8, child_remoteness: I32, same: B
) -> tuple[U8, I32]:
    """One position's value from its children's, as retrograde analysis decides it.

    A win takes the fastest child lost for its mover, a tie the fastest tied child, a loss
    the slowest child; a position without moves and without an end is lost. ``parents``
    (non-decreasing) gives, per move, the row in ``open_rows`` it is made from; ``same`` is
    empty when no move gives another turn. O(moves).
    """
    n = outcome.shape[0]
    value = outcome.astype(np.uint8)
    remoteness = np.zeros(n, dtype=np.int32)
    turns = same.shape[0] > 0
    e = 0
    for j in range(open_rows.shape[0]):
        row = open_rows[j]
        win = tie = 1 << 30
        loss = -1
        draw = False
        while e < parents.shape[0] and parents[e] == j:
            v = child_value[e]
            if not (turns and same[e]) and v in (_WIN, _LOSS):
                v = _WIN + _LOSS - v  # the child's value seen by this position's mover
            win, tie, draw, loss = _take(v, child_remoteness[e] + 1, win, tie, draw, loss)
            e += 1
        value[row], remoteness[row] = _decide(win, tie, draw, loss)
    return value, remoteness


@inlined_kernel
def _take(
    value: int, plies: int, win: int, tie: int, draw: bool, loss: int
) -> tuple[int, int, bool, int]:
    """The fastest win, fastest tie, whether a draw, and slowest loss so far (win and tie
    start at 2**30, loss at -1), after a move worth ``value`` to the mover in ``plies``."""
    if value == _WIN:
        win = min(win, plies)
    elif value == _TIE:
        tie = min(tie, plies)
    elif value == _DRAW:
        draw = True
    else:
        loss = max(loss, plies)
    return win, tie, draw, loss


@inlined_kernel
def _decide(win: int, tie: int, draw: bool, loss: int) -> tuple[int, int]:
    """(value, remoteness) of a position from ``_take``'s summary of its moves: the winner
    hurries, a tie comes as soon as it can, the loser stalls; no move at all is a loss."""
    if win < 1 << 30:
        return _WIN, win
    if tie < 1 << 30:
        return _TIE, tie
    if draw:
        return _DRAW, 0
    return _LOSS, max(loss, 0)
