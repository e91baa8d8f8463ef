"""The engine around compiled games: packed codes in compressed tablebases, the self-test
of compiled rules, un-moves derived from moves, and loopy tiers (Quixo, as GamesmanOne
plays it) against a plain reference solver that shares no code with the engine."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference
from examples_loader import load

from perfectplay import LOSS, TablebaseError, build_tablebase, open_tablebase, solve
from perfectplay.checking import check_game
from perfectplay.compiled_games import ONGOING, CompiledGame, code_sets, discovery
from perfectplay.core.packed_codes import pack, unpack
from perfectplay.tablebase.blocks import compress
from perfectplay.tablebase.header import read_header

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("seed", range(5))
def test_packed_codes_decode_to_the_same_codes(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    span = int(rng.integers(1, 62))
    codes = np.unique(rng.integers(0, 1 << span, size=int(rng.integers(0, 5000))))
    pack(codes, tmp_path / "codes.zst")
    assert np.array_equal(unpack(tmp_path / "codes.zst", codes.shape[0]), codes)
    with pytest.raises(ValueError):
        unpack(tmp_path / "codes.zst", codes.shape[0] + 1)


@pytest.mark.parametrize("seed", range(6))
def test_pending_codes_merged_in_slots_and_ranges_are_the_sorted_union(
    seed: int, monkeypatch: Any
) -> None:
    """Children sent to later tiers from several slots (as worker threads do), unsorted and
    repeated (a tier whose first codes repeat much is deduplicated chunk by chunk, another
    held as sent), scattered into buckets laid out by the first codes a tier gets (later
    codes far outside them included), then popped and sorted in ranges of buckets on every core:
    exactly numpy's unique of what was sent, lowest tier first."""
    monkeypatch.setattr(discovery, "PARALLEL_UNION", 64)  # ranges even on small pieces
    monkeypatch.setattr(discovery, "THREADS", 2)
    monkeypatch.setattr(discovery, "BUCKET_BITS", 2 + seed % 3 * 4)  # 4, 64 or 1024 buckets
    rng = np.random.default_rng(seed)
    pending = discovery._Pending(3)
    sent: dict[int, list[Any]] = {}
    for _ in range(int(rng.integers(1, 40))):
        tier = int(rng.integers(0, 4))
        codes = rng.integers(0, 1 << int(rng.integers(1, 40)), size=int(rng.integers(0, 3000)))
        piece = codes.astype(np.int64)
        pending.add([(tier, piece)])
        pending.note(tier)
        sent.setdefault(tier, []).append(piece)
    distinct = sum(int(np.unique(np.concatenate(p)).shape[0]) for p in sent.values())
    assert distinct <= pending.held <= sum(int(p.shape[0]) for ps in sent.values() for p in ps)
    for tier in sorted(sent):
        popped = pending.pop()
        assert popped is not None and popped[0] == tier
        parts = popped[1]  # sorted, disjoint and in order: joined, the sorted union
        assert np.array_equal(np.concatenate(parts), np.unique(np.concatenate(sent[tier])))
    assert pending.pop() is None and pending.held == 0


def test_a_large_tier_is_sorted_in_several_ranges_of_buckets(monkeypatch: Any) -> None:
    """Codes spread over their range are cut into several parts, each sorted on a core."""
    monkeypatch.setattr(discovery, "PARALLEL_UNION", 64)
    monkeypatch.setattr(discovery, "THREADS", 2)
    rng = np.random.default_rng(0)
    pending = discovery._Pending(3)
    sent = [rng.integers(0, 1 << 40, size=5000) for _ in range(4)]
    pending.lay_out([(1, sent[0])])
    for piece in sent:
        pending.add([(1, piece)])
    pending.note(1)
    popped = pending.pop()
    assert popped is not None and len(popped[1]) > 1
    assert np.array_equal(np.concatenate(popped[1]), np.unique(np.concatenate(sent)))


def test_a_compressed_tablebase_answers_from_its_packed_codes(tmp_path: Path) -> None:
    game = load("connect_four").ConnectFour(width=4, height=3)
    header, _ = build_tablebase(game, tmp_path / "tb")
    packed = compress(tmp_path / "tb", tmp_path / "zst", header)
    from perfectplay.tablebase.header import write_header

    write_header(tmp_path / "zst", packed)
    plain = load("connect_four").ConnectFour(width=4, height=3)  # no ranking in memory
    solution = solve(load("connect_four").ConnectFour(width=4, height=3))
    assert packed.codes is not None
    codes_bytes = sum((tmp_path / "zst" / t["file"]).stat().st_size for t in packed.codes["tiers"])
    assert codes_bytes < header.counts()["positions"]  # under a byte a code
    with open_tablebase(tmp_path / "zst", plain) as base:
        for state in list(solution.graph.states)[:2000]:
            assert base.value(state) == solution.value(state)
            assert base.remoteness(state) == solution.remoteness(state)
    # A damaged packed file is refused, never answered from.
    victim = tmp_path / "zst" / packed.codes["tiers"][5]["file"]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    with pytest.raises(TablebaseError, match="checksum"):
        open_tablebase(tmp_path / "zst", load("connect_four").ConnectFour(width=4, height=3))
    assert read_header(tmp_path / "zst").codes is not None


def _wraps(p: Any, s: Any) -> Any:
    return (s * 3_000_000_000_000_000_000 + 1) % 7  # wraps around in int64 only


class Overflow(CompiledGame):
    """A rule that overflows int64: the engine's runs and the plain protocol disagree."""

    def start(p):  # type: ignore[no-untyped-def]
        return 1

    def moves(p, s, out):  # type: ignore[no-untyped-def]
        if s > 40:
            return 0
        out[0] = 1
        return 1

    def play(p, s, m):  # type: ignore[no-untyped-def]
        return s + 1 + _wraps(p, s)

    def outcome(p, s):  # type: ignore[no-untyped-def]
        return LOSS if s > 40 else ONGOING


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_check_finds_rules_that_overflow_int64() -> None:
    """Compiled rules wrap around where Python's ints do not: check tells the moves apart."""
    problems = check_game(Overflow(), samples=100)
    assert any("that play() gives" in line for line in problems), problems


class MergingKey:
    """A race to 10 whose key wrongly merges totals 3 and 6 (a plain game)."""

    def initial(self) -> int:
        return 0

    def moves(self, total: int) -> list[int]:
        return [1, 2]

    def play(self, total: int, step: int) -> int:
        return total + step

    def outcome(self, total: int) -> Any:
        return LOSS if total >= 10 else None

    def key(self, total: int) -> int:
        return 3 if total == 6 else total


def test_check_finds_a_key_that_is_no_symmetry() -> None:
    problems = check_game(MergingKey(), samples=200)
    assert any("share key" in line for line in problems), problems
    assert check_game(load("connect_four").ConnectFour(width=4, height=3), samples=200) == []


@pytest.mark.parametrize("size", [3])
def test_quixo_tiers_agree_with_the_plain_reference(tmp_path: Path, size: int) -> None:
    """Quixo's loopy tiers (moves of one's own cubes stay in a tier), solved by the engine's
    moves laid out whole, against the round-by-round reference over the plain protocol."""
    game = load("quixo").Quixo(size=size)
    expected = reference.solve_outcomes(game)  # every state, symmetric ones apart
    header, _ = build_tablebase(game, tmp_path / "q")
    assert header.counts()["positions"] == len({game.key(state) for state in expected})
    assert len({game.key(state) for state in expected}) < len(expected) / 4
    with open_tablebase(tmp_path / "q", load("quixo").Quixo(size=size)) as base:
        for state, (value, plies) in expected.items():
            assert base.value(state) == value, state
            assert base.remoteness(state) == plies, state


@pytest.mark.parametrize("size", [2, 3])
def test_tictactoe_tiers_agree_with_the_plain_reference(tmp_path: Path, size: int) -> None:
    """The tic-tac-toe example (GamesmanOne's mttt and mtttier; the board toolkit's full
    lines and least pair): every reachable state's value and remoteness as the reference
    finds them over the plain protocol; 3 x 3 folds to its 765 classes."""
    game = load("tictactoe").TicTacToe(size=size)
    expected = reference.solve_outcomes(game)
    header, _ = build_tablebase(game, tmp_path / "t")
    assert header.counts()["positions"] == len({game.key(state) for state in expected})
    if size == 3:
        assert (len(expected), header.counts()["positions"]) == (5478, 765)
    with open_tablebase(tmp_path / "t", load("tictactoe").TicTacToe(size=size)) as base:
        for state, (value, plies) in expected.items():
            assert base.value(state) == value, state
            assert base.remoteness(state) == plies, state


def test_quixos_key_is_one_image_shared_by_all_eight() -> None:
    """The example's key (the board toolkit's least pair) against the eight images made
    cell by cell with numpy: the same key for all, and that key one of them."""
    game = load("quixo").Quixo(size=4)
    rng = np.random.default_rng(7)
    for _ in range(300):
        cells = rng.integers(0, 3, size=16)
        turn = int(rng.integers(0, 2))
        board = cells.reshape(4, 4)
        images = []
        for k in range(4):
            for flipped in (board, board.T):
                image = np.rot90(flipped, k).reshape(16)
                images.append(
                    sum((1 << i) if v == 1 else (1 << (16 + i)) if v == 2 else 0
                        for i, v in enumerate(image)) | (turn << 32)
                )  # fmt: skip
        keys = {game.key(code) for code in images}
        assert len(keys) == 1 and keys.pop() in images


def test_a_save_run_again_takes_up_the_kept_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The codes found by a save that stopped later are taken up, not found again; codes
    that fail their checksum are found again."""
    from perfectplay.compiled_games import engine_tiers
    from perfectplay.identity import identity_of
    from perfectplay.rules import Rules

    game = load("connect_four").ConnectFour(width=4, height=3)
    directory = tmp_path / "tb"
    game.tiers().engine.ranking(directory=directory, identity=identity_of(Rules(game)))  # killed
    assert (directory / "codes.json").is_file() and not (directory / "header.json").exists()

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the ranking was found again")

    monkeypatch.setattr(engine_tiers, "discover", never)
    again = load("connect_four").ConnectFour(width=4, height=3)
    header, _ = build_tablebase(again, directory)
    expected = solve(load("connect_four").ConnectFour(width=4, height=3))
    assert header.counts()["positions"] == expected.stats.states
    monkeypatch.undo()
    # A damaged codes file is not trusted: the ranking is found again.
    victim = next(directory.glob("tier-000005.codes"))
    data = bytearray(victim.read_bytes())
    data[8] ^= 1
    victim.write_bytes(bytes(data))
    (directory / "header.json").unlink()
    third = load("connect_four").ConnectFour(width=4, height=3)
    ranking = third.tiers().engine.ranking(directory=directory, identity=identity_of(Rules(third)))
    in_memory = load("connect_four").ConnectFour(width=4, height=3).tiers().engine.ranking()
    assert np.array_equal(np.asarray(ranking.tiers[5].codes), in_memory.tiers[5].codes)


def test_a_tablebase_removed_is_built_again_by_the_same_game(tmp_path: Path) -> None:
    """The game keeps the ranking it found in the tablebase's directory; once that
    directory is removed, building there again finds the positions again (it read the
    removed files, a FileNotFoundError, before)."""
    import shutil

    game = load("connect_four").ConnectFour(width=4, height=3)
    expected = solve(load("connect_four").ConnectFour(width=4, height=3))
    for _ in range(2):
        shutil.rmtree(tmp_path / "tb", ignore_errors=True)
        header, _ = build_tablebase(game, tmp_path / "tb")
        assert header.counts()["positions"] == expected.stats.states
        with open_tablebase(tmp_path / "tb", game) as base:
            assert base.value() == expected.value()


def _teeko_board(code: int) -> Any:
    """A Teeko code as a 5 x 5 array: 0 blank, 1 the first player's, 2 the second's."""
    return np.array(
        [1 if (code >> i) & 1 else 2 if (code >> (25 + i)) & 1 else 0 for i in range(25)]
    ).reshape(5, 5)


def _teeko_code(board: Any, turn: int) -> int:
    flat = board.reshape(25)
    return sum((1 << i) if v == 1 else (1 << (25 + i)) if v == 2 else 0
               for i, v in enumerate(flat)) | (turn << 50)  # fmt: skip


def _teeko_shape_made(board: Any, side: int) -> bool:
    """Four of ``side`` in a row, a column, a diagonal or on a unit square's corners."""
    mine = board == side
    for r in range(5):
        for c in range(5):
            if r < 4 and c < 4 and mine[r : r + 2, c : c + 2].all():
                return True
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= a < 5 and 0 <= b < 5 and mine[a, b] for a, b in cells):
                    return True
    return False


def test_teeko_moves_and_ends_agree_with_a_board_of_cells() -> None:
    """Teeko's rules (bits) against the rules written over a 5 x 5 array, on random games."""
    game = load("teeko").Teeko()
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(40):
        state = game.initial()
        while True:
            board = _teeko_board(state)
            turn = (state >> 50) & 1
            ended = _teeko_shape_made(board, 1) or _teeko_shape_made(board, 2)
            assert (game.outcome(state) == LOSS) == ended, board
            if ended:
                break
            expected = set()
            if (board != 0).sum() < 8:
                for r, c in zip(*np.nonzero(board == 0), strict=True):
                    after = board.copy()
                    after[r, c] = turn + 1
                    expected.add(_teeko_code(after, 1 - turn))
            else:
                for r, c in zip(*np.nonzero(board == turn + 1), strict=True):
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            a, b = r + dr, c + dc
                            if 0 <= a < 5 and 0 <= b < 5 and board[a, b] == 0:
                                after = board.copy()
                                after[r, c], after[a, b] = 0, turn + 1
                                expected.add(_teeko_code(after, 1 - turn))
            children = [game.play(state, m) for m in game.moves(state)]
            assert len(children) == len(expected) and set(children) == expected
            state = children[int(rng.integers(len(children)))]
            seen += 1
            if seen % 60 == 0:
                break
    assert seen > 500


def test_teeko_key_is_the_least_of_the_eight_images() -> None:
    game = load("teeko").Teeko()
    rng = np.random.default_rng(11)
    for _ in range(300):
        board = rng.choice(3, size=(5, 5), p=[0.6, 0.2, 0.2])
        turn = int(rng.integers(0, 2))
        images = [_teeko_code(np.rot90(flipped, k), turn)
                  for k in range(4) for flipped in (board, board.T)]  # fmt: skip
        assert game.key(_teeko_code(board, turn)) == min(images)


@pytest.mark.parametrize("size", [0, 1, 7, 3000, 5000, 20_000, 70_000, 300_000])
@pytest.mark.parametrize("bits", [0, 1, 10, 26, 42, 62])
def test_radix_sort_with_duplicates_dropped_is_numpys_unique(size: int, bits: int) -> None:
    """Every digit width the sort picks (by the array's length and the codes' span), codes
    repeated, against numpy; compiled where the kernel compiles, as the engine runs it."""
    from perfectplay.core.sorting import sort_distinct

    rng = np.random.default_rng(size * 64 + bits)
    base = int(rng.integers(0, 1 << 20))
    codes = base + rng.integers(0, (1 << bits) + 1, size=size)
    codes[: size // 3] = codes[size // 3 : 2 * (size // 3)]  # a third repeated
    found = sort_distinct(codes.astype(np.int64))
    assert np.array_equal(found, np.unique(codes))


@pytest.mark.parametrize("seed", range(8))
def test_bucket_starts_are_where_each_bucket_begins(seed: int) -> None:
    """The one-pass bucket index equals a binary search for every bucket's first code."""
    from perfectplay.core.sorting import bucket_starts

    rng = np.random.default_rng(seed)
    bits = int(rng.integers(1, 63))
    codes = np.unique(rng.integers(0, 1 << bits, size=int(rng.integers(1, 50_000))))
    base = int(codes[0])
    shift = max(0, (int(codes[-1]) - base).bit_length() - int(rng.integers(0, 18)))
    count = ((int(codes[-1]) - base) >> shift) + 1 + int(rng.integers(0, 3))
    edges = [base + (b << shift) for b in range(count + 1)]
    starts = bucket_starts(codes, base, shift, count)
    assert starts.shape == (count + 1,)
    exact = [int(np.searchsorted(codes, e)) if e < 1 << 63 else codes.shape[0] for e in edges]
    assert starts[: len(exact)].tolist() == exact


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_ranking_in_order_finds_what_a_binary_search_finds(seed: int, mode: str) -> None:
    """Queries repeated, absent (between, below and above the codes), in any order, against
    numpy's searchsorted; compiled and interpreted alike, and the same through CodeSet.rank
    on either side of the size where it switches from the bucket index."""
    from perfectplay.core.sorting import rank_in_order

    rng = np.random.default_rng(seed)
    bits = int(rng.integers(1, 62))
    codes = np.unique(rng.integers(0, 1 << bits, size=int(rng.integers(0, 20_000))))
    members = codes[rng.integers(0, max(1, codes.size), size=int(rng.integers(0, 9_000)))]
    strangers = rng.integers(0, 1 << min(62, bits + 1), size=int(rng.integers(0, 3_000)))
    queries = np.concatenate([members if codes.size else members[:0], strangers])
    rng.shuffle(queries)
    at = np.searchsorted(codes, queries)
    expected = np.where((at < codes.size) & (codes[np.minimum(at, codes.size - 1)] == queries)
                        if codes.size else False, at, -1)  # fmt: skip
    out = np.full(queries.size, -7, dtype=np.int64)
    run = rank_in_order.run_compiled if mode == "compiled" else rank_in_order.interpreted
    run(codes, queries, out)
    assert np.array_equal(out, expected)
    game = load("connect_four").ConnectFour(width=4, height=3)
    loops = game.engine_loops(mode == "compiled")
    for size in (code_sets.IN_ORDER_FROM - 1, code_sets.IN_ORDER_FROM, queries.size):
        part = queries[:size]
        assert np.array_equal(code_sets.CodeSet.of(codes).rank(loops, part), expected[:size])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_codes_scattered_into_buckets_then_united_are_numpys_unique(seed: int, mode: str) -> None:
    """The discovery's path for codes sent to a tier: pieces scattered by a layout made
    from a sample (codes outside the sample's range too, clustered or spread, repeated
    within and across pieces), then every range of buckets united, against numpy."""
    from perfectplay.core.sorting import scatter_by_bucket, union_of_buckets

    rng = np.random.default_rng(seed)
    bits = int(rng.integers(1, 62))
    centres = rng.integers(0, 1 << bits, size=int(rng.integers(1, 40)))
    spread = 1 << int(rng.integers(0, max(1, bits - 2)))
    pieces = []
    for _ in range(int(rng.integers(1, 12))):
        n = int(rng.integers(0, 6_000))
        codes = centres[rng.integers(0, centres.size, size=n)] + rng.integers(0, spread, size=n)
        codes[: n // 4] = codes[n // 4 : 2 * (n // 4)]  # repeated within the piece
        pieces.append(np.minimum(codes, (1 << 62) - 1).astype(np.int64))
    pieces.append(pieces[0][::2].copy())  # and across pieces
    everything = np.concatenate(pieces)
    sample = everything[rng.integers(0, everything.size, size=min(50, everything.size))]
    if not sample.size:
        sample = np.array([0], dtype=np.int64)
    layout = discovery._Layout.of(sample)
    scatter = scatter_by_bucket.run_compiled if mode == "compiled" else (
        scatter_by_bucket.interpreted)  # fmt: skip
    unite = union_of_buckets.run_compiled if mode == "compiled" else union_of_buckets.interpreted
    scattered = [scatter(p, layout.low, layout.shift, layout.table) for p in pieces]
    for starts, grouped, extent in scattered:  # each bucket below the next, its extent
        for b in range(starts.size - 2):
            here, after = grouped[starts[b] : starts[b + 1]], grouped[starts[b + 1] :]
            assert not here.size or not after.size or here.max() < after.min()
        for b in range(starts.size - 1):
            here = grouped[starts[b] : starts[b + 1]]
            least, greatest = (here.min(), here.max()) if here.size else ((1 << 63) - 1, -1)
            assert (extent[0, b], extent[1, b]) == (least, greatest)
    buckets = int(scattered[0][0].size) - 1
    cuts = sorted({0, buckets, *rng.integers(0, buckets + 1, size=3).tolist()})
    arrays: Any = [g for _, g, _ in scattered]
    if mode == "compiled":
        from numba.typed import List

        arrays = List(arrays)
    starts_all = np.stack([s for s, _, _ in scattered])
    extent = np.stack([np.min([e[0] for _, _, e in scattered], axis=0),
                       np.max([e[1] for _, _, e in scattered], axis=0)])  # fmt: skip
    found = np.concatenate([unite(arrays, starts_all, extent, a, b)
                            for a, b in itertools.pairwise(cuts)])  # fmt: skip
    assert np.array_equal(found, np.unique(everything))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_finding_near_the_last_answer_finds_what_a_binary_search_finds(
    seed: int, mode: str
) -> None:
    """find_all_near: queries by move slot, mostly a few codes past the slot's last answer
    (as a sweep's children are), some far ahead, behind, absent or past either end."""
    rng = np.random.default_rng(seed)
    codes = np.unique(rng.integers(0, 1 << 40, size=int(rng.integers(1, 30_000))))
    picks = np.cumsum(rng.integers(0, 4, size=6_000)) % codes.size
    queries = codes[picks].copy()
    jumps = rng.random(queries.size)
    queries[jumps < 0.05] = codes[rng.integers(0, codes.size, size=int((jumps < 0.05).sum()))]
    strangers = jumps > 0.95
    queries[strangers] = rng.integers(0, 1 << 41, size=int(strangers.sum()))
    queries[:3] = [int(codes[0]) - 1, int(codes[-1]) + 1, int(codes[-1])]
    slots = rng.integers(0, 3, size=queries.size)
    at = np.searchsorted(codes, queries)
    inside = at < codes.size
    expected = np.where(inside & (codes[np.minimum(at, codes.size - 1)] == queries), at, -1)
    found = code_sets.CodeSet.of(codes)
    loops = load("connect_four").ConnectFour(width=4, height=3).engine_loops(mode == "compiled")
    out = np.full(queries.size, -7, dtype=np.int64)
    loops.find_all_near(found.codes, found.buckets, found.base, found.shift, queries, slots, out)
    assert np.array_equal(out, expected)


def test_the_edges_estimate_is_near_the_moves_laid_out(monkeypatch: Any) -> None:
    """retrograde_by_edges' estimate of its memory, from a sample, against the bytes its
    rule gives for the moves the tier really has (laid out whole)."""
    from perfectplay.tiers import retrograde_by_edges as edges

    monkeypatch.setattr(edges, "SAMPLE", 100)
    game = load("quixo").Quixo(size=3)
    graph = _graph(game)
    tier = max(graph.loopy, key=lambda t: graph.sizes[t])
    assert graph.sizes[tier] > 4 * edges.SAMPLE  # the estimate is from a sample
    outside: list[Any] = []
    _, offsets, _, _ = game.tiers().engine.tier_moves(tier, outside.append)
    out = sum(int(moves[1].shape[0]) for moves in outside)
    exact = edges.layout_bytes(graph.sizes[tier], int(offsets[-1]), out)
    assert 0.8 * exact <= edges.estimated_bytes(graph, tier) <= 1.25 * exact


def test_a_budget_the_moves_laid_out_do_not_fit_is_solved_by_rounds(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Where the moves laid out would pass --memory, a compiled game's loopy tiers are solved
    by rounds of value iteration (records only), to the same bytes."""
    from perfectplay.tiers import retrograde_by_edges

    game = load("quixo").Quixo(size=3)
    build_tablebase(game, tmp_path / "edges", memory=16 << 30)
    monkeypatch.setattr(retrograde_by_edges, "BYTES_AN_INDEX", 1 << 40)  # never fits
    build_tablebase(load("quixo").Quixo(size=3), tmp_path / "rounds", memory=16 << 30)
    loopy = _graph(game).loopy
    assert loopy
    for directory, loopy_method in (("edges", "by-edges"), ("rounds", "value-iteration")):
        methods = {t: e.method for t, e in read_header(tmp_path / directory).tiers.items()}
        assert {methods[t] for t in loopy} == {loopy_method}
        assert {m for t, m in methods.items() if t not in loopy} == {"engine-sweep"}
    first, second = read_header(tmp_path / "edges"), read_header(tmp_path / "rounds")
    assert {t: e.sha256 for t, e in first.tiers.items()} == {
        t: e.sha256 for t, e in second.tiers.items()
    }


def _graph(game: Any) -> Any:
    """The tier graph of a game."""
    from perfectplay.rules import Rules
    from perfectplay.tiers.graph import TierGraph

    return TierGraph(Rules(game))


class _Killed(BaseException):
    """Stands for kill -9 at one exact moment (nothing after it runs, no progress written)."""


def test_a_compiled_solve_killed_inside_a_tier_goes_on_to_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every index of a tier the engine ranked is a position: no pass marks its records
    before the solve, whose sweep solves the records still 0 and skips those solved. Killed
    in the middle of a tier's windows, after finishing the tier before it without noting it
    (the progress is written at most every NOTE_EVERY seconds), the solve taken up again
    takes the finished tier back, finishes the half-solved one, and writes a clean solve's
    bytes."""
    from perfectplay.core import parallel
    from perfectplay.tiers import files as tier_files
    from perfectplay.tiers import sweeps

    monkeypatch.setattr(parallel, "THREADS", 1)  # a kill stops every thread: one here
    monkeypatch.setattr(sweeps, "SWEEP", 97)  # many windows a tier
    make = load("connect_four").ConnectFour
    clean, _ = build_tablebase(make(width=4, height=4), tmp_path / "clean")

    monkeypatch.setattr(tier_files, "NOTE_EVERY", 1e9)
    finished: list[int] = []
    real_finish = tier_files.TierFiles.finish

    def finish(self: Any, tier: int, *args: Any, **kwargs: Any) -> None:
        real_finish(self, tier, *args, **kwargs)
        finished.append(tier)

    below: list[int] = []  # the reports of the tier below the finished one

    def progress(done: int, found: int, /, level: int | None = None) -> None:
        if finished and level is not None and level == finished[0] - 1:
            below.append(done)
            if len(below) > 1:  # (its first report is its start): windows of it are
                raise _Killed  # solved, not all

    def never_noted(self: Any) -> None:
        raise _Killed

    monkeypatch.setattr(tier_files.TierFiles, "finish", finish)
    monkeypatch.setattr(tier_files.TierFiles, "note_progress", never_noted)
    target = tmp_path / "killed"
    with pytest.raises(_Killed):
        build_tablebase(make(width=4, height=4), target, progress=progress)
    half = target / f"tier-{finished[0] - 1:06d}.partial"
    records = np.fromfile(half, dtype=f"<u{clean.record_bytes}")
    assert (records == 0).any() and (records != 0).any()  # solved in part, as the kill left it
    assert (target / f"tier-{finished[0]:06d}.rec").exists()  # finished, never noted
    noted = json.loads((target / "progress.json").read_text())
    assert str(finished[0]) not in noted["solved"]
    monkeypatch.undo()
    resumed, _ = build_tablebase(make(width=4, height=4), target)
    assert {t: e.sha256 for t, e in resumed.tiers.items()} == {
        t: e.sha256 for t, e in clean.tiers.items()
    }


def test_each_engine_loop_is_compiled_for_one_signature(tmp_path: Path) -> None:
    """A tier's codes and buckets and a child tier's records reach the loops read-only
    whether they were built in memory or mapped from a file (``compiled.read_only``): each
    loop keeps the one signature its first call compiled, where a solve compiled (or
    loaded) ``solve_sweep`` three times and ``find_all`` twice, mid-solve."""
    game = load("connect_four").ConnectFour(width=5, height=3)
    loops = game.engine_loops(True)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        assert base.value() == solve(load("connect_four").ConnectFour(width=5, height=3)).value()
    for name in ("solve_sweep", "find_all", "find", "expand_tiers", "expand_ranked"):
        found = getattr(loops, name)  # the dispatcher, or the guard around it
        dispatcher = found if hasattr(found, "signatures") else found.__wrapped__
        dispatcher = getattr(dispatcher, "func", dispatcher)  # (bound to the parameters)
        assert len(dispatcher.signatures) == 1, (name, dispatcher.signatures)


def test_out_of_core_only_a_tier_and_its_child_tiers_stay_mapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building a tablebase keeps the codes in files, mapped only while used: a tier and
    its child tiers (Connect Four: one child tier, so two tiers' codes at once; four were
    kept, whatever the game, 8 bytes a position each)."""
    from perfectplay.compiled_games import ranking as ranking_module

    most = [0]
    real_use = ranking_module.Ranking.use

    def use(self: Any, tier: int) -> Any:
        found = real_use(self, tier)
        mapped_now = sum(
            1 for s in self.tiers.values() if s.path is not None and s._codes is not None
        )
        most[0] = max(most[0], mapped_now)
        return found

    monkeypatch.setattr(ranking_module.Ranking, "use", use)
    game = load("connect_four").ConnectFour(width=5, height=3)
    header, _ = build_tablebase(game, tmp_path / "tb")
    assert len(header.tiers) > 4
    assert most[0] == 2


def test_every_file_of_a_compiled_tablebase_is_on_disk_before_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine's tiers are not fsync'd before they are noted (a lost one fails its hash
    and is solved again), but the header, which says the tablebase is whole, comes only
    after every tier's records, every tier's codes and ``codes.json`` were fsync'd."""
    import os

    from perfectplay.tablebase import build as build_module
    from perfectplay.tablebase import header as header_module

    synced: set[str] = set()
    real_fsync = os.fsync

    def fsync(handle: int) -> None:
        name = Path(os.readlink(f"/proc/self/fd/{handle}")).name
        synced.add(name.removesuffix("-partial"))  # codes are fsync'd, then renamed
        real_fsync(handle)

    seen_at_header: set[str] = set()
    real_write = header_module.write_header

    def write_header(directory: Path, header: Any) -> None:
        seen_at_header.update(synced)
        real_write(directory, header)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(build_module, "write_header", write_header)  # as build imports it
    build_tablebase(load("connect_four").ConnectFour(width=4, height=3), tmp_path / "tb")
    wanted = {p.name for p in (tmp_path / "tb").glob("tier-*.rec")}
    wanted |= {p.name for p in (tmp_path / "tb").glob("tier-*.codes")} | {"codes.json"}
    assert len(wanted) > 2 * 4
    assert wanted <= seen_at_header


@pytest.mark.parametrize("seed", range(8))
def test_a_bucket_index_by_numpy_is_the_kernels(seed: int) -> None:
    """The bucket index a tier gets while numba is not loaded (numpy's search of each
    bucket's first code) is the one ``bucket_starts`` builds in one pass."""
    from perfectplay.core.sorting import bucket_starts

    rng = np.random.default_rng(seed)
    codes = np.unique(
        rng.integers(0, 1 << int(rng.integers(1, 60)), size=int(rng.integers(1, 5000)))
    )
    found = code_sets.CodeSet.of(codes)
    count = ((int(codes[-1]) - int(codes[0])) >> found.shift) + 1
    by_numpy = code_sets.bucket_index_by_search(codes, found.base, found.shift, count)
    assert np.array_equal(
        by_numpy, bucket_starts.interpreted(codes, found.base, found.shift, count)
    )


def test_a_rule_cached_under_another_module_name_is_cached_again(tmp_path: Path) -> None:
    """numba's disk cache of a rule names the module it was compiled in; the same file
    loaded under another name (a script's import, then the CLI's name for the file) could
    not read it back, and every start compiled the rules afresh, uncached (1.5 s). Now the
    stale entries are emptied and the rules cached under the new name: the next start
    under that name loads them."""
    import shutil
    import subprocess

    game_file = tmp_path / "c4.py"
    shutil.copy(EXAMPLES / "connect_four.py", game_file)
    script = (
        "import sys, importlib.util\n"
        "if sys.argv[2] == 'import':\n"
        "    spec = importlib.util.spec_from_file_location('my_own_name', sys.argv[1])\n"
        "    m = importlib.util.module_from_spec(spec); sys.modules['my_own_name'] = m\n"
        "    spec.loader.exec_module(m)\n"
        "else:\n"
        "    from perfectplay.cli.loader import _load_file; m = _load_file(sys.argv[1])\n"
        "loops = m.ConnectFour(width=4, height=3).engine_loops(True)\n"
        "start = sys.modules[f'perfectplay_game_ConnectFour_{loops.ident}']._start\n"
        "print(type(start._cache).__name__, sum(start.stats.cache_hits.values()))\n"
    )

    def run(how: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", script, str(game_file), how],
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.split()

    assert run("import")[0] == "FunctionCache"  # cached under my_own_name
    assert run("cli")[0] == "FunctionCache"  # was NullCache: compiled, never cached
    kind, hits = run("cli")
    assert kind == "FunctionCache" and int(hits) > 0  # loaded from the disk this time


def test_finding_the_positions_without_a_budget_stops_at_the_default_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ranking asked for without a budget (a check, a probe) has the default one: past it,
    one line (MemoryBudgetExceeded), not the system's out-of-memory killer (a check of the
    whole of Gates grew to 22.5 GB and took every process of the machine down with it)."""
    from compiled_random import TierGame

    from perfectplay.compiled_games import form
    from perfectplay.core import memory

    monkeypatch.setattr(form, "_MODE", "interpreted")
    monkeypatch.setattr(memory, "default_budget", lambda: 1 << 20)  # 1 MB: passed at once
    with pytest.raises(memory.MemoryBudgetExceeded, match="memory budget of 1 MB") as caught:
        TierGame(seed=3, mode=1).tiers().engine.ranking()
    assert "\n" not in str(caught.value)
    monkeypatch.undo()
    monkeypatch.setattr(form, "_MODE", "interpreted")
    assert TierGame(seed=3, mode=1).tiers().engine.ranking() is not None  # the real default: found
