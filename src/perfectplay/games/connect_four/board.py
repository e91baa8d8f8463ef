"""Connect Four's board and rules on bitboards, each rule written once for every caller.

The encoding, drawn for 7 x 6: one bit per cell, ``stride = height + 1`` bits per column,
numbered up each column and then column by column::

       6 13 20 27 34 41 48    spare row: always empty
     +---------------------+
     | 5 12 19 26 33 40 47 |  top row
     | 4 11 18 25 32 39 46 |
     | 3 10 17 24 31 38 45 |
     | 2  9 16 23 30 37 44 |
     | 1  8 15 22 29 36 43 |
     | 0  7 14 21 28 35 42 |  bottom row
     +---------------------+
       1  2  3  4  5  6  7    columns as a person types them

A state is ``(mover, mask)``: the discs of the player to move, and all discs.
- A line of ``connect`` in direction d (1 up, stride across, stride - 1 and stride + 1 the
  diagonals) shows as a bit left in ``discs & discs >> d & discs >> 2d ...``; the spare row
  is never set, so no run wraps from the top of one column to the bottom of the next.
- Dropping a disc in column c is ``mask | (mask + bottom[c])``: the carry stops in the
  column's lowest empty cell. The player to move then changes, so the new mover's discs are
  ``mover ^ mask`` (the old opponent's).
- The code of a state, its key for solving, is ``mover + mask``. In a column holding k
  discs the mask is ``2**k - 1`` and the mover's part m is below ``2**k``, so the column's
  code ``2**k - 1 + m`` has its top bit at k (or k - 1 when m = 0): k, then m, can be read
  back, and the code fits ``width * stride`` bits (62 at most). Example: a column (height 3)
  holding X at the bottom and O above it, X to move: mask 0b011, mover 0b001, code 0b100.

The rules (``line_ends``, ``disc_mask``, ``dropped``) are inlined kernels: compiled, numba
inlines them into the kernels and the search that call them; their source also runs as
plain Python (their ``function``) on Python ints (one state: the plain protocol) or on
int64 arrays (many states at once: ``Board.boards``, the kernels' numpy twins): the bit
operations are the same.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ...core.compiled import inlined_kernel

Codes = npt.NDArray[np.int64]
Bits = TypeVar("Bits", int, Codes)
"""One state's bitboard (a Python int) or many states' (an int64 array)."""


@inlined_kernel
def line_ends(discs: Any, stride: int, connect: int) -> Any:
    """Non-zero (bitwise) where ``discs`` (one player's, columns ``stride`` bits apart) hold
    ``connect`` in a line: along a column, a row or a diagonal."""
    found = discs & 0
    for direction in range(4):
        step = 1 if direction == 0 else stride - 2 + direction  # 1, stride - 1, stride, + 1
        run = discs
        for _ in range(connect - 1):
            run = run & (run >> step)
        found = found | run
    return found


@inlined_kernel
def disc_mask(codes: Any, width: int, stride: int, filled: Any) -> Any:
    """The cells holding discs of the states with codes ``codes``: in each column, all bits
    below the top bit of its code + 1 (see the encoding); ``filled[v]`` for a column whose
    code is v when that table is given (not empty)."""
    column_bits = (1 << stride) - 1
    table = len(filled) > 0
    mask = codes & 0
    for c in range(width):
        shift = c * stride
        column = (codes >> shift) & column_bits
        if table:
            cells = filled[column]
        else:  # every bit below the top one set, then the top one dropped
            cells = column + 1
            for spread in (1, 2, 4, 8, 16, 32):
                cells = cells | (cells >> spread)
            cells = cells >> 1
        mask = mask | (cells << shift)
    return mask


@inlined_kernel
def dropped(mask: Any, bottom: int) -> Any:
    """The disc mask after a disc is dropped into the column whose lowest cell is the bit
    ``bottom``: the carry stops in its lowest empty cell."""
    return mask | (mask + bottom)


class Board:
    """The geometry of a board (see the module docstring), and the rules over arrays of its
    codes that the plain and numpy paths need."""

    def __init__(self, width: int, height: int, connect: int) -> None:
        self.width, self.height, self.connect = width, height, connect
        self.stride = height + 1
        self.bottom = [1 << (c * self.stride) for c in range(width)]
        self.top = [1 << (c * self.stride + height - 1) for c in range(width)]
        self.column_bits = (1 << self.stride) - 1
        self.columns = [((1 << height) - 1) << (c * self.stride) for c in range(width)]
        """Each column's cells."""
        self.full = sum(self.columns)
        self.directions = (1, self.stride, self.stride - 1, self.stride + 1)
        """Up a column, along a row, the two diagonals."""
        # filled[v]: the cells holding discs in a column whose code is v (see the docstring);
        # tall boards compute them instead of holding tables of 2**stride entries (empty).
        self.filled = np.zeros(0, dtype=np.int64)
        if self.stride <= 16:
            held = [(v + 1).bit_length() - 1 for v in range(1 << self.stride)]
            self.filled = (np.int64(1) << np.array(held, dtype=np.int64)) - 1

    def column(self, bits: Bits, c: int) -> Bits:
        """The bits of column ``c``, shifted down to bit 0."""
        return (bits >> (c * self.stride)) & self.column_bits

    def mirror(self, codes: Bits) -> Bits:
        """The codes of the boards seen in a mirror (columns reversed)."""
        mirrored = codes & 0
        for c in range(self.width):
            mirrored = mirrored | (self.column(codes, c) << ((self.width - 1 - c) * self.stride))
        return mirrored

    def boards(self, codes: Codes) -> tuple[Codes, Codes]:
        """(mover's discs, all discs) for an array of codes."""
        mask: Codes = disc_mask.function(codes, self.width, self.stride, self.filled)
        return codes - mask, mask
