"""A tier marked in bit sets and solved in the records of its reached positions alone
(``reached_set``): the slots against counting in numpy, interpreted and compiled, and
whole solves against the same solves with a record per index."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stops import stopping_at

from perfectplay import build_tablebase
from perfectplay.errors import InterruptedSolve
from perfectplay.games import Dobutsu
from perfectplay.tiers import graph as tier_graph
from perfectplay.tiers import marking, reached_set, retrograde_in_records, slot_codes
from perfectplay.tiers.counted import counter_mask
from perfectplay.tiers.reached_set import ReachedSet

RUNS = ["interpreted", "compiled"]


def _bits(rng: np.random.Generator, size: int, density: float) -> np.ndarray:
    """A random bit set of ``size`` indices as 64-bit words, and which indices it holds."""
    chosen = rng.random(size) < density
    padded = np.zeros(-(-size // 64) * 64, dtype=bool)
    padded[:size] = chosen
    words = np.packbits(padded, bitorder="little").view(np.uint64)
    return words


def _run(kernel: Any, how: str, *args: Any) -> Any:
    return kernel.interpreted(*args) if how == "interpreted" else kernel.compiled(*args)


@pytest.mark.parametrize("how", RUNS)
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 5000),
    density=st.sampled_from([0.0, 0.01, 0.3, 0.9, 1.0]),
)
def test_slots_and_indices_are_counts_of_the_bits_below(
    how: str, seed: int, size: int, density: float
) -> None:
    rng = np.random.default_rng(seed)
    words = _bits(rng, size, density)
    held = np.flatnonzero(np.unpackbits(words.view(np.uint8), bitorder="little"))
    below = np.zeros(-(-words.shape[0] // reached_set.BLOCK_WORDS) + 1, dtype=np.uint64)
    _run(reached_set._blocks_below, how, words, below)
    assert int(below[-1]) == held.shape[0]
    asked = rng.integers(0, size, 300)
    slots = _run(reached_set.slots_of, how, words, below, asked)
    expected = np.where(np.isin(asked, held), np.searchsorted(held, asked), reached_set.NONE)
    assert np.array_equal(slots, expected)
    some = np.unique(rng.integers(0, max(1, held.shape[0]), 200)) if held.shape[0] else held
    assert np.array_equal(_run(reached_set.indices_of, how, words, below, some),
                          held[some])  # fmt: skip
    start = int(rng.integers(0, size)) // 64 * 64
    stop = int(rng.integers(start, size + 1))
    found = _run(reached_set.set_indices, how, words, start, stop)
    assert np.array_equal(found, held[(held >= start) & (held < stop)])
    whole = ReachedSet(words)
    assert whole.first_slot(start) == int(np.searchsorted(held, start))


@pytest.mark.parametrize("how", RUNS)
def test_adding_reached_marks_the_new_ones_fresh_and_the_followed_not(how: str) -> None:
    reached = np.zeros(16, dtype=np.uint8)
    fresh = np.zeros(16, dtype=np.uint8)
    none, ends = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8)
    new, _ = _run(reached_set.add_reached, how, reached, fresh, np.array([3, 70, 3, 127]), ends,
                  none, none)  # fmt: skip
    assert new == 3
    fresh_bits = np.unpackbits(fresh, bitorder="little")
    assert list(np.flatnonzero(fresh_bits)) == [3, 70, 127]
    new, _ = _run(reached_set.add_reached, how, reached, fresh, np.array([70, 5]), ends,
                  np.array([3, 70]), none)  # fmt: skip
    assert new == 1  # 70 was reached already
    assert list(np.flatnonzero(np.unpackbits(fresh, bitorder="little"))) == [5, 127]
    assert list(np.flatnonzero(np.unpackbits(reached, bitorder="little"))) == [3, 5, 70, 127]


def _build(
    directory: Path, game: Any, monkeypatch: pytest.MonkeyPatch, bits: bool
) -> dict[str, Any]:
    with monkeypatch.context() as patch:
        if not bits:
            patch.setattr(marking, "in_bits", lambda *_: False)
        build_tablebase(game, directory)
    header = json.loads((directory / "header.json").read_text())
    # the tier method that solved each tier, apart: the bytes are compared, not the method
    header["methods"] = [entry.pop("method") for entry in header["tiers"]]
    return header


@pytest.mark.parametrize(("height", "pieces"), [(3, "c"), (3, "ge"), (4, "c")])
def test_dobutsu_in_bits_writes_the_same_tier_as_a_record_per_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, height: int, pieces: str
) -> None:
    """The same file, byte for byte, as the counters solver in a record per index; the
    bit sets are gone once the tablebase is whole."""
    game = Dobutsu(height, pieces)
    in_bits = _build(tmp_path / "bits", game, monkeypatch, bits=True)
    per_index = _build(tmp_path / "records", game, monkeypatch, bits=False)
    assert in_bits["tiers"] == per_index["tiers"]
    assert (in_bits["methods"], per_index["methods"]) == (["in-slots"], ["in-records"])
    noted = json.loads((tmp_path / "bits" / "progress.json").read_text())
    assert noted["in_bits"] == [0]  # the path under test was taken
    assert "in_bits" not in json.loads((tmp_path / "records" / "progress.json").read_text())
    left = [p.name for p in (tmp_path / "bits").iterdir()]
    assert not [name for name in left if name.endswith((".reached", ".fresh"))]


def test_a_marking_in_bits_stopped_midway_goes_on_to_the_same_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after a few chunks of the marking (as Ctrl-C would), then run again: the
    same bytes as a solve never stopped; the progress says the tier was marked in bits."""
    game = Dobutsu(3, "ge")
    whole = _build(tmp_path / "whole", game, monkeypatch, bits=True)
    monkeypatch.setattr(tier_graph, "CHUNK", 64)  # many chunks on a small variant
    monkeypatch.setattr(marking, "CHUNK", 64)
    with monkeypatch.context() as patch:
        patch.setattr(reached_set.FreshMarks, "add", stopping_at(reached_set.FreshMarks.add, 7))
        with pytest.raises(InterruptedSolve):
            build_tablebase(game, tmp_path / "stopped")
    noted = tmp_path / "stopped" / "progress.json"
    assert not noted.exists() or json.loads(noted.read_text())["expanded"] == []
    kept = np.fromfile(tmp_path / "stopped" / "tier-000000.reached", dtype=np.uint8)
    assert 0 < int(np.unpackbits(kept).sum()) < whole["tiers"][0]["positions"]
    build_tablebase(game, tmp_path / "stopped")
    again = json.loads((tmp_path / "stopped" / "header.json").read_text())
    assert [entry.pop("method") for entry in again["tiers"]] == whole["methods"]
    assert again["tiers"] == whole["tiers"]
    digest = hashlib.sha256((tmp_path / "stopped" / "tier-000000.rec").read_bytes()).hexdigest()
    assert digest == whole["tiers"][0]["sha256"]


def test_a_solve_in_slots_stopped_midway_starts_again_from_the_bits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped in the levels: the marking is kept (noted, in bits) and the solve run again
    gives the same bytes."""
    game = Dobutsu(3, "c")
    whole = _build(tmp_path / "whole", game, monkeypatch, bits=True)
    with monkeypatch.context() as patch:
        patch.setattr(retrograde_in_records, "_apply", stopping_at(retrograde_in_records._apply, 3))
        with pytest.raises(InterruptedSolve):
            build_tablebase(game, tmp_path / "stopped")
    progress = json.loads((tmp_path / "stopped" / "progress.json").read_text())
    assert progress["expanded"] == [0] and progress["in_bits"] == [0]
    build_tablebase(game, tmp_path / "stopped")
    again = json.loads((tmp_path / "stopped" / "header.json").read_text())
    assert [entry.pop("method") for entry in again["tiers"]] == whole["methods"] == ["in-slots"]
    assert again["tiers"] == whole["tiers"]


def _spied_settles(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every settling of SettledSlots from now on: its level, or "end"."""
    calls: list[Any] = []
    settle = slot_codes.SettledSlots._settle

    def spied(self: Any, codes: Any, level: int, final: bool) -> None:
        calls.append("end" if final else level)
        settle(self, codes, level, final)

    monkeypatch.setattr(slot_codes.SettledSlots, "_settle", spied)
    return calls


@pytest.mark.parametrize("levels", [1, 2, 5])
def test_one_byte_codes_settled_every_few_levels_write_the_same_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, levels: int
) -> None:
    """The codes' base moved up every ``levels`` levels (95 on a real tier, which these
    small variants never reach): the same bytes as a record per index."""
    game = Dobutsu(3, "ge")
    per_index = _build(tmp_path / "records", game, monkeypatch, bits=False)
    monkeypatch.setattr(retrograde_in_records, "LEVELS", levels)
    calls = _spied_settles(monkeypatch)
    in_bits = _build(tmp_path / "bits", game, monkeypatch, bits=True)
    assert in_bits["tiers"] == per_index["tiers"]
    assert calls[-1] == "end" and len(calls) >= 3  # settled on the way, not only at the end
    assert calls[:-1] == sorted(calls[:-1])


def test_a_tier_too_wide_for_one_byte_codes_is_solved_in_two_byte_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a position has more moves than a code counts, the first pass gives up on the
    codes and the tier is solved in 2-byte records of its slots: the same bytes again."""
    game = Dobutsu(3, "c")
    per_index = _build(tmp_path / "records", game, monkeypatch, bits=False)
    monkeypatch.setattr(slot_codes, "OPEN_MOST", 1)
    calls = _spied_settles(monkeypatch)
    in_bits = _build(tmp_path / "bits", game, monkeypatch, bits=True)
    assert in_bits["tiers"] == per_index["tiers"]
    assert calls == []  # never settled: the codes were given up


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), base=st.sampled_from([0, 7, 300]), final=st.booleans())
def test_a_window_settles_alike_interpreted_and_compiled_as_the_codes_say(
    seed: int, base: int, final: bool
) -> None:
    """Every decided code below the level becomes its record (value, base + d), the others
    are coded again from the level, open ones become draws only at the end; the largest
    codes (254, 255) and a base past a byte included."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 256, 300).astype(np.uint8)
    codes[:3] = [254, 255, slot_codes.DECIDED]
    here = np.sort(rng.choice(4096, 300, replace=False)).astype(np.int64)
    level = base + int(rng.integers(0, slot_codes.LEVELS + 1))
    runs = []
    for how in RUNS:
        kept, block = codes.copy(), np.zeros(4096, dtype=np.uint16)
        counts = np.zeros(1 << 16, dtype=np.int64)
        settled = _run(slot_codes._settle_window, how, kept, here, 0, block, base, level,
                       final, 13, counts)  # fmt: skip
        runs.append((settled, kept, block, counts))
    for a, b in zip(runs[0][1:], runs[1][1:], strict=True):
        assert np.array_equal(a, b)
    assert runs[0][0] == runs[1][0]
    _, kept, block, _ = runs[1]
    for k, code in enumerate(codes.tolist()):
        if code >= slot_codes.DECIDED:
            value, remoteness = (code - 64) % 2 + 1, base + (code - 64) // 2
            if final or remoteness < level:
                assert block[here[k]] == (value << 13 | remoteness) and kept[k] == 0
            else:
                assert kept[k] == 64 + 2 * (remoteness - level) + value - 1 and block[here[k]] == 0
        elif code and final:
            assert block[here[k]] == 4 << 13 and kept[k] == 0
        else:
            assert kept[k] == code and block[here[k]] == 0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_one_byte_codes_apply_and_frontier_alike_interpreted_and_compiled(seed: int) -> None:
    rng = np.random.default_rng(seed)
    flat = rng.integers(0, 256, 500).astype(np.uint8)
    parents = np.maximum(rng.integers(-50, 500, 2000), -1).astype(np.int64)  # (-1: none)
    rows = rng.integers(0, 300, 2000).astype(np.int64)
    child_value = rng.integers(1, 3, 300).astype(np.uint8)  # (by row)
    level = int(rng.integers(0, slot_codes.LEVELS))
    results = []
    for how in RUNS:
        here = flat.copy()
        words = np.zeros(8, dtype=np.uint64)
        mark_words = np.zeros(1, dtype=np.uint64)
        pending, marks = words.view(np.uint8), mark_words.view(np.uint8)
        _run(retrograde_in_records._apply, how, here, pending, marks, parents, rows,
             child_value, np.ones(300, dtype=np.uint8), level, 13, counter_mask(13), 1,
             True)  # fmt: skip
        front = _run(retrograde_in_records._frontier, how, words, pending, mark_words, marks,
                     here, 0, 500, 13, level + 1, 1, True)  # fmt: skip
        results.append((here, words.copy(), front))
    for a, b in zip(*results, strict=True):
        assert np.array_equal(a, b)
    decided_now = results[1][2]
    assert all(int(results[1][0][i]) >= 64 + 2 * (level + 1) for i in decided_now)
