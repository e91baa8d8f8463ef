"""Connect Four's batch rules as loops over codes, one code at a time (compiled for many).

The same rules as ``connect_four_board`` (whose docstring draws the encoding), written as
kernels: for a large batch one loop that reads each code once is several times faster
than numpy's passes over whole arrays (each pass writes a fresh array as large as the
batch, and the expansion goes through a codes x width table). ``ConnectFour`` uses these
when they run compiled and the numpy rules otherwise (small batches, numba not loaded).
"""

from __future__ import annotations

from typing import Any

from ..protocol import inlined_kernel, kernel
from .connect_four_board import Codes

_LOSS = 2
_TIE = 3


@inlined_kernel
def has_line(discs: int, stride: int, connect: int) -> bool:
    """Whether ``discs`` (a bitboard of one player, columns ``stride`` bits apart) hold
    ``connect`` in a line: along a column, a row or a diagonal."""
    line = 0
    for direction in range(4):
        step = 1 if direction == 0 else stride - 2 + direction  # 1, stride - 1, stride, + 1
        run = discs
        for _ in range(connect - 1):
            run &= run >> step
        line |= run
    return line != 0


@kernel
def outcome_codes(
    codes: Codes, width: int, stride: int, connect: int, full: int, filled: Codes, out: Any
) -> None:
    """out[i] = LOSS when the player who just moved has a line, TIE on a full board, else 0.

    A column's mask is read from its code v: 2**k - 1 where k is the top bit of v + 1,
    ``filled[v]`` when that table is given (not empty)."""
    column_bits = (1 << stride) - 1
    table = filled.shape[0] > 0
    for i in range(codes.shape[0]):
        code = codes[i]
        mask = 0
        for c in range(width):
            shift = c * stride
            column = (code >> shift) & column_bits
            if table:
                mask |= filled[column] << shift
                continue
            k = 0
            while (column + 1) >> (k + 1) != 0:
                k += 1
            mask |= ((1 << k) - 1) << shift
        if has_line((code - mask) ^ mask, stride, connect):  # the player who just moved
            out[i] = _LOSS
        elif mask == full:
            out[i] = _TIE
        else:
            out[i] = 0


@kernel
def expand_codes(
    codes: Codes,
    width: int,
    stride: int,
    height: int,
    filled: Codes,
    children: Codes,
    parents: Codes,
) -> int:
    """A disc dropped in every column with room, for each code: the children's codes into
    ``children`` and the row of their code into ``parents`` (both at least len(codes) *
    width long), column by column; returns how many were written. Masks as in
    ``outcome_codes``."""
    column_bits = (1 << stride) - 1
    table = filled.shape[0] > 0
    count = 0
    for i in range(codes.shape[0]):
        code = codes[i]
        mask = 0
        for c in range(width):
            shift = c * stride
            column = (code >> shift) & column_bits
            if table:
                mask |= filled[column] << shift
                continue
            k = 0
            while (column + 1) >> (k + 1) != 0:
                k += 1
            mask |= ((1 << k) - 1) << shift
        next_mover = (code - mask) ^ mask  # the opponent moves next
        for c in range(width):
            shift = c * stride
            if (mask >> (shift + height - 1)) & 1 == 0:
                grown = mask | (mask + (1 << shift))
                children[count] = next_mover + grown
                parents[count] = i
                count += 1
    return count
