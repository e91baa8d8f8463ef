"""Reduction to canonical form: dominated options dropped, reversible options bypassed.

``game`` (and ``_canonical``, which the sums and ``cgt.games`` call with options already
canonical) turns ``{L | R}`` into the one value it equals: options that are all numbers
give a number or a switch at once; otherwise dominated options go, reversible ones are
bypassed, until nothing changes, comparing through a scratch game that is never interned.
"""

from __future__ import annotations

from collections.abc import Iterable

from .caches import _LEQ, _LEQ_LIMIT, _SCRATCH_LEQ
from .dyadic import Rational, simplest_between
from .order import leq
from .value import CanonicalGame, _by_id, _make, _require, _scratch, number


def _dedupe(options: Iterable[CanonicalGame]) -> list[CanonicalGame]:
    """The options without repeats (equal values are one object), in their order."""
    return list(dict.fromkeys(options))


def _maximal(options: list[CanonicalGame]) -> list[CanonicalGame]:
    """Left's options that no other option dominates (distinct values, so no ties).

    Of the numbers only the largest can survive; g <= k needs neither stop of g above
    that of k (checked inline; a NaN stop, not exact as a float, decides nothing)."""
    if len(options) < 2:
        return options
    options = _fewer_numbers(options, largest=True)
    options.sort(key=_left_rank)
    kept: list[CanonicalGame] = []
    for g in options:
        gl, gr = g.fls, g.frs
        for k in kept:
            if not (gl > k.fls or gr > k.frs) and leq(g, k):
                break
        else:
            kept = [k for k in kept if (k.fls > gl or k.frs > gr) or not leq(k, g)]
            kept.append(g)
    return kept


def _minimal(options: list[CanonicalGame]) -> list[CanonicalGame]:
    """Right's options that no other option dominates."""
    if len(options) < 2:
        return options
    options = _fewer_numbers(options, largest=False)
    options.sort(key=_right_rank)
    kept: list[CanonicalGame] = []
    for g in options:
        gl, gr = g.fls, g.frs
        for k in kept:
            if not (k.fls > gl or k.frs > gr) and leq(k, g):
                break
        else:
            kept = [k for k in kept if (gl > k.fls or gr > k.frs) or not leq(g, k)]
            kept.append(g)
    return kept


def _fewer_numbers(options: list[CanonicalGame], largest: bool) -> list[CanonicalGame]:
    """The options with every number but the best one (for that player) left out."""
    best: CanonicalGame | None = None
    others: list[CanonicalGame] = []
    for g in options:
        x = g.num
        if x is None:
            others.append(g)
        elif best is None or (x > best.num if largest else x < best.num):  # type: ignore[operator]
            best = g
    if best is not None:
        others.append(best)
    return others


def _left_rank(g: CanonicalGame) -> tuple[float, float]:
    # Likely dominators first: the larger stops (floats: only an order of trial).
    return (-g.frs, -g.fls)


def _right_rank(g: CanonicalGame) -> tuple[float, float]:
    return (g.fls, g.frs)


def _all_numbers(left: list[CanonicalGame], right: list[CanonicalGame]) -> CanonicalGame | None:
    """The value of {left | right} when every option is a number, else None."""
    for g in left:
        if g.num is None:
            return None
    for g in right:
        if g.num is None:
            return None
    low = max(g.num for g in left) if left else None  # type: ignore[type-var]
    high = min(g.num for g in right) if right else None  # type: ignore[type-var]
    if low is None or high is None or low < high:
        return number(simplest_between(low, high))
    # {a | b} with a >= b: a switch (or x* when a == b); canonical as it stands.
    return _make((number(low),), (number(high),))


def game(
    left: Iterable[CanonicalGame | Rational] = (), right: Iterable[CanonicalGame | Rational] = ()
) -> CanonicalGame:
    """The canonical value of {left | right}, whose options are values or numbers."""
    return _canonical([_require(g) for g in left], [_require(g) for g in right])


def _canonical(left: list[CanonicalGame], right: list[CanonicalGame]) -> CanonicalGame:
    """Reduce {left | right} (canonical options) to canonical form."""
    left = _dedupe(left)
    right = _dedupe(right)
    simple = _all_numbers(left, right)
    if simple is not None:
        return simple
    scratch: CanonicalGame | None = None
    while True:
        left = _maximal(left)
        right = _minimal(right)
        if scratch is None:
            scratch = _scratch(tuple(left), tuple(right))
        else:
            # The value never changes while reducing, so cached comparisons stay true.
            scratch.left, scratch.right = tuple(left), tuple(right)
        changed = False
        new_left: list[CanonicalGame] = []
        for g in left:
            for gr in g.right:
                if leq(gr, scratch):
                    new_left.extend(gr.left)  # bypass: g reverses through gr
                    changed = True
                    break
            else:
                new_left.append(g)
        if changed:
            scratch.left = tuple(_dedupe(new_left))
        new_right: list[CanonicalGame] = []
        for g in right:
            for gl in g.left:
                if leq(scratch, gl):
                    new_right.extend(gl.right)
                    changed = True
                    break
            else:
                new_right.append(g)
        if not changed:
            break
        left = _dedupe(new_left)
        right = _dedupe(new_right)
    _SCRATCH_LEQ.clear()
    if len(_LEQ) > _LEQ_LIMIT:
        _LEQ.clear()
    simple = _all_numbers(left, right)
    if simple is not None:
        return simple
    left.sort(key=_by_id)
    right.sort(key=_by_id)
    return _make(tuple(left), tuple(right))
