"""The codes of tiers the engine ranked, kept beside their records in a tablebase.

A compiled game's index in a tier is the rank of its code among the tier's sorted reachable
codes (``compiled_games.ranking``), so a tablebase of one keeps those codes: one file of
sorted little-endian int64 per tier (``tier-T.codes``), its SHA-256, its count and the tier's
child tiers in the header. Opening the tablebase reads them back, checksums first, into the
game's ranking: a probe then ranks a position without finding every position again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..compiled_games.ranking import CodeSet, Ranking
from ..errors import TablebaseError
from ..spaces.tier_files import file_sha256, tier_file_name


def write_codes(directory: Path, ranking: Ranking) -> dict[str, Any]:
    """Write each tier's codes into ``directory`` (flushed, fsync'd); the header's entry."""
    entries = []
    for tier, found in sorted(ranking.tiers.items()):
        name = tier_file_name(tier, "codes")
        path = directory / name
        temporary = path.with_suffix(".codes-partial")
        with temporary.open("wb") as handle:
            np.ascontiguousarray(found.codes, dtype="<i8").tofile(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        entries.append(
            {
                "tier": tier,
                "file": name,
                "sha256": file_sha256(path),
                "count": len(found),
                "children": list(ranking.children.get(tier, ())),
            }
        )
    return {"tiers": entries}


def read_codes(directory: Path, codes: dict[str, Any], initial_tier: int) -> Ranking:
    """The ranking kept in a tablebase, each file checked by length and SHA-256 first."""
    tiers: dict[int, CodeSet] = {}
    children: dict[int, tuple[int, ...]] = {}
    for entry in codes["tiers"]:
        path = directory / entry["file"]
        count = int(entry["count"])
        if not path.is_file():
            raise TablebaseError(f"{directory}: {entry['file']} is missing")
        if path.stat().st_size != 8 * count:
            raise TablebaseError(
                f"{directory}: {entry['file']} holds {path.stat().st_size:,} bytes, not "
                f"{8 * count:,} (truncated or damaged)"
            )
        if file_sha256(path) != entry["sha256"]:
            raise TablebaseError(
                f"{directory}: {entry['file']} fails its checksum (damaged or changed); "
                "no answer from it can be trusted"
            )
        array = np.memmap(path, dtype="<i8", mode="r") if count else np.zeros(0, dtype=np.int64)
        tiers[int(entry["tier"])] = CodeSet.of(array)
        children[int(entry["tier"])] = tuple(int(t) for t in entry["children"])
    return Ranking(tiers, children, initial_tier)
