"""AOJ 2741, Invisible: the score difference under perfect play.

Answered by a dedicated DP in plain Python, not by the engine: a judge counts the whole
process, and the engine's negamax over the ``invisible`` game loads its compiled kernels
(numba, about a second) before it starts. The tests check the DP against the engine and a
search over the literal stack.
"""

from __future__ import annotations

import random

from . import Problem
from .reader import InputError, Reader

MAX_CARDS = 50
MAX_SCORE = 10**9
JAM = -1
"""A jamming card, as the input writes it."""


def parse(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``n m``, then n cards of player 1 and m of player 2 (positive scores or -1)."""
    reader = Reader(text)
    n = reader.integer("n", 1, MAX_CARDS)
    m = reader.integer("m", 1, MAX_CARDS)
    reader.end_of_line("n and m")
    decks = []
    for player, count in ((1, n), (2, m)):
        deck = reader.integers(count, f"player {player}'s card", JAM, MAX_SCORE)
        reader.end_of_line(f"player {player}'s {count} cards")
        if 0 in deck:
            position = deck.index(0) + 1
            raise InputError(
                f"player {player}'s card {position} is 0; a card is a positive score or -1"
            )
        decks.append(tuple(deck))
    reader.end()
    return decks[0], decks[1]


def difference(deck1: tuple[int, ...], deck2: tuple[int, ...]) -> int:
    """Player 1's score minus player 2's under perfect play.

    Between two clearings of the stack every move places a card, so the players alternate:
    a stack is fixed by where it was last cleared (both decks' positions, who placed
    first) and how many cards lie on it. With the stack empty the state is the positions,
    the mover, and whether the last move was a pass on an empty stack: ``empty[t][f]``,
    over the positions i, j (flattened). From each empty stack the run of placements is
    followed forwards (the counted sums, reset by a jam), then valued backwards: at each
    card the mover passes (collecting, the opponent to move on an empty stack) or places
    the next one. Runs only reach positions further on, so the empty-stack values are
    filled from the end of both decks back. O(n * m * (n + m)) steps.
    """
    decks = (deck1, deck2)
    sizes = (len(deck1), len(deck2))
    n, m = sizes
    width = m + 1
    # empty[t][f][i * width + j]: t to move on an empty stack; f: the last move was a pass.
    empty = [[[0] * ((n + 1) * width) for _ in range(2)] for _ in range(2)]
    for level in range(n + m, -1, -1):
        for i in range(max(0, level - m), min(n, level) + 1):
            j = level - i
            here = i * width + j
            runs: list[int | None] = [None, None]  # the value after t places on the empty stack
            for t in (0, 1):
                if (i, j)[t] < sizes[t]:
                    runs[t] = _run_value(decks, sizes, empty, i, j, t)
            for t, best in ((0, max), (1, min)):
                run = runs[t]
                # A pass on an empty stack after a pass ends the game: 0 more points.
                empty[t][1][here] = 0 if run is None else best(0, run)
            for t, best in ((0, max), (1, min)):
                run = runs[t]
                passed = empty[1 - t][1][here]
                empty[t][0][here] = passed if run is None else best(passed, run)
    return empty[0][0][0]


def _run_value(
    decks: tuple[tuple[int, ...], tuple[int, ...]],
    sizes: tuple[int, int],
    empty: list[list[list[int]]],
    i: int,
    j: int,
    first: int,
) -> int:
    """The value once ``first`` has placed a card on the empty stack at positions i, j."""
    width = sizes[1] + 1
    position = [i, j]
    counted = [0, 0]  # each player's score cards above the opponent's last jam
    mover = first
    choices: list[tuple[int, int]] = []  # at each card: the pass's value, who decides
    while True:
        card = decks[mover][position[mover]]
        if card == JAM:
            counted[1 - mover] = 0
        else:
            counted[mover] += card
        position[mover] += 1
        mover = 1 - mover
        after_pass = empty[1 - mover][0][position[0] * width + position[1]]
        choices.append((counted[0] - counted[1] + after_pass, mover))
        if position[mover] >= sizes[mover]:
            break  # the mover has no card left: passing is forced
    value = choices[-1][0]
    for passing, who in reversed(choices[:-1]):
        if (passing > value) if who == 0 else (passing < value):
            value = passing
    return value


def answer(text: str) -> str:
    """Player 1's score minus player 2's."""
    return f"{difference(*parse(text))}\n"


def generate(rng: random.Random) -> str:
    """Small decks with a random share of jamming cards."""
    jam_share = rng.choice((0.0, 0.2, 0.5))
    sizes = (rng.randint(1, 6), rng.randint(1, 6))
    decks = [
        [JAM if rng.random() < jam_share else rng.randint(1, 50) for _ in range(size)]
        for size in sizes
    ]
    return f"{sizes[0]} {sizes[1]}\n" + "".join(" ".join(map(str, d)) + "\n" for d in decks)


PROBLEM = Problem(
    name="aoj2741",
    title="Invisible (AOJ 2741)",
    game="invisible",
    limit_seconds=2.0,
    answer=answer,
    generate=generate,
)
