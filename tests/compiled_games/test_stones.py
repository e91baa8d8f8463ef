"""Ranking by stones (compiled_games.stones) held to brute force, and games ranked so held to
reference solvers.

The brute force: every placement of a part's stones, its images under a group of cell
permutations made here by closing random generators, and the least (mover's set, then
opponent's set) among them. Each orbit must get one index, every image the same, distinct
orbits distinct indices, unrank of an orbit's index its least member, and every other index
of the part a hole (-1).
"""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cell_groups import Perm, closure, image
from reference import solve_outcomes

from perfectplay import LOSS, TIE, build_tablebase, open_tablebase, solve
from perfectplay.compiled_games import ONGOING, CompiledGame
from perfectplay.compiled_games.stones import StoneBoard, StoneRanking, least_code, rank_code
from perfectplay.core import compiled as kernels
from perfectplay.errors import GameError


def square_symmetries(side: int) -> list[Perm]:
    """A side x side board's 8 symmetries (quarter turns, mirror images)."""
    turn = tuple((c % side) * side + side - 1 - c // side for c in range(side * side))
    mirror = tuple((c // side) * side + side - 1 - c % side for c in range(side * side))
    return closure(side * side, [turn, mirror])


@pytest.fixture(params=["interpreted", "compiled"])
def kernel_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(kernels, "MODE", request.param)
    return str(request.param)


def probed(ranking: StoneRanking, codes: list[int], parts: list[tuple[int, int, int]]) -> list[int]:
    """Each code's index by ``rank_code``, as the compiled search probes a tablebase."""
    board = ranking.board
    mine, theirs, rest = (np.array(c, dtype=np.int64) for c in zip(*parts, strict=True))
    sizes = [ranking.part_size(m, t) for m, t, _ in parts]
    offsets = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
    stack = ranking.stacked(int(mine.max()))
    return [
        int(rank_code(code, board.cells, board.theirs_at, board.rest_at, mine, theirs, rest,
                      offsets, 0, len(parts), ranking.binomials, ranking.byte_rank,
                      ranking.images, stack.orbit, stack.symmetry,
                      stack.least, stack.stabiliser, stack.set_at, stack.orbit_at))
        for code in codes
    ]  # fmt: skip


def keyed(ranking: StoneRanking, code: int, largest: int) -> int:
    """A code's table key by ``least_code``, with the tables of sets up to ``largest``."""
    board, stack = ranking.board, ranking.stacked(largest)
    return int(least_code(code, board.cells, board.theirs_at, board.rest_at,
                          ranking.byte_rank, ranking.images, stack.orbit, stack.symmetry,
                          stack.least, stack.stabiliser, stack.set_at, stack.orbit_at))  # fmt: skip


def check_part(ranking: StoneRanking, mine: int, theirs: int, rest: int) -> None:
    board = ranking.board
    n, group = board.cells, board.symmetries
    orbits: dict[tuple[int, int], set[int]] = {}
    codes, least = [], []
    for a in itertools.combinations(range(n), mine):
        me = sum(1 << c for c in a)
        for b in itertools.combinations([c for c in range(n) if c not in a], theirs):
            other = sum(1 << c for c in b)
            codes.append(me | other << board.theirs_at | rest << board.rest_at)
            least.append(min((image(g, me), image(g, other)) for g in group))
    parts = [(mine, theirs, rest)]
    ranks = ranking.rank(np.array(codes, dtype=np.int64), parts)
    step = max(1, len(codes) // 200)  # the search's probe, one code at a time, alike
    assert probed(ranking, codes[::step], parts) == ranks[::step].tolist()
    for code, (me, other) in zip(codes[::step], least[::step], strict=True):
        assert keyed(ranking, code, mine) == me | other << board.theirs_at | rest << board.rest_at
    for low, index in zip(least, ranks.tolist(), strict=True):
        orbits.setdefault(low, set()).add(index)
    assert all(len(found) == 1 for found in orbits.values())  # images share one index
    indices = [next(iter(found)) for found in orbits.values()]
    assert len(set(indices)) == len(indices)  # orbits do not
    size = ranking.part_size(mine, theirs)
    assert all(0 <= i < size for i in indices)
    back = ranking.unrank(np.arange(size), parts)
    for (me, other), index in zip(orbits, indices, strict=True):
        assert back[index] == me | other << board.theirs_at | rest << board.rest_at
    assert int(np.count_nonzero(back >= 0)) == len(orbits)  # the other indices are holes
    scattered = np.random.default_rng(size).permutation(size)  # (out of order: the tables)
    assert (ranking.unrank(scattered, parts) == back[scattered]).all()
    assert ranking.holes(mine, theirs) == size - len(orbits)


def test_every_part_of_a_board_with_its_symmetries_ranks_its_orbits(kernel_mode: str) -> None:
    ranking = StoneRanking(StoneBoard(9, tuple(square_symmetries(3))))
    for mine in range(10):
        for theirs in range(10 - mine):
            check_part(ranking, mine, theirs, 0)


def test_sets_come_back_from_their_ranks_in_the_order_of_their_masks(kernel_mode: str) -> None:
    """Every set of each count of boards up to 12 cells listed by its mask as an integer
    (colex) is the set at its place; on 24 and 31 cells, random sets (the first and last
    of each count among them) at their rank, the sum of C(cell, i) over their i-th cells."""
    for cells in (1, 2, 5, 8, 9, 12):
        ranking = StoneRanking(StoneBoard(cells))
        for count in range(cells + 1):
            masks = sorted(
                sum(1 << c for c in a) for a in itertools.combinations(range(cells), count)
            )
            assert ranking.sets(count, np.arange(len(masks))).tolist() == masks
    rng = random.Random(49)
    for cells in (24, 31):
        ranking = StoneRanking(StoneBoard(cells))
        for count in range(cells + 1):
            chosen = [sorted(rng.sample(range(cells), count)) for _ in range(300)]
            chosen += [list(range(count)), list(range(cells - count, cells))]
            ranks = [sum(math.comb(c, i + 1) for i, c in enumerate(a)) for a in chosen]
            masks = [sum(1 << c for c in a) for a in chosen]
            assert ranking.sets(count, np.array(ranks)).tolist() == masks
    with pytest.raises(GameError, match="out of range"):
        StoneRanking(StoneBoard(9)).sets(3, np.array([math.comb(9, 3)]))


def test_random_boards_groups_and_layouts_rank_their_orbits(kernel_mode: str) -> None:
    rng = random.Random(47)
    for _ in range(6):
        n = rng.randint(2, 8)
        group = [tuple(range(n))] * 64
        while len(group) > 63:  # random generators, until the group they make is small
            generators = []
            for _ in range(rng.randint(0, 2)):
                perm = list(range(n))
                rng.shuffle(perm)
                generators.append(tuple(perm))
            group = closure(n, generators)
        theirs_at = n + rng.randint(0, 3)
        rest_at = theirs_at + n + rng.randint(0, 3)
        board = StoneBoard(n, tuple(group), theirs_at, rest_at)
        ranking = StoneRanking(board)
        for _ in range(4):
            mine = rng.randint(0, n)
            theirs = rng.randint(0, n - mine)
            check_part(ranking, mine, theirs, rng.randint(0, 5))


def test_images_share_a_key_and_a_mover_beyond_the_tables_keeps_its_own(
    kernel_mode: str,
) -> None:
    group = square_symmetries(3)
    ranking = StoneRanking(StoneBoard(9, tuple(group)))
    mover, other = 0b000_000_011, 0b100_000_000  # a corner and its neighbour; a far corner
    pairs = {(image(g, mover), image(g, other)) for g in group}
    codes = {me | them << 9 for me, them in pairs}
    me, them = min(pairs)
    assert len(codes) == 8
    assert {keyed(ranking, code, 2) for code in codes} == {me | them << 9}
    small = StoneRanking(StoneBoard(9, tuple(group)))  # (a ranking keeps its largest tables)
    assert {keyed(small, code, 1) for code in codes} == codes  # tables of sets of one


def test_parts_of_a_tier_follow_one_another(kernel_mode: str) -> None:
    """Codes of several parts rank after the parts before theirs; a code of no part is -1."""
    ranking = StoneRanking(StoneBoard(9, tuple(square_symmetries(3))))
    parts = [(2, 1, 0), (1, 2, 0), (1, 1, 3)]
    sizes = [ranking.part_size(m, t) for m, t, _ in parts]
    codes = np.array([0b11 | 0b100 << 9, 0b1 | 0b110 << 9, 0b1 | 0b10 << 9 | 3 << 18, 0b1],
                     dtype=np.int64)  # fmt: skip
    ranks = ranking.rank(codes, parts)
    assert 0 <= ranks[0] < sizes[0]
    assert sizes[0] <= ranks[1] < sizes[0] + sizes[1]
    assert sizes[0] + sizes[1] <= ranks[2] < sum(sizes)
    assert ranks[3] == -1
    back = ranking.unrank(np.array([*ranks[:3].tolist(), sum(sizes), -1]), parts)
    assert (ranking.rank(back[:3], parts) == ranks[:3]).all()
    assert back[3] == back[4] == -1


def test_a_batch_in_any_order_ranks_each_code_as_the_probe_does(kernel_mode: str) -> None:
    """rank (one loop asking for each mover's tables codes ahead, a run of one mover's set
    ranked once) against rank_code one code at a time: codes of several parts shuffled,
    runs of a repeated mover, codes of no part and movers with more stones than any part,
    batches shorter and longer than the look ahead."""
    rng = np.random.default_rng(49)
    ranking = StoneRanking(StoneBoard(9, tuple(square_symmetries(3)), 9, 18))
    parts = [(3, 2, 0), (2, 3, 0), (4, 1, 1)]
    codes = []
    for _ in range(600):
        mine, theirs = (3, 2) if rng.random() < 0.4 else (2, 3) if rng.random() < 0.6 else (
            int(rng.integers(0, 6)), int(rng.integers(0, 4)))  # fmt: skip
        cells = rng.permutation(9)
        me = sum(1 << int(c) for c in cells[:mine])
        other = sum(1 << int(c) for c in cells[mine : mine + theirs])
        rest = int(rng.integers(0, 2))
        for _ in range(int(rng.integers(1, 4))):  # (a run of one mover's set)
            codes.append(me | other << 9 | rest << 18)
            cells = rng.permutation([c for c in range(9) if not me >> c & 1])
            other = sum(1 << int(c) for c in cells[:theirs])
    expected = probed(ranking, codes, parts)
    assert -1 in expected and sum(e >= 0 for e in expected) > 300
    for size in (1, 5, len(codes)):
        batch = np.array(codes[:size], dtype=np.int64)
        assert ranking.rank(batch, parts).tolist() == expected[:size]


@pytest.mark.parametrize(
    ("cells", "symmetries", "said"),
    [
        (4, ((0, 1, 2, 2),), "not a permutation"),
        (4, ((1, 2, 3, 0), (1, 0, 2, 3)), "not a group"),  # a turn and one swap: not closed
        (40, (), "1 to 32 cells"),
    ],
)
def test_a_board_that_is_not_one_is_refused_in_one_line(
    cells: int, symmetries: Any, said: str
) -> None:
    with pytest.raises(GameError, match=said) as caught:
        StoneBoard(cells, symmetries)
    assert "\n" not in str(caught.value)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LINE_MASKS = np.array([sum(1 << c for c in line) for line in LINES], dtype=np.int64)


class StoneTicTacToe(CompiledGame):
    """Tic-tac-toe from the mover's side (bits 0-8 the mover's, 9-17 the other's), its tiers
    the stones on the board, ranked by stones with the square's 8 symmetries."""

    max_moves = 9

    def start(p):
        return 0

    def moves(p, s, out):
        n = 0
        for cell in range(9):
            if not ((s | s >> 9) >> cell) & 1:
                out[n] = cell
                n += 1
        return n

    def play(p, s, m):
        return (s >> 9) | ((s & 511) | 1 << m) << 9

    def outcome(p, s):
        other = s >> 9
        for line in LINE_MASKS:
            if other & line == line:
                return LOSS
        if (s | other) & 511 == 511:
            return TIE
        return ONGOING

    def tier(p, s):
        count = 0
        for cell in range(18):
            count += (s >> cell) & 1
        return count

    def stone_board(self) -> StoneBoard:
        return StoneBoard(9, tuple(square_symmetries(3)))

    def tier_parts(self, tier: int) -> list[tuple[int, int, int]]:
        return [(tier // 2, tier - tier // 2, 0)]

    def child_tiers(self, tier: int) -> list[int]:
        return [tier + 1] if tier < 9 else []


class SortedTicTacToe(StoneTicTacToe):
    stone_board = None  # type: ignore[assignment]


def test_a_game_ranked_by_stones_solves_as_the_reference_does(tmp_path: Path) -> None:
    game = StoneTicTacToe()
    build_tablebase(game, tmp_path / "stones")
    assert not list((tmp_path / "stones").glob("*.codes"))  # nothing kept per position
    table = open_tablebase(tmp_path / "stones", game)
    reference = solve_outcomes(SortedTicTacToe())
    assert len(reference) == 5478
    for state, (value, remoteness) in reference.items():
        assert table.lookup(state) == (value, remoteness), state
    indices = sum(entry.size for entry in table.header.tiers.values())
    assert 765 <= indices < 5478 / 4  # 765 positions up to symmetry, and a few holes


def morris() -> Any:
    import examples_loader

    return examples_loader.load("morris")


def test_morris_ranked_by_stones_agrees_with_its_solve_in_memory(tmp_path: Path) -> None:
    """Six Men's Morris' board with three stones each: tier by tier, ranked by stones (its
    16 symmetries folded), against the explored graph in memory (another engine and every
    position apart), on positions of random playouts."""
    Morris = morris().Morris
    game = Morris(points=16, stones=3)
    build_tablebase(game, tmp_path / "stones")
    table = open_tablebase(tmp_path / "stones", game)
    whole = solve(Morris(points=16, stones=3))
    rng = random.Random(3)
    seen = 0
    for _ in range(150):
        state = game.initial()
        while True:
            assert table.lookup(state) == whole.lookup(state), game.show(state)
            seen += 1
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))
    assert seen > 1000
    indices = sum(entry.size for entry in table.header.tiers.values())
    assert indices * 6 < 212_265  # the positions by sorted codes, images apart


def test_every_position_without_a_ranking_by_stones_is_refused_in_one_line() -> None:
    class Database(SortedTicTacToe):
        every_position = True

    with pytest.raises(GameError, match="every_position") as caught:
        Database()
    assert "\n" not in str(caught.value)


def test_each_child_is_counted_once_per_parent_in_any_order(kernel_mode: str) -> None:
    """The un-move solver's dedup (a kernel within blocks of one parent: pairwise in short
    blocks, a hash table in longer ones, sorted in the longest; a sort of all rows
    otherwise) keeps exactly the first of equal (block, key) rows, as a plain set does."""
    from perfectplay.tiers.counted import first_of_each

    rng = np.random.default_rng(47)
    for trial in range(200):
        size = int(rng.integers(0, 200 if trial % 10 else 6000))
        blocks = np.sort(rng.integers(0, int(rng.integers(1, 16)), size))  # (blocks of 200
        keys = rng.integers(0, int(rng.integers(2, 60)), size)  # rows, sorted, down to a few)
        for order in (np.arange(size), rng.permutation(size)):
            seen: set[tuple[int, int]] = set()
            expected = []
            for b, k in zip(blocks[order].tolist(), keys[order].tolist(), strict=True):
                expected.append((b, k) not in seen)
                seen.add((b, k))
            assert first_of_each(blocks[order], keys[order]).tolist() == expected
