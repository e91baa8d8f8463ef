"""The Morris-board toolkit against a plain board drawn on a grid: points as coordinates,
lines as three points in a row, adjacency as neighbours along a drawn segment, the
symmetries as the square's turns and mirrors with the rings turned inside out; compiled
and interpreted, on random boards of both sizes."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from perfectplay.boards import morris

Point = tuple[int, int]


def coordinates(points: int) -> list[Point]:
    """Point i's (row, column): ring r is the square from (r, r) to (m - r, m - r), its
    eight points clockwise from the top-left corner, with m = 2 * rings."""
    rings = points // 8
    m = 2 * rings
    found = []
    for r in range(rings):
        lo, mid, hi = r, rings, m - r
        found += [(lo, lo), (lo, mid), (lo, hi), (mid, hi), (hi, hi), (hi, mid), (hi, lo),
                  (mid, lo)]  # fmt: skip
    return found


def plain_lines(points: int) -> list[frozenset[int]]:
    """Three points in a row or a column, each next to the other along drawn segments:
    a square's side (its points share a ring), or the midpoints across the three rings."""
    where = coordinates(points)
    rings = points // 8
    found = []
    for trio in itertools.combinations(range(points), 3):
        rows = {where[i][0] for i in trio}
        columns = {where[i][1] for i in trio}
        if len(rows) != 1 and len(columns) != 1:
            continue
        same_ring = len({i // 8 for i in trio}) == 1
        across = rings == 3 and all(i % 2 == 1 for i in trio) and len({i % 8 for i in trio}) == 1
        if same_ring or across:
            found.append(frozenset(trio))
    return found


def plain_neighbours(points: int) -> dict[int, set[int]]:
    """Points joined by a drawn segment: consecutive on a square, or midpoints of the same
    side on neighbouring rings."""
    found: dict[int, set[int]] = {i: set() for i in range(points)}
    for i in range(points):
        for j in range(points):
            same_ring = i // 8 == j // 8 and (i - j) % 8 in (1, 7)
            across = i % 8 == j % 8 and i % 2 == 1 and abs(i // 8 - j // 8) == 1
            if same_ring or across:
                found[i].add(j)
    return found


def plain_symmetries(points: int) -> set[tuple[int, ...]]:
    """The grid square's 8 symmetries on the coordinates, each with and without the rings
    turned inside out."""
    where = coordinates(points)
    m = 2 * (points // 8)
    maps = [lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (r, m - c),
            lambda r, c: (m - r, c), lambda r, c: (m - r, m - c), lambda r, c: (m - c, m - r),
            lambda r, c: (c, m - r), lambda r, c: (m - c, r)]  # fmt: skip
    index = {xy: i for i, xy in enumerate(where)}
    rings = points // 8
    found = set()
    for f in maps:
        moved = tuple(index[f(*where[i])] for i in range(points))
        found.add(moved)
        found.add(tuple(8 * (rings - 1 - moved[i] // 8) + moved[i] % 8 for i in range(points)))
    return found


def mask(cells: set[int] | frozenset[int]) -> int:
    return sum(1 << i for i in cells)


def cells(x: int) -> set[int]:
    return {i for i in range(24) if x >> i & 1}


def plain_milled(points: int, stones: int) -> int:
    return mask({i for line in plain_lines(points) if line <= cells(stones) for i in line})


def plain_takeable(points: int, stones: int) -> int:
    free = stones & ~plain_milled(points, stones)
    return free if free else stones


def positions(points: int, seed: int, count: int = 80) -> list[tuple[int, int]]:
    """(mine, theirs) pairs of disjoint random sets, of every density."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        shuffled = rng.sample(range(points), points)
        a, b = rng.randint(0, points), rng.randint(0, points)
        a, b = min(a, b), max(a, b)
        found.append((mask(set(shuffled[:a])), mask(set(shuffled[a:b]))))
    return found


@pytest.mark.parametrize("points", morris.BOARDS)
def test_the_tables_are_the_drawn_board(points: int) -> None:
    assert sorted(map(mask, plain_lines(points))) == sorted(morris.lines_of(points))
    assert len(morris.lines_of(points)) == {24: 16, 16: 8}[points]
    plain = plain_neighbours(points)
    assert morris.neighbours_of(points) == [mask(plain[i]) for i in range(points)]
    assert set(morris.symmetries_of(points)) == plain_symmetries(points)
    assert len(set(morris.symmetries_of(points))) == 16
    assert morris.symmetries_of(points)[0] == tuple(range(points))


@pytest.mark.parametrize("points", morris.BOARDS)
def test_every_helper_agrees_with_the_plain_board(points: int, run: Any) -> None:
    perms = morris.symmetries_of(points)
    plain = plain_neighbours(points)
    lines = plain_lines(points)
    for mine, theirs in positions(points, points):
        empty = mask(set(range(points))) & ~(mine | theirs)
        assert run(morris.count, mine) == len(cells(mine))
        if mine:
            assert run(morris.lowest, mine) == min(cells(mine))
        near = mask({j for i in cells(mine) for j in plain[i]})
        assert run(morris.adjacent, points, mine) == near
        assert run(morris.milled, points, mine) == plain_milled(points, mine)
        assert run(morris.takeable, points, theirs) == plain_takeable(points, theirs)
        want = {p for p in cells(empty) if plain_takeable(points, mine | 1 << p) >> p & 1}
        assert run(morris.take_back, points, mine, empty) == mask(want)
        for point in range(points):
            full = any(point in line and line <= cells(mine) for line in lines)
            assert run(morris.in_mill, points, mine, point) == full
            assert run(morris.neighbours, points, point) == mask(plain[point])
        images = []
        for k, perm in enumerate(perms):
            a = mask({perm[i] for i in cells(mine)})
            b = mask({perm[i] for i in cells(theirs)})
            assert run(morris.image, points, mine, k) == a
            images.append((a, b))
        assert run(morris.least_image, points, mine) == min(a for a, _ in images)
        assert tuple(run(morris.least_pair, points, mine, theirs)) == min(images)


@pytest.mark.parametrize("points", morris.BOARDS)
def test_the_shifting_helpers_agree_with_the_plain_board(points: int, run: Any) -> None:
    """turned, slides_count, mill_points and closers (whole-board shifts and the lines
    through a point) against the drawn board's neighbours and lines."""
    plain = plain_neighbours(points)
    lines = plain_lines(points)
    everyone = set(range(points))
    closing_seen = 0
    for mine, theirs in positions(points, 3 * points, count=150):
        empty = mask(everyone) & ~(mine | theirs)
        for forward, step in ((True, 1), (False, 7)):
            moved = {8 * (i // 8) + (i % 8 + step) % 8 for i in cells(mine)}
            assert run(morris.turned, mine, forward) == mask(moved)
        slides = sum(len(plain[i] & cells(empty)) for i in cells(mine))
        assert run(morris.slides_count, points, mine, empty) == slides
        completing = {p for p in cells(empty) for line in lines
                      if p in line and line - {p} <= cells(mine)}  # fmt: skip
        assert run(morris.mill_points, points, mine, empty) == mask(completing)
        for point in range(points):
            full = [line for line in lines if point in line and line - {point} <= cells(mine)]
            for movers in (mask(plain[point]), mask(everyone)):
                want = {q for q in cells(mine & movers) for line in full if q not in line}
                assert run(morris.closers, points, mine, point, movers) == mask(want)
                closing_seen += len(want)
    assert closing_seen > 100


def test_a_board_of_another_size_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="24 or 16 points, not 12"):
        morris.lines_of(12)
