"""Canonical forms of short partizan games, hash-consed: one object per value.

A short game ``{L | R}`` is given by Left's and Right's options. Every ``CanonicalGame`` is
in canonical form (no dominated option, no reversible option), and the package keeps exactly
one object per value, so equality of values is identity (``g == h`` is ``g is h``) and a
value hashes by identity. Sums are cached by pairs of ids, and so are comparisons that
took more than a few steps (the comparison cache is emptied past ``_LEQ_LIMIT`` entries,
a bound on memory); this, with the shortcuts below, is what makes the arithmetic fast.

Encodings and contracts:

- ``left`` and ``right`` are tuples of ``CanonicalGame`` sorted by id (a creation order).
- Numbers are dyadic rationals held as ``fractions.Fraction`` (``number``); their options
  (``x = {x - 2**-k | x + 2**-k}``, integers ``n = {n-1 | }``) are built on first use, so
  ``integer(10**9)`` costs one object. Numbers are never interned by their options: every
  path that could produce a number asks ``number`` for it.
- Nimbers (``nim``), numbers (``num``), left and right stops and the birthday are found
  when a value is created and stored on it.
- Every walk over a game (comparison, sum, negation, the others) uses an explicit stack, so
  games of any birthday (a thousand ups, a long Hackenbush string) cannot overflow
  Python's recursion limit.

Shortcuts, each a theorem: two numbers compare and add as rationals; nimbers add by
exclusive or; ``G <= x`` for a number ``x`` and ``G`` not a number holds exactly when no
``G^L >= x`` (and ``x <= G`` when no ``G^R <= x``), by number avoidance; ``G + x`` equals
``{G^L + x | G^R + x}`` when ``G`` is not a number (number translation); stops are
monotone, so ``G <= H`` fails as soon as a stop of ``G`` exceeds the same stop of ``H``;
options that are all numbers give the simplest number between them or ``{a | b}``.

The modules, each importing only those before it:

- ``dyadic``: dyadic rationals as plain Fractions (``simplest_between``).
- ``value``: the type ``CanonicalGame``, its intern tables, numbers, nimbers and 0.
- ``caches``: the comparison and sum caches (``clear_caches``, ``cache_info``).
- ``order``: ``leq``, ``compare``, ``confused``, ``outcome``.
- ``reduction``: ``game``, the reduction of ``{L | R}`` to canonical form.
- ``arithmetic``: ``negate``, ``add``, ``multiple``.
- ``named``: 1, *, up, down, ``up_multiple``, ``switch``, ``tiny``, ``miny``.

The order and the arithmetic bind their functions into ``value`` as they load, for the
operators of ``CanonicalGame``; importing any of these modules imports this package, and so
all of them.
"""

from __future__ import annotations

from .arithmetic import add, multiple, negate
from .caches import cache_info, clear_caches
from .dyadic import simplest_between
from .named import DOWN, ONE, STAR, UP, miny, switch, tiny, up_multiple
from .order import Relation, compare, confused, leq, outcome
from .reduction import game
from .value import ZERO, CanonicalGame, integer, nimber, number

__all__ = [
    "DOWN",
    "ONE",
    "STAR",
    "UP",
    "ZERO",
    "CanonicalGame",
    "Relation",
    "add",
    "cache_info",
    "clear_caches",
    "compare",
    "confused",
    "game",
    "integer",
    "leq",
    "miny",
    "multiple",
    "negate",
    "nimber",
    "number",
    "outcome",
    "simplest_between",
    "switch",
    "tiny",
    "up_multiple",
]
