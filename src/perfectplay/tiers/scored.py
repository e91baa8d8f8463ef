"""The scored tier solver: games that end in scores, solved tier by tier, leaves first.

Precondition: a game speaking the tier protocol whose ends are scores (``scored = True``, or
points earned by moves), whose moves never loop: a tier may have moves inside it, but
they must not come back to a position (a scored game in memory asks the same of negamax).
Contract: the values ``negamax`` gives over the explored graph, for every position play
reaches. A position's score is the best, for its mover, of a move's reward plus the
child's score (negated across a move that passes the turn); an end is worth its score; a
position with no move and no end is worth -inf (it has lost). Its remoteness follows the
shortest of its best moves.

Files: a tier keeps its records as the outcome solver's do (``records``): the score's sign
as the value code (WIN above 0, LOSS below, TIE at 0) and the remoteness; beside them
``tier-T.scores`` holds the scores, little-endian, in the narrowest type that holds each
of the tier's exactly (int8, int16 or int32 when they are whole numbers, else float64:
Kalah's scores take a byte, not eight). While a tier is solved, its scores live in
``tier-T.scores-partial`` as float64. The scores file is written and fsync'd before the
records finish, and a tier counts as solved only while both files keep their checksums;
an interrupted tier is solved again from the start, the finished ones are kept.

Memory: a tier's records and scores and its child tiers' are mapped. A tier with moves
inside it also holds those moves in memory (about 25 bytes each) and 8 bytes a position.
"""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..core.arrays import I64, NO_BOOLS, NO_FLOATS
from ..core.compiled import kernel
from ..core.memory import SAVE_ADVICE, MemoryWatch, give_back
from ..core.parallel import in_parallel
from ..core.records import SCORE_TYPES, RecordFormat, TierSummary, score_signs
from ..errors import GameError, InterruptedSolve, describe
from ..progress import ProgressCallback
from ..terminals import Terminals
from ..values import Value
from .files import TierFiles, file_sha256, tier_file_name
from .graph import CHUNK, Chunk, TierGraph, expand_chunk
from .marking import reach, reached_indices
from .plan import TierPlan
from .solve import check_room, still_solved

WINDOW = 1 << 20
"""Scores handled at once when a tier's are read, converted or written."""


def solve_scored_tiers(
    graph: TierGraph,
    files: TierFiles,
    progress: ProgressCallback | None = None,
    memory: int | None = None,
) -> float:
    """Mark what play reaches, then solve every tier leaves first; returns the seconds.
    ``memory`` is the budget in bytes, as ``solve.solve_tiers`` takes it."""
    started = time.perf_counter()
    watch = MemoryWatch(memory)
    check_room(graph, files, watch, score_bytes=8)  # (float64 while a tier is solved)
    engine = graph.hooks.ranked_by_engine
    sound = still_solved(graph, files, lambda tier: scores_sound(files, tier))
    reach(graph, files, progress, watch)
    terminals = Terminals(graph.rules.name)
    done = 0
    try:
        for tier in TierPlan(graph, sound).in_order():
            size = graph.sizes[tier]
            records = files.all_reached(tier, size) if engine else files.reopen(tier, size)
            summary, kept = _solve_tier(graph, files, terminals, tier, records, progress, done,
                                        watch)  # fmt: skip
            done += summary.positions
            files.finish(tier, records, {**summary.as_json(), "scores": kept},
                         durable=not engine)  # fmt: skip
            (files.directory / tier_file_name(tier, "scores-partial")).unlink(missing_ok=True)
            give_back()
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {graph.rules.name} tier by tier; the finished tiers "
            f"are kept in {files.directory}: run the same solve again to go on"
        ) from None
    finally:
        files.note_progress()
    return time.perf_counter() - started


def scores_sound(files: TierFiles, tier: int) -> bool:
    """Whether a finished tier's scores file is there with the checksum it was kept with."""
    entry = files.progress["solved"].get(str(tier), {}).get("scores")
    if not isinstance(entry, dict):
        return False
    path = files.directory / str(entry.get("file"))
    return path.is_file() and file_sha256(path) == entry.get("sha256")


def final_scores(files: TierFiles, tier: int) -> Any:
    """A finished tier's scores, read-only, in the type they were kept in."""
    entry = files.progress["solved"][str(tier)]["scores"]
    path = files.directory / entry["file"]
    if path.stat().st_size == 0:
        return np.zeros(0, dtype=entry["dtype"])
    return np.memmap(path, dtype=entry["dtype"], mode="r")


def _chunk_scores(
    graph: TierGraph,
    terminals: Terminals,
    tier: int,
    kids: dict[int, Any],
    record: RecordFormat,
    indices: I64,
) -> tuple[I64, Any, Any, Any]:
    """A chunk of a tier's reached indices expanded and scored from its children's final
    scores: (indices, score, plies, moves), where a loopy tier's moves that stay inside
    it are (parent index, child index, reward, same mover) for its settling, else None."""
    loopy = tier in graph.loopy
    chunk = expand_chunk(graph, terminals, tier, indices)
    child_score, child_plies = _children_values(chunk, kids, record, tier)
    stays = chunk.child_tier == tier if loopy else np.zeros(0, dtype=np.bool_)
    value, remoteness = fold(
        np.asarray(chunk.scores, dtype=np.float64),
        chunk.open_rows,
        chunk.parents,
        child_score,
        child_plies,
        NO_BOOLS if chunk.same_mover is None else chunk.same_mover,
        NO_FLOATS if chunk.rewards is None else np.asarray(chunk.rewards, np.float64),
        stays,
    )
    moves = None
    if loopy and stays.any():
        rows = chunk.open_rows[chunk.parents[stays]]
        moves = (
            indices[rows],
            np.asarray(chunk.child_index)[stays],
            None if chunk.rewards is None else np.asarray(chunk.rewards)[stays],
            None if chunk.same_mover is None else chunk.same_mover[stays],
        )
    return indices, value, remoteness, moves


def _solve_tier(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    progress: ProgressCallback | None,
    done: int,
    watch: MemoryWatch,
) -> tuple[TierSummary, dict[str, Any]]:
    """Solve one tier's reached positions: its records in place, its scores into a new
    file; the tier's summary and its scores' entry."""
    record = files.record
    size = graph.sizes[tier]
    loopy = tier in graph.loopy
    kids = {k: (files.final(k), final_scores(files, k)) for k in graph.children[tier]}
    work_path = files.directory / tier_file_name(tier, "scores-partial")
    best = _working_scores(work_path, size)
    plies = np.zeros(size if loopy else 0, dtype=np.int32)  # (others: in their records)
    inside: list[tuple[Any, Any, Any, Any]] = []  # a loopy tier's moves within it
    counted = [done]
    compute = partial(_chunk_scores, graph, terminals, tier, kids, record)

    def write(solved: tuple[I64, Any, Any, Any]) -> None:
        indices, value, remoteness, moves = solved
        best[indices] = value
        if loopy:
            plies[indices] = remoteness
            if moves is not None:
                inside.append(moves)
        else:
            records[indices] = _records_of(value, remoteness, record, tier)
        counted[0] += indices.shape[0]
        watch.check(f"solving {graph.rules.name} tier by tier", counted[0], SAVE_ADVICE)
        if progress is not None:
            progress(counted[0], counted[0], level=tier)

    in_parallel(
        (reached_indices(records, a, min(a + CHUNK, size)) for a in range(0, size, CHUNK)),
        compute,
        write,
    )
    reached = (np.asarray(records) >> record.shift) != 0
    if loopy:
        _settle_inside(graph, tier, records, reached, best, plies, inside, record)
    summary = TierSummary()
    for start in range(0, size, WINDOW):
        summary.add_records(records[start : start + WINDOW], record)
    if isinstance(best, np.memmap):
        best.flush()
    return summary, _keep_scores(files.directory, tier, best, reached)


def _working_scores(path: Path, size: int) -> Any:
    """A tier's scores while it is solved (float64, a file of NaN-free zeros when new)."""
    if size == 0:
        return np.zeros(0, dtype=np.float64)
    with path.open("wb") as handle:
        handle.truncate(size * 8)
    return np.memmap(path, dtype=np.float64, mode="r+", shape=(size,))


def _children_values(
    chunk: Chunk, kids: dict[int, tuple[Any, Any]], record: RecordFormat, tier: int
) -> tuple[Any, Any]:
    """Each move's child's score and remoteness, read from the finished child tiers (NaN
    and 0 for a move that stays in the tier: settled later)."""
    moves = chunk.child_index.shape[0]
    score = np.full(moves, np.nan)
    plies = np.zeros(moves, dtype=np.int32)
    for kid, (kid_records, kid_scores) in kids.items():
        if chunk.single_kid is not None and chunk.single_kid != kid:
            continue
        where = None if chunk.single_kid == kid else np.asarray(chunk.child_tier) == kid
        at = chunk.child_index if where is None else chunk.child_index[where]
        found = np.asarray(kid_records[at])
        codes = record.value_codes(found)
        if ((codes == 0) | (codes > int(Value.TIE))).any():
            raise GameError(
                f"a child in tier {kid} of a position of tier {tier} was not solved: the "
                "tier files are inconsistent"
            )
        if where is None:
            score[:] = kid_scores[at]
            plies[:] = record.remoteness(found)
        else:
            score[where] = kid_scores[at]
            plies[where] = record.remoteness(found)
    return score, plies


@kernel
def fold(
    scores: Any,
    open_rows: I64,
    parents: I64,
    child_score: Any,
    child_plies: Any,
    same: Any,
    rewards: Any,
    stays: Any,
) -> tuple[Any, Any]:
    """Each position's best over its moves out of the tier: (score, remoteness). An end
    is its score in 0 plies; a position with no move at all is worth -inf; one whose
    every move stays in the tier is NaN until settled."""
    n = scores.shape[0]
    value = scores.copy()
    remoteness = np.zeros(n, dtype=np.int32)
    turns = same.shape[0] > 0
    paid = rewards.shape[0] > 0
    inside = stays.shape[0] > 0
    for i in range(open_rows.shape[0]):
        value[open_rows[i]] = -np.inf  # no move at all (the moves below replace it)
    moved = np.zeros(n, dtype=np.bool_)
    for e in range(parents.shape[0]):
        row = open_rows[parents[e]]
        if inside and stays[e]:
            if not moved[row]:
                value[row] = np.nan
            continue
        v = child_score[e] if turns and same[e] else -child_score[e]
        if paid:
            v += rewards[e]
        r = child_plies[e] + 1
        if not moved[row] or np.isnan(value[row]) or v > value[row] or (
                v == value[row] and r < remoteness[row]):  # fmt: skip
            value[row] = v
            remoteness[row] = r
            moved[row] = True
    return value, remoteness


def _records_of(value: Any, remoteness: Any, record: RecordFormat, tier: int) -> Any:
    """Records of solved positions: the score's sign as the value code, the remoteness."""
    if remoteness.shape[0] and int(remoteness.max()) > record.max_remoteness:
        raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")
    code = score_signs(value).astype(record.dtype)
    return (code << record.shift) | remoteness.astype(record.dtype)


def _settle_inside(
    graph: TierGraph,
    tier: int,
    records: Any,
    reached: Any,
    best: Any,
    plies: Any,
    inside: list[tuple[Any, Any, Any, Any]],
    record: RecordFormat,
) -> None:
    """Settle a tier with moves inside it, children before parents: a position is final
    once its moves inside the tier are (their count kept by ``fold``); a position left
    unsettled lies on a cycle, which a scored game may not have."""
    size = graph.sizes[tier]
    parent = np.concatenate([m[0] for m in inside]) if inside else np.zeros(0, np.int64)
    child = np.concatenate([m[1] for m in inside]) if inside else np.zeros(0, np.int64)
    paid = any(m[2] is not None for m in inside)
    turns = any(m[3] is not None for m in inside)
    rewards = (
        np.concatenate([np.zeros(m[0].shape[0]) if m[2] is None else m[2] for m in inside])
        if paid
        else NO_FLOATS
    )
    same = NO_BOOLS
    if turns:
        same = np.concatenate(
            [np.zeros(m[0].shape[0], np.bool_) if m[3] is None else m[3] for m in inside]
        )
    inside.clear()
    order = np.argsort(child, kind="stable")
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(child, minlength=size), out=offsets[1:])
    waiting = np.bincount(parent, minlength=size).astype(np.int32)
    view = np.asarray(best)
    left, stuck = settle(
        offsets,
        parent[order],
        rewards[order] if paid else rewards,
        same[order] if turns else same,
        waiting,
        reached,
        view,
        plies,
    )
    if left:
        code = int(graph.hooks.batch_unrank(tier, np.array([stuck], dtype=np.int64))[0])
        rules = graph.rules
        state = code if rules.from_code is None else rules.from_code(code)
        raise GameError(
            f"{rules.name} is scored but its moves loop ({left:,} positions of tier {tier} "
            f"lie on cycles, {describe(state)} among them): scored games are solved without "
            "cycles"
        )
    for start in range(0, size, WINDOW):
        stop = min(start + WINDOW, size)
        part = reached[start:stop]
        at = start + np.flatnonzero(part)
        records[at] = _records_of(view[at], plies[at], record, tier)


@kernel
def settle(
    offsets: I64,
    parents: I64,
    rewards: Any,
    same: Any,
    waiting: Any,
    reached: Any,
    best: Any,
    plies: Any,
) -> tuple[int, int]:
    """Children before parents over a tier's moves inside it (``parents`` by child,
    ``offsets`` per child); returns how many reached positions were left (on cycles) and
    one of them."""
    n = waiting.shape[0]
    queue = np.empty(n, dtype=np.int64)
    tail = 0
    for s in range(n):
        if reached[s] and waiting[s] == 0:
            queue[tail] = s
            tail += 1
    turns = same.shape[0] > 0
    paid = rewards.shape[0] > 0
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for e in range(offsets[c], offsets[c + 1]):
            p = parents[e]
            v = best[c] if turns and same[e] else -best[c]
            if paid:
                v += rewards[e]
            r = plies[c] + 1
            if np.isnan(best[p]) or v > best[p] or (v == best[p] and r < plies[p]):
                best[p] = v
                plies[p] = r
            waiting[p] -= 1
            if waiting[p] == 0:
                queue[tail] = p
                tail += 1
    left = 0
    stuck = -1
    for s in range(n):
        if reached[s] and waiting[s] > 0:
            left += 1
            stuck = s
    return left, stuck


def _keep_scores(directory: Path, tier: int, best: Any, reached: Any) -> dict[str, Any]:
    """Write a tier's scores in the narrowest exact type (positions never reached hold 0),
    fsync'd; their entry: {"file", "dtype", "sha256", "integral"} (integral: every finite
    score a whole number, as a scored solve in memory says it)."""
    view = np.asarray(best)
    dtype = SCORE_TYPES[0]
    integral = True
    for start in range(0, view.shape[0], WINDOW):
        part = view[start : start + WINDOW][reached[start : start + WINDOW]]
        dtype = max(dtype, _narrowest(part), key=SCORE_TYPES.index)
        finite = part[np.isfinite(part)]
        integral = integral and not (finite % 1 != 0).any()
    name = tier_file_name(tier, "scores")
    path = directory / name
    with path.open("wb") as handle:
        for start in range(0, view.shape[0], WINDOW):
            part = np.where(reached[start : start + WINDOW], view[start : start + WINDOW], 0)
            handle.write(part.astype(dtype).tobytes())
        handle.flush()
        os.fsync(handle.fileno())
    sha256 = file_sha256(path)
    return {"file": name, "dtype": dtype, "sha256": sha256, "integral": bool(integral)}


def _narrowest(scores: Any) -> str:
    """The narrowest of SCORE_TYPES that holds every one of ``scores`` exactly."""
    if not scores.shape[0]:
        return SCORE_TYPES[0]
    if not np.isfinite(scores).all() or (scores % 1 != 0).any():
        return "<f8"
    low, high = float(scores.min()), float(scores.max())
    for dtype in SCORE_TYPES[:-1]:
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return dtype
    return "<f8"
