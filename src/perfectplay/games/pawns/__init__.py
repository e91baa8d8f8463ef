"""Pawns (AtCoder ARC 002 D), one idea a module: ``board`` (the board read and checked,
states seen by the player to move), ``game`` (``Pawns``, the game) and ``segments``
(``PawnSegments``: a board no piece can race as a sum of row segments, for the CGT command
line)."""

from __future__ import annotations

from .board import Move, State, flip, parse_board
from .game import Pawns
from .segments import PawnSegments, Segment, SegmentMove, no_sum

__all__ = [
    "Move",
    "PawnSegments",
    "Pawns",
    "Segment",
    "SegmentMove",
    "State",
    "flip",
    "no_sum",
    "parse_board",
]
