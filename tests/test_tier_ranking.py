"""The tier protocol of Connect Four and tic-tac-toe: dense ranks that unrank back.

Every reachable code ranks into its tier (the number of discs or marks), inside the tier's
range, distinct from the other codes of the tier, and unranks back to itself; random
indices of a 7 x 6 board unrank to codes that rank back to them.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import Rules, explore
from perfectplay.games import ConnectFour, TicTacToe, WeightedTicTacToe

GAMES = {
    "connect-four 4x4": lambda: ConnectFour(4, 4),
    "connect-four 5x4": lambda: ConnectFour(5, 4),
    "connect-four 3x3 connect 3": lambda: ConnectFour(3, 3, 3),
    "tictactoe": TicTacToe,
}


@pytest.mark.parametrize("name", list(GAMES))
def test_every_reachable_code_ranks_into_its_tier_and_back(name: str) -> None:
    game: Any = GAMES[name]()
    codes = explore(game).states
    tiers = game.batch_tier(codes)
    assert tiers.min() == game.initial_tier == 0
    for tier in np.unique(tiers).tolist():
        mine = codes[tiers == tier]
        index = game.batch_rank(tier, mine)
        assert index.dtype == np.int64
        assert index.min() >= 0 and index.max() < game.tier_size(tier), (name, tier)
        assert np.unique(index).size == mine.size, (name, tier)
        assert np.array_equal(game.batch_unrank(tier, index), mine), (name, tier)


@pytest.mark.parametrize("name", list(GAMES))
def test_moves_lead_to_the_next_tier_only(name: str) -> None:
    game: Any = GAMES[name]()
    graph = explore(game)
    tiers = game.batch_tier(graph.states)
    parents = np.repeat(np.arange(graph.states.size), np.diff(graph.offsets))
    assert np.array_equal(tiers[graph.children], tiers[parents] + 1)
    last = tiers.max()
    assert game.child_tiers(int(last)) in ([], [int(last) + 1])
    assert all(game.child_tiers(t) == [t + 1] for t in range(int(last)))


@pytest.mark.parametrize(("width", "height"), [(4, 4), (3, 3), (2, 3), (1, 4), (5, 2)])
def test_small_boards_every_index_is_a_distinct_code_of_its_tier(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    for tier in range(width * height + 1):
        size = game.tier_size(tier)
        codes = game.batch_unrank(tier, np.arange(size))
        assert (codes >= 0).all() and np.unique(codes).size == size
        assert (game.batch_tier(codes) == tier).all()
        assert np.array_equal(game.batch_rank(tier, codes), np.arange(size))
        mover, mask = game.board.boards(codes)
        x_discs = mover if tier % 2 == 0 else mover ^ mask
        assert all(int(x).bit_count() == (tier + 1) // 2 for x in x_discs)


def test_tier_sizes_count_fillings_times_colourings() -> None:
    def fillings(width: int, height: int, discs: int) -> int:
        if width == 0:
            return int(discs == 0)
        return sum(fillings(width - 1, height, discs - h) for h in range(min(height, discs) + 1))

    for width, height in [(4, 4), (5, 4), (6, 4), (7, 6)]:
        game = ConnectFour(width, height)
        for tier in range(width * height + 1):
            expected = fillings(width, height, tier) * comb(tier, (tier + 1) // 2)
            assert game.tier_size(tier) == expected
    assert sum(TicTacToe().tier_size(n) for n in range(10)) == 6046


@settings(max_examples=30, deadline=None)
@given(tier=st.integers(0, 42), seed=st.integers(0, 2**32 - 1))
def test_random_indices_of_7x6_round_trip(tier: int, seed: int) -> None:
    game = ConnectFour(7, 6)
    size = game.tier_size(tier)
    rng = np.random.default_rng(seed)
    index = np.concatenate([rng.integers(0, size, 2000), [0, size - 1]])
    codes = game.batch_unrank(tier, index)
    assert (codes >= 0).all()
    assert (game.batch_tier(codes) == tier).all()
    assert np.array_equal(game.batch_rank(tier, codes), index)


def test_indices_outside_a_tier_unrank_to_minus_one() -> None:
    for game in (ConnectFour(7, 6), TicTacToe()):
        size = game.tier_size(3)
        codes = game.batch_unrank(3, np.array([-1, size, size + 5, 0]))
        assert codes[:3].tolist() == [-1, -1, -1] and codes[3] >= 0


def test_codes_of_another_tier_rank_to_minus_one() -> None:
    for game in (ConnectFour(5, 4), TicTacToe()):
        codes = game.batch_unrank(4, np.arange(10))
        assert (game.batch_rank(5, codes) == -1).all()


def test_symmetric_games_rank_raw_codes() -> None:
    plain, mirrored = ConnectFour(4, 4), ConnectFour(4, 4, symmetry=True)
    codes = plain.batch_unrank(6, np.arange(plain.tier_size(6)))
    assert np.array_equal(mirrored.batch_rank(6, codes), plain.batch_rank(6, codes))
    assert np.array_equal(mirrored.batch_unrank(6, np.arange(100)), codes[:100])


def test_tall_and_wide_boards_rank_without_huge_tables() -> None:
    for width, height in [(1, 61), (2, 30), (31, 1)]:
        game = ConnectFour(width, height)
        rng = np.random.default_rng(width)
        for tier in range(0, width * height + 1, 5):
            index = rng.integers(0, game.tier_size(tier), 500)
            codes = game.batch_unrank(tier, index)
            assert np.array_equal(game.batch_rank(tier, codes), index)
            assert (game.batch_tier(codes) == tier).all()


def test_the_engine_sees_the_tier_protocol() -> None:
    for game in (ConnectFour(), TicTacToe(), WeightedTicTacToe()):
        tiers = Rules(game).tiers
        assert tiers is not None and tiers.initial_tier == 0 and tiers.tier_of is not None
