"""Weighted tic-tac-toe (AtCoder ABC 349 E): a line wins, else the heavier marked cells win."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .tictactoe import FULL, HAS_LINE, LINE_MADE, MARKS, TicTacToe


class WeightedTicTacToe(TicTacToe):
    """Tic-tac-toe with a number on each cell: a line wins; a full board goes to the larger sum.

    Scored for the player to move: -inf once the opponent has a line, and on a full board
    the mover's sum minus the opponent's. The first player wins when the start scores > 0.
    """

    name = "weighted-tictactoe"

    def __init__(self, weights: tuple[int, ...] = (0, 0, 0, 0, 1, 0, 0, 0, 0)) -> None:
        if len(weights) != 9:
            raise ValueError(f"weights needs 9 numbers, row by row; got {len(weights)}")
        super().__init__(symmetry=False)
        self.weights = tuple(weights)
        # SUM[cells]: the total weight of a set of cells.
        self.sums = [
            sum(w for i, w in enumerate(self.weights) if cells >> i & 1) for cells in range(512)
        ]

    def outcome(self, state: int) -> float | None:  # type: ignore[override]
        """-inf when the previous player made a line; on a full board, mover's sum - other's."""
        x, o = state & FULL, state >> 9
        x_moved_last = x.bit_count() > o.bit_count()
        last, mover = (x, o) if x_moved_last else (o, x)
        if HAS_LINE[last]:
            return -math.inf
        if x | o == FULL:
            return self.sums[mover] - self.sums[last]
        return None

    def batch_outcome(  # type: ignore[override]  # scores, where tic-tac-toe has outcomes
        self, codes: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float64]:
        """Scores as outcome() gives them, NaN while the game goes on."""
        sums = np.array(self.sums, dtype=np.float64)
        x, o = codes & FULL, codes >> 9
        x_moved_last = MARKS[x] > MARKS[o]
        last = np.where(x_moved_last, x, o)
        mover = np.where(x_moved_last, o, x)
        result = np.where((x | o) == FULL, sums[mover] - sums[last], np.nan)
        result[LINE_MADE[last]] = -np.inf
        return result
