"""Partizan values against pycgt, an independent implementation (a test-only dependency).

pycgt's canonical forms are rebuilt here from their options into perfectplay's arithmetic,
and the two values must differ by exactly zero: compared as values, never as text. Its
stops, means and temperatures are compared as numbers.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

pycgt = pytest.importorskip(
    "pycgt", reason="pycgt (a test-only dependency: pip install pycgt) is not installed"
)

from pycgt.rulesets import clobber as pycgt_clobber  # noqa: E402
from pycgt.rulesets import domineering as pycgt_domineering  # noqa: E402
from pycgt.rulesets import toads_and_frogs as pycgt_toads  # noqa: E402

from perfectplay.cgt import (  # noqa: E402
    ZERO,
    CanonicalGame,
    Clobber,
    Domineering,
    Solver,
    ToadsAndFrogs,
    game,
    thermograph,
    value,
)

_CONVERTED: dict[Any, CanonicalGame] = {}


def from_pycgt(g: Any) -> CanonicalGame:
    """A pycgt game rebuilt from its options (bottom-up, no recursion)."""
    stack = [g]
    while stack:
        node = stack[-1]
        if node in _CONVERTED:
            stack.pop()
            continue
        missing = [o for o in (*node.left, *node.right) if o not in _CONVERTED]
        if missing:
            stack.extend(missing)
            continue
        _CONVERTED[node] = game(
            [_CONVERTED[o] for o in node.left], [_CONVERTED[o] for o in node.right]
        )
        stack.pop()
    return _CONVERTED[g]


def same_value(ours: CanonicalGame, theirs: Any) -> bool:
    """Their difference is zero."""
    return (ours - from_pycgt(theirs)) is ZERO


RECTANGLES = [(w, h) for w in range(1, 5) for h in range(1, 5)]


@pytest.mark.parametrize(("width", "height"), RECTANGLES)
def test_domineering_rectangles_match_pycgt(width: int, height: int) -> None:
    ours = value(Domineering(width, height))
    theirs = pycgt_domineering.rectangle(height, width)  # pycgt: rows, then columns
    assert same_value(ours, theirs)


def test_domineering_rectangle_thermographs_match_pycgt() -> None:
    for width, height in RECTANGLES:
        ours = value(Domineering(width, height))
        theirs = pycgt_domineering.rectangle(height, width)
        th = thermograph(ours)
        assert th.mean == pycgt.mean(theirs), (width, height)
        assert th.temperature == pycgt.temperature(theirs), (width, height)
        assert ours.left_stop == pycgt.left_stop(theirs), (width, height)
        assert ours.right_stop == pycgt.right_stop(theirs), (width, height)


def random_region(rnd: random.Random, width: int, height: int) -> str:
    rows = ["".join(rnd.choice("...#") for _ in range(width)) for _ in range(height)]
    return "\n".join(rows)


def test_random_domineering_regions_match_pycgt() -> None:
    rnd = random.Random(19)
    board = Domineering(5, 5)
    solver = Solver(board)
    for _ in range(60):
        text = random_region(rnd, rnd.randint(1, 5), rnd.randint(1, 5))
        ours = solver.value(board.parse_position(text))
        assert same_value(ours, pycgt_domineering.parse(text)), text


def every_strip(length: int) -> list[str]:
    return ["".join(cells) for cells in itertools.product("TF.", repeat=length)]


@pytest.mark.parametrize("length", range(1, 8))
def test_every_toads_and_frogs_strip_matches_pycgt(length: int) -> None:
    toads = ToadsAndFrogs()
    solver = Solver(toads)
    for strip in every_strip(length):
        ours = solver.value(strip)
        assert same_value(ours, pycgt_toads.parse(strip.lower())), strip


def test_random_clobber_rows_match_pycgt() -> None:
    rnd = random.Random(2)
    solver = Solver(Clobber())
    for _ in range(250):
        row = "".join(rnd.choice("xxoo.") for _ in range(rnd.randint(1, 11)))
        ours = solver.value(row)
        assert same_value(ours, pycgt_clobber.parse(row)), row


def test_random_games_thermographs_match_pycgt() -> None:
    rnd = random.Random(7)
    pool = [pycgt.parse(text) for text in ("0", "1", "-1", "1/2", "*", "^", "{2|-1}", "-3/4")]
    for _ in range(300):
        left = rnd.sample(pool, rnd.randint(1, 3))
        right = rnd.sample(pool, rnd.randint(1, 3))
        g = pycgt.game(left, right)
        pool.append(g)
        if len(pool) > 40:
            del pool[8]
        ours = from_pycgt(g)
        th = thermograph(ours)
        assert th.mean == pycgt.mean(g), str(g)
        assert th.temperature == pycgt.temperature(g), str(g)
        assert (ours.left_stop, ours.right_stop) == pycgt.stops(g), str(g)
