"""Clobber on a row: a player moves one of their stones onto an adjacent opposing stone.

Left owns the ``x`` stones and Right the ``o`` stones (as in CGSuite and pycgt). A move
takes one of your stones onto an orthogonally adjacent enemy stone, which is removed
(clobbered), leaving the start square empty; the player who cannot move loses.

A state is the row as a string over ``x``, ``o`` and ``.`` (empty). A move is ``(from,
to)``, the two indices. Stones never enter empty squares, so the row splits at every
``.``, and a run of one colour never moves again (dropped). ``key`` reads the row in
either direction (the same game); ``swap`` exchanges the colours (the negative).
"""

from __future__ import annotations

from ..errors import InputError

__all__ = ["Clobber"]

_SWAP = str.maketrans("xo", "ox")


class Clobber:
    """Clobber on a row: Left's x and Right's o capture an adjacent enemy stone.

    position: the row, e.g. xoxoxo.
    """

    name = "clobber"

    def __init__(self, position: str = "xoxoxo") -> None:
        self.position = self.parse_position(position)

    def initial(self) -> str:
        """The row given to the constructor."""
        return self.position

    def parse_position(self, text: str) -> str:
        """A row of x, o and '.'."""
        row = text.strip().lower()
        bad = set(row) - set("xo.")
        if bad:
            raise InputError(
                f"a Clobber row holds x (Left), o (Right) and '.', not {''.join(sorted(bad))!r}"
            )
        return row

    def show(self, state: str) -> str:
        """The row itself."""
        return state

    def _moves(self, state: str, mine: str, theirs: str) -> list[tuple[int, int]]:
        out = []
        for i, ch in enumerate(state):
            if ch != mine:
                continue
            if i > 0 and state[i - 1] == theirs:
                out.append((i, i - 1))
            if i + 1 < len(state) and state[i + 1] == theirs:
                out.append((i, i + 1))
        return out

    def left_moves(self, state: str) -> list[tuple[int, int]]:
        """An x onto an adjacent o."""
        return self._moves(state, "x", "o")

    def right_moves(self, state: str) -> list[tuple[int, int]]:
        """An o onto an adjacent x."""
        return self._moves(state, "o", "x")

    def play(self, state: str, move: tuple[int, int]) -> str:
        """The stone at move[0] clobbers the one at move[1]."""
        start, target = move
        cells = list(state)
        cells[target] = cells[start]
        cells[start] = "."
        return "".join(cells)

    def components(self, state: str) -> list[str]:
        """The runs between empty squares that hold both colours."""
        return [run for run in state.split(".") if "x" in run and "o" in run]

    def key(self, state: str) -> str:
        """The row read in the lesser direction."""
        mirrored = state[::-1]
        return mirrored if mirrored < state else state

    def swap(self, state: str) -> str:
        """Colours exchanged."""
        return state.translate(_SWAP)
