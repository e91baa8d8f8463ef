"""The usual notation for game values: ``render`` writes it, ``parse`` reads it back.

Written forms, from the most special to the general:

- numbers: ``0``, ``3``, ``-2``, ``1/2``, ``-3/4`` (dyadic rationals only);
- a number plus ups and a nimber: ``*``, ``*2``, ``^``, ``^^``, ``^3``, ``v``, ``vv``,
  ``v3``, ``^*``, ``v*2``, ``1*``, ``-1/2^*`` (a number written first with its sign: the
  sign belongs to the number, not to the rest);
- ``Tiny(x)`` = ``{0 || 0 | -x}`` and ``Miny(x)`` = ``{x | 0 || 0}`` for numbers x > 0;
- ``+-x`` = ``{x | -x}`` and ``+-{a,b}`` = ``{a,b | -a,-b}``;
- anything else as ``{left options | right options}``, options separated by commas.

``parse`` reads all of these, and expressions: ``+`` and ``-`` between terms, unary ``-``,
parentheses, ``Tiny(...)``/``Miny(...)`` of any expression, and CGSuite's bars:
``{a || b | c}`` is ``{a | {b | c}}`` (the longest run of bars splits first). ``+-``
between two terms reads as ``+ +-``: ``1+-1`` is ``1 + {1|-1}``. Unicode ``↑ ↓ ⇑ ⇓ ±``
are accepted too. ``parse(render(g)) is g`` for every value.

Both directions use explicit stacks: a value of any depth renders, and text nested
arbitrarily deep parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import InputError
from .canonical import (
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    add,
    game,
    miny,
    negate,
    nimber,
    number,
    tiny,
    up_multiple,
)
from .canonical.value import register

__all__ = ["format_number", "parse", "render", "up_star_parts"]


# -- rendering --------------------------------------------------------------------------------


def format_number(x: Fraction) -> str:
    """3, -2, 1/2, -3/4."""
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def _up_text(n: int) -> str:
    if n == 0:
        return ""
    symbol = "^" if n > 0 else "v"
    k = abs(n)
    return symbol * k if k <= 2 else f"{symbol}{k}"


def _star_text(m: int) -> str:
    return "" if m == 0 else "*" if m == 1 else f"*{m}"


_UPSTAR_TABLE: dict[int, tuple[int, int]] = {}
_TABLE_UPS = 12
_TABLE_NIMBERS = 16


def _structural_up(h: CanonicalGame) -> tuple[int, int] | None:
    """(n, m) with h = n.^ + *m, m in {0, 1}, n >= 0, read off the canonical forms
    ^ = {0|*}, ^* = {0,*|0}, n.^ = {0 | (n-1).^*} and n.^* = {0 | (n-1).^}."""
    chain: list[CanonicalGame] = []
    node = h
    base: tuple[int, int] | None = None
    while True:
        if node.nim is not None and node.nim <= 1:
            base = (0, node.nim)
            break
        if node is _UP_STAR:
            base = (1, 1)
            break
        if len(node.left) == 1 and node.left[0] is ZERO and len(node.right) == 1:
            chain.append(node)
            node = node.right[0]
            continue
        return None
    n, m = base
    for _ in chain:
        if m == 1:
            n, m = n + 1, 0
        elif n >= 1:
            n, m = n + 1, 1
        else:
            return None
    return n, m


_UP_STAR = add(UP, STAR)


def up_star_parts(g: CanonicalGame) -> tuple[Fraction, int, int] | None:
    """(x, n, m) when g = x + n.^ + *m (x a number), else None."""
    if g.num is not None:
        return g.num, 0, 0
    if g.ls != g.rs:
        return None
    x = g.ls
    h = add(g, number(-x)) if x else g
    if h.nim is not None:
        return x, 0, h.nim
    found = _structural_up(h)
    if found is None:
        neg = _structural_up(negate(h))
        if neg is not None:
            found = (-neg[0], neg[1])
    if found is None and h.birthday <= _TABLE_UPS + _TABLE_NIMBERS + 2:
        if not _UPSTAR_TABLE:
            for n in range(-_TABLE_UPS, _TABLE_UPS + 1):
                ups = up_multiple(n)
                for m in range(2, _TABLE_NIMBERS):
                    _UPSTAR_TABLE[add(ups, nimber(m)).id] = (n, m)
        found = _UPSTAR_TABLE.get(h.id)
    if found is None:
        return None
    return x, found[0], found[1]


def _special(g: CanonicalGame) -> str | None:
    """The text of g when it needs no option texts, else None."""
    parts = up_star_parts(g)
    if parts is not None:
        x, n, m = parts
        text = (format_number(x) if x else "") + _up_text(n) + _star_text(m)
        return text or "0"
    if len(g.left) == 1 and len(g.right) == 1:
        a, b = g.left[0], g.right[0]
        if a is ZERO and len(b.left) == 1 and b.left[0] is ZERO and len(b.right) == 1:
            far = b.right[0].num
            if far is not None and far < 0:
                return f"Tiny({format_number(-far)})"
        if b is ZERO and len(a.right) == 1 and a.right[0] is ZERO and len(a.left) == 1:
            far = a.left[0].num
            if far is not None and far > 0:
                return f"Miny({format_number(far)})"
    return None


def _symmetric(g: CanonicalGame) -> bool:
    """True when g's Right options are exactly the negatives of its Left options."""
    if len(g.left) != len(g.right):
        return False
    return {negate(o).id for o in g.left} == {o.id for o in g.right}


def _order(g: CanonicalGame) -> tuple[Fraction, Fraction, int]:
    return (g.ls, g.rs, g.birthday)


def render(g: CanonicalGame) -> str:
    """The value in the usual notation; parse() reads it back to the same value."""
    texts: dict[int, str] = {}
    stack = [g]
    while stack:
        node = stack[-1]
        if node.id in texts:
            stack.pop()
            continue
        special = _special(node)
        if special is not None:
            texts[node.id] = special
            stack.pop()
            continue
        symmetric = _symmetric(node)
        needed = node.left if symmetric else (*node.left, *node.right)
        missing = [o for o in needed if o.id not in texts]
        if missing:
            stack.extend(missing)
            continue
        if symmetric:
            options = sorted(node.left, key=lambda o: (_order(o), texts[o.id]))
            if len(options) == 1:
                texts[node.id] = "+-" + texts[options[0].id]
            else:
                texts[node.id] = "+-{" + ",".join(texts[o.id] for o in options) + "}"
        else:
            left = sorted(node.left, key=lambda o: (_order(o), texts[o.id]))
            right = sorted(node.right, key=lambda o: (_order(o), texts[o.id]))
            texts[node.id] = (
                "{"
                + ",".join(texts[o.id] for o in left)
                + "|"
                + ",".join(texts[o.id] for o in right)
                + "}"
            )
        stack.pop()
    return texts[g.id]


# -- parsing ----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?(?:/\d+)?)
  | (?P<pm>\+-|±)
  | (?P<op>[-+])
  | (?P<open>[{(])
  | (?P<close>[})])
  | (?P<comma>,)
  | (?P<bars>\|+)
  | (?P<up>\^(?:\d+|\^*)|↑|⇑)
  | (?P<down>v(?:\d+|v*)|↓|⇓)
  | (?P<star>\*\d*)
  | (?P<name>(?i:tiny|miny)(?=\s*\())
    """,
    re.VERBOSE,
)

_MAX_BARS = 64


@dataclass
class _Token:
    kind: str
    text: str
    column: int


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    i = 0
    while i < len(text):
        match = _TOKEN.match(text, i)
        if match is None:
            raise InputError(f"cannot read {text!r}: unexpected {text[i]!r} at column {i + 1}")
        kind = match.lastgroup
        assert kind is not None
        if kind != "space":
            out.append(_Token(kind, match.group(), i + 1))
        i = match.end()
    return out


def _number_of(token: _Token, negative: bool) -> CanonicalGame:
    text = token.text
    try:
        if "/" in text:
            top, bottom = text.split("/")
            value = Fraction(Fraction(top), Fraction(bottom))
        else:
            value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{text!r} at column {token.column} is not a number") from None
    if negative:
        value = -value
    try:
        return number(value)
    except ValueError as exc:
        raise InputError(f"{text!r} at column {token.column}: {exc}") from None


def _suffix_value(token: _Token) -> CanonicalGame:
    text = token.text
    if token.kind == "star":
        try:
            return nimber(int(text[1:]) if len(text) > 1 else 1)
        except ValueError as exc:
            raise InputError(f"{text!r} at column {token.column}: {exc}") from None
    sign = 1 if token.kind == "up" else -1
    if text in ("↑", "↓"):
        count = 1
    elif text in ("⇑", "⇓"):
        count = 2
    elif text[1:].isdigit():
        count = int(text[1:])
    else:
        count = len(text)
    return up_multiple(sign * count)


@dataclass
class _Frame:
    """One open context: the whole text, a parenthesis, a brace or Tiny(...)/Miny(...)."""

    kind: str
    column: int
    total: CanonicalGame | None = None
    sign: int = 1
    expect_term: bool = True
    prefixes: list[str] = field(default_factory=list)
    started: bool = False
    # Braces: option lists between runs of bars, and the runs' lengths.
    segments: list[list[CanonicalGame]] = field(default_factory=list)
    bars: list[int] = field(default_factory=list)
    current: list[CanonicalGame] = field(default_factory=list)


@dataclass
class _OptionSet:
    """{a, b} without bars: only the operand of +-."""

    options: list[CanonicalGame]


def parse(text: str) -> CanonicalGame:
    """Read a value or an expression in the usual notation (see the module docstring)."""
    tokens = _tokens(text)
    if not tokens:
        raise InputError("empty expression: write a value such as {1|-1} + ^ + *")
    stack = [_Frame("top", 0)]
    i = 0

    def fail(message: str, column: int) -> InputError:
        return InputError(f"cannot read {text!r}: {message} at column {column}")

    def take_term(frame: _Frame, value: CanonicalGame | _OptionSet, column: int) -> None:
        for prefix in reversed(frame.prefixes):
            if prefix == "+-":
                if isinstance(value, _OptionSet):
                    value = game(value.options, [negate(o) for o in value.options])
                else:
                    value = game([value], [negate(value)])
            else:
                if isinstance(value, _OptionSet):
                    raise fail("a list of options without '|' is only read after +-", column)
                value = negate(value)
        if isinstance(value, _OptionSet):
            raise fail("a list of options without '|' is only read after +-", column)
        frame.prefixes = []
        term = value if frame.sign > 0 else negate(value)
        frame.total = term if frame.total is None else add(frame.total, term)
        frame.expect_term = False
        frame.started = True

    def finish(frame: _Frame, column: int, allow_empty: bool) -> CanonicalGame | None:
        if frame.expect_term:
            if frame.started or frame.prefixes or not allow_empty:
                raise fail("expected a value", column)
            return None
        value = frame.total
        frame.total, frame.sign, frame.expect_term = None, 1, True
        frame.started = False
        return value

    while i < len(tokens):
        token = tokens[i]
        frame = stack[-1]
        kind = token.kind
        if kind in ("number", "up", "down", "star"):
            if not frame.expect_term:
                raise fail(f"expected an operator before {token.text!r}", token.column)
            negative = False
            if kind == "number" and frame.prefixes and frame.prefixes[-1] == "-lit":
                frame.prefixes.pop()
                negative = True
            value = _number_of(token, negative) if kind == "number" else _suffix_value(token)
            i += 1
            while i < len(tokens) and tokens[i].kind in ("up", "down", "star"):
                value = add(value, _suffix_value(tokens[i]))
                i += 1
            take_term(frame, value, token.column)
            continue
        i += 1
        if kind == "op":
            if frame.expect_term:
                if token.text == "-":
                    nxt = tokens[i] if i < len(tokens) else None
                    literal = nxt is not None and nxt.kind == "number"
                    frame.prefixes.append("-lit" if literal else "-")
                    frame.started = True
            else:
                frame.sign = 1 if token.text == "+" else -1
                frame.expect_term = True
        elif kind == "pm":
            if not frame.expect_term:
                frame.sign = 1
                frame.expect_term = True
            frame.prefixes.append("+-")
            frame.started = True
        elif kind == "open":
            if not frame.expect_term:
                raise fail(f"expected an operator before {token.text!r}", token.column)
            stack.append(_Frame("brace" if token.text == "{" else "paren", token.column))
        elif kind == "name":
            if not frame.expect_term:
                raise fail(f"expected an operator before {token.text!r}", token.column)
            # The pattern only matches when '(' follows.
            opener = tokens[i]
            i += 1
            assert opener.text == "("
            stack.append(_Frame(token.text.lower(), token.column))
        elif kind == "comma":
            if frame.kind != "brace":
                raise fail("',' outside braces", token.column)
            done = finish(frame, token.column, allow_empty=False)
            assert done is not None
            frame.current.append(done)
        elif kind == "bars":
            if frame.kind != "brace":
                raise fail("'|' outside braces", token.column)
            if len(token.text) > _MAX_BARS:
                raise fail(f"more than {_MAX_BARS} bars in a row", token.column)
            done = finish(frame, token.column, allow_empty=not frame.current)
            if done is not None:
                frame.current.append(done)
            frame.segments.append(frame.current)
            frame.current = []
            frame.bars.append(len(token.text))
        elif kind == "close":
            want = "brace" if token.text == "}" else None
            if frame.kind == "top" or (want == "brace") != (frame.kind == "brace"):
                raise fail(f"unmatched {token.text!r}", token.column)
            closed: CanonicalGame | _OptionSet
            if frame.kind == "brace":
                done = finish(frame, token.column, allow_empty=not frame.current)
                if done is not None:
                    frame.current.append(done)
                frame.segments.append(frame.current)
                if not frame.bars:
                    if not frame.segments[0]:
                        raise fail("'{}' is no value; write {|} for 0", token.column)
                    closed = _OptionSet(frame.segments[0])
                else:
                    closed = _from_bars(frame.segments, frame.bars, text, frame.column)
            else:
                done = finish(frame, token.column, allow_empty=False)
                assert done is not None
                if frame.kind == "tiny":
                    closed = tiny(done)
                elif frame.kind == "miny":
                    closed = miny(done)
                else:
                    closed = done
            stack.pop()
            take_term(stack[-1], closed, frame.column)
    frame = stack[-1]
    if frame.kind != "top":
        raise fail("unclosed " + ("'{'" if frame.kind == "brace" else "'('"), frame.column)
    done = finish(frame, len(text) + 1, allow_empty=False)
    assert done is not None
    return done


def _from_bars(
    segments: list[list[CanonicalGame]], bars: list[int], text: str, column: int
) -> CanonicalGame:
    """{a || b | c}: the longest run of bars splits first; runs of one length may not tie.

    Each call splits at a strictly shorter run than its caller, so the depth is at most
    the number of distinct run lengths (no more than _MAX_BARS)."""
    longest = max(bars)
    if bars.count(longest) > 1:
        raise InputError(
            f"cannot read {text!r}: ambiguous bars in the braces at column {column} "
            f"(two runs of {longest})"
        )
    cut = bars.index(longest)
    sides = []
    for part_segments, part_bars in (
        (segments[: cut + 1], bars[:cut]),
        (segments[cut + 1 :], bars[cut + 1 :]),
    ):
        if part_bars:
            sides.append([_from_bars(part_segments, part_bars, text, column)])
        else:
            sides.append(part_segments[0])
    return game(sides[0], sides[1])


register("render", render)
register("parse", parse)
