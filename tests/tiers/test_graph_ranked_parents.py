"""``graph.ranked_parents``: the un-moves of a tier's positions into the tier itself, ranked,
each with the row it comes from: those into other tiers dropped unless the game promises it
lists none (``parents_in_tier``), held to the moves turned round by brute force."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from hypothesis import given, settings
from layered_games import LayeredGameWithUnmoves, loopy_layered_games

from perfectplay.rules import Rules
from perfectplay.tiers.graph import TierGraph, ranked_parents


def _brute(game: LayeredGameWithUnmoves, tier: int, codes: list[int]) -> list[tuple[int, int]]:
    """(row, parent's index) of every move into codes[row] from a position of ``tier``."""
    found = []
    for row, code in enumerate(codes):
        for before, targets in game.table.items():
            if game.ends.get(before, 0) == 0 and before // game.width == tier:
                found += [(row, before - tier * game.width)] * targets.count(code)
    return sorted(found)


@settings(max_examples=60, deadline=None)
@given(loopy_layered_games())
def test_the_parents_in_the_tier_are_the_moves_turned_round(game: Any) -> None:
    game = LayeredGameWithUnmoves(game.table, game.ends, game.width)
    graph = TierGraph(Rules(game))
    assert not graph.hooks.parents_in_tier
    for tier in range(game.layers):
        codes = list(range(tier * game.width, (tier + 1) * game.width))
        ranked, rows = ranked_parents(graph, tier, np.array(codes, dtype=np.int64))
        assert sorted(zip(rows.tolist(), ranked.tolist(), strict=True)) == _brute(game, tier, codes)


def test_a_promise_of_parents_in_the_tier_skips_the_tier_check() -> None:
    """With ``parents_in_tier``, batch_tier is not asked (the promise is the game's to
    keep; the compiled games' un-moves loop keeps it). Here the parents of the tier before
    rank below the tier's first index and are dropped as having none."""
    table = {0: [2], 1: [2], 2: [3], 3: [2]}  # two tiers of two: 0 and 1 move into tier 1
    game = LayeredGameWithUnmoves(table, {}, 2)
    asked: list[int] = []
    real = game.batch_tier

    def counting(codes: Any) -> Any:
        asked.append(len(codes))
        return real(codes)

    game.batch_tier = counting  # type: ignore[method-assign]
    graph = TierGraph(Rules(game))
    asked.clear()
    honest = ranked_parents(graph, 1, np.array([2], dtype=np.int64))
    assert sorted(honest[0].tolist()) == [1] and asked  # (3 -> 2 only: 0 and 1 are tier 0)
    promised = dataclasses.replace(graph.hooks, parents_in_tier=True)
    graph.hooks = promised
    asked.clear()
    trusting = ranked_parents(graph, 1, np.array([2], dtype=np.int64))
    assert not asked and trusting[0].tolist() == honest[0].tolist() == [1]
