"""Filled slots: a game's batch_unreachable flags only slots play never reaches, and a
compressed copy whose flagged slots were filled reads exactly as the original."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from perfectplay import Rules, build_tablebase, open_tablebase, solve
from perfectplay.games import ConnectFour
from perfectplay.tablebase.blocks import compress
from perfectplay.tablebase.header import TablebaseError, read_header, write_header
from perfectplay.tablebase.verify import verify


@pytest.mark.parametrize(
    ("width", "height", "connect", "symmetry"),
    [(4, 4, 4, False), (5, 4, 4, True), (4, 5, 4, False), (4, 3, 3, True)],
)
def test_unreachable_slots_are_never_positions_play_reaches(
    width: int, height: int, connect: int, symmetry: bool
) -> None:
    """Against the positions an explored solve reaches from the start (no tier code): no
    flagged slot is one of them, and most slots that are none of them are flagged."""
    game = ConnectFour(width, height, connect=connect, symmetry=symmetry)
    reached = set(solve(game).graph.states.tolist())
    flagged_total = unreached_total = 0
    for tier in range(width * height + 1):
        indices = np.arange(game.tier_size(tier), dtype=np.int64)
        codes = game.batch_unrank(tier, indices)
        flags = np.asarray(game.batch_unreachable(tier, indices), dtype=np.bool_)
        is_reached = np.array([int(c) in reached for c in codes.tolist()], dtype=np.bool_)
        assert not (flags & is_reached).any(), f"tier {tier}: a reached position flagged"
        flagged_total += int(flags.sum())
        unreached_total += int((~is_reached).sum())
    assert flagged_total > 0.85 * unreached_total  # 91% on 4x4, 98% on 5x4


def test_filled_copy_reads_as_the_original(tmp_path: Path) -> None:
    """Every record of every tier, read many at once and one position at a time, is the
    original's (a filled slot reads as empty); the filled copy is smaller than the plain
    one; verify finds it sound."""
    game = ConnectFour(5, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    hook = Rules(game).tiers.batch_unreachable  # type: ignore[union-attr]
    assert hook is not None
    filled = compress(tmp_path / "tb", tmp_path / "filled", header, level=12, unreachable=hook)
    write_header(tmp_path / "filled", filled)
    write_header(tmp_path / "plain", compress(tmp_path / "tb", tmp_path / "plain", header, 12))
    assert read_header(tmp_path / "filled").compressed["filled"] == "batch_unreachable"  # type: ignore[index]
    assert "filled" not in read_header(tmp_path / "plain").compressed  # type: ignore[operator]
    sizes = {
        name: sum(p.stat().st_size for p in (tmp_path / name).glob("tier-*.zst"))
        for name in ("filled", "plain")
    }
    assert sizes["filled"] < 0.9 * sizes["plain"]
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


def test_a_wrong_unreachable_hook_writes_nothing(tmp_path: Path) -> None:
    """A hook that flags a position the tablebase holds stops compress with its name."""
    game = ConnectFour(4, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")

    def everything(tier: int, indices: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
        return np.ones(indices.shape, dtype=np.bool_)

    with pytest.raises(TablebaseError, match="batch_unreachable flags a position"):
        compress(tmp_path / "tb", tmp_path / "out", header, unreachable=everything)
    assert not (tmp_path / "out" / "header.json").exists()
