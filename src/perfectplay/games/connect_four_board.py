"""Connect Four's board and rules on bitboards, written once for one state or many.

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

Every rule below is written once, on values that are Python ints (one state, the plain
protocol) or int64 arrays (many states, the batch protocol): the bit operations are the same.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

Codes = npt.NDArray[np.int64]
Bits = TypeVar("Bits", int, Codes)
"""One state's bitboard (a Python int) or many states' (an int64 array)."""


class Board:
    """The geometry of a board and its rules on bitboards (see the module docstring)."""

    def __init__(self, width: int, height: int, connect: int) -> None:
        self.width, self.height, self.connect = width, height, connect
        self.stride = height + 1
        self.bottom = [1 << (c * self.stride) for c in range(width)]
        self.top = [1 << (c * self.stride + height - 1) for c in range(width)]
        self.full = sum(((1 << height) - 1) << (c * self.stride) for c in range(width))
        self.directions = (1, self.stride, self.stride - 1, self.stride + 1)
        self.column_bits = (1 << self.stride) - 1
        # filled[v]: the cells holding discs in a column whose code is v (see the docstring);
        # tall boards compute them instead of holding tables of 2**stride entries.
        self.filled: Codes | None = None
        if self.stride <= 16:
            held = [(v + 1).bit_length() - 1 for v in range(1 << self.stride)]
            self.filled = (np.int64(1) << np.array(held, dtype=np.int64)) - 1

    def fill(self, columns: Codes) -> Codes:
        """The cells holding discs in columns with codes ``columns``: all bits below the top
        bit of ``columns + 1``."""
        if self.filled is not None:
            return self.filled[columns]
        smeared = columns + 1
        for shift in (1, 2, 4, 8, 16, 32):
            smeared |= smeared >> shift
        return smeared >> 1

    def line_ends(self, discs: Bits) -> Bits:
        """Non-zero (bitwise) where a set of discs holds ``connect`` in a row."""
        found = discs & 0
        for d in self.directions:
            run = discs
            for _ in range(self.connect - 1):
                run = run & (run >> d)
            found = found | run
        return found

    def drop(self, mover: Bits, mask: Bits, column: int) -> tuple[Bits, Bits]:
        """The state after a disc in ``column``, seen by the next player."""
        return mover ^ mask, mask | (mask + self.bottom[column])

    def mirror(self, codes: Bits) -> Bits:
        """The codes of the boards seen in a mirror (columns reversed)."""
        mirrored = codes & 0
        for c in range(self.width):
            column = (codes >> (c * self.stride)) & self.column_bits
            mirrored = mirrored | (column << ((self.width - 1 - c) * self.stride))
        return mirrored

    def boards(self, codes: Codes) -> tuple[Codes, Codes]:
        """(mover's discs, all discs) for an array of codes."""
        mask = np.zeros_like(codes)
        for c in range(self.width):
            shift = c * self.stride
            mask |= self.fill((codes >> shift) & self.column_bits) << shift
        return codes - mask, mask
