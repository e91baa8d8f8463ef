"""The one choice of a solver for a loopy tier, for the local run and for Dask alike.

In order of preference: the moves laid out whole and analysed in one compiled loop
(``loopy_edges``: engine-ranked games whose moves pass the turn); counters in the records
(``loopy_counters``: a tier with no other child tier, un-moves, 2-byte records); frontiers
through un-moves (``loopy_frontiers``); rounds of value iteration (``loopy_tiers``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..progress import ProgressCallback
from ..records import TierSummary
from ..spaces.tier_files import TierFiles
from ..spaces.tiers import TierGraph
from ..terminals import Terminals
from . import loopy_counters, loopy_edges
from .loopy_frontiers import solve_with_unmoves
from .loopy_tiers import solve_loopy_tier

LoopySolver = Callable[[TierGraph, TierFiles, Terminals, int, Any], TierSummary]


def loopy_solver(
    graph: TierGraph, files: TierFiles, tier: int, progress: ProgressCallback | None = None
) -> LoopySolver:
    """The solver for loopy tier ``tier`` (see the module docstring)."""
    if loopy_edges.fits(graph, tier):
        return loopy_edges.solve_loopy_by_edges
    if loopy_counters.fits(graph, files, tier):

        def with_counters(
            graph: TierGraph, files: TierFiles, terminals: Terminals, tier: int, records: Any
        ) -> TierSummary:
            return loopy_counters.solve_with_counters(
                graph, files, terminals, tier, records, progress
            )

        return with_counters
    return solve_with_unmoves if graph.hooks.parents else solve_loopy_tier
