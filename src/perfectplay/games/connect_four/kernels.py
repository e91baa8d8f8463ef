"""Connect Four's batch rules over arrays of codes: a kernel per rule, with its numpy twin.

The rules of ``board`` (whose docstring draws the encoding) applied to a batch of codes in
two ways, chosen by ``Kernel.run``: compiled, one loop that reads each code once is several
times faster than numpy's passes over whole arrays (each pass writes a fresh array as large
as the batch, and the expansion goes through a codes x width table); interpreted, the numpy
passes (``vectorised``) are many times faster than a Python loop over the codes. A kernel
writes into the arrays it is given and returns them (numpy allocates them: it asks for huge
pages for large arrays, numba does not, and the expansion would take twice as long); its
twin takes the same arguments without those arrays and returns new ones.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.compiled import kernel
from .board import Codes, disc_mask, dropped, line_ends

LOSS = 2
TIE = 3
"""Outcome codes for the player to move (as ``values``), constants inside the kernels."""


@kernel
def outcome_codes(
    codes: Codes,
    width: int,
    stride: int,
    connect: int,
    full: int,
    filled: Codes,
    out: npt.NDArray[np.int8],
) -> npt.NDArray[np.int8]:
    """out[i] = LOSS when the player who just moved has a line, TIE on a full board, else 0;
    returns ``out``. Masks by ``disc_mask`` (``filled`` its table, empty for tall boards)."""
    for i in range(codes.shape[0]):
        code = codes[i]
        mask = disc_mask(code, width, stride, filled)
        if line_ends((code - mask) ^ mask, stride, connect) != 0:  # the player who just moved
            out[i] = LOSS
        elif mask == full:
            out[i] = TIE
        else:
            out[i] = 0
    return out


def outcome_arrays(
    codes: Codes, width: int, stride: int, connect: int, full: int, filled: Codes
) -> npt.NDArray[np.int8]:
    """``outcome_codes`` as numpy passes over the whole batch (its result a new array)."""
    mask = disc_mask.function(codes, width, stride, filled)
    out = np.zeros(codes.shape[0], dtype=np.int8)
    out[mask == full] = TIE
    out[line_ends.function((codes - mask) ^ mask, stride, connect) != 0] = LOSS
    return out


@kernel
def expand_codes(
    codes: Codes,
    width: int,
    stride: int,
    height: int,
    filled: Codes,
    children: Codes,
    parents: Codes,
) -> tuple[Codes, Codes]:
    """A disc dropped in every column with room, for each code: the children's codes into
    ``children`` and the row of their code into ``parents`` (both at least len(codes) *
    width long), column by column; returns (parents, children) cut to what was written.
    Masks as in ``outcome_codes``."""
    count = 0
    for i in range(codes.shape[0]):
        code = codes[i]
        mask = disc_mask(code, width, stride, filled)
        next_mover = (code - mask) ^ mask  # the opponent moves next
        for c in range(width):
            shift = c * stride
            if (mask >> (shift + height - 1)) & 1 == 0:
                children[count] = next_mover + dropped(mask, 1 << shift)
                parents[count] = i
                count += 1
    return parents[:count], children[:count]


def expand_arrays(
    codes: Codes, width: int, stride: int, height: int, filled: Codes
) -> tuple[Codes, Codes]:
    """``expand_codes`` as numpy passes over the whole batch, through a codes x width table
    (its results new arrays)."""
    mask = disc_mask.function(codes, width, stride, filled)
    next_mover = (codes - mask) ^ mask
    children = np.empty((codes.shape[0], width), dtype=np.int64)
    playable = np.empty((codes.shape[0], width), dtype=np.bool_)
    for c in range(width):
        shift = c * stride
        playable[:, c] = (mask >> (shift + height - 1)) & 1 == 0
        children[:, c] = next_mover + dropped.function(mask, 1 << shift)
    parents, columns = np.nonzero(playable)
    return parents.astype(np.int64), children[parents, columns]
