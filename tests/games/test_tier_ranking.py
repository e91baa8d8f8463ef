"""The tier protocol of Connect Four and tic-tac-toe: dense ranks that unrank back.

Every reachable code ranks into its tier (the number of discs or marks), inside the tier's
range, distinct from the other codes of the tier, and unranks back to itself; random
indices of a 7 x 6 board unrank to codes that rank back to them. Connect Four's kernels,
interpreted and compiled, give the indices of a plain Python ranking written from its
definition (so the indices of saved tablebases stay as they were).
"""

from __future__ import annotations

import random
from functools import cache
from math import comb
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import Rules, explore
from perfectplay.core import compiled
from perfectplay.games import ConnectFour, TicTacToe, WeightedTicTacToe
from perfectplay.games.connect_four.board import Board
from perfectplay.games.connect_four.tiers import DiscTiers

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


@cache
def fillings(width: int, height: int, discs: int) -> int:
    """The ways to put ``discs`` discs in ``width`` columns of ``height`` cells."""
    if width == 0:
        return int(discs == 0)
    return sum(fillings(width - 1, height, discs - h) for h in range(min(height, discs) + 1))


def test_tier_sizes_count_fillings_times_colourings() -> None:
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
        assert tiers is not None and tiers.initial_tier == 0 and tiers.batch_tier is not None


def reference_rank(width: int, height: int, tier: int, code: int) -> int:
    """DiscTiers' index from its definition, in plain Python: the lexicographic rank of the
    column heights times C(t, x), plus the sum of C(p_i, i) over the X discs p_1 < p_2 < ...
    counted column by column and bottom to top; -1 for no code of the tier."""
    stride = height + 1
    if code < 0 or code >> (width * stride):
        return -1
    heights: list[int] = []
    x_discs: list[int] = []
    for c in range(width):
        column = (code >> (c * stride)) & ((1 << stride) - 1)
        k = (column + 1).bit_length() - 1
        if k > height:
            return -1
        mover = column + 1 - (1 << k)
        x_bits = mover if tier % 2 == 0 else mover ^ ((1 << k) - 1)
        x_discs += [sum(heights) + r for r in range(k) if x_bits >> r & 1]
        heights.append(k)
    if sum(heights) != tier or len(x_discs) != (tier + 1) // 2:
        return -1
    filling, left = 0, tier
    for c, k in enumerate(heights):
        filling += sum(fillings(width - 1 - c, height, left - h) for h in range(k))
        left -= k
    colour = sum(comb(p, i + 1) for i, p in enumerate(x_discs))
    return filling * comb(tier, (tier + 1) // 2) + colour


def random_codes(width: int, height: int, tier: int, rng: random.Random, n: int) -> list[int]:
    """Codes of the tier (random heights and colours), and some that are no such code."""
    stride, codes = height + 1, []
    for _ in range(n):
        heights = [0] * width
        for _ in range(tier):
            heights[rng.choice([c for c in range(width) if heights[c] < height])] += 1
        x_discs = set(rng.sample(range(tier), (tier + 1) // 2))
        code, seen = 0, 0
        for c, k in enumerate(heights):
            x_bits = sum(1 << r for r in range(k) if seen + r in x_discs)
            mover = x_bits if tier % 2 == 0 else x_bits ^ ((1 << k) - 1)
            code |= ((1 << k) - 1 + mover) << (c * stride)
            seen += k
        codes.append(code)
    spare_row = (1 << stride) - 1  # a column with a disc in the spare row
    codes += [-1, -(1 << 40), 1 << (width * stride), spare_row << (stride * (width - 1))]
    return codes + [rng.randrange(1 << (width * stride)) for _ in range(n // 4)]


BOARDS = [(7, 6), (6, 4), (4, 4), (5, 2), (1, 4), (2, 30), (1, 61), (3, 19)]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_kernels_match_a_plain_python_ranking(mode: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    rng = random.Random(7)
    for width, height in BOARDS:
        game = ConnectFour(width, height)
        cells = width * height
        for tier in sorted({0, 1, cells // 2, cells - 1, cells, rng.randrange(cells + 1)}):
            codes = random_codes(width, height, tier, rng, 40)
            expected = [reference_rank(width, height, tier, code) for code in codes]
            array = np.array(codes, dtype=np.int64)
            assert game.batch_rank(tier, array).tolist() == expected, (width, height, tier)
            valid = [i for i, index in enumerate(expected) if index >= 0]
            assert all(codes[i] >= 0 for i in valid) and len(valid) >= 40
            back = game.batch_unrank(tier, np.array([expected[i] for i in valid]))
            assert back.tolist() == [codes[i] for i in valid], (width, height, tier)
            inside = [code for code in codes if 0 <= code < 1 << (width * (height + 1))]
            discs = [
                sum((c + 1).bit_length() - 1 for c in _columns(x, width, height)) for x in inside
            ]
            assert game.batch_tier(np.array(inside)).tolist() == discs, (width, height, tier)


def _columns(code: int, width: int, height: int) -> list[int]:
    stride = height + 1
    return [(code >> (c * stride)) & ((1 << stride) - 1) for c in range(width)]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_unranking_with_and_without_mask_tables_agree(mode: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    for width, height in [(4, 4), (6, 4), (7, 6)]:
        tiers = DiscTiers(Board(width, height, 2))  # fresh: no mask tables yet
        tier = width * height // 2
        rng = np.random.default_rng(width)
        few = rng.integers(0, tiers.size(tier), 50)
        searched = tiers.unrank(tier, few)  # too few indices to build the table
        more = rng.integers(0, tiers.size(tier), int(tiers.ways[0, tier]) // 8)
        many = np.concatenate([few, more])  # enough to build the table, compiled
        listed = tiers.unrank(tier, many)
        assert (tier in tiers.mask_tables) == (mode == "compiled")
        assert np.array_equal(listed[: few.size], searched)
        assert np.array_equal(tiers.rank(tier, listed), many)
        shaped = tiers.unrank(tier, few.reshape(5, 10))
        assert shaped.shape == (5, 10) and np.array_equal(shaped.reshape(-1), searched)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_every_code_of_small_boards_ranks_as_the_reference(mode: str, monkeypatch: Any) -> None:
    """Including the codes with a disc in the spare row, which rank into no tier."""
    monkeypatch.setattr(compiled, "MODE", mode)
    for width, height in [(3, 2), (2, 3), (4, 2)]:
        game = ConnectFour(width, height)
        codes = np.arange(1 << (width * (height + 1)), dtype=np.int64)
        for tier in range(width * height + 1):
            expected = [reference_rank(width, height, tier, code) for code in codes.tolist()]
            assert game.batch_rank(tier, codes).tolist() == expected, (width, height, tier)


@pytest.mark.parametrize(("width", "height"), [(4, 4), (6, 4), (7, 6), (3, 19)])
def test_tier_index_of_one_code_agrees_with_the_batch_hooks(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    rng = np.random.default_rng(width * 100 + height)
    for _ in range(300):
        state = game.initial()
        for _ in range(int(rng.integers(0, width * height))):
            moves = game.moves(state)
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, moves[int(rng.integers(len(moves)))])
        code = np.array([game.key(state)], dtype=np.int64)
        tier = int(game.batch_tier(code)[0])
        assert game.tier_index(int(code[0])) == (tier, int(game.batch_rank(tier, code)[0]))


def test_check_finds_a_tier_index_that_lies() -> None:
    from perfectplay.checking import check_game

    class Lying(ConnectFour):
        def tier_index(self, code: int) -> tuple[int, int]:
            tier, index = super().tier_index(code)
            return tier, index + 1

    problems = check_game(Lying(4, 4), samples=200)
    assert problems and all("tier_index" in p for p in problems)
