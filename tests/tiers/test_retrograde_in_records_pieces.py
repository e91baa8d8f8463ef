"""A level hands out its frontier in pieces (``WIDE_PIECE`` for a Morris sector, which
counts by orbits; ``PIECE`` for others) gathered across its scans of the pending bits
(``retrograde_in_records``): on a Morris variant's database, every piece but a level's
last is whole, fewer pieces than scans that found positions, and the same bytes as a build
in larger scans and pieces."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import examples_loader
import pytest

from perfectplay import build_tablebase
from perfectplay.tiers import retrograde_in_records as rir


def test_pieces_are_whole_across_scans_and_change_no_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = examples_loader.load("morris")
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    large, _ = build_tablebase(module.MorrisMidgame(points=16, stones=4), tmp_path / "large")
    levels: list[dict[str, list[int]]] = []
    follow, frontier, parents = rir._follow_level, rir._frontier, rir._parents_of

    def level(*args: Any, **kwargs: Any) -> Any:
        levels.append({"scans": [], "pieces": []})
        return follow(*args, **kwargs)

    def scan(*args: Any) -> Any:
        rows = frontier(*args)
        levels[-1]["scans"].append(int(rows.shape[0]))
        return rows

    def piece(graph: Any, tier: int, flat: Any, shift: int, indices: Any, *rest: Any) -> Any:
        levels[-1]["pieces"].append(int(indices.shape[0]))
        return parents(graph, tier, flat, shift, indices, *rest)

    monkeypatch.setattr(rir, "_follow_level", level)
    monkeypatch.setattr(rir, "_frontier", scan)
    monkeypatch.setattr(rir, "_parents_of", piece)
    monkeypatch.setattr(rir, "FRONTIER_SCAN", 4096)
    monkeypatch.setattr(rir, "PIECE", 64)
    monkeypatch.setattr(rir, "WIDE_PIECE", 64)  # (a Morris sector counts by orbits)
    small, _ = build_tablebase(module.MorrisMidgame(points=16, stones=4), tmp_path / "small")
    assert {t: e.sha256 for t, e in small.tiers.items()} == {
        t: e.sha256 for t, e in large.tiers.items()
    }
    gathered = 0
    for seen in levels:
        assert all(size == 64 for size in seen["pieces"][:-1]), seen
        assert sum(seen["pieces"]) == sum(seen["scans"])
        gathered += len(seen["pieces"]) < sum(1 for rows in seen["scans"] if rows)
    assert gathered > 0  # (some level's pieces took positions of more than one scan)
