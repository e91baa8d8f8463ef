"""Connect Four's rules compiled by numba, for the compiled alpha-beta search.

This is the ``compiled_rules`` hook of ``ConnectFour`` (see ``perfectplay.solvers.
compiled_search`` for the contract every game's compiled rules meet). The rules themselves
are written in ``search_template``, a template compiled per board and cached on disk, on
the bitboards of ``board`` (whose docstring draws them), with its line test; numba is
imported only when ``bit_rules`` is first called, so ``import perfectplay`` stays light.

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

import numpy as np

from ...protocol import SearchRules
from .board import Board


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
    from ...core.specialised import fingerprint, jit_in_place, template_copy
    from . import board, search_template

    constants = _constants(width, height, connect)
    template = Path(search_template.__file__)
    ident = fingerprint(
        template.read_bytes(),
        Path(board.__file__).read_bytes(),  # the line test is compiled into the search
        repr(sorted(constants.items())),
    )
    module = template_copy(template, f"perfectplay_c4_search_{ident}", "search", on_disk=True)
    for name, value in constants.items():
        setattr(module, name, np.array(value, np.int64) if isinstance(value, list) else value)
    vars(module)["line_ends"] = board.line_ends.compiled  # the line test, compiled
    jit_in_place(module, ("shifted", "spots", "end", "bounds", "moves", "play", "key"),
                 cache=True, inline=("shifted", "spots"))  # fmt: skip
    end, bounds, moves, play, key = (module.end, module.bounds, module.moves, module.play,
                                     module.key)  # fmt: skip
    cells = width * height

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
        key_bits=width * (height + 1),
        end=end,
        bounds=bounds,
        moves=moves,
        play=play,
        key=key,
        encode=encode,
        plies=plies,
        ident=ident,
        table_pairs=False,  # (the C reference's table: the bench compares node counts)
    )


def _constants(width: int, height: int, connect: int) -> dict[str, Any]:
    """The template's globals for a board (lists become int64 arrays)."""
    geometry = Board(width, height, connect)
    return {
        "WIDTH": width,
        "CELLS": width * height,
        "K": connect,
        "STRIDE": geometry.stride,
        "DIRECTIONS": geometry.directions,
        "BOTTOM_ROW": sum(geometry.bottom),
        "BOARD": geometry.full,
        "COLUMN_MASKS": geometry.columns,
        "ORDER": [width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)],
    }
