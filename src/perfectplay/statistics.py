"""The statistics a researcher expects of a solved game, from a Solution or a Tablebase.

Counts of positions per value and per (value, remoteness); for each value the longest game
under perfect play with an example position (the longest win is the classic figure); and the
position with the most moves. Counts come from the header of a tablebase at once; examples
are found by scanning records, and the most moves by expanding every position once (a chunk
at a time, through the batch protocol where the game has it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .answers import Answers
from .core.records import RecordFormat
from .progress import ProgressCallback
from .solution import Solution
from .spaces.graph import StateGraph
from .tablebase.reader import Tablebase
from .terminals import Terminals
from .tiers.graph import CHUNK, TierGraph, expand_chunk
from .values import Value

NAMES = {1: "win", 2: "loss", 3: "tie", 4: "draw"}


@dataclass(frozen=True)
class Example:
    """A position that shows a figure: its remoteness, or its number of moves."""

    measure: int
    state: Any


@dataclass
class Statistics:
    """See the module docstring. Keys of ``values``: win, loss, tie, draw; of ``remoteness``
    win, loss and tie (a draw never ends: it has no remoteness to count it under)."""

    positions: int = 0
    values: dict[str, int] = field(default_factory=dict)
    remoteness: dict[str, dict[int, int]] = field(default_factory=dict)
    longest: dict[str, Example] = field(default_factory=dict)
    """Per value but draw: the largest remoteness and a position with it."""
    most_moves: Example | None = None


def statistics(
    answers: Answers[Any, Any], *, progress: ProgressCallback | None = None
) -> Statistics:
    """The statistics of a solved game (outcome games; a scored game has no such counts)."""
    if isinstance(answers, Solution):
        return _of_solution(answers)
    if isinstance(answers, Tablebase):
        return _of_tablebase(answers, progress)
    raise TypeError(f"statistics of {type(answers).__name__} are not known")


def _of_solution(solution: Solution[Any, Any]) -> Statistics:
    if solution.scored:
        raise TypeError("a scored game has scores, not counts of wins and losses")
    graph: StateGraph = solution.graph
    values = np.asarray(solution.solved.values).astype(np.int64)
    remoteness = np.asarray(solution.solved.remoteness).astype(np.int64)
    stats = _counted(values, np.where(remoteness < 0, 0, remoteness))
    for code, name in NAMES.items():
        if code == Value.DRAW or not stats.values.get(name):
            continue
        chosen = np.flatnonzero((values == code) & (remoteness == max(stats.remoteness[name])))
        stats.longest[name] = Example(max(stats.remoteness[name]), graph.state(int(chosen[0])))
    stats.most_moves = _widest(graph)
    return stats


def _widest(graph: StateGraph) -> Example:
    """The explored position with the most moves."""
    degree = np.diff(graph.offsets)
    widest = int(np.argmax(degree))
    return Example(int(degree[widest]), graph.state(widest))


def _counted(values: Any, remoteness: Any) -> Statistics:
    stats = Statistics(positions=int(values.shape[0]))
    pairs = values << 13 | remoteness
    counts = np.bincount(pairs)
    for pair in np.flatnonzero(counts).tolist():
        name = NAMES[pair >> 13]
        stats.values[name] = stats.values.get(name, 0) + int(counts[pair])
        if name != "draw":
            stats.remoteness.setdefault(name, {})[pair & 0x1FFF] = int(counts[pair])
    return stats


def _of_tablebase(base: Tablebase[Any, Any], progress: ProgressCallback | None) -> Statistics:
    counts = base.header.counts()
    stats = Statistics(positions=counts["positions"])
    for key, n in counts["remoteness"].items():
        code, plies = (int(part) for part in key.split(":"))
        name = NAMES[code]
        stats.values[name] = stats.values.get(name, 0) + n
        if name != "draw":
            stats.remoteness.setdefault(name, {})[plies] = n
    for name, by_plies in stats.remoteness.items():
        code = next(c for c, n in NAMES.items() if n == name)
        plies = max(by_plies)
        stats.longest[name] = Example(plies, _find(base, code, plies))
    stats.most_moves = _most_moves(base, progress)
    return stats


def _find(base: Tablebase[Any, Any], code: int, plies: int) -> Any:
    """A state whose record holds value ``code`` and remoteness ``plies``."""
    record: RecordFormat = base.record
    wanted = (code << record.shift) | plies
    for entry in base.header.tiers.values():
        records = base.tier_records(entry.tier)
        for start in range(0, entry.size, CHUNK):
            block = np.asarray(records[start : min(start + CHUNK, entry.size)])
            hits = np.flatnonzero(block == wanted)
            if hits.size:
                return _state(base, entry.tier, start + int(hits[0]))
    raise AssertionError("the header counts a record the tiers do not hold")


def _state(base: Tablebase[Any, Any], tier: int, index: int) -> Any:
    rules = base.rules
    if base.header.layout == "graph":
        assert base.header.keys is not None
        keys = base.mapped(base.header.keys["file"], base.header.keys["sha256"], "<i8")
        code = int(keys[index])
    else:
        assert rules.tiers is not None
        code = int(rules.tiers.batch_unrank(tier, np.array([index], dtype=np.int64))[0])
    return code if rules.from_code is None else rules.from_code(code)


def _most_moves(base: Tablebase[Any, Any], progress: ProgressCallback | None) -> Example | None:
    """The position with the most moves, every position expanded once."""
    best: tuple[int, int, int] | None = None  # (moves, tier, index)
    done, total = 0, base.header.counts()["positions"]
    if base.header.layout == "tiers":
        graph = TierGraph(base.rules)
        terminals = Terminals(base.rules.name)
        for entry in base.header.tiers.values():
            records = base.tier_records(entry.tier)
            for start in range(0, entry.size, CHUNK):
                block = np.asarray(records[start : min(start + CHUNK, entry.size)])
                indices = start + np.flatnonzero(block >> base.record.shift != 0)
                chunk = expand_chunk(graph, terminals, entry.tier, indices)
                moves = np.bincount(chunk.parents, minlength=chunk.open_rows.shape[0])
                if moves.size and (best is None or int(moves.max()) > best[0]):
                    row = int(chunk.open_rows[int(np.argmax(moves))])
                    best = (int(moves.max()), entry.tier, int(indices[row]))
                done += indices.shape[0]
                if progress is not None:
                    progress(done, total, level=entry.tier)
    else:
        for index in range(base.header.tiers[0].size):
            count = len(base.rules.legal_moves(_state(base, 0, index)))
            if best is None or count > best[0]:
                best = (count, 0, index)
    return None if best is None else Example(best[0], _state(base, best[1], best[2]))


@dataclass
class ScoreStatistics:
    """A scored game's counts: positions per score (for the player to move), the longest
    game under perfect play with a position that starts it, and the widest position."""

    positions: int = 0
    scores: dict[float, int] = field(default_factory=dict)
    """Positions per score, lowest score first."""
    longest: Example | None = None
    most_moves: Example | None = None


def score_statistics(
    answers: Answers[Any, Any], *, progress: ProgressCallback | None = None
) -> ScoreStatistics:
    """The statistics of a solved scored game (a Solution, or a Tablebase of one)."""
    if not answers.scored:
        raise TypeError("an outcome game has wins and losses: see statistics()")
    if isinstance(answers, Solution):
        graph: StateGraph = answers.graph
        scores = np.asarray(answers.solved.values, dtype=np.float64)
        remoteness = np.asarray(answers.solved.remoteness, dtype=np.int64)
        stats = _scores_counted(scores)
        if scores.shape[0]:
            longest = int(np.argmax(remoteness))
            stats.longest = Example(int(remoteness[longest]), graph.state(longest))
        stats.most_moves = _widest(graph)
        return stats
    if isinstance(answers, Tablebase):
        counted: dict[float, int] = {}
        far: tuple[int, int, int] | None = None  # (remoteness, tier, index)
        for tier, entry in answers.header.tiers.items():  # (the graph layout: one tier, 0)
            records, all_scores = answers.tier_records(tier), answers.tier_scores(tier)
            for start in range(0, entry.size, CHUNK):  # (a tier may be larger than memory;
                stop = min(start + CHUNK, entry.size)  # its records may come in blocks)
                block = np.asarray(records[start:stop])
                held = np.flatnonzero(block >> answers.record.shift != 0)
                scores = np.asarray(all_scores[start:stop])[held].astype(np.float64)
                for score, n in _scores_counted(scores).scores.items():
                    counted[score] = counted.get(score, 0) + n
                if held.shape[0]:
                    plies = (block[held] & answers.record.max_remoteness).astype(np.int64)
                    at = int(np.argmax(plies))
                    if far is None or int(plies[at]) > far[0]:
                        far = (int(plies[at]), tier, start + int(held[at]))
        stats = ScoreStatistics(positions=sum(counted.values()))
        stats.scores = dict(sorted(counted.items()))
        if far is not None:
            stats.longest = Example(far[0], _state(answers, far[1], far[2]))
        stats.most_moves = _most_moves(answers, progress)
        return stats
    raise TypeError(f"statistics of {type(answers).__name__} are not known")


def _scores_counted(scores: Any) -> ScoreStatistics:
    """Positions per score (np.unique sorts them)."""
    found, counts = np.unique(scores, return_counts=True)
    stats = ScoreStatistics(positions=int(scores.shape[0]))
    stats.scores = {float(s): int(n) for s, n in zip(found.tolist(), counts.tolist(), strict=True)}
    return stats
