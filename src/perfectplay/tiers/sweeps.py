"""The game's own sweeps of a tier (``batch_mark_tier``, ``batch_solve_tier``): windows of a
tier whose moves lead into at most one other tier, marked or solved in one loop of the
game's, reading and writing records through the ``SweepCodes`` it is handed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.memory import SAVE_ADVICE, MemoryWatch
from ..core.parallel import in_parallel
from ..core.records import sweep_codes
from ..errors import GameError
from ..progress import ProgressCallback
from .files import TierFiles, let_go
from .graph import TierGraph

SWEEP = 1 << 18
"""Indices of a tier per call of batch_mark_tier / batch_solve_tier (a task of a thread)."""


def sweep_windows(size: int) -> list[tuple[int, int]]:
    """The (start, stop) windows of a tier of ``size`` indices, one per sweep call."""
    return [(start, min(start + SWEEP, size)) for start in range(0, size, SWEEP)]


def sweep_child(graph: TierGraph, tier: int, kids: dict[int, Any], dtype: Any) -> Any | None:
    """The one child tier's records as an array for a sweep (empty without a child), or
    None when the tier has moves inside it or into several tiers: no sweep then."""
    if tier in graph.loopy or len(kids) > 1:
        return None
    if not kids:
        return np.zeros(0, dtype=dtype)
    return np.asarray(next(iter(kids.values())))


def solves_by_sweep(graph: TierGraph, files: TierFiles, tier: int) -> bool:
    """Whether a tier is solved by the game's batch_solve_tier: after batch_mark_tier
    recorded its ends, or in a game ranked by the engine, whose sweep judges the ends
    itself (every index is reached; there is no marking pass)."""
    return graph.hooks.batch_solve_tier is not None and (
        files.ends_recorded(tier) or graph.hooks.ranked_by_engine
    )


def sweep_taking(
    graph: TierGraph, files: TierFiles, tier: int, kids: dict[int, Any], hook_name: str
) -> tuple[Callable[..., int | None], Any] | None:
    """The game's sweep ``hook_name`` (batch_mark_tier or batch_solve_tier) and the child
    records it reads, where it takes the tier: asked with an empty window first. None where
    the game has no such sweep, the tier's moves stay in it or lead into several tiers, or
    the game declines."""
    hook: Callable[..., int | None] | None = getattr(graph.hooks, hook_name)  # named as the hooks
    child = sweep_child(graph, tier, kids, files.record.dtype)
    if hook is None or child is None:
        return None
    empty = np.zeros(0, dtype=files.record.dtype)
    if hook(tier, 0, empty, child, sweep_codes(files.record)) is None:
        return None
    return hook, child


def sweep_tier(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    hook_name: str,
    after: Callable[[int], None],
) -> bool:
    """Run the game's sweep ``hook_name`` (batch_mark_tier or batch_solve_tier) over every
    window of a tier, a window per task on every core (windows write their own records;
    marking writes the same value, reached, into the child tier, where they may overlap),
    and ``after(result)`` in this thread, in order. False when the game declines: it is
    asked with an empty window first (``sweep_taking``)."""
    taking = sweep_taking(graph, files, tier, kids, hook_name)
    if taking is None:
        return False
    hook, child = taking
    codes = sweep_codes(files.record)
    flat = np.asarray(records)

    def visit(window: tuple[int, int]) -> int | None:
        start, stop = window
        return hook(tier, start, flat[start:stop], child, codes)

    windows = sweep_windows(flat.shape[0])
    finished = iter(windows)
    # The tier was the child of the tier before (marked all over): its pages come back
    # window by window instead of all staying while the next tier fills.
    let_go(records, 0, flat.shape[0])

    def apply(result: int | None) -> None:
        if result is None:
            raise GameError(f"{graph.rules.name}.{hook_name} declined part of tier {tier}")
        let_go(records, *next(finished))  # results come in order: that window is done
        after(int(result))

    in_parallel(windows, visit, apply)
    return True


def mark_by_sweeps(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    progress: ProgressCallback | None,
    done: int,
    memory: MemoryWatch | None,
) -> int | None:
    """Mark a tier's children by the game's batch_mark_tier (``sweep_tier``); returns
    ``done`` plus the positions visited, or None when the game declines."""
    counted = [done]

    def count(visited: int) -> None:
        counted[0] += visited
        if memory is not None:
            memory.check(f"marking the reachable positions of {graph.rules.name}", counted[0],
                          SAVE_ADVICE)  # fmt: skip
        if progress is not None:
            progress(counted[0], counted[0], level=tier)

    if not sweep_tier(graph, files, tier, records, kids, "batch_mark_tier", count):
        return None
    return counted[0]
