"""Fair Shares and Varied Pairs (Winning Ways), as GamesmanOne solves it (its src/games/fsvp).

A position is a partition of ``size`` (default 10, at most 31) into heaps. A move either
splits one heap into equal heaps (a heap of x into x / y heaps of y, y a proper factor
of x), or joins two heaps of different sizes into one. A player without a move (every
heap of 1) has lost. Heaps can be split and joined again: the game's positions repeat,
and the solve follows the cycles. The start, as GamesmanOne sets it: one heap of
``size`` when ``size`` is even, else heaps of size - 1 and 1.

A position is one int64: its heaps from the largest, each as that many 1 bits and a 0
(unary), so 2 * size bits at most. A move is (x * 32 + y) * 2 + 1 to split x into y's,
(x * 32 + y) * 2 to join x and y (x > y).
"""

import numpy as np

from perfectplay import LOSS
from perfectplay.compiled_games import ONGOING, CompiledGame

LARGEST = 31


def counts_of(s):
    """How many heaps of each size (index 1..31) the position has."""
    counts = np.zeros(LARGEST + 1, dtype=np.int64)
    run = 0
    while s:
        if s & 1:
            run += 1
        else:
            counts[run] += 1
            run = 0
        s >>= 1
    if run:
        counts[run] += 1
    return counts


def encoded(counts):
    """The position with these heaps (largest first, each in unary and a 0)."""
    s = 0
    at = 0
    for size in range(LARGEST, 0, -1):
        for _ in range(counts[size]):
            s |= ((1 << size) - 1) << at
            at += size + 1
    return s


class FairShares(CompiledGame):
    """Split a heap into equal heaps or join two unequal ones; no move, no win."""

    name = "fsvp"
    size: int = 10
    max_moves = 600

    def start(p):
        counts = np.zeros(LARGEST + 1, dtype=np.int64)
        if p[0] % 2 == 0:
            counts[p[0]] = 1
        else:
            counts[p[0] - 1] = 1
            counts[1] = 1
        return encoded(counts)

    def moves(p, s, out):
        counts = counts_of(s)
        n = 0
        for x in range(1, p[0] + 1):
            if counts[x] > 0:
                for y in range(1, x // 2 + 1):
                    if x % y == 0:
                        out[n] = (x * 32 + y) * 2 + 1
                        n += 1
        for x in range(p[0], 0, -1):
            for y in range(x - 1, 0, -1):
                if counts[x] > 0 and counts[y] > 0:
                    out[n] = (x * 32 + y) * 2
                    n += 1
        return n

    def play(p, s, m):
        counts = counts_of(s)
        x = (m >> 1) // 32
        y = (m >> 1) % 32
        counts[x] -= 1
        if m & 1:
            counts[y] += x // y
        else:
            counts[y] -= 1
            counts[x + y] += 1
        return encoded(counts)

    def outcome(p, s):
        counts = counts_of(s)
        return LOSS if counts[1] == p[0] else ONGOING

    def show(self, s):
        counts = counts_of(s)
        heaps = [str(k) for k in range(LARGEST, 0, -1) for _ in range(counts[k])]
        return " + ".join(heaps)

    def format_move(self, m):
        x, y = (m >> 1) // 32, (m >> 1) % 32
        return f"split {x} into {y}s" if m & 1 else f"join {x} and {y}"
