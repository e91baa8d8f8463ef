"""Octal and take-and-break games by code: Grundy values of heaps, periods proven by the
Guy-Smith theorem, and misère Grundy values while the game stays tame.

The code ``d0.d1d2d3...`` (``0.77`` is Kayles, ``0.07`` Dawson's Kayles, ``0.137`` Dawson's
chess) says, digit by digit, what a move that takes ``j`` tokens from one heap may leave in
its place: digit ``dj`` is a sum of 1 (nothing: the heap had exactly ``j`` tokens), 2 (one
non-empty heap), 4 (two non-empty heaps) and, in hexadecimal codes (digits 8-9 and a-f),
8 (three non-empty heaps). The digit before the point is for taking nothing, so it may only
split (4, 8 or c); it may be left out (``.77``). Trailing zeros change nothing and are
dropped from the canonical code. Grundy's game (split a heap into two unequal heaps) is
``4.0`` with the extra rule that the two parts differ; ``grundy_game()`` gives it.

Values are plain int64 arrays, ``values[n]`` the Grundy value of a heap of ``n``, computed
by kernels (``perfectplay.compiled``) with no Python step per heap:

- the plain method marks every option of every heap and takes the mex: O(n^2) in all;
- the sparse-space method (Winning Ways, "sparse space spells speed"; Flammenkamp's tables)
  splits positions into rare and common by the parity of the value's bits under a mask
  (and optionally of the heap size). The xor of two heaps has the "common" parity only if
  exactly one of them is rare, so those options come from the few rare heaps; options of
  the other parity are searched for one candidate value at a time, and the search rarely
  runs long. It is exact for every mask (the mask only decides the speed) and equals the
  plain method, which the tests check.

A period is proven by the theorem of Guy and Smith: if a game's moves take at most ``t``
tokens and leave at most two heaps, and ``G(n + p) = G(n)`` for every ``n`` from ``n0`` up to
``2 n0 + p + t``, then it holds for every ``n >= n0``. So values computed through heap
``2 n0 + 2 p + t`` prove period ``p`` from ``n0`` on (here with ``n0`` at least 1, and with
factor 3 in place of 2 for moves that leave three heaps). A period seen in a range too
short for that is reported as apparent, never as fact; the theorem does not cover Grundy's
game (the unequal-split rule breaks its argument), so no period of it is called proven.
"""

from __future__ import annotations

# The package is read in this order: codes, grundy (values), periods, misere.
from .codes import (
    ALIASES,
    FIRST_STAGE,
    GENUS_TERMS,
    GRUNDY_NAMES,
    I64,
    KNOWN,
    MAX_DIGITS,
    SAMPLE,
    Method,
    TakeAndBreak,
    as_game,
    grundy_game,
    parse_code,
)
from .grundy import (
    GrundyRun,
    SparseSpace,
    choose_space,
    extend,
    grundy_game_values,
    grundy_values,
    octal_plain,
    octal_sparse,
    sparse_applies,
)
from .misere import Misere, misere, misere_genera
from .periods import Periodicity, analyze, find_octal_period, period_scan

__all__ = [
    "ALIASES",
    "FIRST_STAGE",
    "GENUS_TERMS",
    "GRUNDY_NAMES",
    "I64",
    "KNOWN",
    "MAX_DIGITS",
    "SAMPLE",
    "GrundyRun",
    "Method",
    "Misere",
    "Periodicity",
    "SparseSpace",
    "TakeAndBreak",
    "analyze",
    "as_game",
    "choose_space",
    "extend",
    "find_octal_period",
    "grundy_game",
    "grundy_game_values",
    "grundy_values",
    "misere",
    "misere_genera",
    "octal_plain",
    "octal_sparse",
    "parse_code",
    "period_scan",
    "sparse_applies",
]
