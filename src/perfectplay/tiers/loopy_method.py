"""The one choice of a solver for a loopy tier, for the local run and for Dask alike.

In order of preference: the moves laid out whole and analysed in one compiled loop
(``retrograde_by_edges``: engine-ranked games, extra turns marked on the moves), when its
estimate of memory fits the budget; counters in the records (``retrograde_in_records``:
un-moves, 2-byte records; the children in other tiers read beside); frontiers through
un-moves (``retrograde_by_unmoves``: 1-byte records); rounds of value iteration
(``value_iteration``: records only, the moves played again each round). Un-moves a
compiled game does not write are its moves laid out and turned around: where those do not
fit, rounds of value iteration. The un-move solvers take moves that pass the turn: a game
with extra turns whose moves do not fit is solved by rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..memory import MemoryWatch, resident_bytes
from ..progress import ProgressCallback
from ..terminals import Terminals
from . import retrograde_by_edges, retrograde_in_records
from .files import TierFiles
from .graph import TierGraph
from .records import TierSummary
from .retrograde_by_unmoves import solve_with_unmoves
from .value_iteration import solve_loopy_tier

LoopySolver = Callable[[TierGraph, TierFiles, Terminals, int, Any], TierSummary]


def loopy_solver(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    progress: ProgressCallback | None = None,
    watch: MemoryWatch | None = None,
) -> LoopySolver:
    """The solver for loopy tier ``tier`` (see the module docstring); ``watch`` holds the
    memory budget (none: the moves are laid out whatever they take)."""
    if retrograde_by_edges.fits(graph, tier):
        if (
            watch is None
            or watch.limit is None
            or retrograde_by_edges.fits_in(graph, tier, watch.limit - resident_bytes())
        ):
            return retrograde_by_edges.solve_loopy_by_edges
        if getattr(graph.hooks.batch_parents, "lays_out_moves", False):
            return solve_loopy_tier  # its un-moves would lay the same moves out
    if graph.rules.to_move is not None:
        return solve_loopy_tier  # extra turns: the un-move solvers take moves that pass it
    if retrograde_in_records.fits(graph, files, tier):

        def with_counters(
            graph: TierGraph, files: TierFiles, terminals: Terminals, tier: int, records: Any
        ) -> TierSummary:
            return retrograde_in_records.solve_with_counters(
                graph, files, terminals, tier, records, progress
            )

        return with_counters
    return solve_with_unmoves if graph.hooks.batch_parents else solve_loopy_tier
