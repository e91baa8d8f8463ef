"""The arithmetic of values: negation, sums, and multiples.

``negate`` exchanges Left and Right (each value remembers its negative), ``add`` builds
``G + H`` from the sums of options on an explicit stack, with the shortcuts of numbers,
nimbers and number translation and the sum cache, and ``multiple`` adds copies by
doubling. Each sum is reduced by ``reduction``.
"""

from __future__ import annotations

from . import value
from .caches import _SHIFT, _SUM
from .reduction import _canonical
from .value import ZERO, CanonicalGame, _by_id, _make, nimber, number


def negate(g: CanonicalGame) -> CanonicalGame:
    """-g: the same game with Left and Right exchanged."""
    if g._neg is not None:
        return g._neg
    if g.num is not None:
        result = number(-g.num)
        g._neg, result._neg = result, g
        return result
    if g.nim is not None:
        g._neg = g
        return g
    stack = [g]
    while stack:
        top = stack[-1]
        if top._neg is not None:
            stack.pop()
            continue
        if top.num is not None:
            n = number(-top.num)
            top._neg, n._neg = n, top
            stack.pop()
            continue
        missing = [o for o in (*top.left, *top.right) if o._neg is None]
        if missing:
            stack.extend(missing)
            continue
        left = sorted((_negated(o) for o in top.right), key=_by_id)
        right = sorted((_negated(o) for o in top.left), key=_by_id)
        n = _make(tuple(left), tuple(right))
        top._neg, n._neg = n, top
        stack.pop()
    assert g._neg is not None
    return g._neg


def _negated(g: CanonicalGame) -> CanonicalGame:
    """g's negative, already computed."""
    assert g._neg is not None
    return g._neg


def _quick_add(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame | None:
    """g + h when a shortcut or the cache gives it, else None."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    gi, hi = g.id, h.id
    key = (gi << _SHIFT) | hi if gi < hi else (hi << _SHIFT) | gi
    found = _SUM.get(key)
    if found is not None:
        return found
    gn = g.num
    if gn is not None:
        hn = h.num
        if hn is not None:
            found = _SUM[key] = number(gn + hn)
            return found
    if g.nim is not None and h.nim is not None:
        found = _SUM[key] = nimber(g.nim ^ h.nim)
        return found
    return None


def add(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame:
    """g + h in canonical form."""
    r = _quick_add(g, h)
    if r is not None:
        return r
    quick = _quick_add
    stack = [(g, h)]
    while stack:
        a, b = stack[-1]
        ai, bi = a.id, b.id
        key = (ai << _SHIFT) | bi if ai < bi else (bi << _SHIFT) | ai
        if key in _SUM:
            stack.pop()
            continue
        if a.num is not None:
            a, b = b, a  # the number, if any, second
        if b.num is not None:
            # Number translation: a + x = {a^L + x | a^R + x} when a is not a number.
            lp = [(o, b) for o in a.left]
            rp = [(o, b) for o in a.right]
        else:
            lp = [(o, b) for o in a.left] + [(a, o) for o in b.left]
            rp = [(o, b) for o in a.right] + [(a, o) for o in b.right]
        missing = False
        left: list[CanonicalGame] = []
        right: list[CanonicalGame] = []
        for x, y in lp:
            s = quick(x, y)
            if s is None:
                stack.append((x, y))
                missing = True
            elif not missing:
                left.append(s)
        for x, y in rp:
            s = quick(x, y)
            if s is None:
                stack.append((x, y))
                missing = True
            elif not missing:
                right.append(s)
        if missing:
            continue
        _SUM[key] = _canonical(left, right)
        stack.pop()
    result = _quick_add(g, h)
    assert result is not None
    return result


def multiple(g: CanonicalGame, count: int) -> CanonicalGame:
    """count copies of g added (negative counts add copies of -g)."""
    if count < 0:
        g, count = negate(g), -count
    total = ZERO
    power = g
    while count:
        if count & 1:
            total = add(total, power)
        count >>= 1
        if count:
            power = add(power, power)
    return total


# The operators of CanonicalGame call these (see the hooks in value).
value._add = add
value._negate = negate
value._multiple = multiple
