"""The subtraction game: one pile, each move removes an allowed number of stones."""

from __future__ import annotations

from ..values import Value


class Subtraction:
    """One pile; a move removes one of the allowed amounts; no move loses."""

    name = "subtraction"
    impartial = True

    def __init__(self, stones: int = 21, take: tuple[int, ...] = (1, 2, 3)) -> None:
        if stones < 0:
            raise ValueError("stones must be 0 or more")
        if not take or any(t <= 0 for t in take):
            raise ValueError("take must list positive numbers of stones")
        self.stones = stones
        self.take = tuple(sorted(set(take)))

    def initial(self) -> int:
        """The full pile."""
        return self.stones

    def moves(self, state: int) -> list[int]:
        """The allowed removals that fit in the pile."""
        return [t for t in self.take if t <= state]

    def play(self, state: int, move: int) -> int:
        """Remove stones."""
        return state - move

    def outcome(self, state: int) -> Value | None:
        """Normal play: the game ends when no removal fits, and the mover has lost."""
        return None

    def show(self, state: int) -> str:
        """The pile."""
        return f"{state} stones (take {', '.join(map(str, self.take))})"
