"""A database of every position (``every_position``) left unmarked (``marking.unmarked``):
its tiers solved in records take every index and leave the holes out as they go; the other
methods' tiers are marked as they come. The same bytes as a build that marks every tier
first (as Dask's coordinator does), on Morris variants with holes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import examples_loader
import pytest

from perfectplay import build_tablebase
from perfectplay.tiers import marking
from perfectplay.tiers import solve as tier_solve


@pytest.mark.parametrize("jumps", [True, False])
def test_a_database_left_unmarked_is_the_one_marked_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jumps: bool
) -> None:
    """The same tier files both ways; left unmarked, only the tiers not solved in records
    are marked, and the database has holes (indices that are no position: else the test
    would not test leaving them out)."""
    module = examples_loader.load("morris")
    params = {"points": 16, "stones": 4, "jumps": jumps}
    marked: list[int] = []
    mark = marking._mark_every_index

    def logged(graph: Any, files: Any, tier: int, *args: Any) -> int:
        marked.append(tier)
        return mark(graph, files, tier, *args)

    monkeypatch.setattr(marking, "_mark_every_index", logged)
    lazily, _ = build_tablebase(module.MorrisMidgame(**params), tmp_path / "unmarked")
    methods = {tier: entry.method for tier, entry in lazily.tiers.items()}
    assert "in-records" in methods.values()
    assert sorted(marked) == sorted(t for t, m in methods.items() if m != "in-records")
    assert sum(e.positions for e in lazily.tiers.values()) < sum(
        e.size for e in lazily.tiers.values()
    )

    def first(graph: Any, files: Any, progress: Any, memory: Any) -> None:
        marking.mark_every_position(graph, files, progress)

    monkeypatch.setattr(tier_solve, "reach", first)
    marked.clear()
    ahead, _ = build_tablebase(module.MorrisMidgame(**params), tmp_path / "marked")
    assert sorted(marked) == sorted(methods)
    assert {t: e.sha256 for t, e in ahead.tiers.items()} == {
        t: e.sha256 for t, e in lazily.tiers.items()
    }
