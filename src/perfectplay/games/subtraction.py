"""The subtraction game: one pile, each move removes an allowed number of stones."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..core.compiled import kernel
from ..drawing import token_rows
from ..protocol import BatchRules, Expansion
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
        self.universe = stones + 1
        self._take = np.array(self.take, dtype=np.int64)

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

    def parse_state(self, text: str) -> int:
        """The number of stones in the pile."""
        if not text.strip().lstrip("-").isdigit():
            raise ValueError(f"{text!r} is no number of stones")
        stones = int(text)
        if stones < 0:
            raise ValueError("a pile has 0 or more stones")
        return stones

    def show(self, state: int) -> str:
        """The pile."""
        return f"{state} stones (take {', '.join(map(str, self.take))})"

    def draw_svg(self, state: int, last: int | None = None) -> str:
        """The pile as a row of tokens; a click on a token takes it and those to its right."""
        legal = set(self.moves(state))

        def move_of(_: int, taken: int) -> str | None:
            return str(taken) if taken in legal else None

        return token_rows([state], move_of, ["stones"])

    def speed(self) -> BatchRules:
        """The batch protocol: a state is its pile size, every one below ``universe``."""
        return BatchRules(self.batch_outcome, self.batch_expand, universe=self.universe)

    def batch_outcome(self, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        """No state has an outcome: the game ends when no removal fits."""
        return np.zeros(codes.shape[0], dtype=np.int8)

    def batch_expand(self, codes: npt.NDArray[np.int64]) -> Expansion:
        """Every allowed removal from every pile size at once, smallest removal first."""
        return Expansion(*removals(codes, self._take))


@kernel
def removals(
    codes: npt.NDArray[np.int64], take: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(parent index, pile after) for every removal in ``take`` (ascending) that fits.

    A loop rather than an array expression: edpc_k expands 10 million moves at once.
    """
    total = np.searchsorted(take, codes, side="right").sum()
    parents = np.empty(total, dtype=np.int64)
    children = np.empty(total, dtype=np.int64)
    j = 0
    for i in range(codes.shape[0]):
        for t in take:
            if t > codes[i]:
                break
            parents[j] = i
            children[j] = codes[i] - t
            j += 1
    return parents, children
