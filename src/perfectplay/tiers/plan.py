"""The plan of a tiered solve: which tiers are left, and which may start once which end.

A tier is solved from its child tiers' final records, so it waits for each child other
than itself (a loopy tier lists itself). Tiers that do not wait for one another may be
solved at once: the sectors of one level of Nine Men's Morris (as many stones on the
board). Every executor follows one plan: the local solves (``tiers.solve``, and
``tiers.scored`` for scored games) one tier after another in ``in_order``, the Dask
executor (``tablebase.on_dask``) every tier as soon as ``ready`` gives it.
"""

from __future__ import annotations

from .graph import TierGraph


class TierPlan:
    """The tiers left to solve (those not in ``solved``), each with the children it waits
    for; ``start`` and ``finish`` move a tier along. Tiers come out leaves first and, among
    the tiers ready at once, in the reverse of the graph's order (deterministic)."""

    def __init__(self, graph: TierGraph, solved: set[int]) -> None:
        self._order = [tier for tier in reversed(graph.order) if tier not in solved]
        left = set(self._order)
        self._waits = {
            tier: {kid for kid in graph.children[tier] if kid != tier and kid in left}
            for tier in self._order
        }
        self._started: set[int] = set()
        self._finished: set[int] = set()

    def in_order(self) -> list[int]:
        """Every tier left, each after all those it waits for: the order of one process."""
        return list(self._order)

    def ready(self) -> list[int]:
        """The tiers not started whose children are all finished."""
        return [
            tier
            for tier in self._order
            if tier not in self._started and not self._waits[tier] - self._finished
        ]

    def start(self, tier: int) -> None:
        if tier in self._started or self._waits[tier] - self._finished:
            raise AssertionError(f"tier {tier} started twice, or before its children")
        self._started.add(tier)

    def finish(self, tier: int) -> None:
        if tier not in self._started or tier in self._finished:
            raise AssertionError(f"tier {tier} finished twice, or before it started")
        self._finished.add(tier)

    @property
    def done(self) -> bool:
        """Whether every tier left has finished."""
        return len(self._finished) == len(self._order)
