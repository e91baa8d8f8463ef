"""The optional rules ``exits`` and ``stays`` (``compiled_games.exits``): Nine Men's
Morris's, which find mills by whole-board shifts, held to its plain moves on random
positions of the 24-point board; rules that disagree with ``moves`` stopped in one line by
the spot check of each batch and reported by ``perfectplay check``; one without the
other refused."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import examples_loader
import numpy as np
import pytest

from perfectplay.boards.morris import everywhere, slides_count
from perfectplay.checking import check_game
from perfectplay.compiled_games import form
from perfectplay.errors import GameError


def brute_force(game: Any, code: int) -> tuple[int, list[int]]:
    """A position's moves staying in its tier (counted) and its children leaving it."""
    tier_of = game.rule_functions["tier"]
    tier = tier_of(game.params, code)
    children = [game.play(code, move) for move in game.moves(code)]
    stay = sum(tier_of(game.params, child) == tier for child in children)
    return stay, [child for child in children if tier_of(game.params, child) != tier]


def placed_out(rng: random.Random, mine: int, theirs: int) -> int:
    """A 24-point position with every stone placed: ``mine`` stones to move, ``theirs``."""
    points = rng.sample(range(24), mine + theirs)
    return sum(1 << p for p in points[:mine]) | sum(1 << (24 + p) for p in points[mine:])


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("jumps", [True, False])
def test_morris_exits_and_stays_are_its_moves_split_at_the_sector(
    monkeypatch: pytest.MonkeyPatch, mode: str, jumps: bool
) -> None:
    monkeypatch.setattr(form, "_MODE", mode)
    game = examples_loader.load("morris").MorrisMidgame(points=24, stones=9, jumps=jumps)
    hooks = game.tiers()
    assert hooks is not None and hooks.batch_moves_out is not None
    rng = random.Random(7)
    by_tier: dict[int, list[int]] = {}
    for _ in range(1500):
        code = placed_out(rng, rng.randint(3, 9), rng.randint(3, 9))
        if game.outcome(code) is None:
            by_tier.setdefault(game.rule_functions["tier"](game.params, code), []).append(code)
    left = stayed = 0
    for tier, codes in by_tier.items():
        inside, rows, children = hooks.batch_moves_out(tier, np.array(codes, dtype=np.int64))
        for row, code in enumerate(codes):
            stay, leaving = brute_force(game, code)
            assert inside[row] == stay, game.show(code)
            assert sorted(children[rows == row].tolist()) == sorted(leaving), game.show(code)
            left, stayed = left + len(leaving), stayed + stay
    assert len(by_tier) > 20 and left > 1000 and stayed > 5000


def every_slide(p: Any, s: int) -> int:
    """A wrong ``stays``: every slide to a neighbour, those closing a mill too (and no
    jump, where the mover has three stones)."""
    mine, theirs = s & 0xFFFFFF, (s >> 24) & 0xFFFFFF
    return int(slides_count(p[0], mine, everywhere(p[0]) & ~(mine | theirs)))


def no_exit(p: Any, s: int, out: Any) -> int:
    """A wrong ``exits``: no mill is ever closed."""
    return 0


def broken(rule: str) -> Any:
    """Nine Men's Morris with one of its split rules wrong."""
    module = examples_loader.load("morris")
    wrong = {"stays": staticmethod(every_slide), "exits": staticmethod(no_exit)}[rule]
    return type("Broken", (module.MorrisMidgame,), {rule: wrong})


@pytest.mark.parametrize("rule", ["stays", "exits"])
def test_a_split_that_disagrees_with_moves_stops_the_batch_in_one_line(
    monkeypatch: pytest.MonkeyPatch, rule: str
) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    game = broken(rule)(points=16, stones=4)
    hooks = game.tiers()
    assert hooks is not None and hooks.batch_moves_out is not None
    code = 0b111 | 0b1110000 << 24 if rule == "stays" else 0b11 | 1 << 3 | 0b1110000 << 24
    tier = game.rule_functions["tier"](game.params, code)
    with pytest.raises(GameError, match=rf"Broken\.{rule}\(\) of state {code}") as caught:
        hooks.batch_moves_out(tier, np.array([code], dtype=np.int64))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("rule", ["stays", "exits"])
def test_perfectplay_check_reports_a_split_that_disagrees_with_moves(
    monkeypatch: pytest.MonkeyPatch, rule: str
) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    problems = check_game(broken(rule)(points=16, stones=4), samples=400, seed=1)
    assert any("batch_moves_out" in line for line in problems), problems
    assert check_game(examples_loader.load("morris").MorrisMidgame(points=16, stones=4),
                      samples=400, seed=1) == []  # fmt: skip


def test_an_exit_that_stays_in_the_tier_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    module = examples_loader.load("morris")
    moves = module.MorrisMidgame.rule_functions["moves"]

    class EveryMove(module.MorrisMidgame):  # type: ignore[misc,name-defined]
        @staticmethod
        def exits(p: Any, s: int, out: Any) -> int:
            return int(moves(p, s, out))

    game = EveryMove(points=16, stones=4)
    code = 0b1011 | 0b1110000 << 24
    tier = game.rule_functions["tier"](game.params, code)
    with pytest.raises(GameError, match=r"exits\(\) of state .* stays in tier") as caught:
        game.tiers().batch_moves_out(tier, np.array([code], dtype=np.int64))
    assert "\n" not in str(caught.value)


def test_a_check_of_another_split_than_the_moves_names_the_tier_and_the_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison of ``perfectplay check`` itself, on tier hooks whose split raises
    nothing (a compiled game's own spot check would stop it first): every position one
    move short of staying."""
    monkeypatch.setattr(form, "_MODE", "interpreted")
    module = examples_loader.load("morris")

    class OneShort(module.MorrisMidgame):  # type: ignore[misc,name-defined]
        def tiers(self) -> Any:
            found = super().tiers()

            def split(tier: int, codes: Any) -> Any:
                inside, rows, children = found.batch_moves_out(tier, codes)
                return inside - 1, rows, children

            return dataclasses.replace(found, batch_moves_out=split)

    problems = check_game(OneShort(points=16, stones=4), samples=200, seed=2)
    said = [line for line in problems if ".batch_moves_out: tier " in line]
    assert said and "staying" in said[0] and "not the same" not in said[0], problems


@pytest.mark.parametrize("rule", ["exits", "stays"])
def test_a_count_past_max_moves_names_the_rule(monkeypatch: pytest.MonkeyPatch, rule: str) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    module = examples_loader.load("morris")
    wrong = {"exits": staticmethod(lambda p, s, out: 10_000),
             "stays": staticmethod(lambda p, s: -1)}[rule]  # fmt: skip
    game = type("Counted", (module.MorrisMidgame,), {rule: wrong})(points=16, stones=4)
    code = 0b1011 | 0b1110000 << 24
    tier = game.rule_functions["tier"](game.params, code)
    with pytest.raises(GameError, match=rf"Counted\.{rule}\(\) of state {code} gave a count"):
        game.tiers().batch_moves_out(tier, np.array([code], dtype=np.int64))


def test_an_exits_rule_that_raises_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")
    module = examples_loader.load("morris")
    game = type("Raising", (module.MorrisMidgame,), {
        "exits": staticmethod(lambda p, s, out: 1 // (s & 0))})(points=16, stones=4)  # fmt: skip
    code = 0b1011 | 0b1110000 << 24
    tier = game.rule_functions["tier"](game.params, code)
    said = rf"Raising\.exits\(\) of state {code} raised ZeroDivisionError"
    with pytest.raises(GameError, match=said) as caught:
        game.tiers().batch_moves_out(tier, np.array([code], dtype=np.int64))
    assert "\n" not in str(caught.value)


def test_exits_without_stays_is_refused_in_one_line() -> None:
    module = examples_loader.load("morris")

    class Half(module.MorrisMidgame):  # type: ignore[misc,name-defined]
        stays = None

    with pytest.raises(GameError, match="one of exits and stays: they come together"):
        Half(points=16, stones=4)
