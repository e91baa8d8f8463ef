"""The two symmetries of Dobutsu shogi over arrays of codes: the half turn and the mirror.

A position and its half-turned copy with the other player to move are one position: the
mover's view (``batch_view``) is the key. The mirror image (columns A and C swapped) has
the same value too, but it is not a key: the tier keeps both, and only the published counts
(Tanaka) take a position and its image once (``batch_mirror``).
"""

from __future__ import annotations

import numpy as np

from ...protocol import kernel
from .board import WIDTH, Codes, code_of, view_of


@kernel
def batch_view(codes: Codes, height: int) -> Codes:
    """Each code as its mover sees it (bit 60 clear): the key of the position."""
    board = np.zeros(12, dtype=np.int64)
    hands = np.zeros(6, dtype=np.int64)
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        view_of(codes[i], height * WIDTH, board, hands)
        out[i] = code_of(height * WIDTH, board, hands, 0, 0)
    return out


@kernel
def batch_mirror(codes: Codes, height: int) -> Codes:
    """Each position reflected left to right (columns A and C swapped): the rules are the
    same, so it has the same value for the mover."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        code = codes[i]
        mirrored = code & ~((1 << (4 * WIDTH * height)) - 1)
        for s in range(WIDTH * height):
            r, c = s // WIDTH, s % WIDTH
            piece = (code >> (4 * s)) & 15
            mirrored |= piece << (4 * (r * WIDTH + WIDTH - 1 - c))
        out[i] = mirrored
    return out
