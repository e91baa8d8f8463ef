"""Connect Four's rules compiled by numba, for the compiled alpha-beta search.

This is the ``compiled_rules`` hook of ``ConnectFour`` (see ``perfectplay.solvers.
compiled_search`` for the contract every game's compiled rules meet). The rules themselves
are written in ``connect_four_search``, a template compiled per board and cached on disk;
numba is imported only when ``bit_rules`` is first called, so ``import perfectplay`` stays
light.

The bitboard, drawn for 7 x 6: one bit per cell, ``stride = height + 1`` bits per column,
up each column and then column by column; the spare row on top of each column is always
empty, so no line wraps from the top of one column to the bottom of the next::

       6 13 20 27 34 41 48    spare row
     +---------------------+
     | 5 12 19 26 33 40 47 |  top row
     | 4 11 18 25 32 39 46 |
     | 3 10 17 24 31 38 45 |
     | 2  9 16 23 30 37 44 |
     | 1  8 15 22 29 36 43 |
     | 0  7 14 21 28 35 42 |  bottom row
     +---------------------+
       1  2  3  4  5  6  7

A compiled state is four int64 words: ``[mover, mask, stones, scratch]`` (the discs of the
player to move, all discs, their number, and the non-losing moves ``end`` found, kept for
``moves``). A move is the one-bit board of the cell it fills. ``mover + mask`` is unique per
position and below ``2 ** (width * stride)``: it is the key (the same code as the plain game's).

Scores, in the usual sense for Connect Four (Pascal Pons' convention): 0 for a draw; when the
player to move wins, ``1 + the discs the winner has left`` when he plays his winning disc,
positive and larger the sooner the win; a loss is the opposite. With ``n = width * height``
cells and ``m`` discs on the board before the winning disc, that is ``(n + 1 - m) // 2``.
In perfectplay's values (WIN / LOSS / TIE and remoteness ``r``, the plies to the end with the
winner hurrying and the loser stalling), a position with ``m`` discs scores
``+-((n + 2 - m - r) // 2)`` (WIN +, LOSS -), and 0 for TIE: the winning disc is the
``r``-th from now, played with ``m + r - 1`` discs on the board.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..protocol import SearchRules


def supported(width: int, height: int, connect: int) -> bool:
    """Whether a board has compiled rules: its bitboard fits 63 bits."""
    return width >= 1 and height >= 1 and connect >= 2 and width * (height + 1) <= 63


@cache
def bit_rules(width: int, height: int, connect: int = 4) -> SearchRules:
    """The compiled rules of a ``width`` x ``height`` board, lines of ``connect`` winning.

    Compiled on first use per board (a second or two), then shared.
    """
    if not supported(width, height, connect):
        raise ValueError("compiled Connect Four needs width * (height + 1) <= 63")
    import numpy as np

    from ..protocol import fingerprint, jit_in_place, template_copy
    from . import connect_four_search

    stride = height + 1
    cells = width * height
    column = (1 << height) - 1
    bottom_row = sum(1 << (c * stride) for c in range(width))
    constants: dict[str, Any] = {
        "WIDTH": width,
        "CELLS": cells,
        "K": connect,
        "DIRECTIONS": (1, stride, stride - 1, stride + 1),
        "BOTTOM_ROW": bottom_row,
        "BOARD": bottom_row * column,
        "COLUMN_MASKS": np.array([column << (c * stride) for c in range(width)], np.int64),
        "ORDER": np.array(
            [width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)], np.int64
        ),
    }
    template = Path(connect_four_search.__file__)
    ident = fingerprint(template.read_bytes(), repr(sorted(
        (name, value.tolist() if isinstance(value, np.ndarray) else value)
        for name, value in constants.items()
    )))  # fmt: skip
    module = template_copy(template, f"perfectplay_c4_search_{ident}", "search", on_disk=True)
    for name, value in constants.items():
        setattr(module, name, value)
    jit_in_place(module, ("shifted", "aligned", "spots", "end", "bounds", "moves", "play", "key"),
                 cache=True, inline=("shifted", "aligned", "spots"))  # fmt: skip
    end, bounds, moves, play, key = (module.end, module.bounds, module.moves, module.play,
                                     module.key)  # fmt: skip

    def encode(state: Any) -> tuple[int, ...]:
        mover, mask = state
        return (int(mover), int(mask), int(mask).bit_count(), 0)

    def plies(words: tuple[int, ...], score: int) -> int:
        m = words[2]
        if score == 0:
            return cells - m  # a draw fills the board
        r = cells + 2 - m - 2 * abs(score)
        if (r % 2 == 1) != (score > 0):  # the winner plays the last ply: odd when it is the mover
            r -= 1
        return r

    half = (cells + 1) // 2
    return SearchRules(
        words=4,
        max_moves=2 * width,  # the moves, then their ranks
        max_plies=cells + 1,
        min_score=-half,
        max_score=half,
        key_bits=width * stride,
        end=end,
        bounds=bounds,
        moves=moves,
        play=play,
        key=key,
        encode=encode,
        plies=plies,
        ident=ident,
    )
