"""What this machine took before, kept for the estimates a long solve shows up front.

Two small JSON files in the cache directory, each only a hint (unreadable or missing: no
estimate; a failure to write is ignored):
- ``rates.json``: slots a second of each game's last whole tier-by-tier build, by game name.
  A game ranked by hand knows its slots before it starts, so the rate gives its time.
- ``solves.json``: positions and seconds of the last solve of each game with the same
  parameters and rules (its identity) and the same route (explored in memory, or tiers
  ranked by the engine), for the games that learn their size only by solving.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from ..core.specialised import cache_directory
from ..identity import identity_of
from ..rules import Rules
from .progress import duration_text

RATES = "rates.json"
SOLVES = "solves.json"
ANNOUNCE_SECONDS = 10.0
"""A solve whose last run here took at least this long says what to expect before it starts."""
REMEMBER_SECONDS = 1.0
"""Solves shorter than this are not remembered (they are over before an estimate helps)."""


def _read(name: str) -> dict[str, Any]:
    try:
        known = json.loads((cache_directory() / name).read_text())
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def _write(name: str, key: str, value: Any) -> None:
    """Set one entry, the file written whole and atomically."""
    path: Path = cache_directory() / name
    known = _read(name)
    known[key] = value
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(known))
        os.replace(partial, path)
    except OSError:
        pass


def remembered_rate(rules: Rules[Any, Any]) -> float | None:
    """Slots a second of the last whole tier-by-tier build of this game here, or None."""
    rate = _read(RATES).get(rules.name)
    return float(rate) if isinstance(rate, (int, float)) and rate > 0 else None


def remember_rate(rules: Rules[Any, Any], rate: float) -> None:
    """Keep this build's rate for the next estimate."""
    _write(RATES, rules.name, rate)


def _key(rules: Rules[Any, Any], route: str) -> str | None:
    """The game's name, parameters and rules' fingerprint, and the route; None when the
    game's hooks fail while they are fingerprinted (the solve itself says why, in its words)."""
    try:
        identity = identity_of(rules)
    except Exception:
        return None
    return json.dumps(
        [identity["game"], identity["parameters"], identity["fingerprint"], route],
        sort_keys=True,
    )


def remember_solve(rules: Rules[Any, Any], route: str, positions: int, seconds: float) -> None:
    """Keep a finished solve's size and time (from REMEMBER_SECONDS on)."""
    if seconds >= REMEMBER_SECONDS and (key := _key(rules, route)) is not None:
        _write(SOLVES, key, [int(positions), float(seconds)])


def announce_last_solve(rules: Rules[Any, Any], route: str, quiet: bool) -> int | None:
    """Before a solve whose size is unknown until it is done: "N positions; its last solve
    here took T", when that took ANNOUNCE_SECONDS or more. Returns the positions of the
    last solve of this game here (the progress display's estimate of the time left), or
    None when none is remembered."""
    known = {} if quiet else _read(SOLVES)
    key = _key(rules, route) if known else None  # (no fingerprint while nothing is known)
    if key is None:
        return None
    last = known.get(key)
    if not (isinstance(last, list) and len(last) == 2):
        return None
    positions, seconds = last
    if not (isinstance(positions, int) and isinstance(seconds, (int, float))):
        return None
    if seconds >= ANNOUNCE_SECONDS:
        print(
            f"{rules.name}: {positions:,} positions; its last solve here took "
            f"{duration_text(seconds)}",
            file=sys.stderr,
        )
    return positions
