"""Dyadic rationals as plain ``Fraction`` objects, before any game is built from them.

Numbers are the values whose arithmetic is exact rational arithmetic; what they need
without being games (the check that a denominator is a power of 2, the simplest number
between two bounds, floats that are exact) lives here, so that the value type, the
reduction and the thermographs share it.
"""

from __future__ import annotations

import math
from fractions import Fraction

Rational = Fraction | int

_NAN = math.nan


def _exact_float(x: Fraction) -> float:
    """x as a float when that is exact, else NaN (so that float comparisons decide nothing)."""
    f = float(x)
    return f if Fraction(f) == x else _NAN


def _check_dyadic(x: Fraction) -> None:
    d = x.denominator
    if d & (d - 1):
        raise ValueError(f"{x} is not a dyadic rational (its denominator is not a power of 2)")


def simplest_between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """The simplest number strictly between low and high (None: no bound); low < high."""
    if low is None and high is None:
        return Fraction(0)
    if low is None:
        assert high is not None
        return Fraction(0) if high > 0 else Fraction(math.ceil(high) - 1)
    if high is None:
        return Fraction(0) if low < 0 else Fraction(math.floor(low) + 1)
    if low < 0 < high:
        return Fraction(0)
    if low >= 0:
        n = math.floor(low) + 1
        if n < high:
            return Fraction(n)
    else:
        n = math.ceil(high) - 1
        if n > low:
            return Fraction(n)
    denominator = 2
    while True:
        n = math.floor(low * denominator) + 1
        if Fraction(n, denominator) < high:
            return Fraction(n, denominator)
        denominator *= 2
