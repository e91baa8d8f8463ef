"""Counters in the records with children beside (``tiers.children_beside``): loopy tiers
whose moves also lead into other tiers, solved with nothing per position beside the
records, against an independent solve of the whole graph on many random games."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import reference
from compiled_random import TierUnmovesGame

from perfectplay import build_tablebase, open_tablebase
from perfectplay.compiled_games import form
from perfectplay.tiers import (
    children_beside,
    retrograde_by_edges,
    retrograde_by_unmoves,
    retrograde_in_records,
)

SEEDS = range(24)


@pytest.fixture
def counters_beside(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Loopy tiers solved by counters in the records (the moves never laid out whole), and
    a count of the calls that show which solver ran."""
    monkeypatch.setattr(form, "_MODE", "interpreted")
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setattr(retrograde_by_edges, "fits", lambda graph, tier: False)
    calls = {"first": 0, "slowest": 0, "ties": 0}
    beside = children_beside.Beside

    def counted(name: str, method: Any) -> Any:
        def run(self: Any, *args: Any) -> Any:
            calls[name] += 1
            return method(self, *args)

        return run

    monkeypatch.setattr(beside, "first_records", counted("first", beside.first_records))
    monkeypatch.setattr(beside, "slowest_losses", counted("slowest", beside.slowest_losses))
    monkeypatch.setattr(beside, "fastest_ties", counted("ties", beside.fastest_ties))

    def refused(*args: Any) -> Any:
        raise AssertionError("the frontier solver ran")

    monkeypatch.setattr(retrograde_by_unmoves, "solve_with_unmoves", refused)
    return calls


def test_random_loopy_tiers_with_children_beside_solve_as_the_whole_graph(
    counters_beside: dict[str, int], tmp_path: Path
) -> None:
    """Every reachable state's value and remoteness as retrograde analysis of the whole
    graph gives them; across the seeds, losses put off by a slower child beside and ties
    from children beside both occur (else the test would not test them)."""
    checked = 0
    for seed in SEEDS:
        for block in (30, 60):
            game = TierUnmovesGame(seed=seed, n=300, block=block, mode=1)
            solved = reference.solve_outcomes(game)
            directory = tmp_path / f"{seed}-{block}"
            build_tablebase(game, directory)
            with open_tablebase(directory, TierUnmovesGame(seed=seed, n=300, block=block,
                                                           mode=1)) as base:  # fmt: skip
                for state, want in solved.items():
                    got = (base.value(state), base.remoteness(state))
                    assert got == want, f"seed {seed}, block {block}, state {state}"
                    checked += 1
    assert checked > 5000
    assert counters_beside["first"] > 0
    assert counters_beside["slowest"] > 0
    assert counters_beside["ties"] > 0


def test_losses_waiting_for_a_child_beside_written_before_the_level_ends_change_nothing(
    counters_beside: dict[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the positions whose loss waits for a child beside written as soon as one is
    held (``WAITING`` of 1, levels in pieces of 4) rather than at the level's end, every
    value and remoteness is still the whole graph's, and some level applied un-moves after
    writing them (else the test would not test writing them mid-level)."""
    monkeypatch.setattr(retrograde_in_records, "WAITING", 1)
    monkeypatch.setattr(retrograde_in_records, "PIECE", 4)
    monkeypatch.setattr(retrograde_in_records, "WIDE_PIECE", 4)
    events: list[str] = []
    module = retrograde_in_records
    follow, settle, apply = module._follow_level, module._settle_waiting, module._apply

    def logged(name: str, function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            events.append(name)
            return function(*args, **kwargs)

        return run

    monkeypatch.setattr(module, "_follow_level", logged("|", follow))
    monkeypatch.setattr(module, "_settle_waiting", logged("s", settle))
    monkeypatch.setattr(module, "_apply", logged("a", apply))
    for seed in range(8):
        game = TierUnmovesGame(seed=seed, n=300, block=30, mode=1)
        solved = reference.solve_outcomes(game)
        build_tablebase(game, tmp_path / str(seed))
        with open_tablebase(tmp_path / str(seed), game) as base:
            for state, want in solved.items():
                got = (base.value(state), base.remoteness(state))
                assert got == want, f"seed {seed}, state {state}"
    assert any("sa" in level for level in "".join(events).split("|"))


@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("run", ["interpreted", "compiled"])
def test_records_beside_are_read_as_numpy_indexing_reads_them(packed: bool, run: str) -> None:
    """The first pass's compiled read of the children's records in the tiers beside (asked
    for ahead) gives, move by move, the record numpy's indexing gives: packed bytes decoded,
    the moves into other tiers left at 0."""
    import numpy as np

    from perfectplay.core.compiled import read_only
    from perfectplay.core.packed_records import DECODE, PackedRecords

    rng = np.random.default_rng(7 if packed else 8)
    for _ in range(20):
        size = int(rng.integers(1, 5_000))
        moves = int(rng.integers(0, 3_000))
        codes = rng.integers(0, 255, size, dtype=np.uint8)
        plain = rng.integers(0, 1 << 16, size, dtype=np.uint16)
        records: Any = PackedRecords(codes) if packed else plain
        child_tier = rng.choice([3, 5, 9], moves).astype(np.int64)
        child_index = rng.integers(0, size, moves, dtype=np.int64)
        beside = np.zeros(moves, dtype=np.uint16)
        source = read_only(codes if packed else plain)
        kernel = children_beside._records_beside
        reader = kernel.interpreted if run == "interpreted" else kernel.compiled
        reader(child_tier, child_index, 5, source, read_only(DECODE), packed, beside)
        where = np.flatnonzero(child_tier == 5)
        expected = np.zeros(moves, dtype=np.uint16)
        expected[where] = records[child_index[where]]
        assert np.array_equal(beside, expected)
