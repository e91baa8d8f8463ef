"""The tier solver: WIN / LOSS / TIE games solved tier by tier, leaves first, out of core.

Precondition: a game speaking the tier protocol, an outcome game. Each tier by the method
the table of tier methods chooses (``methods``): a tier whose moves all lead into child
tiers in one pass (``one_pass``); a loopy tier (one that lists itself among its child
tiers) from its moves laid out (``retrograde_by_edges``), through the game's un-moves with
counters in its records (``retrograde_in_records``) or by frontiers
(``retrograde_by_unmoves``), or by rounds without un-moves (``value_iteration``).

Contract: the same values and remoteness as retrograde analysis of the explored graph (the
winner hurries, the loser stalls, a tie comes as soon as possible), for every position
play reaches; the records of each tier are final on disk as soon as the tier is done, and
a solve run again goes on from there.

Memory: one tier's records and its child tiers' are mapped (1-2 bytes an index), plus the
working arrays of one chunk of positions.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.memory import (
    SAVE_ADVICE,
    MemoryBudgetExceeded,
    MemoryWatch,
    give_back,
    resident_bytes,
    show_size,
)
from ..errors import GameError, InterruptedSolve
from ..progress import ProgressCallback, announce
from ..terminals import Terminals
from .files import TierFiles
from .graph import TierGraph
from .marking import in_bits, reach
from .methods import TierJob, method_named, refuse_idle, solve_tier
from .plan import TierPlan


def solve_tiers(
    graph: TierGraph,
    files: TierFiles,
    progress: ProgressCallback | None = None,
    memory: int | None = None,
    tier_method: str | None = None,
) -> float:
    """Mark what play reaches, then solve every tier leaves first; returns the seconds.

    ``memory`` is the budget in bytes (default: most of the memory available): refused at
    once when the widest tier with its children would not fit, checked after every chunk.
    ``tier_method``: a method of ``tiers.methods`` for every tier of its kind (default: the
    table's choice, tier by tier).
    """
    if graph.scored:  # (its ends would be read as ties)
        raise GameError(f"{graph.rules.name} is scored: its tiers are solved by tiers.scored")
    if tier_method is not None:  # refused before any work: an unknown name, or no tier
        refuse_idle(graph, method_named(tier_method))
    started = time.perf_counter()
    watch = MemoryWatch(memory)
    check_room(graph, files, watch)
    engine = graph.hooks.ranked_by_engine  # every index reached: ``reach`` marks none
    solved = still_solved(graph, files)
    reach(graph, files, progress, watch)
    terminals = Terminals(graph.rules.name)
    done = 0
    if progress is not None:
        progress(0, 0)  # the marking is over: (0, 0) with no level, then the tiers' counts
    try:
        for tier in TierPlan(graph, solved).in_order():
            if progress is not None:  # (a tier's start: a method may tell nothing inside)
                progress(done, done, level=tier)
            job = TierJob(graph, files, terminals, tier, progress, watch, done)
            records, summary, method = solve_tier(job, tier_method)
            watch.check(f"solving {graph.rules.name} tier by tier", done + summary.positions,
                        SAVE_ADVICE)  # fmt: skip
            done += summary.positions
            if progress is not None:  # (every method: some tell nothing inside a tier)
                progress(done, done, level=tier)
            files.finish(tier, records, {**summary.as_json(), "method": method}, durable=not engine)
            give_back()  # what the tier's workers freed, before the next tier
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {graph.rules.name} tier by tier; the finished tiers "
            f"are kept in {files.directory}: run the same solve again to go on"
        ) from None
    finally:
        files.note_progress()  # the tiers finished since the last note, whatever stopped us
    return time.perf_counter() - started


def still_solved(
    graph: TierGraph, files: TierFiles, sound: Callable[[int], bool] | None = None
) -> set[int]:
    """The tiers noted solved whose files still have their hashes (and pass ``sound``, if
    given). One noted but gone or changed (deleted, cut short, lost in a power cut) is
    solved again, and what play reaches is marked again (but in an engine's tiers, whose
    every index is a position): its marks went with its working file, and solved from no
    marks it would hold no position."""
    solved = {tier for tier in graph.order if files.is_solved(tier)}
    if sound is not None:
        solved = {tier for tier in solved if sound(tier)}
    lost = [tier for tier in graph.order if files.is_noted(tier) and tier not in solved]
    hooks = graph.hooks
    alone = hooks.ranked_by_engine or hooks.every_position  # (each tier marked by itself)
    if lost:
        announce(f"tiers {', '.join(map(str, lost))} in {files.directory} lost their "
                 "records since they were solved: solving them again")  # fmt: skip
        files.unfinish(lost, keep_marking=alone)
    unmarked = _marks_lost(graph, files)
    if unmarked:  # (a working file gone since its tier was marked)
        files.unfinish(unmarked, keep_marking=bool(hooks.every_position))
    return solved


def _marks_lost(graph: TierGraph, files: TierFiles) -> list[int]:
    """The tiers left to solve whose marks of what play reaches are noted made but whose
    working file is gone: a database's tier marked by itself, or a tier a marked parent
    (or, the root, the start) marks (an engine's tiers and those in bit sets aside)."""
    if graph.hooks.ranked_by_engine:
        return []
    parents: dict[int, list[int]] = {tier: [] for tier in graph.order}
    for tier in graph.order:
        for child in graph.children[tier]:
            parents[child].append(tier)
    root = graph.order[0]
    lost = []
    for tier in graph.order:
        if files.is_noted(tier) or files.marked_in_bits(tier) or files.has_working_file(tier):
            continue
        if graph.hooks.every_position or tier == root:
            marked = files.is_expanded(tier)
        else:
            marked = any(files.is_expanded(parent) for parent in parents[tier])
        if marked:
            lost.append(tier)
    return lost


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
