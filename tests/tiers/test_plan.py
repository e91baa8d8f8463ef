"""The plan of a tiered solve: every tier left comes out once, after every child it waits
for, in one process's order and as tiers finish in any order (random tier graphs)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.tiers.plan import TierPlan


@dataclass
class Graph:
    """What the plan reads of a TierGraph: the tiers root first, and each one's children."""

    order: list[int]
    children: dict[int, tuple[int, ...]] = field(default_factory=dict)


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    """Tiers 0..n-1, root first; a tier's children are later tiers (and itself when
    loopy), so the order is a valid root-first one."""
    n = draw(st.integers(1, 12))
    children = {}
    for tier in range(n):
        later = draw(st.lists(st.integers(tier + 1, n), max_size=3, unique=True))
        loopy = draw(st.booleans())
        children[tier] = tuple(k for k in later if k < n) + ((tier,) if loopy else ())
    return Graph(list(range(n)), children)


def waits_for(graph: Graph, tier: int) -> set[int]:
    return {k for k in graph.children[tier] if k != tier}


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_every_tier_left_comes_after_its_children(graph: Graph, data: st.DataObject) -> None:
    solved = set(data.draw(st.lists(st.sampled_from(graph.order), unique=True)))
    solved = {t for t in solved if all(k in solved for k in waits_for(graph, t))}
    order = TierPlan(graph, solved).in_order()  # type: ignore[arg-type]
    assert sorted(order) == sorted(set(graph.order) - solved)
    for i, tier in enumerate(order):
        assert waits_for(graph, tier) - solved <= set(order[:i])


@settings(max_examples=200, deadline=None)
@given(graphs(), st.randoms(use_true_random=False))
def test_tiers_finished_in_any_order_ready_each_tier_once(graph: Graph, rng: random.Random) -> None:
    plan = TierPlan(graph, set())  # type: ignore[arg-type]
    running: list[int] = []
    finished: list[int] = []
    while not plan.done:
        for tier in plan.ready():
            assert waits_for(graph, tier) <= set(finished)
            plan.start(tier)
            running.append(tier)
        assert running, "nothing ready while tiers are left"
        tier = running.pop(rng.randrange(len(running)))
        plan.finish(tier)
        finished.append(tier)
    assert sorted(finished) == graph.order
    assert plan.ready() == []


def test_a_tier_started_before_its_child_finished_is_refused() -> None:
    graph = Graph([0, 1], {0: (1,), 1: ()})
    plan = TierPlan(graph, set())  # type: ignore[arg-type]
    assert plan.ready() == [1]
    with pytest.raises(AssertionError):
        plan.start(0)
    plan.start(1)
    with pytest.raises(AssertionError):
        plan.start(1)
    plan.finish(1)
    assert plan.ready() == [0]
