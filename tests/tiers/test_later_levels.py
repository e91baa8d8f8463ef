"""Positions held by level (``tiers.later_levels``) against plain Python on random records:
what is held, in which order, what is left to mark pending, and what ``collect`` finds
again in the records and pending bits a resume point leaves."""

from __future__ import annotations

import numpy as np
import pytest

from perfectplay.tiers.later_levels import LaterLevels, still_at

SHIFT = 11
_WIN, _LOSS = 1, 2


def _records(rng: np.random.Generator, size: int) -> np.ndarray:
    """Random 2-byte records: value codes 0 to 7 above SHIFT, remoteness 0 to 40 below."""
    values = rng.integers(0, 8, size=size).astype(np.uint16)
    return (values << SHIFT) | rng.integers(0, 41, size=size).astype(np.uint16)


def _wanted(records: np.ndarray, rows: list[int], least: int) -> dict[int, list[int]]:
    """Plainly: the rows of wins and losses of remoteness ``least`` or more, by level."""
    by_level: dict[int, list[int]] = {}
    for row in rows:
        value, level = int(records[row]) >> SHIFT, int(records[row]) & ((1 << SHIFT) - 1)
        if value in (_WIN, _LOSS) and level >= least:
            by_level.setdefault(level, []).append(row)
    return by_level


@pytest.mark.parametrize("seed", range(6))
def test_pieces_held_come_back_by_level_in_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = 5000
    records = _records(rng, size)
    later = LaterLevels(size, (1 << SHIFT) - 1)
    least = int(rng.integers(0, 4))
    for start in range(0, size, 700):  # pieces of increasing rows, as a first pass
        rows = np.arange(start, min(start + 700, size), dtype=np.int64)
        rest = later.hold(rows, records[rows], SHIFT, least)
        held = set(rows[~rest].tolist())
        assert held == {r for rs in _wanted(records, rows.tolist(), least).values() for r in rs}
    later.arrange()
    wanted = _wanted(records, list(range(size)), least)
    for level in range(0, 1 << SHIFT):
        assert later.at(level).tolist() == wanted.get(level, []), level
    assert later.at(1 << SHIFT).size == 0  # (beyond every level: nothing)


@pytest.mark.parametrize("seed", range(6))
def test_collect_finds_the_decided_ones_not_pending_below_the_point(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    size = 9000
    records = _records(rng, size)
    pending_rows = rng.random(size) < 0.3
    pending = np.packbits(pending_rows, bitorder="little")
    stop, least = int(rng.integers(0, size)), int(rng.integers(1, 20))
    later = LaterLevels(size, (1 << SHIFT) - 1)
    later.collect(records, SHIFT, pending, stop, least)
    later.arrange()
    wanted = _wanted(records, [r for r in range(stop) if not pending_rows[r]], least)
    for level in range(0, 64):
        assert later.at(level).tolist() == wanted.get(level, []), level


def test_still_at_drops_the_positions_a_level_brought_forward() -> None:
    rng = np.random.default_rng(7)
    records = _records(rng, 3000)
    indices = np.sort(rng.choice(3000, size=800, replace=False)).astype(np.uint32)
    for level in (0, 5, 17):
        got = still_at(records, indices, SHIFT, level).tolist()
        at_level = _wanted(records, [int(i) for i in indices], 0).get(level, [])
        assert got == at_level
