"""Canonical forms of short partizan games, hash-consed: one object per value.

A short game ``{L | R}`` is given by Left's and Right's options. Every ``CanonicalGame`` is
in canonical form (no dominated option, no reversible option), and the module keeps exactly
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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Literal

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

Relation = Literal["=", "<", ">", "||"]
"""How two games compare: equal, less, greater, or confused (incomparable)."""

Rational = Fraction | int

_NAN = math.nan
_SHIFT = 34
"""Cache keys pack two ids into one int: (a << _SHIFT) | b."""


class CanonicalGame:
    """A short partizan game in canonical form; one object per value.

    Compare with ``<=``, ``>=``, ``<``, ``>``, ``==`` (values; ints and Fractions are
    numbers), ``confused_with``; add with ``+``, ``-`` and negate with unary ``-``.
    """

    __slots__ = (
        "_neg",
        "birthday",
        "canon",
        "fls",
        "frs",
        "id",
        "left",
        "ls",
        "nim",
        "num",
        "right",
        "rs",
    )

    id: int
    left: tuple[CanonicalGame, ...]
    """Left's options, canonical, sorted by id."""
    right: tuple[CanonicalGame, ...]
    """Right's options, canonical, sorted by id."""
    num: Fraction | None
    """The value when it is a number, else None."""
    nim: int | None
    """n when the value is the nimber *n, else None (0 is both a number and *0)."""
    canon: bool
    """False only for the scratch games used while reducing a form (never seen outside)."""
    ls: Fraction
    rs: Fraction
    fls: float
    frs: float
    birthday: int
    """The day the value is born: 0 for 0, one more than its options' latest."""
    _neg: CanonicalGame | None

    def __getattr__(self, name: str) -> tuple[CanonicalGame, ...]:
        # Only unset slots land here: a number's options are built on first use.
        if name in ("left", "right") and object.__getattribute__(self, "num") is not None:
            left, right = _number_options(self.num)  # type: ignore[arg-type]
            self.left = left
            self.right = right
            return left if name == "left" else right
        raise AttributeError(name)

    # -- order ---------------------------------------------------------------------------

    def __le__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return leq(self, h)

    def __ge__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return leq(h, self)

    def __lt__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return h is not self and leq(self, h)

    def __gt__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return h is not self and leq(h, self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CanonicalGame):
            return self is other
        h = _coerce(other)
        return h is self if h is not None else NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    # Equal values are one object: hashing by identity (in C) agrees with ==.
    __hash__ = object.__hash__

    def confused_with(self, other: CanonicalGame | Rational) -> bool:
        """True when neither game is >= the other (written G || H)."""
        h = _require(other)
        return not leq(self, h) and not leq(h, self)

    # -- arithmetic ----------------------------------------------------------------------

    def __add__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return add(self, h)

    __radd__ = __add__

    def __neg__(self) -> CanonicalGame:
        return negate(self)

    def __pos__(self) -> CanonicalGame:
        return self

    def __sub__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return add(self, negate(h))

    def __rsub__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return add(h, negate(self))

    def __mul__(self, count: int) -> CanonicalGame:
        if not isinstance(count, int) or isinstance(count, bool):
            return NotImplemented
        return multiple(self, count)

    __rmul__ = __mul__

    # -- properties ----------------------------------------------------------------------

    @property
    def is_number(self) -> bool:
        """True for dyadic rationals (0 included)."""
        return self.num is not None

    @property
    def is_nimber(self) -> bool:
        """True for *n (0 included)."""
        return self.nim is not None

    @property
    def left_stop(self) -> Fraction:
        """Where play ends when Left starts and both stop at the first number."""
        return self.ls

    @property
    def right_stop(self) -> Fraction:
        """Where play ends when Right starts and both stop at the first number."""
        return self.rs

    @property
    def outcome(self) -> str:
        """L (Left wins whoever starts), R, P (the player to move loses) or N."""
        return outcome(self)

    @property
    def mean(self) -> Fraction:
        """The mean value (where the thermograph's mast stands)."""
        mast: Fraction = _EXTENSIONS["thermograph"](self).mast
        return mast

    @property
    def temperature(self) -> Fraction:
        """The temperature; -1/2**k for a number with denominator 2**k (-1 for integers)."""
        temperature: Fraction = _EXTENSIONS["thermograph"](self).temperature
        return temperature

    def __str__(self) -> str:
        text: str = _EXTENSIONS["render"](self)
        return text

    def __repr__(self) -> str:
        text = str(self)
        if len(text) > 200:
            text = text[:197] + "..."
        return f"CanonicalGame({text!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickling rebuilds through parse, so that identity is kept in the new process.
        return (_EXTENSIONS["parse"], (str(self),))


_EXTENSIONS: dict[str, Callable[..., Any]] = {}
"""render, parse and thermograph, registered by their modules as they load. The package
imports both modules, so they are always there, and this module imports neither (the
imports run one way)."""


def register(name: str, function: Callable[..., Any]) -> None:
    """Make a function of a later module (notation, thermograph) known to the values."""
    _EXTENSIONS[name] = function


# -- tables ---------------------------------------------------------------------------------

_next_id = 0
_INTERN: dict[tuple[tuple[CanonicalGame, ...], tuple[CanonicalGame, ...]], CanonicalGame] = {}
"""Every non-number value, by its options (tuples of values, which hash by identity)."""
_NUMBERS: dict[tuple[int, int], CanonicalGame] = {}
_NIMBERS: list[CanonicalGame] = []
_LEQ: dict[int, bool] = {}
_LEQ_LIMIT = 20_000_000
"""Past this many cached comparisons the cache is emptied (it is only a cache): a bound on
memory for very large computations (about 2 GB), at some cost in time."""
_SCRATCH_LEQ: dict[int, bool] = {}
"""Comparisons that involve the game being reduced: dropped when the reduction ends."""
_SUM: dict[int, CanonicalGame] = {}


def _new_id() -> int:
    global _next_id
    _next_id += 1
    return _next_id


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


def _exact_float(x: Fraction) -> float:
    """x as a float when that is exact, else NaN (so that float comparisons decide nothing)."""
    f = float(x)
    return f if Fraction(f) == x else _NAN


# -- numbers ----------------------------------------------------------------------------------


def _check_dyadic(x: Fraction) -> None:
    d = x.denominator
    if d & (d - 1):
        raise ValueError(f"{x} is not a dyadic rational (its denominator is not a power of 2)")


def number(x: Rational | str) -> CanonicalGame:
    """The number x, a dyadic rational (int, Fraction, or text such as '3/4')."""
    value = Fraction(x)
    key = (value.numerator, value.denominator)
    node = _NUMBERS.get(key)
    if node is not None:
        return node
    _check_dyadic(value)
    node = object.__new__(CanonicalGame)
    node.id = _new_id()
    node.num = value
    node.nim = 0 if value == 0 else None
    node.canon = True
    node.ls = node.rs = value
    node.fls = node.frs = _exact_float(value)
    node._neg = None
    if value == 0:
        node.left = node.right = ()
        node.birthday = 0
    elif value.denominator == 1:
        node.birthday = abs(value.numerator)
    else:
        node.birthday = math.floor(abs(value)) + value.denominator.bit_length()
    _NUMBERS[key] = node
    return node


def integer(n: int) -> CanonicalGame:
    """The integer n."""
    return number(n)


def _number_options(x: Fraction) -> tuple[tuple[CanonicalGame, ...], tuple[CanonicalGame, ...]]:
    """The canonical options of the number x."""
    if x.denominator == 1:
        n = x.numerator
        if n > 0:
            return (number(n - 1),), ()
        if n < 0:
            return (), (number(n + 1),)
        return (), ()
    step = Fraction(1, x.denominator)
    return (number(x - step),), (number(x + step),)


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


# -- interning --------------------------------------------------------------------------------


def _make(left: tuple[CanonicalGame, ...], right: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """The value with these options, which must already form a canonical non-number."""
    key = (left, right)
    node = _INTERN.get(key)
    if node is not None:
        return node
    node = object.__new__(CanonicalGame)
    node.id = _new_id()
    node.left = left
    node.right = right
    node.num = None
    node.canon = True
    node._neg = None
    nim = None
    if left == right:
        values = sorted(g.nim if g.nim is not None else -1 for g in left)
        if values == list(range(len(values))):
            nim = len(values)
    node.nim = nim
    ls = max(g.rs for g in left)
    rs = min(g.ls for g in right)
    node.ls, node.rs = ls, rs
    node.fls, node.frs = _exact_float(ls), _exact_float(rs)
    node.birthday = 1 + max(max(g.birthday for g in left), max(g.birthday for g in right))
    _INTERN[key] = node
    return node


def _scratch(left: tuple[CanonicalGame, ...], right: tuple[CanonicalGame, ...]) -> CanonicalGame:
    """A game that may not be canonical, used only while reducing a form."""
    node = object.__new__(CanonicalGame)
    node.id = _new_id()
    node.left = left
    node.right = right
    node.num = None
    node.nim = None
    node.canon = False
    node.fls = node.frs = _NAN
    node._neg = None
    return node


MAX_NIMBER = 4095
"""The largest nimber built (*n holds every smaller nimber as an option: n**2 / 2 links)."""


def nimber(n: int) -> CanonicalGame:
    """The nimber *n (0 <= n <= MAX_NIMBER)."""
    if n < 0:
        raise ValueError(f"nimbers are *0, *1, ...: no *{n}")
    if n > MAX_NIMBER:
        raise ValueError(f"*{n} is past the largest nimber built here, *{MAX_NIMBER}")
    if not _NIMBERS:
        _NIMBERS.append(number(0))
    while len(_NIMBERS) <= n:
        options = tuple(_NIMBERS)
        _NIMBERS.append(_make(options, options))
    return _NIMBERS[n]


def _coerce(obj: object) -> CanonicalGame | None:
    if isinstance(obj, CanonicalGame):
        return obj
    if isinstance(obj, (int, Fraction)) and not isinstance(obj, bool):
        return number(obj)
    return None


def _require(obj: object) -> CanonicalGame:
    game_ = _coerce(obj)
    if game_ is None:
        raise TypeError(f"not a game or a number: {obj!r}")
    return game_


# -- comparison -------------------------------------------------------------------------------


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


def leq(g: CanonicalGame, h: CanonicalGame) -> bool:
    """g <= h: Left has no winning first move in g - h."""
    r = _quick_leq(g, h)
    if r is not None:
        return r
    quick = _quick_leq
    first, second, flipped = _children(g, h)
    # A frame: [a, b, key, first, second, next index, cache, flipped]; a <= b fails when
    # b <= a^L or b^R <= a for an option in first or second (see _children).
    stack: list[list[Any]] = [
        [g, h, (g.id << _SHIFT) | h.id, first, second, 0, _cache_for(g, h), flipped, False]
    ]
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
                cf, cs, cflip = _children(x, y)
                frame[8] = True
                stack.append(
                    [x, y, (x.id << _SHIFT) | y.id, cf, cs, 0, _cache_for(x, y), cflip, False]
                )
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


# -- canonical forms --------------------------------------------------------------------------


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


def _by_id(g: CanonicalGame) -> int:
    return g.id


# -- negation and sums ------------------------------------------------------------------------


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


# -- named values -----------------------------------------------------------------------------

ZERO = number(0)
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
