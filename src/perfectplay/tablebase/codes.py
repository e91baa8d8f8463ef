"""The codes of tiers the engine ranked, kept beside their records in a tablebase.

A compiled game's index in a tier is the rank of its code among the tier's sorted reachable
codes (``compiled_games.ranking``), so a tablebase of one keeps those codes: one file of
sorted little-endian int64 per tier (``tier-T.codes``), with its SHA-256, its count and the
tier's child tiers in the header's ``codes`` entry. Opening the tablebase reads them back,
length and checksum first, into the game's ranking: a probe then ranks a position without
finding every position again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..compiled_games.ranking import Ranking, load_ranking


def read_codes(directory: Path, codes: dict[str, Any], initial_tier: int) -> Ranking:
    """The ranking kept in a tablebase (TablebaseError naming a missing, short or damaged
    file)."""
    return load_ranking(directory, codes["tiers"], initial_tier)
