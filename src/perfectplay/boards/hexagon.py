"""Hexagonal boards as bit boards: a hexagon of side n, for n from 2 to 5 (7, 19, 37, 61
cells: Winkers' 19, Hexapawn-like and Havannah-like boards up to an int64).

Cells are numbered row by row from the top, left to right; cell i is bit i. Row ``row``
(0 to 2n-2) holds ``n + min(row, 2n-2-row)`` cells. In cube coordinates (x, y, z) with
x + y + z = 0 and each in [-(n-1), n-1], a cell's row is ``z + n - 1`` and its place in
the row follows x (drawn at x + z / 2 across). The six directions, numbered as ``shift``
takes them: 0 east, 1 west, 2 south-east, 3 north-west, 4 south-west, 5 north-east
(``DIRECTIONS`` holds their cube steps; d and d ^ 1 are opposite). Lines run along three
axes: the rows (0/1) and the two diagonals (2/3, 4/5).

The twelve symmetries of the hexagon, numbered as ``image`` takes them: k = 6 * reflected
+ turns, where a turn is 60 degrees clockwise, (x, y, z) -> (-z, -x, -y), and the
reflection (applied first) is the mirror left to right, (x, y, z) -> (y, x, z).

Every compiled function takes boards (masks of cells) and n. A board's image, its shift
one step in a direction, and its neighbours are looked up a byte at a time in tables made
at import (an image is the or of at most eight lookups, not a loop over cells).
"""

from __future__ import annotations

import numpy as np

from ..core.compiled import inlined_kernel, kernel
from .byte_tables import byte_images
from .square import popcount

SIDES = (2, 3, 4, 5)
"""The sides a board may have."""

DIRECTIONS = ((1, -1, 0), (-1, 1, 0), (0, -1, 1), (0, 1, -1), (-1, 0, 1), (1, 0, -1))
"""Cube steps of the six directions: east, west, south-east, north-west, south-west,
north-east (d and d ^ 1 opposite)."""

AXES = (0, 2, 4)
"""One direction of each axis: along the rows, and the two diagonals."""

count = popcount
"""The number of cells in a mask."""


def cells_of(n: int) -> list[tuple[int, int, int]]:
    """Each cell's cube coordinates, in the order of the bits."""
    if n not in SIDES:
        raise ValueError(f"a hexagonal board has a side of 2 to 5 cells, not {n}")
    found = []
    for z in range(-(n - 1), n):
        for x in range(max(-(n - 1), -z - (n - 1)), min(n - 1, -z + (n - 1)) + 1):
            found.append((x, -x - z, z))
    return found


def size_of(n: int) -> int:
    """The number of cells: 3n(n-1) + 1."""
    return len(cells_of(n))


def _index(n: int) -> dict[tuple[int, int, int], int]:
    return {cell: i for i, cell in enumerate(cells_of(n))}


def lines_of(n: int, k: int) -> list[int]:
    """Every line of k cells in a row along the three axes, as masks (each once)."""
    where = _index(n)
    found = []
    for x, y, z in where:
        for d in AXES:
            dx, dy, dz = DIRECTIONS[d]
            line = [(x + i * dx, y + i * dy, z + i * dz) for i in range(k)]
            if all(cell in where for cell in line):
                found.append(sum(1 << where[cell] for cell in line))
    return found


def neighbours_of(n: int) -> list[int]:
    """Each cell's neighbours (up to six), as masks."""
    where = _index(n)
    return [
        sum(1 << where[c] for d in DIRECTIONS if (c := (x + d[0], y + d[1], z + d[2])) in where)
        for x, y, z in where
    ]


def symmetries_of(n: int) -> tuple[tuple[int, ...], ...]:
    """The twelve symmetries as permutations (cell i goes to ``perm[i]``), numbered as the
    module docstring says."""
    where = _index(n)
    found = []
    for reflected in (False, True):
        for turns in range(6):
            perm = []
            for x, y, z in where:
                if reflected:
                    x, y = y, x
                for _ in range(turns):
                    x, y, z = -z, -x, -y
                perm.append(where[(x, y, z)])
            found.append(tuple(perm))
    return tuple(found)


def _steps_of(n: int) -> list[list[int]]:
    """Per direction, each cell's neighbour that way, -1 off the board."""
    where = _index(n)
    return [
        [where.get((x + d[0], y + d[1], z + d[2]), -1) for x, y, z in where] for d in DIRECTIONS
    ]


MAPS = 12 + 6 + 1
"""The tables' maps: the 12 symmetries, the 6 shifts, the neighbours."""
NEIGHBOURS_MAP = 18


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side: every cell, and where its bytes' rows start in the maps; each map's
    image of each byte of a board, by the byte's place (a board's image is the or of its
    bytes' images). Under a megabyte: numba caches what uses them."""
    full = np.zeros(max(SIDES) + 1, dtype=np.int64)
    first_place = np.zeros(max(SIDES) + 1, dtype=np.int64)
    places = {n: (size_of(n) + 7) // 8 for n in SIDES}
    maps = np.zeros((MAPS, sum(places.values()), 256), dtype=np.int64)
    at = 0
    for n in SIDES:
        size = size_of(n)
        full[n], first_place[n] = (1 << size) - 1, at
        per_cell = np.zeros((MAPS, size), dtype=np.int64)  # each map's image of each cell
        for k, perm in enumerate(symmetries_of(n)):
            per_cell[k] = [1 << target for target in perm]
        for d, steps in enumerate(_steps_of(n)):
            per_cell[12 + d] = [0 if to < 0 else 1 << to for to in steps]
        per_cell[NEIGHBOURS_MAP] = neighbours_of(n)
        maps[:, at : at + places[n]] = byte_images(per_cell)
        at += places[n]
    return full, first_place, maps


FULL, FIRST_PLACE, MAPPED = _tables()
"""Compile-time constants of the compiled functions."""


@inlined_kernel
def full(n: int) -> int:
    """Every cell of the board of side n."""
    return int(FULL[n])


@inlined_kernel
def mapped(x: int, n: int, m: int) -> int:
    """x under map m of the tables (a symmetry, a shift or the neighbours)."""
    y = 0
    place = FIRST_PLACE[n]
    while x:
        y |= MAPPED[m, place, x & 255]
        x >>= 8
        place += 1
    return int(y)


@kernel
def image(x: int, n: int, k: int) -> int:
    """x under the k-th symmetry (numbered as the module says)."""
    return mapped(x, n, k)


@kernel
def shift(x: int, n: int, d: int) -> int:
    """Every cell of x moved one step in direction d; cells that fall off are dropped."""
    return mapped(x, n, 12 + d)


@kernel
def neighbours(x: int, n: int) -> int:
    """The cells next to a cell of x (six directions), those of x left in."""
    return mapped(x, n, NEIGHBOURS_MAP)


@kernel
def has_line(x: int, n: int, k: int) -> bool:
    """Whether x holds k cells in a row along one of the three axes."""
    for d in range(0, 6, 2):
        run = x
        moved = x
        for _ in range(1, k):
            moved = mapped(moved, n, 12 + (d ^ 1))  # cell c stays while c + i * step is in x
            run &= moved
            if run == 0:
                break
        if run != 0:
            return True
    return False


@kernel
def least_image(x: int, n: int) -> int:
    """The least of x's twelve images: the same for every board symmetric to x."""
    best = x
    for k in range(1, 12):
        best = min(best, mapped(x, n, k))
    return best


@kernel
def least_pair(x: int, y: int, n: int) -> tuple[int, int]:
    """The least (x', y') among the images of two boards under the same symmetry, x'
    first, then y' (two colours of one position): the same for symmetric positions."""
    best_x, best_y = x, y
    for k in range(1, 12):
        a = mapped(x, n, k)
        if a < best_x:
            best_x, best_y = a, mapped(y, n, k)
        elif a == best_x:
            best_y = min(best_y, mapped(y, n, k))
    return best_x, best_y
