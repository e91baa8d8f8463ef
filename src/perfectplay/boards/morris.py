"""The Morris boards as bit boards: Nine Men's Morris's 24 points, Six Men's 16.

Points: ring r (0 the outer square) holds points 8r..8r+7, clockwise from its top-left
corner (even: corners, odd: midpoints of the sides); point i is bit i. A line is three
points in a row: a side of a square, or, on the 24-point board, the three midpoints across
the rings (16 lines on 24 points, 8 on 16). Two points are adjacent when they are next to
each other on a square or on a line across the rings (the 16-point board's two squares are
joined at their midpoints too).

Every function takes ``points`` (24 or 16) and boards (masks of points) or a point, and
returns masks, counts or truth. The symmetries are the square's 8 (quarter turns, mirror
images) each also with the rings turned inside out: 16, numbered as ``image`` takes them,
``k = 8 * inside_out + 2 * quarter_turns + mirrored`` (0: the identity).
"""

from __future__ import annotations

import numpy as np

from ..core.compiled import inlined_kernel, kernel
from .byte_tables import byte_images
from .square import popcount

BOARDS = (24, 16)
"""The boards, in the order of the tables' rows."""


def rings_of(points: int) -> int:
    """The squares of a board: 3 for 24 points, 2 for 16."""
    if points not in BOARDS:
        raise ValueError(f"a Morris board has 24 or 16 points, not {points}")
    return points // 8


def lines_of(points: int) -> list[int]:
    """The board's lines (mills) as masks: each square's four sides, then (24 points) the
    four lines across the rings' midpoints."""
    rings = rings_of(points)
    found = [
        sum(1 << (8 * ring + (corner + j) % 8) for j in range(3))
        for ring in range(rings)
        for corner in (0, 2, 4, 6)
    ]
    if rings == 3:
        found += [sum(1 << (8 * ring + k) for ring in range(3)) for k in (1, 3, 5, 7)]
    return found


def neighbours_of(points: int) -> list[int]:
    """Each point's adjacent points, as masks."""
    rings = rings_of(points)
    found = [0] * points
    for ring in range(rings):
        for k in range(8):
            here = 8 * ring + k
            found[here] |= 1 << (8 * ring + (k + 1) % 8) | 1 << (8 * ring + (k + 7) % 8)
            if k % 2 and ring + 1 < rings:
                found[here] |= 1 << (here + 8)
                found[here + 8] |= 1 << here
    return found


def symmetries_of(points: int) -> tuple[tuple[int, ...], ...]:
    """The board's 16 symmetries as permutations (point i goes to ``perm[i]``), numbered as
    the module docstring says."""
    rings = rings_of(points)
    found = []
    for inside_out in (False, True):
        for quarter in range(4):
            for mirrored in (False, True):
                perm = []
                for ring in range(rings):
                    for k in range(8):
                        turned = ((8 - k) % 8 if mirrored else k) + 2 * quarter
                        perm.append(8 * (rings - 1 - ring if inside_out else ring) + turned % 8)
                found.append(tuple(perm))
    return tuple(found)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per board row: each point's neighbours; the (at most two) lines through each point,
    0 where there are fewer; the lines, 0-padded to 16; and each symmetry's image of each
    byte of a board, by the byte's place (the image of a board is the or of three)."""
    neighbours = np.zeros((2, 24), dtype=np.int64)
    through = np.zeros((2, 24, 2), dtype=np.int64)
    lines = np.zeros((2, 16), dtype=np.int64)
    images = np.zeros((2, 16, 3, 256), dtype=np.int64)
    for row, points in enumerate(BOARDS):
        neighbours[row, :points] = neighbours_of(points)
        board_lines = lines_of(points)
        lines[row, : len(board_lines)] = board_lines
        for point in range(points):
            at = [line for line in board_lines if line >> point & 1]
            through[row, point, : len(at)] = at
        per_cell = np.array(
            [[1 << to for to in perm] for perm in symmetries_of(points)], dtype=np.int64
        )
        images[row, :, : points // 8] = byte_images(per_cell)
    return neighbours, through, lines, images


NEIGHBOURS, LINES_THROUGH, LINES, IMAGES = _tables()
"""Row 0: the 24-point board, row 1: the 16-point one (compile-time constants)."""


@inlined_kernel
def board_row(points: int) -> int:
    """The tables' row of a board."""
    return 0 if points == 24 else 1


@inlined_kernel
def everywhere(points: int) -> int:
    """Every point of the board."""
    return (1 << points) - 1


count = popcount
"""The number of points in a mask (the square grids' population count serves any mask)."""


@inlined_kernel
def lowest(x: int) -> int:
    """The lowest point of a mask that is not empty."""
    return count((x & -x) - 1)


@inlined_kernel
def neighbours(points: int, point: int) -> int:
    """The points adjacent to ``point``."""
    return int(NEIGHBOURS[board_row(points), point])


@kernel
def adjacent(points: int, stones: int) -> int:
    """The points adjacent to some stone of ``stones`` (those stones included if so)."""
    row = board_row(points)
    found = 0
    while stones:
        low = stones & -stones
        found |= NEIGHBOURS[row, count(low - 1)]
        stones ^= low
    return int(found)


@inlined_kernel
def in_mill(points: int, stones: int, point: int) -> bool:
    """Whether ``point`` stands in a full line of ``stones``."""
    row = board_row(points)
    a = LINES_THROUGH[row, point, 0]
    b = LINES_THROUGH[row, point, 1]
    return bool((stones & a) == a or (b != 0 and (stones & b) == b))


RING_FIRST = 0x010101
"""Each ring's first point (bits 0, 8, 16): what a turn of the rings wraps around."""
MIDPOINTS = 0xAAAAAA
"""Every ring's midpoints (odd points): the only points joined across rings."""
CORNERS = 0x555555


@inlined_kernel
def turned(stones: int, forward: bool) -> int:
    """Every stone moved to the next point of its ring (clockwise, ``forward``) or to the
    one before, each ring on its own."""
    if forward:
        return ((stones << 1) & (RING_FIRST * 0xFE)) | ((stones >> 7) & RING_FIRST)
    return ((stones >> 1) & (RING_FIRST * 0x7F)) | ((stones & RING_FIRST) << 7)


@inlined_kernel
def slides_count(points: int, stones: int, empty: int) -> int:
    """How many slides ``stones`` have to ``empty`` points: pairs of a stone and an
    adjacent empty point, counted by shifting the whole board (no loop over stones)."""
    across = stones & MIDPOINTS
    return int(
        count(turned(stones, True) & empty) + count(turned(stones, False) & empty)
        + count((across << 8) & empty) + count((across >> 8) & empty)
    )  # fmt: skip


@inlined_kernel
def mill_points(points: int, stones: int, empty: int) -> int:
    """The points of ``empty`` that would complete a line of ``stones``: a point whose
    line's two other points are stones (a stone arriving there from outside that line
    closes a mill: ``closers``)."""
    ahead, behind = turned(stones, False), turned(stones, True)  # point k: k + 1's, k - 1's
    hot = ahead & behind & MIDPOINTS  # a side's midpoint between its two corners
    hot |= ahead & turned(ahead, False) & CORNERS  # a corner before the side it starts
    hot |= behind & turned(behind, True) & CORNERS  # a corner after the side it ends
    if points == 24:
        across = stones & MIDPOINTS
        hot |= (across >> 8) & (across >> 16) & 0xFF  # outer ring: middle and inner set
        hot |= (across << 8) & (across >> 8) & 0xFF00
        hot |= (across << 8) & (across << 16) & 0xFF0000
    return int(hot & empty)


@inlined_kernel
def closers(points: int, stones: int, point: int, movers: int) -> int:
    """The stones among ``movers`` (points that can reach ``point``: its neighbours, or
    everywhere for a jump) whose move there completes a line of ``stones`` through it:
    for each line through the point whose two others are stones, the other stones (one of
    the line moving along it leaves a gap)."""
    row = board_row(points)
    found = 0
    for j in range(2):
        line = LINES_THROUGH[row, point, j]
        if line != 0 and (stones | (1 << point)) & line == line:
            found |= movers & stones & ~line
    return int(found)


@kernel
def milled(points: int, stones: int) -> int:
    """The stones of ``stones`` that stand in a full line."""
    row = board_row(points)
    found = 0
    for i in range(16):
        line = LINES[row, i]
        if line != 0 and (stones & line) == line:
            found |= line
    return int(found)


@kernel
def takeable(points: int, stones: int) -> int:
    """The stones a mill may take from ``stones``: those in no full line, or all of them
    where every one stands in one."""
    free = stones & ~milled(points, stones)
    return int(free if free else stones)


@kernel
def take_back(points: int, stones: int, empty: int) -> int:
    """The points of ``empty`` where a stone put back would have been takeable: those ``p``
    with p in ``takeable(stones | 1 << p)``, found from the lines through p alone."""
    row = board_row(points)
    held = milled(points, stones)
    found = 0
    rest = empty
    while rest:
        low = rest & -rest
        rest ^= low
        point = count(low - 1)
        closes = 0
        for j in range(2):
            line = LINES_THROUGH[row, point, j]
            if line != 0 and (stones | low) & line == line:
                closes |= line
        # free where p closes no line; else only if every stone then stands in one
        if closes == 0 or ((held | closes) & (stones | low)) == (stones | low):
            found |= low
    return int(found)


@inlined_kernel
def image(points: int, stones: int, k: int) -> int:
    """The image of a board under symmetry ``k`` (0-15)."""
    row = board_row(points)
    found = IMAGES[row, k, 0, stones & 255] | IMAGES[row, k, 1, (stones >> 8) & 255]
    if points == 24:
        found |= IMAGES[row, k, 2, (stones >> 16) & 255]
    return int(found)


@kernel
def least_image(points: int, stones: int) -> int:
    """The least of a board's 16 images: the same for boards that are images of each
    other."""
    best = stones
    for k in range(1, 16):
        found = image(points, stones, k)
        if found < best:
            best = found
    return best


@kernel
def least_pair(points: int, mine: int, theirs: int) -> tuple[int, int]:
    """The least (mine', theirs') among the images of a position's two colours under the
    same symmetry, mine' first: the same for positions that are images of each other."""
    best_mine, best_theirs = mine, theirs
    for k in range(1, 16):
        a = image(points, mine, k)
        if a < best_mine or (a == best_mine and image(points, theirs, k) < best_theirs):
            best_mine, best_theirs = a, image(points, theirs, k)
    return best_mine, best_theirs
