"""Toads-and-Frogs on a strip: Left's toads ``T`` move right, Right's frogs ``F`` move left.

A state is the strip as a string over ``T``, ``F`` and ``.`` (empty); lowercase is read
too. A piece steps into the next square if it is empty, or jumps exactly one opposing
piece into the empty square beyond; pieces never move backwards and never jump their
own kind. A move is the index of the piece that moves (the piece says whose it is).

Components: a run of frogs at the left end and a run of toads at the right end can never
move and are dropped; ``TTFF`` is a wall nothing ever crosses (each of the four is
blocked for good), so the strip splits there. ``swap`` reverses the strip and exchanges
toads and frogs: the same game with the players exchanged.
"""

from __future__ import annotations

from ..errors import InputError

__all__ = ["ToadsAndFrogs"]

_SWAP = str.maketrans("TF", "FT")


class ToadsAndFrogs:
    """Toads-and-Frogs: toads (Left) move right, frogs (Right) move left, stepping or
    jumping one opposing piece.

    position: the strip, e.g. TT..FF.
    """

    name = "toads"
    aliases = ("toads-and-frogs",)

    def __init__(self, position: str = "TTT..FFF") -> None:
        self.position = self.parse_position(position)

    def initial(self) -> str:
        """The strip given to the constructor."""
        return self.position

    def parse_position(self, text: str) -> str:
        """A strip of T, F and '.'."""
        strip = text.strip().upper()
        bad = set(strip) - set("TF.")
        if bad:
            raise InputError(
                f"a Toads-and-Frogs strip holds T (toads), F (frogs) and '.', not "
                f"{''.join(sorted(bad))!r}"
            )
        return strip

    def show(self, state: str) -> str:
        """The strip itself."""
        return state

    def left_moves(self, state: str) -> list[int]:
        """Toads that can step or jump."""
        n = len(state)
        out = []
        for i, ch in enumerate(state):
            if ch != "T" or i + 1 >= n:
                continue
            nxt = state[i + 1]
            if nxt == "." or (nxt == "F" and i + 2 < n and state[i + 2] == "."):
                out.append(i)
        return out

    def right_moves(self, state: str) -> list[int]:
        """Frogs that can step or jump."""
        out = []
        for i, ch in enumerate(state):
            if ch != "F" or i == 0:
                continue
            prev = state[i - 1]
            if prev == "." or (prev == "T" and i >= 2 and state[i - 2] == "."):
                out.append(i)
        return out

    def play(self, state: str, move: int) -> str:
        """Move the piece at index move."""
        piece = state[move]
        step = 1 if piece == "T" else -1
        target = move + step
        if state[target] != ".":
            target += step  # a jump over one opposing piece
        cells = list(state)
        cells[move] = "."
        cells[target] = piece
        return "".join(cells)

    def components(self, state: str) -> list[str]:
        """Independent parts: split at TTFF walls, pieces that can never move dropped."""
        parts = []
        for chunk in state.replace("TTFF", "TT|FF").split("|"):
            part = chunk.lstrip("F").rstrip("T")
            if "T" in part or "F" in part:
                parts.append(part)
        return parts

    def swap(self, state: str) -> str:
        """Reversed, toads and frogs exchanged."""
        return state[::-1].translate(_SWAP)
