"""A board's image under a map of its cells, looked up a byte at a time.

A map that sends each cell to a set of cells (a symmetry: one cell; a shift: one or none;
the neighbours: several) sends a board to the or of its cells' images. A table of the
image of every byte value at every place of the board (bits 8p to 8p + 7) gives a board's
image in one lookup a byte, where a loop over the board's cells takes one a cell. The
square grids, the hexagons and the Morris boards make their tables here.
"""

from __future__ import annotations

import numpy as np


def byte_images(per_cell: np.ndarray) -> np.ndarray:
    """Each map's image of each byte value at each place: ``per_cell[m, c]`` is map m's
    image of cell c (a mask); the result's ``[m, p, b]`` the image of the cells of byte
    value b at place p (cells 8p to 8p + 7), of shape (maps, ceil(cells / 8), 256)."""
    maps, cells = per_cell.shape
    places = (cells + 7) // 8
    padded = np.zeros((maps, 8 * places), dtype=np.int64)
    padded[:, :cells] = per_cell
    table = np.zeros((maps, places, 256), dtype=np.int64)
    for bit in range(8):  # the bytes up to 2^(bit+1): those below, with this bit's cell
        low = 1 << bit
        table[:, :, low : 2 * low] = table[:, :, :low] | padded[:, bit::8, None]
    return table
