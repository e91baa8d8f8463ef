"""Pawns as a sum (CGT): a board no piece can race, split into row segments whose values add.

In a row where every ``o`` faces an ``x`` and none stands right before one, each stretch from
a first ``o`` to the last ``x`` facing it is a game of its own; ``PawnSegments`` plays the
board as their sum for the CGT command line (``perfectplay cgt pawns``), its ``players``
naming Left and Right. ``no_sum`` says why a board is not such a sum, ``segments`` cuts
one that is.
"""

from __future__ import annotations

from .board import SWAP_TEXT, parse_board

Segment = tuple[int, str]
"""A row segment: its row (from 0) and its cells from its first ``o`` to its last ``x``."""
SegmentMove = tuple[int, int, int]
"""(segment index, cell index within it, +1 for an ``o`` stepping right or -1 for an ``x``)."""


def no_sum(rows: list[str]) -> str | None:
    """Why a real board is no sum of row segments, or None when it is one.

    It is one when no piece can race (every row with pieces starts with an ``o`` and ends
    with an ``x``) and no ``o`` stands right before an ``x`` (no capture can be made).
    """
    for number, row in enumerate(rows, start=1):
        pieces = row.replace(".", "")
        if pieces and pieces[0] == "x":
            return f"row {number}: an 'x' has no 'o' ahead and can race (a race decides)"
        if pieces and pieces[-1] == "o":
            return f"row {number}: an 'o' has no 'x' ahead and can race (a race decides)"
        if "ox" in row:
            return f"row {number}, column {row.index('ox') + 1}: an 'o' faces an 'x' (a capture)"
    return None


def sum_rows(board: str) -> list[str]:
    """The rows of a board written as rows joined by ``/`` that is a sum of row segments;
    ValueError when it is malformed or no such sum (saying why)."""
    rows = parse_board(board)
    why = no_sum(rows)
    if why is not None:
        raise ValueError(f"not a sum of row segments: {why}")
    return rows


def segments(rows: list[str]) -> tuple[Segment, ...]:
    """The row segments of a board that is a sum: some ``o`` then the ``x`` facing them."""
    found: list[Segment] = []
    for r, row in enumerate(rows):
        start = row.find("o")
        while start >= 0:
            end = row.find("o", row.find("x", start))
            stop = len(row) if end < 0 else end
            found.append((r, row[start:stop].rstrip(".")))
            start = end
    return tuple(found)


class PawnSegments:
    """The pawns game of a board no piece can race, as a sum of its row segments (CGT).

    Left is ``o`` (moving right), Right is ``x``. Each side's moves are its safe steps: onto
    an empty cell, never next to an enemy piece (``o.x`` is left to stand). A side with no
    safe step must step next to an enemy and loses the segment's fight (the reasoning of
    ``perfectplay.contest.arc002d``, checked by exhaustive search in the tests), so the side
    first out of safe steps loses: normal play, and the board's value is the sum of its
    segments' values. A state is a tuple of segments.

    The values are not all numbers: with p ``o`` and q ``x`` and fronts leaving an even gap
    a segment is the integer n of spare moves after sharing the gap; an odd gap leaves a
    cell to claim, {n + p - 1 | n - q + 1} (``n*`` when p = q = 1). The spare-move count
    of ``arc002d`` plays these switches hottest first (tested against these values).
    """

    name = "pawns-segments"
    aliases = ("pawns",)
    """What ``perfectplay cgt`` calls it (the game itself is ``pawns`` elsewhere)."""
    players = ("o", "x")
    """Left's and Right's names."""

    def __init__(self, board: str = "o...x../oo....x") -> None:
        rows = sum_rows(board)
        self.board = "/".join(rows)
        self.rows = rows

    def initial(self) -> tuple[Segment, ...]:
        """The segments of the board."""
        return segments(self.rows)

    def left_moves(self, state: tuple[Segment, ...]) -> list[SegmentMove]:
        """Every ``o`` that can step onto an empty cell not next to an ``x``."""
        found = []
        for i, (_, cells) in enumerate(state):
            j = cells.find("o.")
            while j >= 0:
                if cells[j + 2 : j + 3] != "x":
                    found.append((i, j, 1))
                j = cells.find("o.", j + 1)
        return found

    def right_moves(self, state: tuple[Segment, ...]) -> list[SegmentMove]:
        """Every ``x`` that can step onto an empty cell not next to an ``o``."""
        found = []
        for i, (_, cells) in enumerate(state):
            j = cells.find(".x")
            while j >= 0:
                if j == 0 or cells[j - 1] != "o":
                    found.append((i, j + 1, -1))
                j = cells.find(".x", j + 1)
        return found

    def play(self, state: tuple[Segment, ...], move: SegmentMove) -> tuple[Segment, ...]:
        """Step the piece; the segment drops the empty cells left behind at its ends."""
        i, j, step = move
        row, cells = state[i]
        lo, hi = min(j, j + step), max(j, j + step)
        piece = cells[j]
        pair = "." + piece if step == 1 else piece + "."
        moved = (cells[:lo] + pair + cells[hi + 1 :]).strip(".")
        return (*state[:i], (row, moved), *state[i + 1 :])

    def components(self, state: tuple[Segment, ...]) -> list[tuple[Segment, ...]]:
        """Each segment alone."""
        return [(segment,) for segment in state]

    def key(self, state: tuple[Segment, ...]) -> tuple[str, ...]:
        """The cells alone: segments alike in any row have one value."""
        return tuple(cells for _, cells in state)

    def swap(self, state: tuple[Segment, ...]) -> tuple[Segment, ...]:
        """The board turned half a turn with colours swapped: o and x exchange roles."""
        return tuple((row, cells[::-1].translate(SWAP_TEXT)) for row, cells in state)

    def parse_position(self, text: str) -> tuple[Segment, ...]:
        """A board written as rows joined by ``/``."""
        return segments(sum_rows(text))

    def show(self, state: tuple[Segment, ...]) -> str:
        """The segments, each with its row (from 1)."""
        return "  ".join(f"row {row + 1}: {cells}" for row, cells in state) or "no segments"
