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
    parser = _Parser(text, tokens)
    while parser.i < len(tokens):
        parser.step()
    return parser.result()


class _Parser:
    """One parse in progress: the tokens, the next one's index, and a stack of the open
    contexts (no recursion, so text nested arbitrarily deep parses)."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.stack = [_Frame("top", 0)]

    def fail(self, message: str, column: int) -> InputError:
        """The error to raise for ``message`` at ``column``, naming the whole text."""
        return InputError(f"cannot read {self.text!r}: {message} at column {column}")

    def step(self) -> None:
        """Read the next token (a value with the suffixes written after it) into the
        innermost context."""
        token = self.tokens[self.i]
        frame = self.stack[-1]
        kind = token.kind
        if kind in ("number", "up", "down", "star"):
            self.read_value(frame, token)
            return
        self.i += 1
        if kind == "op":
            self.read_sign(frame, token)
        elif kind == "pm":
            self.read_plus_minus(frame)
        elif kind in ("open", "name"):
            self.open_context(frame, token)
        elif kind == "comma":
            self.end_option(frame, token)
        elif kind == "bars":
            self.end_segment(frame, token)
        elif kind == "close":
            self.close_context(frame, token)

    def result(self) -> CanonicalGame:
        """The value of the whole text, once every token is read and every context closed."""
        frame = self.stack[-1]
        if frame.kind != "top":
            raise self.fail("unclosed " + ("'{'" if frame.kind == "brace" else "'('"), frame.column)
        done = self.finish(frame, len(self.text) + 1, allow_empty=False)
        assert done is not None
        return done

    def take_term(self, frame: _Frame, value: CanonicalGame | _OptionSet, column: int) -> None:
        """Add a term to the context's sum, its pending prefixes (+-, unary -) applied."""
        for prefix in reversed(frame.prefixes):
            if prefix == "+-":
                if isinstance(value, _OptionSet):
                    value = game(value.options, [negate(o) for o in value.options])
                else:
                    value = game([value], [negate(value)])
            else:
                if isinstance(value, _OptionSet):
                    raise self.fail("a list of options without '|' is only read after +-", column)
                value = negate(value)
        if isinstance(value, _OptionSet):
            raise self.fail("a list of options without '|' is only read after +-", column)
        frame.prefixes = []
        term = value if frame.sign > 0 else negate(value)
        frame.total = term if frame.total is None else add(frame.total, term)
        frame.expect_term = False
        frame.started = True

    def finish(self, frame: _Frame, column: int, allow_empty: bool) -> CanonicalGame | None:
        """The context's sum so far, the context made ready for the next (an option after a
        comma); None for nothing written where ``allow_empty``."""
        if frame.expect_term:
            if frame.started or frame.prefixes or not allow_empty:
                raise self.fail("expected a value", column)
            return None
        value = frame.total
        frame.total, frame.sign, frame.expect_term = None, 1, True
        frame.started = False
        return value

    def read_value(self, frame: _Frame, token: _Token) -> None:
        """A number, ups, downs or a nimber, with the ups and nimbers written after it:
        one term (a unary minus just before a number is the number's sign)."""
        if not frame.expect_term:
            raise self.fail(f"expected an operator before {token.text!r}", token.column)
        negative = False
        if token.kind == "number" and frame.prefixes and frame.prefixes[-1] == "-lit":
            frame.prefixes.pop()
            negative = True
        value = _number_of(token, negative) if token.kind == "number" else _suffix_value(token)
        self.i += 1
        while self.i < len(self.tokens) and self.tokens[self.i].kind in ("up", "down", "star"):
            value = add(value, _suffix_value(self.tokens[self.i]))
            self.i += 1
        self.take_term(frame, value, token.column)

    def read_sign(self, frame: _Frame, token: _Token) -> None:
        """'+' or '-': between terms, the next term's sign; before a term, a unary minus."""
        if frame.expect_term:
            if token.text == "-":
                nxt = self.tokens[self.i] if self.i < len(self.tokens) else None
                literal = nxt is not None and nxt.kind == "number"
                frame.prefixes.append("-lit" if literal else "-")
                frame.started = True
        else:
            frame.sign = 1 if token.text == "+" else -1
            frame.expect_term = True

    def read_plus_minus(self, frame: _Frame) -> None:
        """'+-' before a term; between two terms it reads as '+ +-'."""
        if not frame.expect_term:
            frame.sign = 1
            frame.expect_term = True
        frame.prefixes.append("+-")
        frame.started = True

    def open_context(self, frame: _Frame, token: _Token) -> None:
        """'{', '(', 'Tiny(' or 'Miny(': a new context on the stack."""
        if not frame.expect_term:
            raise self.fail(f"expected an operator before {token.text!r}", token.column)
        if token.kind == "open":
            self.stack.append(_Frame("brace" if token.text == "{" else "paren", token.column))
            return
        # The pattern only matches when '(' follows.
        opener = self.tokens[self.i]
        self.i += 1
        assert opener.text == "("
        self.stack.append(_Frame(token.text.lower(), token.column))

    def end_option(self, frame: _Frame, token: _Token) -> None:
        """',' in braces: the option before it joins the current list of options."""
        if frame.kind != "brace":
            raise self.fail("',' outside braces", token.column)
        done = self.finish(frame, token.column, allow_empty=False)
        assert done is not None
        frame.current.append(done)

    def end_segment(self, frame: _Frame, token: _Token) -> None:
        """A run of bars in braces: the options before it make a segment, the run's length
        noted."""
        if frame.kind != "brace":
            raise self.fail("'|' outside braces", token.column)
        if len(token.text) > _MAX_BARS:
            raise self.fail(f"more than {_MAX_BARS} bars in a row", token.column)
        self.close_segment(frame, token.column)
        frame.current = []
        frame.bars.append(len(token.text))

    def close_segment(self, frame: _Frame, column: int) -> None:
        """The options since the last run of bars (maybe none) closed into a segment."""
        done = self.finish(frame, column, allow_empty=not frame.current)
        if done is not None:
            frame.current.append(done)
        frame.segments.append(frame.current)

    def close_context(self, frame: _Frame, token: _Token) -> None:
        """'}' or ')': the innermost context's value, a term of the context around it."""
        want = "brace" if token.text == "}" else None
        if frame.kind == "top" or (want == "brace") != (frame.kind == "brace"):
            raise self.fail(f"unmatched {token.text!r}", token.column)
        closed: CanonicalGame | _OptionSet
        if frame.kind == "brace":
            closed = self.closed_braces(frame, token)
        else:
            closed = self.closed_parentheses(frame, token)
        self.stack.pop()
        self.take_term(self.stack[-1], closed, frame.column)

    def closed_braces(self, frame: _Frame, token: _Token) -> CanonicalGame | _OptionSet:
        """The value of {...}: a game split at its runs of bars, or (no bars) a list of
        options for +-."""
        self.close_segment(frame, token.column)
        if not frame.bars:
            if not frame.segments[0]:
                raise self.fail("'{}' is no value; write {|} for 0", token.column)
            return _OptionSet(frame.segments[0])
        return _from_bars(frame.segments, frame.bars, self.text, frame.column)

    def closed_parentheses(self, frame: _Frame, token: _Token) -> CanonicalGame:
        """The value of (...), Tiny(...) or Miny(...)."""
        done = self.finish(frame, token.column, allow_empty=False)
        assert done is not None
        if frame.kind == "tiny":
            return tiny(done)
        if frame.kind == "miny":
            return miny(done)
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
