"""Named values and the families built from them: 1, *, up, down, n.^, switches, tiny, miny.

They are made last, from the other modules (down is the negative of up, the rest are
reduced like any game); 0 is made with the value type, which the order and sums test for.
"""

from __future__ import annotations

from .arithmetic import negate
from .dyadic import Rational
from .reduction import game
from .value import ZERO, CanonicalGame, _make, _require, nimber, number

ONE = number(1)
STAR = nimber(1)
UP = _make((ZERO,), (STAR,))
DOWN = negate(UP)


def up_multiple(n: int) -> CanonicalGame:
    """n copies of up (down for negative n), built in n steps from n.^ = {0 | (n-1).^*}
    and n.^* = {0 | (n-1).^} (each step reduced like any game, so exact)."""
    if n < 0:
        return negate(up_multiple(-n))
    if n == 0:
        return ZERO
    ups, ups_star = UP, _make((ZERO, STAR), (ZERO,))  # ^ and ^* = {0,*|0}
    for _ in range(n - 1):
        ups, ups_star = game([ZERO], [ups_star]), game([ZERO], [ups])
    return ups


def switch(a: CanonicalGame | Rational, b: CanonicalGame | Rational) -> CanonicalGame:
    """{a | b}."""
    return game([a], [b])


def tiny(g: CanonicalGame | Rational) -> CanonicalGame:
    """tiny-g = {0 || 0 | -g}, a positive infinitesimal for g > 0."""
    x = _require(g)
    return game([ZERO], [game([ZERO], [negate(x)])])


def miny(g: CanonicalGame | Rational) -> CanonicalGame:
    """miny-g = {g | 0 || 0} = -tiny-g."""
    return negate(tiny(g))
