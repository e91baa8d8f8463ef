"""Nim: take any number of stones from one pile; whoever takes the last stone wins."""

from __future__ import annotations

from ..drawing import token_rows
from ..values import WIN, Value


class Nim:
    """Nim on any piles; with misere=true, taking the last stone loses instead."""

    name = "nim"

    def __init__(self, piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> None:
        if any(p < 0 for p in piles):
            raise ValueError("piles must be 0 or more stones")
        self.piles = tuple(piles)
        self.misere = misere
        self.impartial = not misere

    def initial(self) -> tuple[int, ...]:
        """The piles as given."""
        return self.piles

    def moves(self, state: tuple[int, ...]) -> list[tuple[int, int]]:
        """(pile index, stones taken) for every non-empty pile."""
        return [(i, take) for i, pile in enumerate(state) for take in range(1, pile + 1)]

    def play(self, state: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...]:
        """Take stones from one pile."""
        i, take = move
        return (*state[:i], state[i] - take, *state[i + 1 :])

    def outcome(self, state: tuple[int, ...]) -> Value | None:
        """Normal play needs no outcome (no move loses); misère: no stones left wins."""
        if self.misere and not any(state):
            return WIN
        return None

    def key(self, state: tuple[int, ...]) -> tuple[int, ...]:
        """Pile order does not matter."""
        return tuple(sorted(state))

    def show(self, state: tuple[int, ...]) -> str:
        """One line per pile."""
        return "\n".join(f"pile {i + 1}: {'|' * p} ({p})" for i, p in enumerate(state))

    def parse_state(self, text: str) -> tuple[int, ...]:
        """Piles as comma-separated numbers, e.g. 1,4,6."""
        parts = [p.strip() for p in text.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ValueError("piles are whole numbers separated by commas, as 1,4,6")
        piles = tuple(int(p) for p in parts)
        if any(p < 0 for p in piles):
            raise ValueError("piles are 0 or more stones")
        return piles

    def format_move(self, move: tuple[int, int]) -> str:
        """PILE:TAKEN, piles numbered from 1."""
        return f"{move[0] + 1}:{move[1]}"

    def draw_svg(self, state: tuple[int, ...], last: tuple[int, int] | None = None) -> str:
        """A row of tokens per pile; a click on a token takes it and those to its right."""
        legal = set(self.moves(state)) if self.outcome(state) is None else set()

        def move_of(pile: int, taken: int) -> str | None:
            return self.format_move((pile, taken)) if (pile, taken) in legal else None

        labels = [f"pile {i + 1}" for i in range(len(state))]
        return token_rows(list(state), move_of, labels)

    def parse_move(self, text: str) -> tuple[int, int]:
        """PILE:TAKEN, e.g. 2:3 takes three stones from pile 2."""
        pile, sep, taken = text.partition(":")
        if not sep or not pile.strip().isdigit() or not taken.strip().isdigit():
            raise ValueError("a move is PILE:TAKEN, as 2:3")
        return int(pile) - 1, int(taken)
