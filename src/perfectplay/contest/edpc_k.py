"""EDPC K, Stones: who wins taking a_i stones from a pile of K? Retrograde on ``stones``."""

from __future__ import annotations

import random

from ..games import Stones
from ..solve import solve
from ..values import WIN
from . import Problem
from .reader import InputError, Reader

MAX_N = 100
MAX_K = 10**5


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


def answer(text: str) -> str:
    """First when the first player wins, else Second."""
    k, a = parse(text)
    return "First\n" if solve(Stones(k, a), "retrograde").value() is WIN else "Second\n"


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
