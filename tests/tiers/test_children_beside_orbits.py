"""Counters weighted by orbits (``children_beside.counts_orbits``): a loopy tier of a game
ranked by stones counts every move of a position, each weighing its orbit's size, and each
un-move from a child takes the child's orbit's size, instead of ranking every child to
count each child position once. The orbit sizes are held to brute force on random boards
and groups; the sectors of Morris variants solved both ways must be the same bytes, and
the same as the whole game solved in memory."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import examples_loader
import numpy as np
import pytest
from cell_groups import closure, image
from compiled_random import TierAllUnmovesGame, TierUnmovesGame
from morris_positions import placed_out

from perfectplay import build_tablebase, open_tablebase, solve
from perfectplay.compiled_games.stones import StoneBoard, StoneRanking
from perfectplay.tiers import children_beside
from perfectplay.tiers.resume_points import ResumePoints


def test_orbit_sizes_are_the_count_of_distinct_images_on_random_boards_and_groups() -> None:
    rng = random.Random(11)
    for trial in range(12):
        cells = rng.randint(4, 12)
        generators = []
        for _ in range(rng.randint(0, 2)):
            perm = list(range(cells))
            if trial % 3:  # a random permutation, or a turn of a ring
                rng.shuffle(perm)
            else:
                perm = perm[1:] + perm[:1]
            generators.append(tuple(perm))
        group = closure(cells, generators)
        if len(group) > 63:
            continue
        board = StoneBoard(cells, tuple(group[1:]))
        ranking = StoneRanking(board)
        most = cells // 2
        codes, expected = [], []
        for _ in range(300):
            mine_n = rng.randint(0, most)
            chosen = rng.sample(range(cells), mine_n + rng.randint(0, cells - mine_n))
            if rng.random() < 0.4 and len(group) > 1:  # a symmetric set, made so
                g = rng.choice(group)
                half = chosen[: len(chosen) // 2]
                chosen = sorted({*half, *(g[c] for c in half)})
            mine = sum(1 << c for c in chosen[:mine_n])
            theirs = sum(1 << c for c in chosen[mine_n:])
            if bin(mine).count("1") > most:
                continue
            codes.append(mine | theirs << board.theirs_at)
            expected.append(len({(image(g, mine), image(g, theirs)) for g in group}))
        got = ranking.orbit_sizes(np.array(codes, dtype=np.int64), [(most, 0, 0)])
        assert got.tolist() == expected
        assert any(e < len(group) for e in expected) or len(group) == 1


def params_of(game: Any) -> dict[str, Any]:
    return {"points": game.points, "stones": game.stones, "jumps": game.jumps}


def without(game: Any, hook: str) -> Any:
    """The same game whose tiers do not give ``hook`` (None there)."""

    class Without(type(game)):  # type: ignore[misc]
        def tiers(self) -> Any:
            found = super().tiers()
            return dataclasses.replace(found, **{hook: None})

    return Without(**params_of(game))


@pytest.mark.parametrize("jumps", [True, False])
def test_morris_sectors_counted_by_orbits_are_those_counted_by_child_positions(
    tmp_path: Path, jumps: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six Men's Morris's board, four stones a side (jumps on and off): every sector, solved
    in its records four ways (by orbits, the moves inside a sector only counted by
    ``batch_moves_out``, from the game's ``exits`` and ``stays`` or from its moves, or all
    expanded; by child positions), the same bytes; and the
    positions of random playouts of the whole game solved in memory answered alike."""
    module = examples_loader.load("morris")
    params = {"points": 16, "stones": 4, "jumps": jumps}
    weighed, counted_out, first = [0], [0], [False]
    counts, chunk_out = children_beside.counts_orbits, children_beside.moves_out_chunk
    first_records = children_beside.Beside.first_records

    def counting(graph: Any, tier: int) -> bool:
        found = counts(graph, tier)
        weighed[0] += found
        return found

    def out_counted(*args: Any) -> Any:
        counted_out[0] += first[0]  # (the first pass's: the levels' read the mills alike)
        return chunk_out(*args)

    def first_pass(self: Any, indices: Any) -> Any:
        first[0] = True
        try:
            return first_records(self, indices)
        finally:
            first[0] = False

    monkeypatch.setattr(children_beside, "counts_orbits", counting)
    monkeypatch.setattr(children_beside, "moves_out_chunk", out_counted)
    monkeypatch.setattr(children_beside.Beside, "first_records", first_pass)

    class ByMoves(module.MorrisMidgame):  # type: ignore[misc,name-defined]
        exits = stays = None  # (the moves out of a sector found by playing every move)

    built = {}
    for name, game, orbits, out in (
        ("orbits", module.MorrisMidgame(**params), True, True),
        ("by moves", ByMoves(**params), True, True),
        ("expanded", without(module.MorrisMidgame(**params), "batch_moves_out"), True, False),
        ("children", without(module.MorrisMidgame(**params), "batch_orbit_sizes"), False, False),
    ):
        weighed[0] = counted_out[0] = 0
        built[name], _ = build_tablebase(game, tmp_path / name, tier_method="in-records")
        assert (weighed[0] > 0, counted_out[0] > 0) == (orbits, out), name
    by_orbits = built["orbits"]
    assert len(by_orbits.tiers) == 5  # 3-3, 4-3, 4-4, and 2-3, 2-4 (lost)
    for other in ("by moves", "expanded", "children"):
        assert {t: e.sha256 for t, e in by_orbits.tiers.items()} == {
            t: e.sha256 for t, e in built[other].tiers.items()
        }, other
    game = module.Morris(**params)
    whole = solve(module.Morris(**params))
    compared = 0
    with open_tablebase(tmp_path / "orbits", module.MorrisMidgame(**params)) as table:
        for state in placed_out(game, 7, 150):
            assert table.lookup(state) == whole.lookup(state), game.show(state)
            compared += 1
    assert compared > 1000


def test_a_resume_point_saved_counting_otherwise_is_not_trusted(tmp_path: Path) -> None:
    from perfectplay.core.records import RecordFormat

    record = RecordFormat(2)
    words = np.zeros(2, dtype=np.uint64)
    marks = np.zeros(1, dtype=np.uint64)
    ResumePoints(tmp_path, 5, 100, record, "orbits").save_first(10, 4, 1, words, marks)
    assert ResumePoints(tmp_path, 5, 100, record, "orbits").found is not None
    assert ResumePoints(tmp_path, 5, 100, record, "").found is None


def test_the_tier_protocol_un_moves_are_the_rule_s_inside_the_tier_asked(tmp_path: Path) -> None:
    """batch_parents (the compiled loop over the game's ``unmoves``) lists, for each code,
    exactly the rule's un-moves whose tier is the one asked, as often, where the rule also
    lists parents in the tier before; and the game solves as the one whose rule does not."""
    for seed in range(6):
        game = TierAllUnmovesGame(seed=seed, n=300, block=40, mode=1)
        hooks = game.tiers()
        assert hooks is not None and hooks.parents_in_tier  # (what this test holds it to)
        unmoves = game.rule_functions["unmoves"]
        buffer = np.empty(game.max_moves, dtype=np.int64)
        left_out = 0
        for code in range(0, 300, 7):
            tier = code // 40
            raw = [int(x) for x in buffer[: unmoves(game.params, code, buffer)]]
            listed = hooks.batch_parents(tier, np.array([code], dtype=np.int64))
            assert np.asarray(listed.parents).tolist() == [0] * len(listed.parents)
            expected = [p for p in raw if p // 40 == tier]
            assert sorted(np.asarray(listed.children).tolist()) == sorted(expected)
            left_out += len(raw) - len(expected)
        assert left_out > 0
        whole = solve(TierUnmovesGame(seed=seed, n=300, block=40, mode=1))
        for method in ("in-records", "by-unmoves"):
            directory = tmp_path / f"{seed}-{method}"
            build_tablebase(game, directory, tier_method=method)
            with open_tablebase(directory, game) as table:
                assert all(table.lookup(s) == whole.lookup(s) for s in range(300))


def test_a_counter_that_orbits_overflow_names_the_method_that_solves_the_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted by orbits, a position's count may pass what a record's counter holds (here
    made small): one line naming the method to use, which solves the tier alike."""
    from perfectplay.errors import GameError

    module = examples_loader.load("morris")
    params = {"points": 16, "stones": 4}
    with monkeypatch.context() as patch:
        patch.setattr(children_beside, "counter_mask", lambda shift: 20)
        with pytest.raises(GameError, match="--tier-method by-unmoves") as caught:
            build_tablebase(module.MorrisMidgame(**params), tmp_path / "small",
                            tier_method="in-records")  # fmt: skip
    assert "\n" not in str(caught.value)
    by_unmoves, _ = build_tablebase(
        module.MorrisMidgame(**params), tmp_path / "unmoves", tier_method="by-unmoves"
    )
    in_records, _ = build_tablebase(
        module.MorrisMidgame(**params), tmp_path / "records", tier_method="in-records"
    )
    assert {t: e.sha256 for t, e in by_unmoves.tiers.items()} == {
        t: e.sha256 for t, e in in_records.tiers.items()
    }
