"""check_game: clean for every built-in game, and it catches deliberately broken hooks."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from perfectplay import Expansion
from perfectplay.checking import check_game
from perfectplay.games import BUILTINS, ConnectFour, Subtraction, TicTacToe
from perfectplay.values import LOSS, WIN

Codes = npt.NDArray[np.int64]


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_game_passes(name: str) -> None:
    assert check_game(BUILTINS[name]()) == []


@pytest.mark.parametrize(
    "game",
    [ConnectFour(7, 6), ConnectFour(5, 4, symmetry=True), ConnectFour(3, 3, 3), TicTacToe(True)],
)
def test_other_boards_pass(game: Any) -> None:
    assert check_game(game, samples=500, seed=3) == []


class DropsAMove(ConnectFour):
    """batch_expand forgets the last child of the batch."""

    def batch_expand(self, codes: Codes) -> Expansion:
        exp = super().batch_expand(codes)
        return Expansion(exp.parents[:-1], exp.children[:-1])


class RankOffByOne(ConnectFour):
    def batch_rank(self, tier: int, codes: Codes) -> Codes:
        return super().batch_rank(tier, codes) + 1


class OmitsChildTier(ConnectFour):
    """child_tiers lists a tier two discs on, never the real one."""

    def child_tiers(self, tier: int) -> list[int]:
        return [tier + 2] if tier + 2 <= self.width * self.height else []


class WrongOutcome(TicTacToe):
    """batch_outcome calls a lost position won."""

    def batch_outcome(self, codes: Codes) -> npt.NDArray[np.int8]:
        result = super().batch_outcome(codes)
        return np.where(result == int(LOSS), np.int8(WIN), result).astype(np.int8)


class UnrankOffByOne(TicTacToe):
    def batch_unrank(self, tier: int, indices: Codes) -> Codes:
        return super().batch_unrank(tier, (indices + 1) % self.tier_size(tier))


class CyclicTiers(ConnectFour):
    """The last tier claims to lead back to the first."""

    def child_tiers(self, tier: int) -> list[int]:
        return super().child_tiers(tier) or [0]


class SubtractionDropsAMove(Subtraction):
    def batch_expand(self, codes: Codes) -> Expansion:
        exp = super().batch_expand(codes)
        keep = np.ones(exp.parents.size, dtype=bool)
        keep[0] = False
        return Expansion(exp.parents[keep], exp.children[keep])


class WrongBatchTier(TicTacToe):
    def batch_tier(self, codes: Codes) -> Codes:
        return super().batch_tier(codes) * 2


@pytest.mark.parametrize(
    ("game", "hook"),
    [
        (DropsAMove(), "batch_expand"),
        (RankOffByOne(), "batch_rank"),
        (OmitsChildTier(), "child_tiers"),
        (WrongOutcome(), "batch_outcome"),
        (UnrankOffByOne(), "batch_unrank"),
        (CyclicTiers(), "cycle"),
        (SubtractionDropsAMove(), "batch_expand"),
        (WrongBatchTier(), "batch_tier"),
    ],
)
def test_broken_hooks_are_found(game: Any, hook: str) -> None:
    problems = check_game(game)
    assert problems, type(game).__name__
    assert any(hook in p for p in problems), problems


def test_problems_name_the_tier_and_the_code() -> None:
    problems = check_game(RankOffByOne(4, 4))
    assert any("tier " in p and "code " in p and "index " in p for p in problems)
    assert len(problems) <= 20  # a few per hook, the rest counted


def test_a_game_that_raises_is_reported_not_raised() -> None:
    class Raises(TicTacToe):
        def batch_rank(self, tier: int, codes: Codes) -> Codes:
            raise RuntimeError("boom")

    problems = check_game(Raises())
    assert any("batch_rank" in p and "boom" in p for p in problems)


def test_not_a_game_is_one_problem() -> None:
    assert len(check_game(object())) == 1


def test_the_sample_is_reproducible() -> None:
    assert check_game(RankOffByOne(), seed=5) == check_game(RankOffByOne(), seed=5)
