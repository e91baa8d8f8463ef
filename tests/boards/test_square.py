"""The square-grid toolkit against plain definitions cell by cell, compiled and
interpreted, on random boards of every size it takes."""

from __future__ import annotations

import random
from typing import Any

from perfectplay.boards import square

SIZES = range(1, square.LARGEST + 1)


def cells(x: int, n: int) -> set[tuple[int, int]]:
    return {(r, c) for r in range(n) for c in range(n) if x >> (r * n + c) & 1}


def board(points: set[tuple[int, int]], n: int) -> int:
    return sum(1 << (r * n + c) for r, c in points if 0 <= r < n and 0 <= c < n)


def plain_image(x: int, n: int, k: int) -> int:
    """The k-th symmetry cell by cell, as the module numbers them."""
    maps = {
        0: lambda r, c: (r, c),
        1: lambda r, c: (c, r),
        2: lambda r, c: (r, n - 1 - c),
        3: lambda r, c: (n - 1 - r, c),
        4: lambda r, c: (n - 1 - r, n - 1 - c),
        5: lambda r, c: (n - 1 - c, n - 1 - r),
        6: lambda r, c: (c, n - 1 - r),
        7: lambda r, c: (n - 1 - c, r),
    }
    return board({maps[k](r, c) for r, c in cells(x, n)}, n)


def boards(seed: int, count: int = 60) -> list[tuple[int, int]]:
    """(board, n) pairs: random, empty, full, single cells."""
    rng = random.Random(seed)
    found = []
    for n in SIZES:
        found += [(0, n), ((1 << (n * n)) - 1, n), (1, n), (1 << (n * n - 1), n)]
        found += [(rng.getrandbits(n * n) & rng.getrandbits(n * n), n) for _ in range(count)]
    return found


def test_the_symmetries_move_cells_as_their_definitions_say(run: Any) -> None:
    for x, n in boards(1):
        images = [run(square.image, x, n, k) for k in range(8)]
        assert images == [plain_image(x, n, k) for k in range(8)], (x, n)
        assert run(square.transpose, x, n) == images[1]
        assert run(square.mirror, x, n) == images[2]
        assert run(square.flip, x, n) == images[3]


def test_the_least_image_is_the_least_of_the_eight(run: Any) -> None:
    rng = random.Random(2)
    for x, n in boards(2):
        assert run(square.least_image, x, n) == min(plain_image(x, n, k) for k in range(8))
        y = rng.getrandbits(n * n) & ~x
        want = min((plain_image(x, n, k), plain_image(y, n, k)) for k in range(8))
        assert tuple(run(square.least_pair, x, y, n)) == want, (x, y, n)


def test_symmetric_positions_share_their_least_pair(run: Any) -> None:
    rng = random.Random(3)
    for x, n in boards(3, 20):
        y = rng.getrandbits(n * n) & ~x
        key = tuple(run(square.least_pair, x, y, n))
        for k in range(8):
            moved = (plain_image(x, n, k), plain_image(y, n, k))
            assert tuple(run(square.least_pair, *moved, n)) == key


def test_shifts_drop_what_falls_off_and_lines_and_neighbours_are_found(run: Any) -> None:
    for x, n in boards(4, 25):
        points = cells(x, n)
        for dr in range(-n, n + 1):
            for dc in range(-n, n + 1):
                want = board({(r + dr, c + dc) for r, c in points}, n)
                assert run(square.shift, x, n, dr, dc) == want, (x, n, dr, dc)
        steps = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j]
        around = {(r + i, c + j) for r, c in points for i, j in steps}
        assert run(square.neighbours, x, n) == board(around, n)
        for k in range(1, n + 1):
            assert run(square.has_line, x, n, k) == _plain_line(points, k), (x, n, k)
        assert run(square.has_full_line, x, n) == _plain_full_line(points, n), (x, n)
        assert run(square.popcount, x) == len(points)
        assert run(square.full, n) == (1 << (n * n)) - 1


def _plain_line(points: set[tuple[int, int]], k: int) -> bool:
    return any(
        all((r + i * dr, c + i * dc) in points for i in range(k))
        for r, c in points
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    )


def _plain_full_line(points: set[tuple[int, int]], n: int) -> bool:
    lines = [[(r, c) for c in range(n)] for r in range(n)]
    lines += [[(r, c) for r in range(n)] for c in range(n)]
    lines += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    return any(all(p in points for p in line) for line in lines)


def test_every_full_line_is_found_and_one_cell_short_is_not(run: Any) -> None:
    rng = random.Random(5)
    for n in SIZES:
        lines = [[(r, c) for c in range(n)] for r in range(n)]
        lines += [[(r, c) for r in range(n)] for c in range(n)]
        lines += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
        for line in lines:
            for _ in range(5):
                noise = rng.getrandbits(n * n) & rng.getrandbits(n * n)
                x = noise | board(set(line), n)
                assert run(square.has_full_line, x, n)
                gap = x & ~board({rng.choice(line)}, n)
                assert run(square.has_full_line, gap, n) == _plain_full_line(cells(gap, n), n)
