"""The hexagonal-board toolkit against plain definitions in the plane: each cell a point
(a row's cells one unit apart, rows sqrt(3)/2 apart, centred), a symmetry a turn or a
mirror of the points, a direction a unit step; compiled and interpreted, random boards."""

from __future__ import annotations

import cmath
import math
import random
from typing import Any

import pytest

from perfectplay.boards import hexagon

SIDES = hexagon.SIDES
HEIGHT = math.sqrt(3) / 2
STEPS = {  # the module's directions as steps in the plane (y grows downwards)
    0: complex(1, 0),
    1: complex(-1, 0),
    2: complex(0.5, HEIGHT),
    3: complex(-0.5, -HEIGHT),
    4: complex(-0.5, HEIGHT),
    5: complex(0.5, -HEIGHT),
}


def points(n: int) -> list[complex]:
    """The cells as points, row by row from the top, left to right."""
    found = []
    for row in range(2 * n - 1):
        length = n + min(row, 2 * n - 2 - row)
        found += [complex(c - (length - 1) / 2, row * HEIGHT) for c in range(length)]
    return found


def cell_at(n: int, point: complex) -> int | None:
    for i, p in enumerate(points(n)):
        if abs(p - point) < 1e-6:
            return i
    return None


def board(cells: list[int | None]) -> int:
    return sum(1 << c for c in cells if c is not None)


def members(x: int, n: int) -> list[int]:
    return [i for i in range(len(points(n))) if x >> i & 1]


def plain_image(x: int, n: int, k: int) -> int:
    """Mirror left to right when k >= 6, then k % 6 turns of 60 degrees clockwise about
    the centre."""
    centre = points(n)[len(points(n)) // 2]
    moved = []
    for i in members(x, n):
        p = points(n)[i] - centre
        if k >= 6:
            p = complex(-p.real, p.imag)
        p *= cmath.exp(1j * math.pi / 3 * (k % 6))
        moved.append(cell_at(n, p + centre))
    assert None not in moved
    return board(moved)


def plain_shift(x: int, n: int, d: int) -> int:
    return board([cell_at(n, points(n)[i] + STEPS[d]) for i in members(x, n)])


def plain_lines(n: int, k: int) -> set[int]:
    found = set()
    for start in points(n):
        for d in (0, 2, 4):
            cells = [cell_at(n, start + i * STEPS[d]) for i in range(k)]
            if None not in cells:
                found.add(board(cells))
    return found


def boards(seed: int, count: int = 25) -> list[tuple[int, int]]:
    """(board, n): empty, full, single cells and random ones."""
    rng = random.Random(seed)
    found = []
    for n in SIDES:
        size = len(points(n))
        found += [(0, n), ((1 << size) - 1, n), (1, n), (1 << (size - 1), n)]
        found += [(rng.getrandbits(size) & rng.getrandbits(size), n) for _ in range(count)]
    return found


def test_the_board_is_numbered_row_by_row() -> None:
    for n in SIDES:
        assert hexagon.size_of(n) == len(points(n)) == 3 * n * (n - 1) + 1
    assert hexagon.size_of(5) == 61  # the largest that fits an int64


@pytest.mark.parametrize("side", [0, 1, 6])
def test_a_side_without_a_board_is_refused(side: int) -> None:
    with pytest.raises(ValueError, match="side of 2 to 5"):
        hexagon.cells_of(side)


def test_the_twelve_symmetries_move_cells_as_turns_and_mirrors_do(run: Any) -> None:
    for x, n in boards(1):
        assert [run(hexagon.image, x, n, k) for k in range(12)] == [
            plain_image(x, n, k) for k in range(12)
        ], (x, n)


def test_the_permutations_are_the_images_of_single_cells() -> None:
    for n in SIDES:
        perms = hexagon.symmetries_of(n)
        assert len(set(perms)) == 12
        for k, perm in enumerate(perms):
            assert [1 << to for to in perm] == [plain_image(1 << i, n, k) for i in range(len(perm))]


def test_the_least_image_and_pair_are_the_least_of_the_twelve(run: Any) -> None:
    rng = random.Random(2)
    for x, n in boards(2):
        images = [plain_image(x, n, k) for k in range(12)]
        assert run(hexagon.least_image, x, n) == min(images)
        y = rng.getrandbits(len(points(n))) & ~x
        pairs = [(images[k], plain_image(y, n, k)) for k in range(12)]
        assert tuple(run(hexagon.least_pair, x, y, n)) == min(pairs)


def test_shifts_and_neighbours_step_as_the_plane_does(run: Any) -> None:
    for x, n in boards(3):
        shifted = [plain_shift(x, n, d) for d in range(6)]
        assert [run(hexagon.shift, x, n, d) for d in range(6)] == shifted
        around = 0
        for s in shifted:
            around |= s
        assert run(hexagon.neighbours, x, n) == around
        for i in members(x, n)[:3]:
            assert hexagon.neighbours_of(n)[i] == run(hexagon.neighbours, 1 << i, n)


def test_lines_are_the_plane_s_straight_runs(run: Any) -> None:
    for n in SIDES:
        for k in range(1, 2 * n):
            lines = plain_lines(n, k)
            assert len(hexagon.lines_of(n, k)) == len(lines) or k == 1
            assert set(hexagon.lines_of(n, k)) == lines
    assert len(hexagon.lines_of(3, 3)) == 27  # Winkers' board: 27 lines of three
    rng = random.Random(4)
    for x, n in boards(4):
        for k in range(2, 2 * n):
            expected = any(x & line == line for line in plain_lines(n, k))
            assert run(hexagon.has_line, x, n, k) == expected, (x, n, k)
        line = rng.choice(sorted(plain_lines(n, n)))
        assert run(hexagon.has_line, line, n, n)
