"""The table of tier methods: every way a WIN / LOSS / TIE tier is solved, chosen in one place.

Each entry of ``METHODS`` says which tiers it takes (``takes``: None, or why not, in a few
words), whether its memory fits a budget (``fits``), what it costs, and how it solves a
tier (``solve``, one signature). A tier is solved by the first entry, in the table's order,
that takes it and fits; ``--tier-method NAME`` (``forced``) makes one entry solve every tier
of its kind (loopy, or not) and is refused in one line where it cannot take one. The local
solve (``tiers.solve``) and the Dask executor (``tablebase.on_dask``) both choose here, and the
name of the method that solved a tier is kept in the tablebase's header (``method``).

In the table's order:

- ``in-slots``: a tier marked in bit sets (the reached positions alone have records).
- ``engine-sweep``: a tier of a game the engine ranks, whose moves all leave it, by the
  engine's own compiled sweep (``batch_solve_tier``).
- ``game-sweep``: a tier whose ends the game's ``batch_mark_tier`` recorded, by the game's
  ``batch_solve_tier`` (Connect Four).
- ``chunks``: a tier whose moves all leave it, a chunk of positions at a time.
- ``in-records``: counters in the records, through the game's un-moves
  (``retrograde_in_records``; 2-byte records, children in other tiers read beside); where
  the un-moves are the moves laid out (the game writes none), after ``by-edges``.
- ``by-edges``: a loopy tier's moves laid out whole and analysed in one compiled loop
  (``retrograde_by_edges``; extra turns marked on the moves), where they fit the budget.
- ``by-unmoves``: frontiers through the game's un-moves (``retrograde_by_unmoves``).
- ``value-iteration``: rounds of the moves played again, records only (any loopy tier).

The un-move methods take moves that pass the turn (no ``to_move``). Un-moves a compiled game
does not write are its moves laid out and turned around (``lays_out_moves``): they are no
cheaper than ``by-edges``, so where its layout does not fit, rounds of value iteration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.memory import MemoryWatch, resident_bytes
from ..core.records import TierSummary
from ..errors import GameError
from ..progress import ProgressCallback
from ..terminals import Terminals
from . import (
    retrograde_by_edges,
    retrograde_by_unmoves,
    retrograde_in_records,
    value_iteration,
)
from .children_beside import counts_orbits
from .files import TierFiles
from .graph import TierGraph
from .marking import mark_one_tier, unmarked
from .one_pass import solve_by_sweeps, solve_span
from .resume_points import ResumePoints
from .sweeps import solves_by_sweep, sweep_taking


@dataclass
class TierJob:
    """One tier to solve and what its method may use; ``done``: positions solved before
    it in this run (for progress)."""

    graph: TierGraph
    files: TierFiles
    terminals: Terminals
    tier: int
    progress: ProgressCallback | None = None
    watch: MemoryWatch | None = None
    done: int = 0

    @property
    def engine(self) -> bool:
        """Whether the engine ranks the game (every index a position: no marks)."""
        return bool(self.graph.hooks.ranked_by_engine)

    @cached_property
    def moves_fit(self) -> bool:
        """Whether the tier's moves laid out whole fit the budget (``retrograde_by_edges``'s
        estimate, from a sample of the tier: made once, asked by several methods)."""
        watch = self.watch
        if watch is None or watch.limit is None:
            return True
        return retrograde_by_edges.fits_in(self.graph, self.tier, watch.limit - resident_bytes())


Solved = tuple[Any, TierSummary]
"""A tier's records (None: written to its file already) and its summary."""


@dataclass(frozen=True)
class TierMethod:
    """One way to solve a tier (see the module docstring)."""

    name: str
    loopy: bool | None
    """True: loopy tiers only; False: tiers whose moves all leave them; None: either."""
    does: str
    cost: str
    """Its memory beside the tier's own records, in words."""
    takes: Callable[[TierJob], str | None]
    fits: Callable[[TierJob], bool]
    solve: Callable[[TierJob], Solved]


def _always(job: TierJob) -> bool:
    return True


# --------------------------------------------------------------------------- takes


def _marked_in_bits(job: TierJob) -> str | None:
    return None if job.files.marked_in_bits(job.tier) else "the tier is not marked in bit sets"


def _not_in_bits(job: TierJob, loopy: bool) -> str | None:
    """Why a method for tiers of records (loopy or not) does not take the tier, or None."""
    if job.files.marked_in_bits(job.tier):
        return "the tier is marked in bit sets (in-slots solves it)"
    if (job.tier in job.graph.loopy) != loopy:
        return "the tier is not loopy" if loopy else "the tier is loopy"
    return None


def _engine_sweep_takes(job: TierJob) -> str | None:
    why = _not_in_bits(job, loopy=False)
    if why is None and not job.engine:
        why = "the engine does not rank the game"
    return why or _sweep_takes(job)


def _game_sweep_takes(job: TierJob) -> str | None:
    why = _not_in_bits(job, loopy=False)
    if why is None and job.engine:
        why = "the engine ranks the game (engine-sweep)"
    return why or _sweep_takes(job)


def _sweep_takes(job: TierJob) -> str | None:
    graph, files, tier = job.graph, job.files, job.tier
    if not solves_by_sweep(graph, files, tier):
        return "the game has no batch_solve_tier, or its marking recorded no ends"
    kids = {k: files.final(k) for k in graph.children[tier]}
    if sweep_taking(graph, files, tier, kids, "batch_solve_tier") is None:
        return "the game's batch_solve_tier declines the tier"
    return None


def _chunks_takes(job: TierJob) -> str | None:
    return _not_in_bits(job, loopy=False)


def _by_edges_takes(job: TierJob) -> str | None:
    why = _not_in_bits(job, loopy=True)
    if why is None and not retrograde_by_edges.fits(job.graph, job.tier):
        why = "the engine lays out no moves of the game (a compiled game's, not scored)"
    return why


def _by_edges_fits(job: TierJob) -> bool:
    return job.moves_fit


def _unmoves_take(job: TierJob) -> str | None:
    why = _not_in_bits(job, loopy=True)
    if why is None and job.graph.hooks.batch_parents is None:
        why = "the game has no un-moves (batch_parents)"
    if why is None and job.graph.rules.to_move is not None:
        why = "the game has extra turns (to_move): un-moves take moves that pass the turn"
    return why


def _unmoves_laid_out(job: TierJob) -> bool:
    """Whether the game's un-moves are its moves laid out and turned round."""
    engine = job.graph.hooks.engine
    return engine is not None and engine.parents_lay_out_moves


def _in_records_takes(job: TierJob) -> str | None:
    why = _unmoves_take(job)
    if why is None and not retrograde_in_records.fits(job.graph, job.files, job.tier):
        why = "its records are not 2 bytes"
    return why


def _unmoves_fit(job: TierJob) -> bool:
    """Un-moves made by laying the moves out fit where the layout does."""
    if _unmoves_laid_out(job):
        return _by_edges_takes(job) is not None or job.moves_fit
    return True


def _in_records_fits(job: TierJob) -> bool:
    """Ahead of ``by-edges`` where the game writes its un-moves: Dobutsu shogi's compiled
    game (246.8 million positions, one loopy tier), 274 s at a 6.2 GB peak in its records
    against 463 s and 16.1 GB with its moves laid out, the same bytes (2026-11-30); its 3-row
    variant 10.2 s against 10.9. Un-moves that are the moves laid out and turned round are
    no cheaper than ``by-edges``, which takes those tiers first."""
    if _unmoves_laid_out(job) and _by_edges_takes(job) is None:
        return False
    return _unmoves_fit(job)


def _loopy_takes(job: TierJob) -> str | None:
    return _not_in_bits(job, loopy=True)


# --------------------------------------------------------------------------- solve


def _records_of_loopy(job: TierJob) -> Any:
    """A loopy tier's records, every reached one open (half-solved loops are not trusted);
    an unmarked tier's all zeros (``marking.unmarked``)."""
    size = job.graph.sizes[job.tier]
    if job.engine:
        return job.files.all_reached(job.tier, size)
    if unmarked(job.graph, job.files, job.tier):
        return job.files.zeroed(job.tier, size)
    return job.files.reopen(job.tier, size)


def _solve_in_records(job: TierJob) -> Solved:
    """In its working file, from the resume point a solve stopped at, if any."""
    size = job.graph.sizes[job.tier]
    counting = "orbits" if counts_orbits(job.graph, job.tier) else ""
    points = ResumePoints(job.files.directory, job.tier, size, job.files.record, counting)
    records = job.files.partial(job.tier, size) if points.found else _records_of_loopy(job)
    summary = retrograde_in_records.solve_with_counters(
        job.graph,
        job.files,
        job.terminals,
        job.tier,
        records,
        _in_tier(job),
        points=points,
        every_index=unmarked(job.graph, job.files, job.tier),
    )
    return records, summary


def _in_tier(job: TierJob) -> ProgressCallback | None:
    """The build's progress, told positions of the job's tier: (positions of the tiers
    solved before and these, the same, level=the tier), as the other methods tell it."""
    report = job.progress
    if report is None:
        return None

    def within(done: int, found: int, /, level: int | None = None) -> None:
        assert report is not None
        report(job.done + done, job.done + done, level=job.tier)

    return within


def _solve_in_slots(job: TierJob) -> Solved:
    summary = retrograde_in_records.solve_in_slots(
        job.graph, job.files, job.terminals, job.tier, _in_tier(job), job.watch
    )
    return None, summary


def _solve_by_sweep(job: TierJob) -> Solved:
    records = job.files.partial(job.tier, job.graph.sizes[job.tier])
    summary = solve_by_sweeps(job.graph, job.files, job.tier, records, job.progress, job.done)
    if summary is None:
        raise GameError(f"{job.graph.rules.name}: batch_solve_tier declined tier {job.tier} "
                        "after taking it")  # fmt: skip
    return records, summary


def _solve_by_chunks(job: TierJob) -> Solved:
    size = job.graph.sizes[job.tier]
    # an engine's tier: every index reached, marked so for the chunks (a sweep needs none)
    files = job.files
    records = files.all_reached(job.tier, size) if job.engine else files.partial(job.tier, size)
    summary = solve_span(job.graph, job.files, job.terminals, job.tier, records, (0, size),
                         records, job.progress, job.done)  # fmt: skip
    return records, summary


def _loopy(solver: Callable[[TierJob, Any], TierSummary]) -> Callable[[TierJob], Solved]:
    def solve(job: TierJob) -> Solved:
        records = _records_of_loopy(job)
        return records, solver(job, records)

    return solve


# (each looked up in its module when called: a test may stand in for one)
METHODS: tuple[TierMethod, ...] = (
    TierMethod("in-slots", None, "records of the reached positions alone, beside their bit set",
               "a byte (or two) a reached position", _marked_in_bits, _always, _solve_in_slots),
    TierMethod("engine-sweep", False, "the engine's compiled sweep over the tier",
               "none", _engine_sweep_takes, _always, _solve_by_sweep),
    TierMethod("game-sweep", False, "the game's batch_solve_tier over the tier",
               "none", _game_sweep_takes, _always, _solve_by_sweep),
    TierMethod("chunks", False, "a chunk of positions at a time, their children read",
               "one chunk's moves", _chunks_takes, _always, _solve_by_chunks),
    TierMethod("in-records", True, "counters in the records, through the un-moves",
               "a bit an index", _in_records_takes, _in_records_fits, _solve_in_records),
    TierMethod("by-edges", True, "the tier's moves laid out and analysed in one loop",
               "about 4 bytes a move inside the tier, more out of it", _by_edges_takes,
               _by_edges_fits, _loopy(lambda job, records: retrograde_by_edges.
                                      solve_loopy_by_edges(job.graph, job.files, job.terminals,
                                                           job.tier, records))),
    TierMethod("by-unmoves", True, "frontiers through the un-moves",
               "about 16 bytes an index", _unmoves_take, _unmoves_fit,
               _loopy(lambda job, records: retrograde_by_unmoves.solve_with_unmoves(
                   job.graph, job.files, job.terminals, job.tier, records))),
    TierMethod("value-iteration", True, "rounds of the moves played again until nothing moves",
               "none", _loopy_takes, _always,
               _loopy(lambda job, records: value_iteration.solve_loopy_tier(
                   job.graph, job.files, job.terminals, job.tier, records))),
)  # fmt: skip


SWEEPS = ("engine-sweep", "game-sweep")
"""The methods that run a game's ``batch_solve_tier`` (over spans of a tier, on Dask)."""


def method_named(name: str) -> TierMethod:
    """The method called ``name``; a GameError naming the choices otherwise."""
    for method in METHODS:
        if method.name == name:
            return method
    raise GameError(f"unknown tier method {name!r}; choose one of {', '.join(method_names())}")


def method_names() -> tuple[str, ...]:
    """Every method's name, in the table's order."""
    return tuple(method.name for method in METHODS)


def refuse_idle(graph: TierGraph, method: TierMethod) -> None:
    """A GameError when ``method``, forced, would solve none of the game's tiers."""
    if method.loopy is True and not graph.loopy:
        raise GameError(f"{method.name} solves loopy tiers; {graph.rules.name} has none")
    if method.loopy is False and all(tier in graph.loopy for tier in graph.order):
        raise GameError(
            f"{method.name} solves tiers whose moves all leave them; every tier of "
            f"{graph.rules.name} is loopy"
        )


def choose(job: TierJob, forced: str | None = None) -> TierMethod:
    """The method for ``job``'s tier: the first of the table that takes it and fits, or
    ``forced`` for every tier of its kind (refused in one line where it cannot take one)."""
    loopy = job.tier in job.graph.loopy
    if forced is not None:
        method = method_named(forced)
        if method.loopy is None or method.loopy == loopy:
            why = method.takes(job)
            if why is not None:
                raise GameError(
                    f"tier method {forced} cannot solve tier {job.tier} of "
                    f"{job.graph.rules.name}: {why}"
                )
            return method
    for method in METHODS:
        if method.takes(job) is None and method.fits(job):
            return method
    raise AssertionError(f"no tier method takes tier {job.tier}")  # value-iteration takes any


def solve_tier(job: TierJob, forced: str | None = None) -> tuple[Any, TierSummary, str]:
    """Solve ``job``'s tier by the method chosen for it: its records, summary and method."""
    method = choose(job, forced)
    if method.name != "in-records" and unmarked(job.graph, job.files, job.tier):
        mark_one_tier(job.graph, job.files, job.tier)  # (in-records takes holes as it goes)
    records, summary = method.solve(job)
    return records, summary, method.name
