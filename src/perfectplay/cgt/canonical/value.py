"""The value type: ``CanonicalGame``, its intern tables, and the values built directly.

Every value is made here, and only here: numbers by ``number`` (their options built on
first use), nimbers by ``nimber``, every other value by ``_make`` from options already in
canonical form, so that one object stands for each value and equality is identity. The
order and the arithmetic import this module and bind their functions into it as they
load (see the hooks below), so that the operators of the type reach them with no import
running the other way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

from .dyadic import _NAN, Rational, _check_dyadic, _exact_float


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
        return _leq(self, h)

    def __ge__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return _leq(h, self)

    def __lt__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return h is not self and _leq(self, h)

    def __gt__(self, other: object) -> bool:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return h is not self and _leq(h, self)

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
        return not _leq(self, h) and not _leq(h, self)

    # -- arithmetic ----------------------------------------------------------------------

    def __add__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return _add(self, h)

    __radd__ = __add__

    def __neg__(self) -> CanonicalGame:
        return _negate(self)

    def __pos__(self) -> CanonicalGame:
        return self

    def __sub__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return _add(self, _negate(h))

    def __rsub__(self, other: object) -> CanonicalGame:
        h = _coerce(other)
        if h is None:
            return NotImplemented
        return _add(h, _negate(self))

    def __mul__(self, count: int) -> CanonicalGame:
        if not isinstance(count, int) or isinstance(count, bool):
            return NotImplemented
        return _multiple(self, count)

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
        return _outcome(self)

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
``perfectplay.cgt`` imports both modules, so they are always there, and this package imports
neither (the imports run one way)."""


def register(name: str, function: Callable[..., Any]) -> None:
    """Make a function of a later module (notation, thermograph) known to the values."""
    _EXTENSIONS[name] = function


# -- hooks ------------------------------------------------------------------------------------
# The order and the arithmetic import this module, so it imports neither: each binds its
# functions to these names as it loads (``value._leq = leq``), and the operators above
# call them as module globals, which costs no more than calling them where they are made.


def _unbound(*args: object) -> NoReturn:
    raise RuntimeError("perfectplay.cgt.canonical was not fully imported")


_leq: Callable[[CanonicalGame, CanonicalGame], bool] = _unbound
_outcome: Callable[[CanonicalGame], str] = _unbound
_add: Callable[[CanonicalGame, CanonicalGame], CanonicalGame] = _unbound
_negate: Callable[[CanonicalGame], CanonicalGame] = _unbound
_multiple: Callable[[CanonicalGame, int], CanonicalGame] = _unbound


# -- tables ---------------------------------------------------------------------------------

_next_id = 0
_INTERN: dict[tuple[tuple[CanonicalGame, ...], tuple[CanonicalGame, ...]], CanonicalGame] = {}
"""Every non-number value, by its options (tuples of values, which hash by identity)."""
_NUMBERS: dict[tuple[int, int], CanonicalGame] = {}
_NIMBERS: list[CanonicalGame] = []


def _new_id() -> int:
    global _next_id
    _next_id += 1
    return _next_id


# -- numbers ----------------------------------------------------------------------------------


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


def _by_id(g: CanonicalGame) -> int:
    """The order options are kept in (see ``_make``)."""
    return g.id


ZERO = number(0)
"""0, the game with no options: the order and the sums test for it."""
