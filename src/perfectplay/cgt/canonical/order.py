"""The order of values: ``G <= H``, compared on an explicit stack with cached answers.

``leq`` decides ``G <= H`` (Left has no winning first move in ``G - H``), with the
shortcuts of numbers, nimbers and stops and the comparison cache; ``compare``,
``confused`` and ``outcome`` are read off it. The reduction to canonical form is built on
this order (``reduction``); the order knows nothing of it.
"""

from __future__ import annotations

from typing import Any, Literal

from . import value
from .caches import _LEQ, _SCRATCH_LEQ, _SHIFT
from .dyadic import Rational
from .value import ZERO, CanonicalGame, _require

Relation = Literal["=", "<", ">", "||"]
"""How two games compare: equal, less, greater, or confused (incomparable)."""


def _quick_leq(a: CanonicalGame, b: CanonicalGame) -> bool | None:
    """a <= b when a shortcut or the cache decides it, else None."""
    if a is b:
        return True
    an = a.num
    if an is not None:
        bn = b.num
        if bn is not None:
            fa, fb = a.fls, b.fls
            if fa == fa and fb == fb:  # both exact as floats (not NaN)
                return fa <= fb
            return an <= bn
    if a.fls > b.fls or a.frs > b.frs:
        return False  # stops are monotone (NaN, for a scratch game, decides nothing)
    key = (a.id << _SHIFT) | b.id
    r = _LEQ.get(key)
    if r is not None:
        return r
    if not (a.canon and b.canon):
        return _SCRATCH_LEQ.get(key)
    if a.nim is not None and b.nim is not None:
        return False  # distinct nimbers are confused with each other
    return None


def _children(
    a: CanonicalGame, b: CanonicalGame
) -> tuple[tuple[CanonicalGame, ...], tuple[CanonicalGame, ...], bool]:
    """What decides a <= b: it fails when b <= a^L or b^R <= a for some option.

    Returns the two lists to try in order and whether the first is b's Right options
    (b^R <= a) rather than a's Left options (b <= a^L): comparisons between canonical
    games go first, since they are cached for good.
    """
    if b.num is not None and a.canon:
        return a.left, (), False  # number avoidance: a <= x iff no a^L >= x
    if a.num is not None and b.canon:
        return b.right, (), True  # x <= b iff no b^R <= x
    if not b.canon:
        return b.right, a.left, True
    return a.left, b.right, False


def _frame(a: CanonicalGame, b: CanonicalGame) -> list[Any]:
    """The comparison a <= b as a frame of ``leq``'s stack: [a, b, key, first, second,
    next index, cache, flipped, took a child]; a <= b fails when b <= a^L or b^R <= a for
    an option in first or second (see _children)."""
    first, second, flipped = _children(a, b)
    return [a, b, (a.id << _SHIFT) | b.id, first, second, 0, _cache_for(a, b), flipped, False]


def leq(g: CanonicalGame, h: CanonicalGame) -> bool:
    """g <= h: Left has no winning first move in g - h."""
    r = _quick_leq(g, h)
    if r is not None:
        return r
    quick = _quick_leq
    stack: list[list[Any]] = [_frame(g, h)]
    result: bool | None = None
    while stack:
        frame = stack[-1]
        if result is not None:
            if result:  # a child comparison held: this one fails
                frame[6][frame[2]] = False  # it took a child frame: worth keeping
                stack.pop()
                result = False
                continue
            result = None
        a: CanonicalGame = frame[0]
        b: CanonicalGame = frame[1]
        fa: tuple[CanonicalGame, ...] = frame[3]
        fb: tuple[CanonicalGame, ...] = frame[4]
        i: int = frame[5]
        nfa = len(fa)
        total = nfa + len(fb)
        flip: bool = frame[7]
        while True:
            if i >= total:
                # Kept only when it took a few steps: cheap answers are recomputed rather
                # than held (most comparisons are cheap, and memory is the limit).
                if frame[8] or i > 3:
                    frame[6][frame[2]] = True
                stack.pop()
                result = True
                break
            if i < nfa:
                x, y = (fa[i], a) if flip else (b, fa[i])
            else:
                x, y = (b, fb[i - nfa]) if flip else (fb[i - nfa], a)
            i += 1
            r = quick(x, y)
            if r is None:
                frame[5] = i
                frame[8] = True
                stack.append(_frame(x, y))
                break
            if r:
                if frame[8] or i > 3:
                    frame[6][frame[2]] = False
                stack.pop()
                result = False
                break
    assert result is not None
    return result


def _cache_for(a: CanonicalGame, b: CanonicalGame) -> dict[int, bool]:
    return _LEQ if a.canon and b.canon else _SCRATCH_LEQ


def compare(g: CanonicalGame | Rational, h: CanonicalGame | Rational) -> Relation:
    """'=', '<', '>' or '||' (confused)."""
    a, b = _require(g), _require(h)
    if a is b:
        return "="
    if leq(a, b):
        return "<"
    if leq(b, a):
        return ">"
    return "||"


def confused(g: CanonicalGame | Rational, h: CanonicalGame | Rational) -> bool:
    """True when g || h: neither is >= the other."""
    return compare(g, h) == "||"


def outcome(g: CanonicalGame) -> str:
    """The outcome class: 'L' (g > 0), 'R' (g < 0), 'P' (g = 0) or 'N' (g || 0)."""
    zero = ZERO
    if g is zero:
        return "P"
    if leq(zero, g):
        return "L"
    if leq(g, zero):
        return "R"
    return "N"


# The operators of CanonicalGame call these (see the hooks in value).
value._leq = leq
value._outcome = outcome
