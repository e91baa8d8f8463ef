"""Connect Four's compiled rules and fused ranking against a reference written here.

The reference plays on a grid of columns (lists of 'X' / 'O', bottom first) and knows
nothing of bitboards: it computes a position's code, its end, and its children's codes from
the grid. The kernels (``outcome_codes``, ``expand_codes``, ``ranked_children``,
``expand_indices``) run compiled and interpreted (the batch rules also as their numpy twins)
on random positions of many boards, tall ones (no column table) included; a tablebase built
with the fused ranking is byte for byte the one built without.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import build_tablebase
from perfectplay.checking import check_game
from perfectplay.core import compiled
from perfectplay.games import ConnectFour
from perfectplay.games.connect_four import kernels
from perfectplay.games.connect_four.children import ranked_children
from perfectplay.tablebase.header import read_header

Grid = list[list[str]]

BOARDS = [(4, 4, 4), (5, 4, 4), (7, 6, 4), (3, 3, 3), (6, 5, 5), (2, 20, 3), (1, 30, 4)]


def grid_code(grid: Grid, height: int) -> int:
    """mover + mask of a grid, the mover being the player with fewer (or as many) discs."""
    discs = sum(len(column) for column in grid)
    mover = "X" if discs % 2 == 0 else "O"
    code = 0
    for c, column in enumerate(grid):
        base = c * (height + 1)
        for row, disc in enumerate(column):
            code += 1 << (base + row)  # the mask
            if disc == mover:
                code += 1 << (base + row)
    return code


def has_line(grid: Grid, width: int, height: int, connect: int, who: str) -> bool:
    def at(c: int, r: int) -> str | None:
        if 0 <= c < width and 0 <= r < len(grid[c]):
            return grid[c][r]
        return None

    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + i * dc, r + i * dr) == who for i in range(connect)):
                    return True
    return False


def reference(grid: Grid, width: int, height: int, connect: int) -> tuple[int, list[int]]:
    """(end: 2 loss for the mover, 3 tie, 0 on; children's codes column by column)."""
    discs = sum(len(column) for column in grid)
    last = "O" if discs % 2 == 0 else "X"
    if discs and has_line(grid, width, height, connect, last):
        end = 2
    elif discs == width * height:
        end = 3
    else:
        end = 0
    mover = "X" if discs % 2 == 0 else "O"
    kids = []
    for c in range(width):
        if len(grid[c]) < height:
            grid[c].append(mover)
            kids.append(grid_code(grid, height))
            grid[c].pop()
    return end, kids


def random_grids(width: int, height: int, connect: int, count: int, seed: int) -> list[Grid]:
    """Grids of random play, stopped at random plies or at an end."""
    rng = random.Random(seed)
    grids = []
    for _ in range(count):
        grid: Grid = [[] for _ in range(width)]
        for ply in range(rng.randrange(width * height + 1)):
            open_columns = [c for c in range(width) if len(grid[c]) < height]
            last = "X" if ply % 2 == 1 else "O"
            if not open_columns or (ply and has_line(grid, width, height, connect, last)):
                break
            grid[rng.choice(open_columns)].append("X" if ply % 2 == 0 else "O")
        grids.append(grid)
    return grids


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(("width", "height", "connect"), BOARDS)
def test_kernel_rules_match_the_grid_reference(
    width: int, height: int, connect: int, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(width, height, connect)
    grids = random_grids(width, height, connect, 300, seed=width * 100 + height)
    codes = np.array([grid_code(g, height) for g in grids], dtype=np.int64)
    assert kernels.outcome_codes.compiles_for(codes.size) == (mode == "compiled")
    ends = game.batch_outcome(codes)
    moves = game.batch_expand(codes)
    for row, grid in enumerate(grids):
        end, kids = reference(grid, width, height, connect)
        assert int(ends[row]) == end, (grid, mode)
        assert moves.children[moves.parents == row].tolist() == kids, (grid, mode)
    if mode == "interpreted":  # the batch hooks ran the numpy twins: the loops, as Python
        board = game.board
        found = np.empty(codes.size, dtype=np.int8)
        rules = (width, board.stride, connect, board.full, board.filled, found)
        assert np.array_equal(kernels.outcome_codes.interpreted(codes, *rules), ends)
        room = [np.empty(codes.size * width, dtype=np.int64) for _ in range(2)]
        rules = (width, board.stride, height, board.filled, *room)
        parents, children = kernels.expand_codes.interpreted(codes, *rules)
        assert np.array_equal(parents, moves.parents)
        assert np.array_equal(children, moves.children)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (6, 4), (7, 6), (4, 7), (8, 6)])
def test_ranked_children_are_the_ranks_of_the_children(
    width: int, height: int, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(width, height)
    rng = np.random.default_rng(width * 10 + height)
    for tier in range(width * height):
        codes = game.batch_unrank(tier, rng.integers(0, game.tier_size(tier), 400))
        codes = codes[codes >= 0]
        found = game.batch_ranked_children(tier, codes)
        assert found is not None
        assert ranked_children.compiles_for(codes.size) == (mode == "compiled")
        moves = game.batch_expand(codes)
        assert np.array_equal(found[0], moves.parents), tier
        assert np.array_equal(found[1], game.batch_rank(tier + 1, moves.children)), tier


def test_the_heights_table_is_kept_only_where_small() -> None:
    # 6x4 ranks heights through its table of 5**6 entries, 8x6 (7**8) sums them instead:
    # the test above covers both ways.
    assert ConnectFour(6, 4)._ranking._heights_table().size == 5**6
    assert ConnectFour(8, 6)._ranking._heights_table().size == 0


def test_symmetric_and_tall_boards_decline_the_fused_ranking() -> None:
    codes = np.zeros(1, dtype=np.int64)
    assert ConnectFour(4, 4, symmetry=True).batch_ranked_children(0, codes) is None
    assert ConnectFour(2, 20).batch_ranked_children(0, codes) is None
    assert ConnectFour(3, 3).batch_ranked_children(9, codes) is None  # the full board


class Unfused(ConnectFour):
    """Connect Four that always declines the fused hooks: unrank, judge, expand, rank."""

    def batch_ranked_children(self, tier: int, codes: Any) -> None:
        return None

    def batch_expand_tier(self, tier: int, indices: Any) -> None:
        return None


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_fused_and_unfused_solves_write_the_same_tablebase(
    tmp_path: Path, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    build_tablebase(ConnectFour(4, 4), tmp_path / "fused")
    build_tablebase(Unfused(4, 4), tmp_path / "unfused")
    fused, unfused = read_header(tmp_path / "fused"), read_header(tmp_path / "unfused")
    assert fused.counts() == unfused.counts()
    for tier, entry in fused.tiers.items():
        assert (tmp_path / "fused" / entry.file).read_bytes() == (
            tmp_path / "unfused" / unfused.tiers[tier].file
        ).read_bytes(), tier


class Lying(ConnectFour):
    """Connect Four whose fused ranking sends the last move of each batch one index off."""

    def batch_ranked_children(self, tier: int, codes: Any) -> Any:
        found = super().batch_ranked_children(tier, codes)
        if found is not None and found[1].size:
            found[1][-1] += 1
        return found


def test_check_finds_fused_children_that_lie() -> None:
    problems = check_game(Lying(4, 4), samples=200)
    assert problems and all("batch_ranked_children" in p for p in problems)
    assert check_game(ConnectFour(4, 4), samples=200) == []


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(
    ("width", "height", "connect"), [(4, 4, 4), (5, 4, 4), (6, 4, 4), (7, 6, 4), (4, 7, 3)]
)
def test_expanded_indices_are_unranked_judged_and_ranked(
    width: int, height: int, connect: int, mode: str, monkeypatch: Any
) -> None:
    """batch_expand_tier gives, index by index, what batch_unrank, batch_outcome (checked
    against the grid reference above) and batch_ranked_children give; -1 off the tier."""
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(width, height, connect)
    rng = np.random.default_rng(width * 100 + height * 10 + connect)
    for tier in range(width * height):
        size = game.tier_size(tier)
        indices = np.concatenate([rng.integers(0, size, 300), [-1, size]]).astype(np.int64)
        found = game.batch_expand_tier(tier, indices)
        assert found is not None
        outcome, parents, child_index = found
        codes = game.batch_unrank(tier, indices)
        valid = codes >= 0
        assert np.array_equal(outcome[~valid], np.full((~valid).sum(), -1)), tier
        assert np.array_equal(outcome[valid], game.batch_outcome(codes[valid])), tier
        going = codes[valid][outcome[valid] == 0]
        moves = game.batch_ranked_children(tier, going)
        assert moves is not None
        assert np.array_equal(parents, moves[0]), tier
        assert np.array_equal(child_index, moves[1]), tier


def test_symmetric_and_tall_boards_decline_the_expansion_by_index() -> None:
    indices = np.zeros(1, dtype=np.int64)
    assert ConnectFour(4, 4, symmetry=True).batch_expand_tier(0, indices) is None
    assert ConnectFour(2, 20).batch_expand_tier(0, indices) is None
    assert ConnectFour(3, 3).batch_expand_tier(9, indices) is None  # the full board


class LyingByIndex(ConnectFour):
    """Connect Four whose expansion by index calls the first position that goes on a tie."""

    def batch_expand_tier(self, tier: int, indices: Any) -> Any:
        found = super().batch_expand_tier(tier, indices)
        if found is not None and (found[0] == 0).any():
            found[0][np.flatnonzero(found[0] == 0)[0]] = 3
        return found


def test_check_finds_an_expansion_by_index_that_lies() -> None:
    problems = check_game(LyingByIndex(4, 4), samples=200)
    assert problems and all("batch_expand_tier" in p for p in problems)
