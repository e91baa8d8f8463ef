"""The caches of the order and the sums, keyed by pairs of ids, and what reports on them.

Comparisons and sums are pure functions of two values, and values are one object each,
so their results are kept by the pair of ids (packed into one int). They live apart from
the order and the arithmetic so that both (and the reduction, which empties the scratch
comparisons) share them, and so that ``clear_caches`` and ``cache_info`` see them all.
"""

from __future__ import annotations

from .value import _INTERN, _NUMBERS, CanonicalGame

_SHIFT = 34
"""Cache keys pack two ids into one int: (a << _SHIFT) | b."""
_LEQ: dict[int, bool] = {}
_LEQ_LIMIT = 20_000_000
"""Past this many cached comparisons the cache is emptied (it is only a cache): a bound on
memory for very large computations (about 2 GB), at some cost in time."""
_SCRATCH_LEQ: dict[int, bool] = {}
"""Comparisons that involve the game being reduced: dropped when the reduction ends."""
_SUM: dict[int, CanonicalGame] = {}


def clear_caches() -> None:
    """Forget cached comparisons and sums (the values themselves stay interned)."""
    _LEQ.clear()
    _SUM.clear()


def cache_info() -> dict[str, int]:
    """How many values, numbers, cached comparisons and cached sums are held."""
    return {
        "values": len(_INTERN),
        "numbers": len(_NUMBERS),
        "comparisons": len(_LEQ),
        "sums": len(_SUM),
    }
