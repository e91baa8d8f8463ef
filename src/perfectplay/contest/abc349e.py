"""ABC 349 E, Weighted Tic-Tac-Toe: who wins? Answered by negamax on weighted-tictactoe."""

from __future__ import annotations

import random

from . import Problem
from .reader import InputError, Reader

LIMIT = 10**9


def parse(text: str) -> tuple[int, ...]:
    """Nine integers, |A| <= 1e9, with an odd sum."""
    reader = Reader(text)
    weights: list[int] = []
    for row in range(1, 4):  # three lines of three
        weights += reader.integers(3, f"row {row}'s cell", -LIMIT, LIMIT)
        reader.end_of_line(f"row {row}'s 3 cells")
    reader.end()
    if sum(weights) % 2 == 0:
        raise InputError(f"the sum of the cells must be odd, got {sum(weights)}")
    return tuple(weights)


def answer(text: str) -> str:
    """Takahashi when the first player's perfect score is positive, else Aoki."""
    from ..games import WeightedTicTacToe  # the engine, loaded when this problem is asked
    from ..solve import solve

    value = solve(WeightedTicTacToe(parse(text)), "negamax").value()
    return "Takahashi\n" if float(value) > 0 else "Aoki\n"


def generate(rng: random.Random) -> str:
    """Random weights, small or large, often mostly negative (the first player marks more
    cells, so negative boards are where the second player can win), with an odd sum."""
    bound = rng.choice((3, 10, LIMIT))
    high = rng.choice((bound, bound // 3, 0))
    weights = [rng.randint(-bound, high) for _ in range(9)]
    if sum(weights) % 2 == 0:
        i = rng.randrange(9)
        weights[i] += 1 if weights[i] < bound else -1
    return "".join(" ".join(map(str, weights[r * 3 : r * 3 + 3])) + "\n" for r in range(3))


PROBLEM = Problem(
    name="abc349e",
    title="Weighted Tic-Tac-Toe (AtCoder ABC 349 E)",
    game="weighted-tictactoe",
    limit_seconds=2.0,
    answer=answer,
    generate=generate,
)
