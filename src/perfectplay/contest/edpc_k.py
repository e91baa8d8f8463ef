"""EDPC K, Stones: who wins taking a_i stones from a pile of K?

Answered by a dedicated win/loss sweep over the piles 0..K, not by the engine: a judge
counts the whole process, and the engine's retrograde solver loads its compiled kernels
(numba, about a second) before it starts. The tests check the sweep against the engine's
``stones`` and a plain DP.
"""

from __future__ import annotations

import random

import numpy as np

from . import Problem
from .reader import InputError, Reader

MAX_N = 100
MAX_K = 10**5
BLOCKS_FROM = 64
"""From this smallest removal on, piles are settled a block at a time (fewer numpy calls)."""
MAX_BLOCK = 2048
"""The most piles settled at once (bounds the block's temporary array of targets)."""


def parse(text: str) -> tuple[int, tuple[int, ...]]:
    """``N K``, then 1 <= a1 < a2 < ... < aN <= K."""
    reader = Reader(text)
    n = reader.integer("N", 1, MAX_N)
    k = reader.integer("K", 1, MAX_K)
    reader.end_of_line("N and K")
    a: list[int] = []
    for i in range(n):
        value = reader.integer(f"a #{i + 1}", 1, k)
        if a and value <= a[-1]:
            raise InputError(
                f"line {reader.last_line}: a must increase strictly, but a #{i} = {a[-1]} "
                f"and a #{i + 1} = {value}"
            )
        a.append(value)
    reader.end()
    return k, tuple(a)


def first_wins(
    k: int, a: tuple[int, ...], *, blocks_from: int = BLOCKS_FROM, max_block: int = MAX_BLOCK
) -> bool:
    """Whether the player to move wins a pile of ``k`` with removals ``a`` (increasing).

    A pile is won when some removal reaches a lost pile, so each lost pile marks the piles
    ``a`` above it as won ("pushed" through a numpy view of a bytearray). A pile depends
    only on piles at least ``a[0]`` below it, so with a large ``a[0]`` the piles of a block
    of up to ``a[0]`` are settled together. O(K + lost piles * N) work, no recursion.
    """
    won = bytearray(k + a[-1] + 1)  # room for every push from a pile below k
    view = np.frombuffer(won, dtype=np.uint8)
    moves = np.array(a, dtype=np.intp)
    if a[0] < blocks_from:
        for pile in range(k):
            if not won[pile]:
                view[pile:][moves] = 1
        return bool(won[k])
    step = min(a[0], max_block)
    for start in range(0, k, step):
        lost = np.flatnonzero(view[start : min(start + step, k)] == 0) + start
        if len(lost):
            view[(lost[:, None] + moves).ravel()] = 1
    return bool(won[k])


def answer(text: str) -> str:
    """First when the first player wins, else Second."""
    k, a = parse(text)
    return "First\n" if first_wins(k, a) else "Second\n"


def generate(rng: random.Random) -> str:
    """A small pile and a random increasing set of removals."""
    k = rng.randint(1, 40)
    n = rng.randint(1, min(k, 5))
    a = sorted(rng.sample(range(1, k + 1), n))
    return f"{n} {k}\n{' '.join(map(str, a))}\n"


PROBLEM = Problem(
    name="edpc_k",
    title="Stones (Educational DP Contest K)",
    game="stones",
    limit_seconds=2.0,
    answer=answer,
    generate=generate,
)
