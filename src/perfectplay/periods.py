"""Periods of sequences: where a game's values along one parameter start to repeat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def find_period(sequence: Sequence[Any]) -> tuple[int, int] | None:
    """(pre-period, period) of the shortest period seen at least twice over, or None.

    A period p after a pre-period q means sequence[i] == sequence[i + p] for every i >= q
    within the sequence; it counts only when the periodic part holds two full periods.
    Seen is not proven: a longer sequence may break it.
    """
    n = len(sequence)
    for period in range(1, n // 2 + 1):
        # The smallest pre-period for this period: scan from the end for the last mismatch.
        start = n - period
        while start > 0 and sequence[start - 1] == sequence[start - 1 + period]:
            start -= 1
        if n - start >= 2 * period:
            return start, period
    return None
