"""AOJ 2741, Invisible: the score difference under perfect play, by negamax with rewards."""

from __future__ import annotations

import random

from ..games import Invisible
from ..games.invisible import JAM
from ..solve import solve
from . import Problem
from .reader import InputError, Reader

MAX_CARDS = 50
MAX_SCORE = 10**9


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


def answer(text: str) -> str:
    """Player 1's score minus player 2's."""
    deck1, deck2 = parse(text)
    return f"{solve(Invisible(deck1, deck2), 'negamax').value()}\n"


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
