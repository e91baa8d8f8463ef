"""The tier protocol's ``batch_moves_out`` of a compiled game ranked by stones (the
drivers' ``moves_out`` loop): each open position's moves staying in its tier counted, the
others listed, held to the game's plain moves, play and tier rules position by position,
compiled and interpreted; a rule's fault in that loop said in one line."""

from __future__ import annotations

import random
from typing import Any

import examples_loader
import numpy as np
import pytest

from perfectplay.compiled_games import form
from perfectplay.errors import GameError
from perfectplay.rules import Rules
from perfectplay.tiers.graph import TierGraph


def brute_force(game: Any, tier: int, code: int) -> tuple[int, list[int]]:
    """The moves of one position staying in ``tier`` (counted) and the children leaving it,
    from the plain rules."""
    tier_of = game.rule_functions["tier"]
    stay, leaving = 0, []
    for move in game.moves(code):
        child = game.play(code, move)
        if tier_of(game.params, child) == tier:
            stay += 1
        else:
            leaving.append(child)
    return stay, leaving


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("jumps", [True, False])
def test_moves_out_counts_the_moves_inside_and_lists_the_rest_as_the_plain_rules(
    monkeypatch: pytest.MonkeyPatch, mode: str, jumps: bool
) -> None:
    monkeypatch.setattr(form, "_MODE", mode)
    module = examples_loader.load("morris")
    game = module.MorrisMidgame(points=16, stones=5, jumps=jumps)
    hooks = game.tiers()
    assert hooks is not None and hooks.batch_moves_out is not None
    graph = TierGraph(Rules(game))
    rng = random.Random(5)
    left = inside_total = 0
    for tier in graph.order:
        size = graph.sizes[tier]
        indices = np.array(sorted(rng.sample(range(size), min(size, 150))), dtype=np.int64)
        codes = np.asarray(hooks.batch_unrank(tier, indices), dtype=np.int64)
        codes = codes[codes >= 0]
        codes = codes[[game.outcome(int(c)) is None for c in codes]]
        inside, rows, children = hooks.batch_moves_out(tier, codes)
        for row, code in enumerate(codes.tolist()):
            stay, leaving = brute_force(game, tier, code)
            assert inside[row] == stay, game.show(code)
            assert sorted(children[rows == row].tolist()) == sorted(leaving), game.show(code)
            left += len(leaving)
            inside_total += stay
        assert rows.tolist() == sorted(rows.tolist())
    assert left > 100 and inside_total > 1000  # (mills leave, slides stay: both seen)


def test_a_count_of_moves_past_max_moves_in_moves_out_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    module = examples_loader.load("morris")

    class TooMany(module.MorrisMidgame):  # type: ignore[misc,name-defined]
        exits = stays = None  # (split by moves: see test_exits for theirs)

        @staticmethod
        def moves(p: Any, s: int, out: Any) -> int:
            return 10_000

    game = TooMany(points=16, stones=4)
    hooks = game.tiers()
    assert hooks is not None and hooks.batch_moves_out is not None
    code = int(np.asarray(hooks.batch_unrank(hooks.initial_tier, np.array([0])))[0])
    with pytest.raises(GameError, match="max_moves") as caught:
        hooks.batch_moves_out(hooks.initial_tier, np.array([code], dtype=np.int64))
    assert "\n" not in str(caught.value)
