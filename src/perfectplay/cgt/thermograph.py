"""Thermographs of short games, and an SVG drawing of one written as plain text.

A thermograph has two walls, functions of the temperature t >= -1 (Siegel's convention):
the left wall L(t) and the right wall R(t) are the stops of G cooled by t. For a number x
both walls stand at x from t = -1. Otherwise, with the scaffolds

    LS(t) = max over G^L of R_{G^L}(t) - t,    RS(t) = min over G^R of L_{G^R}(t) + t,

the walls follow the scaffolds up to the temperature T, the least t with LS(t) <= RS(t),
and above T both are the mast, the vertical line at the mean m = LS(T). Walls are
piecewise linear with slopes 0 or +-1; they are held exactly (``Fraction``) as their
corner points and the slope after the last corner.

The temperature of a number with denominator 2**k is -1/2**k (-1 for an integer); any
other game has T >= 0 in practice, and its left and right stops are L(0) and R(0).

Thermographs are computed for every option first, bottom-up with an explicit stack, and
cached per value. ``svg`` draws one with the usual orientation: values grow to the LEFT
(Left's wall on the left), temperature grows upward.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from .canonical import CanonicalGame, simplest_between
from .canonical.value import register

__all__ = ["PiecewiseLinear", "Thermograph", "svg", "thermograph"]

MINUS_ONE = Fraction(-1)


@dataclass(frozen=True)
class PiecewiseLinear:
    """A continuous function on [-1, oo): corners (t, x) with t increasing from -1, then
    the slope dx/dt after the last corner."""

    points: tuple[tuple[Fraction, Fraction], ...]
    tail: Fraction

    def __call__(self, t: Fraction) -> Fraction:
        points = self.points
        if t >= points[-1][0]:
            t0, x0 = points[-1]
            return x0 + self.tail * (t - t0)
        for (t0, x0), (t1, x1) in itertools.pairwise(points):
            if t <= t1:
                return x0 + (x1 - x0) * (t - t0) / (t1 - t0)
        raise AssertionError("unreachable")

    def slope_after(self, t: Fraction) -> Fraction:
        """The slope just above t."""
        points = self.points
        for (t0, x0), (t1, x1) in itertools.pairwise(points):
            if t0 <= t < t1:
                return (x1 - x0) / (t1 - t0)
        return self.tail

    def shifted(self, sign: int) -> PiecewiseLinear:
        """x(t) + sign * t."""
        return PiecewiseLinear(tuple((t, x + sign * t) for t, x in self.points), self.tail + sign)

    def truncated(self, top: Fraction) -> PiecewiseLinear:
        """The function up to t = top, constant above."""
        points = [p for p in self.points if p[0] < top]
        points.append((top, self(top)))
        return PiecewiseLinear(_simplify(points), Fraction(0))


def _simplify(points: list[tuple[Fraction, Fraction]]) -> tuple[tuple[Fraction, Fraction], ...]:
    """Drop corners where the slope does not change (and repeated t)."""
    out: list[tuple[Fraction, Fraction]] = []
    for p in points:
        if out and out[-1][0] == p[0]:
            continue
        if len(out) >= 2:
            (t0, x0), (t1, x1) = out[-2], out[-1]
            if (x1 - x0) * (p[0] - t1) == (p[1] - x1) * (t1 - t0):
                out[-1] = p
                continue
        out.append(p)
    return tuple(out)


def _envelope(functions: list[PiecewiseLinear], upper: bool) -> PiecewiseLinear:
    """The pointwise max (upper) or min of functions."""
    result = functions[0]
    for other in functions[1:]:
        result = _pair(result, other, upper)
    return result


def _pair(f: PiecewiseLinear, g: PiecewiseLinear, upper: bool) -> PiecewiseLinear:
    ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
    pick = max if upper else min
    points: list[tuple[Fraction, Fraction]] = []
    for index, t in enumerate(ts):
        a, b = f(t), g(t)
        if index:
            t0 = ts[index - 1]
            a0, b0 = f(t0), g(t0)
            crossing = _crossing(t0, a0 - b0, t, a - b)
            if crossing is not None:
                points.append((crossing, f(crossing)))
        points.append((t, pick(a, b)))
    # Beyond the last corner both are straight lines.
    t_last = ts[-1]
    da = f(t_last) - g(t_last)
    slope = f.tail - g.tail
    if slope and (da > 0) != (slope > 0) and da != 0:
        t_cross = t_last - da / slope
        points.append((t_cross, f(t_cross)))
        t_last = t_cross
        da = Fraction(0)
    if da == 0:  # they meet (or cross) here: the steeper or shallower one goes on
        return PiecewiseLinear(_simplify(points), pick(f.tail, g.tail))
    tail = f.tail if (da > 0) == upper else g.tail
    return PiecewiseLinear(_simplify(points), tail)


def _crossing(t0: Fraction, d0: Fraction, t1: Fraction, d1: Fraction) -> Fraction | None:
    """Where a linear difference going from d0 (at t0) to d1 (at t1) changes sign inside."""
    if (d0 > 0 and d1 < 0) or (d0 < 0 and d1 > 0):
        return t0 + (t1 - t0) * d0 / (d0 - d1)
    return None


@dataclass(frozen=True)
class Thermograph:
    """The walls, the mast (mean) and the temperature of a game."""

    left_wall: PiecewiseLinear
    right_wall: PiecewiseLinear
    mast: Fraction
    temperature: Fraction

    @property
    def mean(self) -> Fraction:
        """The mean value, where the mast stands."""
        return self.mast


_CACHE: dict[int, Thermograph] = {}


def _number_thermograph(x: Fraction) -> Thermograph:
    wall = PiecewiseLinear(((MINUS_ONE, x),), Fraction(0))
    temperature = Fraction(-1, x.denominator)
    return Thermograph(wall, wall, x, temperature)


def _from_options(lefts: list[Thermograph], rights: list[Thermograph]) -> Thermograph:
    left_scaffold = _envelope([th.right_wall.shifted(-1) for th in lefts], upper=True)
    right_scaffold = _envelope([th.left_wall.shifted(+1) for th in rights], upper=False)
    difference_at = {}
    ts = sorted({t for t, _ in left_scaffold.points} | {t for t, _ in right_scaffold.points})
    for t in ts:
        difference_at[t] = left_scaffold(t) - right_scaffold(t)
    top: Fraction | None = None
    if difference_at[ts[0]] <= 0:
        top = ts[0]
    else:
        for t0, t1 in itertools.pairwise(ts):
            d0, d1 = difference_at[t0], difference_at[t1]
            if d1 <= 0:
                top = t1 if d1 == 0 else t0 + (t1 - t0) * d0 / (d0 - d1)
                break
        if top is None:
            t_last = ts[-1]
            slope = left_scaffold.tail - right_scaffold.tail
            if slope >= 0:
                raise AssertionError("scaffolds never meet: not a short game")
            top = t_last - difference_at[t_last] / slope
    low, high = left_scaffold(top), right_scaffold(top)
    mast = low if low == high else simplest_between(low, high)
    if low != high:
        # Already a number at t = -1: the walls are the mast.
        wall = PiecewiseLinear(((MINUS_ONE, mast),), Fraction(0))
        return Thermograph(wall, wall, mast, top)
    return Thermograph(left_scaffold.truncated(top), right_scaffold.truncated(top), mast, top)


def thermograph(g: CanonicalGame) -> Thermograph:
    """The thermograph of g (cached per value)."""
    found = _CACHE.get(g.id)
    if found is not None:
        return found
    stack = [g]
    while stack:
        node = stack[-1]
        if node.id in _CACHE:
            stack.pop()
            continue
        if node.num is not None:
            _CACHE[node.id] = _number_thermograph(node.num)
            stack.pop()
            continue
        missing = [o for o in (*node.left, *node.right) if o.id not in _CACHE]
        if missing:
            stack.extend(missing)
            continue
        _CACHE[node.id] = _from_options(
            [_CACHE[o.id] for o in node.left], [_CACHE[o.id] for o in node.right]
        )
        stack.pop()
    return _CACHE[g.id]


register("thermograph", thermograph)


# -- drawing ----------------------------------------------------------------------------------


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def svg(g: CanonicalGame, title: str | None = None, width: int = 480, height: int = 360) -> str:
    """An SVG drawing of g's thermograph: Left's wall blue, Right's red, the mast black.

    Values grow to the left, temperature upward; the line t = 0 is drawn, with the mean
    and temperature written underneath.
    """
    th = thermograph(g)
    canvas = _canvas_for(th, width, height)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        lines.append(
            f'<text x="{width / 2:.1f}" y="20" text-anchor="middle" font-size="14">'
            f"{_escape(title)}</text>"
        )
    lines += _axes(canvas)
    lines += _value_ticks(canvas)
    lines.append(_wall_line(canvas, th.left_wall, "#1f5fbf"))
    lines.append(_wall_line(canvas, th.right_wall, "#c0392b"))
    lines.append(_mast_line(canvas, th))
    lines.append(
        f'<text x="{width / 2:.1f}" y="{height - 16}" text-anchor="middle">'
        f"mean {_fmt(th.mast)}, temperature {_fmt(th.temperature)}</text>"
    )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class _Canvas:
    """The drawing's frame: values from x_low to x_high (growing to the left), temperatures
    from -1 up to top, inside the margins."""

    width: int
    height: int
    x_low: Fraction
    x_high: Fraction
    top: Fraction
    margin_left: int = 40
    margin_right: int = 20
    margin_top: int = 40
    margin_bottom: int = 60

    def px(self, x: Fraction) -> float:
        """Where value x is drawn across: larger values further left."""
        plot_w = self.width - self.margin_left - self.margin_right
        return self.margin_left + float((self.x_high - x) / (self.x_high - self.x_low)) * plot_w

    def py(self, t: Fraction) -> float:
        """Where temperature t is drawn down: higher temperatures further up."""
        plot_h = self.height - self.margin_top - self.margin_bottom
        return self.margin_top + float((self.top - t) / (self.top - MINUS_ONE)) * plot_h


def _canvas_for(th: Thermograph, width: int, height: int) -> _Canvas:
    """The frame that holds every corner of both walls and the mast, with an eighth of the
    span to spare on either side and one degree above the temperature (or above 0)."""
    top = max(th.temperature, Fraction(0)) + 1
    corners = [p for p in th.left_wall.points] + [p for p in th.right_wall.points]
    xs = [x for _, x in corners] + [th.left_wall(top), th.right_wall(top), th.mast]
    x_high, x_low = max(xs), min(xs)
    span = max(x_high - x_low, Fraction(1))
    return _Canvas(width, height, x_low - span / 8, x_high + span / 8, top)


def _axes(canvas: _Canvas) -> list[str]:
    """The line t = 0 and the line t = -1 (dashed), each labelled."""
    lines = []
    for t, dash in ((Fraction(0), ""), (MINUS_ONE, ' stroke-dasharray="4,3"')):
        lines.append(
            f'<line x1="{canvas.margin_left}" y1="{canvas.py(t):.2f}" '
            f'x2="{canvas.width - canvas.margin_right}" '
            f'y2="{canvas.py(t):.2f}" stroke="#999"{dash}/>'
        )
        lines.append(
            f'<text x="{canvas.margin_left - 6}" y="{canvas.py(t) + 4:.2f}" '
            f'text-anchor="end">t={_fmt(t)}</text>'
        )
    return lines


def _value_ticks(canvas: _Canvas) -> list[str]:
    """Ticks on the line t = 0 at the integers in range (a few at most), labelled below."""
    px, py = canvas.px, canvas.py
    lines = []
    first, last = int(canvas.x_low) - 1, int(canvas.x_high) + 1
    step = max(1, (last - first) // 8)
    for v in range(first, last + 1, step):
        value = Fraction(v)
        if canvas.x_low <= value <= canvas.x_high:
            lines.append(
                f'<line x1="{px(value):.2f}" y1="{py(Fraction(0)) - 3:.2f}" '
                f'x2="{px(value):.2f}" y2="{py(Fraction(0)) + 3:.2f}" stroke="#999"/>'
            )
            lines.append(
                f'<text x="{px(value):.2f}" y="{py(MINUS_ONE) + 16:.2f}" '
                f'text-anchor="middle" fill="#666">{v}</text>'
            )
    return lines


def _wall_line(canvas: _Canvas, wall: PiecewiseLinear, colour: str) -> str:
    """A wall as a polyline through its corners, up to the top of the drawing."""
    pts = [(t, x) for t, x in wall.points if t <= canvas.top]
    pts.append((canvas.top, wall(canvas.top)))
    coords = " ".join(f"{canvas.px(x):.2f},{canvas.py(t):.2f}" for t, x in pts)
    return (
        f'<polyline points="{coords}" fill="none" stroke="{colour}" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
    )


def _mast_line(canvas: _Canvas, th: Thermograph) -> str:
    """The mast: the vertical line at the mean, from the temperature to the top."""
    mast_t = max(th.temperature, MINUS_ONE)
    return (
        f'<line x1="{canvas.px(th.mast):.2f}" y1="{canvas.py(mast_t):.2f}" '
        f'x2="{canvas.px(th.mast):.2f}" y2="{canvas.py(canvas.top):.2f}" '
        f'stroke="black" stroke-width="2.5"/>'
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
