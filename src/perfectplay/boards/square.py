"""Square grids as bit boards: cell (r, c) of an n x n grid is bit ``r * n + c``.

For n from 1 to 7 (49 cells in an int64, the sign bit never used). Every function takes
the board(s) and n and returns boards or counts: shifts that drop what falls off the grid,
lines of k in a row and full lines, neighbours, population counts, and the eight
symmetries of the square: three reflections each a few masked shifts a row or a column,
and any of the eight looked up a byte at a time in tables made at import, with the least
image of a board (or of two boards under one symmetry: a position's two colours) under all
eight, the key a symmetric game folds positions with.

The symmetries, numbered as ``image`` takes them: 0 the identity, 1 the transpose
(r, c) -> (c, r), 2 the mirror (r, c) -> (r, n-1-c), 3 the flip (r, c) -> (n-1-r, c),
4 the rotation by 180 degrees (mirror then flip), 5 the anti-transpose (transpose then
the rotation), 6 and 7 the quarter turns (transpose then mirror; transpose then flip).
"""

from __future__ import annotations

import numpy as np

from ..core.bits import popcount as popcount  # (the toolkit's count: one instruction)
from ..core.compiled import inlined_kernel, kernel
from .byte_tables import byte_images

LARGEST = 7
"""The largest n: 49 cells (an 8 x 8 board would need the sign bit)."""


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per n: the full board, column 0, row 0; and the diagonals c - r = d (index d + 7)."""
    full = np.zeros(LARGEST + 1, dtype=np.int64)
    column = np.zeros(LARGEST + 1, dtype=np.int64)
    diagonal = np.zeros((LARGEST + 1, 2 * LARGEST + 1), dtype=np.int64)
    for n in range(1, LARGEST + 1):
        full[n] = (1 << (n * n)) - 1
        column[n] = sum(1 << (r * n) for r in range(n))
        for r in range(n):
            for c in range(n):
                diagonal[n, c - r + LARGEST] |= 1 << (r * n + c)
    return full, column, diagonal


FULL, COLUMN0, DIAGONALS = _tables()
"""Masks per n (compile-time constants of the compiled functions)."""


def symmetries_of(n: int) -> tuple[tuple[int, ...], ...]:
    """The eight symmetries of the n x n grid as permutations (cell i goes to
    ``perm[i]``), numbered as the module docstring says."""
    last = n - 1
    found = []
    for k in range(8):
        perm = []
        for i in range(n * n):
            r, c = i // n, i % n
            if k == 1 or k >= 5:  # the transpose first, as ``image`` takes them
                r, c = c, r
            if k in (2, 4, 5, 6):
                c = last - c
            if k in (3, 4, 5, 7):
                r = last - r
            perm.append(r * n + c)
        found.append(tuple(perm))
    return tuple(found)


def _image_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per n, where its bytes' rows start; each symmetry's image of each byte of a board,
    by the byte's place (a board's image is the or of its bytes' images: a few lookups,
    where the reflections take a loop over rows or columns each). Under a megabyte, so
    numba caches what uses them."""
    places = {n: (n * n + 7) // 8 for n in range(1, LARGEST + 1)}
    first = np.zeros(LARGEST + 1, dtype=np.int64)
    images = np.zeros((8, sum(places.values()), 256), dtype=np.int64)
    at = 0
    for n in range(1, LARGEST + 1):
        first[n] = at
        per_cell = np.array([[1 << to for to in perm] for perm in symmetries_of(n)], dtype=np.int64)
        images[:, at : at + places[n]] = byte_images(per_cell)
        at += places[n]
    return first, images


FIRST_PLACE, IMAGES = _image_tables()
"""The symmetries' byte tables (compile-time constants)."""


@inlined_kernel
def _looked_up(x: int, n: int, k: int) -> int:
    """x under the k-th symmetry, a byte at a time from the tables."""
    y = 0
    place = FIRST_PLACE[n]
    while x:
        y |= IMAGES[k, place, x & 255]
        x >>= 8
        place += 1
    return int(y)


@inlined_kernel
def full(n: int) -> int:
    """Every cell of the n x n grid."""
    return int(FULL[n])


@kernel
def shift(x: int, n: int, dr: int, dc: int) -> int:
    """Every cell of x moved by dr rows and dc columns; cells that fall off are dropped."""
    keep = FULL[n]
    if dc > 0:  # (the columns that would wrap into the next row)
        for c in range(max(n - dc, 0), n):
            keep &= ~(COLUMN0[n] << c)
    elif dc < 0:
        for c in range(min(-dc, n)):
            keep &= ~(COLUMN0[n] << c)
    x &= keep
    step = dr * n + dc
    if abs(step) >= 63:
        return 0
    moved = x << step if step >= 0 else x >> -step
    return int(moved & FULL[n])


@kernel
def neighbours(x: int, n: int) -> int:
    """The cells next to a cell of x (eight directions), those of x left in."""
    around = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr != 0 or dc != 0:
                around |= shift(x, n, dr, dc)
    return around


@kernel
def has_line(x: int, n: int, k: int) -> bool:
    """Whether x holds k cells in a row: along a row, a column or a diagonal."""
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = x
        for i in range(1, k):
            run &= shift(x, n, -dr * i, -dc * i)
            if run == 0:
                break
        if run != 0:
            return True
    return False


@kernel
def has_full_line(x: int, n: int) -> bool:
    """Whether x holds a whole row, column or main diagonal (n in a row on an n x n
    board: tic-tac-toe, Quixo), by masks: quicker than ``has_line(x, n, n)``."""
    row = (1 << n) - 1
    for i in range(n):
        if (x >> (i * n)) & row == row:
            return True
        if (x >> i) & COLUMN0[n] == COLUMN0[n]:
            return True
    main = DIAGONALS[n, LARGEST]
    anti = flip(main, n)
    return x & main == main or x & anti == anti


@kernel
def mirror(x: int, n: int) -> int:
    """(r, c) -> (r, n-1-c): columns reversed."""
    y = 0
    for c in range(n):
        y |= ((x >> c) & COLUMN0[n]) << (n - 1 - c)
    return int(y)


@kernel
def flip(x: int, n: int) -> int:
    """(r, c) -> (n-1-r, c): rows reversed."""
    row = (1 << n) - 1
    y = 0
    for r in range(n):
        y |= ((x >> (r * n)) & row) << ((n - 1 - r) * n)
    return int(y)


@kernel
def transpose(x: int, n: int) -> int:
    """(r, c) -> (c, r): each diagonal c - r = d moves by d * (n - 1) cells."""
    y = x & DIAGONALS[n, LARGEST]
    for d in range(1, n):
        y |= (x & DIAGONALS[n, LARGEST + d]) << (d * (n - 1))
        y |= (x & DIAGONALS[n, LARGEST - d]) >> (d * (n - 1))
    return int(y)


@kernel
def image(x: int, n: int, k: int) -> int:
    """x under the k-th symmetry of the square (numbered as the module says)."""
    return _looked_up(x, n, k)


@kernel
def least_image(x: int, n: int) -> int:
    """The least of x's eight images: the same for every board symmetric to x."""
    best = x
    for k in range(1, 8):
        best = min(best, _looked_up(x, n, k))
    return best


@kernel
def least_pair(x: int, y: int, n: int) -> tuple[int, int]:
    """The least (x', y') among the images of two boards under the same symmetry, x'
    first, then y' (two colours of one position): the same for symmetric positions.
    y's image is looked up only where x's ties or wins."""
    best_x, best_y = x, y
    for k in range(1, 8):
        a = _looked_up(x, n, k)
        if a < best_x:
            best_x, best_y = a, _looked_up(y, n, k)
        elif a == best_x:
            best_y = min(best_y, _looked_up(y, n, k))
    return best_x, best_y
