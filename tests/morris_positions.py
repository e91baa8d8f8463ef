"""Positions of Morris (``examples/morris.py``) for the tests: those with every stone
placed, met on random playouts from the start."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def placed_out(game: Any, seed: int, playouts: int) -> Iterator[int]:
    """The placed-out positions (no stone in hand) of ``playouts`` random games of
    ``game``, in the order met (repeats kept)."""
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.initial()
        while game.outcome(state) is None:
            if state >> 48 == 0:  # every stone placed
                yield state
            state = game.play(state, rng.choice(game.moves(state)))
