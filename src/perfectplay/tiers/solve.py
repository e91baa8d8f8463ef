"""The tier solver: WIN / LOSS / TIE games solved tier by tier, leaves first, out of core.

Precondition: a game speaking the tier protocol, an outcome game. A tier whose moves all
lead into child tiers is solved in one pass; a loopy tier (one that lists itself among its
child tiers) through the game's un-moves, with counters in its records when no other tier
is its child (``retrograde_in_records``) or by frontiers (``retrograde_by_unmoves``), or by rounds
without un-moves (``value_iteration``). Contract: the same values and remoteness as
retrograde analysis of the explored graph (the winner hurries, the loser stalls, a tie
comes as soon as possible), for every position play reaches; the records of each tier are
final on disk as soon as the tier is done, and a solve run again goes on from there.

Memory: one tier's records and its child tiers' are mapped (1-2 bytes an index), plus the
working arrays of one chunk of positions.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..compiled import inlined_kernel, kernel
from ..errors import GameError, InterruptedSolve
from ..memory import (
    SAVE_ADVICE,
    MemoryBudgetExceeded,
    MemoryWatch,
    give_back,
    resident_bytes,
    show_size,
)
from ..progress import ProgressCallback
from ..spaces.graph import I8, I32, I64, NO_BOOLS, B
from ..spaces.pipeline import in_parallel
from ..terminals import Terminals
from .files import TierFiles, let_go
from .graph import (
    CHUNK,
    Chunk,
    TierGraph,
    expand_chunk,
    in_bits,
    reach,
    reached_indices,
    solves_by_sweep,
    sweep_child,
    sweep_tier,
)
from .loopy_method import loopy_solver
from .records import (
    REACHED,
    TOO_REMOTE,
    UNSOLVED_CHILD,
    RecordFormat,
    TierSummary,
    count_pairs,
    sweep_codes,
)
from .retrograde_in_records import solve_in_slots

U8 = Any  # uint8 arrays, for the kernel's signature

COUNT_WINDOW = 1 << 24
"""Records of a solved tier counted at once (then let go from memory)."""
_WIN = 1
_LOSS = 2
_TIE = 3
_DRAW = 4


def solve_tiers(
    graph: TierGraph,
    files: TierFiles,
    progress: ProgressCallback | None = None,
    memory: int | None = None,
) -> float:
    """Mark what play reaches, then solve every tier leaves first; returns the seconds.

    ``memory`` is the budget in bytes (default: most of the memory available): refused at
    once when the widest tier with its children would not fit, checked after every chunk.
    """
    if graph.scored:  # (its ends would be read as ties)
        raise GameError(f"{graph.rules.name} is scored: its tiers are solved by tiers.scored")
    started = time.perf_counter()
    watch = MemoryWatch(memory)
    check_room(graph, files, watch)
    reach(graph, files, progress, watch)
    terminals = Terminals(graph.rules.name)
    done = 0
    engine = graph.hooks.ranked_by_engine  # every index reached: ``reach`` marks none
    try:
        for tier in reversed(graph.order):
            if files.is_solved(tier):
                continue
            size = graph.sizes[tier]
            if files.marked_in_bits(tier):  # records of its reached positions alone
                records = None
                summary = solve_in_slots(graph, files, terminals, tier, progress, watch)
            elif tier in graph.loopy:  # half-solved loops are not trusted: every record open
                records = files.all_reached(tier, size) if engine else files.reopen(tier, size)
                solver = loopy_solver(graph, files, tier, progress, watch)
                summary = solver(graph, files, terminals, tier, records)
            else:
                records = files.partial(tier, size)
                swept = None  # (an engine's sweep solves records still 0: no marks needed)
                if solves_by_sweep(graph, files, tier):
                    swept = solve_by_sweeps(graph, files, tier, records, progress, done)
                if swept is None and engine:
                    records = files.all_reached(tier, size)  # marked for the solve by chunks
                summary = swept or _solve_tier(
                    graph, files, terminals, tier, records, progress, done
                )
            watch.check(f"solving {graph.rules.name} tier by tier", done + summary.positions,
                        SAVE_ADVICE)  # fmt: skip
            done += summary.positions
            files.finish(tier, records, summary.as_json(), durable=not engine)
            give_back()  # what the tier's workers freed, before the next tier
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {graph.rules.name} tier by tier; the finished tiers "
            f"are kept in {files.directory}: run the same solve again to go on"
        ) from None
    finally:
        files.note_progress()  # the tiers finished since the last note, whatever stopped us
    return time.perf_counter() - started


def check_room(
    graph: TierGraph, files: TierFiles, watch: MemoryWatch, score_bytes: int = 0
) -> None:
    """Refuse at once a solve whose widest tier with its children cannot fit the budget
    (a tier marked in bits: its two bit sets; a byte a position it reaches follows, how
    many none can say before marking it); ``score_bytes``: a scored game's score beside
    each record."""
    need = graph.mapped_bytes(files.record.bytes + score_bytes)
    what = "its widest tier with its children"
    root = graph.order[0]
    if in_bits(graph, files, root) and (files.marked_in_bits(root) or not files.is_expanded(root)):
        need, what = graph.sizes[root] // 4, "its tier's bit sets"
    if watch.limit is not None and resident_bytes() + need > watch.limit:
        raise MemoryBudgetExceeded(
            f"solving {graph.rules.name} tier by tier needs about {show_size(need)} at once "
            f"({what}), more than the memory budget of {show_size(watch.limit)} allows; "
            "give more with --memory"
        )


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


def _solve_tier(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    progress: ProgressCallback | None,
    done: int,
) -> TierSummary:
    """Solve the reached positions of one tier in place, a chunk at a time."""
    return solve_span(
        graph, files, terminals, tier, records, (0, graph.sizes[tier]), records, progress, done
    )


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
        if chunk.single_kid is not None and chunk.same_mover is None and graph.longest:
            # The common case, in one kernel: no child records gathered into new arrays.
            counts = np.zeros((_DRAW + 1, graph.longest + 2), dtype=np.int64)
            status = solve_rows(chunk.outcome, chunk.open_rows, chunk.parents,
                                chunk.child_index, np.asarray(kids[chunk.single_kid]),
                                record.shift, indices, offset, np.asarray(out), counts)  # fmt: skip
            _check_status(status, tier, record)
            return indices, None, counts
        if chunk.single_kid is not None:  # every move into one tier
            child_records = kids[chunk.single_kid][chunk.child_index]
        else:
            child_records = np.empty(chunk.child_index.shape[0], dtype=record.dtype)
            for kid, kid_records in kids.items():
                where = chunk.child_tier == kid
                child_records[where] = kid_records[chunk.child_index[where]]
        values, remoteness = _combine_chunk(chunk, record, child_records)
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
