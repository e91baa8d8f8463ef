"""Filled slots: a game's batch_answered_by answers each slot by itself, by a twin holding
the same record, or by none only where play never reaches; a compressed copy whose slots
not answered by themselves were filled reads exactly as the original."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import Rules, build_tablebase, open_tablebase, solve
from perfectplay.games import ConnectFour
from perfectplay.tablebase.blocks import _filled, compress
from perfectplay.tablebase.header import TablebaseError, read_header, write_header
from perfectplay.tablebase.verify import verify


@pytest.mark.parametrize(
    ("width", "height", "connect", "symmetry"),
    [(4, 4, 4, False), (5, 4, 4, True), (4, 5, 4, False), (4, 3, 3, True)],
)
def test_each_slot_is_answered_by_one_with_its_value_or_by_none_where_never_reached(
    width: int, height: int, connect: int, symmetry: bool
) -> None:
    """Against an explored solve from the start (no tier code): no slot play reaches is
    answered by none; a slot answered by another index is answered by a position with the
    same value and remoteness, itself answered by itself; most slots play never reaches
    are answered by none; without symmetry, about half the positions by a twin."""
    game = ConnectFour(width, height, connect=connect, symmetry=symmetry)
    solution = solve(game)
    states = np.asarray(solution.graph.states, dtype=np.int64)  # by id
    by_code = np.argsort(states)
    none_total = unreached_total = twins_total = 0
    for tier in range(width * height + 1):
        indices = np.arange(game.tier_size(tier), dtype=np.int64)
        codes = np.asarray(game.batch_unrank(tier, indices), dtype=np.int64)
        answered = np.asarray(game.batch_answered_by(tier, indices), dtype=np.int64)
        found = by_code[np.minimum(np.searchsorted(states, codes, sorter=by_code), len(states) - 1)]
        is_reached = states[found] == codes
        ids = np.where(is_reached, found, -1)  # each slot's id in the explored solve
        assert not ((answered < 0) & is_reached).any(), f"tier {tier}: a reached slot lost"
        twins = np.flatnonzero((answered >= 0) & (answered != indices))
        assert (answered[answered[twins]] == answered[twins]).all()
        pairs = {(int(ids[i]), int(ids[answered[i]])) for i in twins[is_reached[twins]].tolist()}
        for mine, twin in pairs:
            assert twin >= 0, f"tier {tier}: a reached slot answered by one never reached"
            assert solution.value_of_id(mine) == solution.value_of_id(twin)
            assert solution.remoteness_of_id(mine) == solution.remoteness_of_id(twin)
        twins_total += int(is_reached[twins].sum())
        none_total += int((answered < 0).sum())
        unreached_total += int((~is_reached).sum())
    assert none_total > 0.85 * unreached_total  # 91% on 4x4, 98% on 5x4
    if not symmetry:
        assert twins_total > 0.4 * solution.stats.states


def test_filled_copy_reads_as_the_original(tmp_path: Path) -> None:
    """Every record of every tier, read many at once and one position at a time, is the
    original's (a filled slot reads as empty); the filled copy is smaller than the plain
    one; verify finds it sound."""
    game = ConnectFour(5, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    hook = Rules(game).tiers.batch_answered_by  # type: ignore[union-attr]
    assert hook is not None
    filled = compress(tmp_path / "tb", tmp_path / "filled", header, level=12, answered_by=hook)
    write_header(tmp_path / "filled", filled)
    write_header(tmp_path / "plain", compress(tmp_path / "tb", tmp_path / "plain", header, 12))
    assert read_header(tmp_path / "filled").compressed["filled"] == "batch_answered_by"  # type: ignore[index]
    assert "filled" not in read_header(tmp_path / "plain").compressed  # type: ignore[operator]
    sizes = {
        name: sum(p.stat().st_size for p in (tmp_path / name).glob("tier-*.zst"))
        for name in ("filled", "plain")
    }
    assert sizes["filled"] < 0.7 * sizes["plain"]
    rng = np.random.default_rng(5)
    with (
        open_tablebase(tmp_path / "tb", game) as original,
        open_tablebase(tmp_path / "filled", game) as copy,
    ):
        for tier, entry in header.tiers.items():
            indices = np.arange(entry.size, dtype=np.int64)
            assert np.array_equal(
                copy.probe_records(tier, indices), original.probe_records(tier, indices)
            )
            records = copy.tier_records(tier)
            for index in rng.choice(entry.size, min(entry.size, 200), replace=False).tolist():
                assert records[index] == original.tier_records(tier)[index]
            codes = game.batch_unrank(tier, rng.choice(entry.size, min(entry.size, 100)))
            for code in codes.tolist():
                state = game.from_code(int(code))
                assert copy.lookup(state) == original.lookup(state)
        assert verify(copy, samples=200) == []


def _none(tier: int, indices: Any) -> Any:
    return np.full(indices.shape, -1, dtype=np.int64)


def _pairs(tier: int, indices: Any) -> Any:
    """Each odd slot answered by the even one before it (which answers for itself)."""
    return indices & ~1


def _chained(tier: int, indices: Any) -> Any:
    """Every slot answered by slot 0, and slot 0 by slot 1."""
    return np.where(indices == 0, 1, 0)


@pytest.mark.parametrize(
    ("hook", "problem"),
    [
        (_none, "a record other than its own"),
        (_pairs, "a record other than its own"),
        (_chained, "not answered by itself"),
    ],
)
def test_a_wrong_answered_by_hook_writes_nothing(tmp_path: Path, hook: Any, problem: str) -> None:
    """A hook that answers a held position by none, or by a slot of another record, or by
    a slot that is itself answered by another, stops compress with its name."""
    game = ConnectFour(4, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    with pytest.raises(TablebaseError, match=problem):
        compress(tmp_path / "tb", tmp_path / "out", header, answered_by=hook)
    assert not (tmp_path / "out" / "header.json").exists()


def test_a_block_that_keeps_no_record_is_written_empty() -> None:
    """Where every slot of a block is answered by another (a run of mirror images) or by
    none, the block is written as zeros, whatever the records held."""
    records = np.tile(np.arange(1, 11, dtype=np.uint8), 2)  # slots 10..19: twins of 0..9
    indices = np.arange(10, 20)
    assert not _filled(records, indices, indices - 10).any()
    answered = indices.copy()
    answered[[1, 3]] = [1, 3]  # slots 11 and 13 answered by their twins 1 and 3
    assert _filled(records, indices, answered).tolist() == [1, 1, 3, 3, 5, 6, 7, 8, 9, 10]
