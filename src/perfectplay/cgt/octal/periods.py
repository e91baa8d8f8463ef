"""Periods of Grundy values found and proven by the theorem of Guy and Smith (see the
package docstring): apparent until the values reach far enough to prove them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ...core.compiled import kernel
from ...errors import UsageProblem
from .codes import FIRST_STAGE, I64, Method, TakeAndBreak, as_game
from .grundy import GrundyRun, extend


@kernel
def period_scan(values: I64, factor: int, take: int, threshold: int) -> I64:
    """[proven p, its n0, apparent p, its n0] (-1 where none) for values[0..N].

    For each p ascending, n0 is the smallest start with values[n] == values[n + p] for
    every n0 <= n <= N - p. p is proven when factor * max(n0, 1) + factor * p + take <= N
    (factor 0: never); the scan stops at the first. p is apparent when the periodic part
    (N + 1 - n0 values) holds three periods and ``threshold`` values. ``known[q]`` is
    where a divisor's run starts: a multiple of a period repeats at least from there, so
    its scan starts below it.
    """
    last = values.shape[0] - 1
    limit = (last + 1) // 2
    result = np.full(4, -1, dtype=np.int64)
    known = np.full(limit + 1, last + 1, dtype=np.int64)
    for p in range(1, limit + 1):
        n = min(last - p, known[p] - 1)
        while n >= 0 and values[n] == values[n + p]:
            n -= 1
        n0 = n + 1
        length = last + 1 - n0
        if factor > 0 and factor * max(n0, 1) + factor * p + take <= last:
            result[0] = p
            result[1] = n0
            break
        if length >= 3 * p and length >= threshold and result[2] < 0:
            result[2] = p
            result[3] = n0
        if length >= 2 * p:
            for q in range(2 * p, limit + 1, p):
                known[q] = min(known[q], n0)
    return result


@dataclass
class Periodicity:
    """What the values of heaps 0..checked show: a proven period, an apparent one, or none.

    ``preperiod`` is the first heap of the periodic part (Kayles: 71, its last exception
    being heap 70); ``bound`` the heap a Guy-Smith proof needs values through.
    """

    game: TakeAndBreak
    status: Literal["proven", "apparent", "none"]
    checked: int
    period: int | None = None
    preperiod: int | None = None
    bound: int | None = None
    values: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    method: str = "plain"

    def periodic_values(self) -> list[int]:
        """One period of values, from the first heap of the periodic part."""
        if self.period is None or self.preperiod is None:
            return []
        return [int(v) for v in self.values[self.preperiod : self.preperiod + self.period]]

    def preperiod_values(self) -> list[int]:
        """The values of the heaps before the periodic part."""
        if self.preperiod is None:
            return []
        return [int(v) for v in self.values[: self.preperiod]]

    def exceptions(self) -> list[tuple[int, int]]:
        """(heap, value) for the heaps before the periodic part whose value is not the one
        the period, carried backwards, would give (Winning Ways' exceptional values)."""
        if self.period is None or self.preperiod is None:
            return []
        p, n0 = self.period, self.preperiod
        return [
            (n, int(self.values[n]))
            for n in range(n0)
            if self.values[n] != self.values[n0 + (n - n0) % p]
        ]

    def sentence(self) -> str:
        """The finding in words, never claiming more than is shown."""
        if self.status == "proven":
            return (
                f"period {self.period} from heap {self.preperiod} on, proven: values checked "
                f"through heap {self.checked}, past the Guy-Smith bound {self.bound}"
            )
        if self.status == "apparent":
            why = (
                f"a proof needs values through heap {self.bound}"
                if self.bound is not None
                else "no theorem here proves periods of this game"
            )
            return (
                f"apparent period {self.period} from heap {self.preperiod} on, checked to "
                f"{self.checked}, not proven ({why})"
            )
        return f"no period found up to {self.checked}"

    def to_json(self) -> dict[str, object]:
        """The finding as a JSON-ready dict."""
        return {
            "code": self.game.code,
            "name": self.game.name or None,
            "status": self.status,
            "period": self.period,
            "preperiod": self.preperiod,
            "checked_to": self.checked,
            "bound": self.bound,
            "method": self.method,
            "periodic_values": self.periodic_values(),
            "preperiod_values": self.preperiod_values(),
            "exceptions": [[n, v] for n, v in self.exceptions()],
            "text": self.sentence(),
        }


def find_octal_period(game: TakeAndBreak, values: I64, method: str = "plain") -> Periodicity:
    """The smallest period (and its preperiod) the values show, proven when they reach the
    Guy-Smith bound. The first proven period in increasing order is the least period of the
    whole infinite sequence: any smaller one would repeat from the same heap and so have a
    smaller bound."""
    last = int(values.shape[0]) - 1
    factor = max(game.max_heaps, 1) if game.proof_applies else 0
    threshold = (last + 2) // 2
    found = period_scan(values, factor, game.max_take, threshold)
    if found[0] > 0:
        p, n0 = int(found[0]), int(found[1])
        return Periodicity(game, "proven", last, p, n0, game.proof_bound(n0, p), values, method)
    if found[2] > 0:
        p, n0 = int(found[2]), int(found[3])
        return Periodicity(game, "apparent", last, p, n0, game.proof_bound(n0, p), values, method)
    return Periodicity(game, "none", last, values=values, method=method)


def analyze(game: TakeAndBreak | str, most: int = 10_000, method: Method = "auto") -> Periodicity:
    """Values of ever more heaps (256, then four times as many each stage, at most ``most``)
    until a period is proven or ``most`` is reached."""
    if most < 1:
        raise UsageProblem(f"the number of heaps must be at least 1, got {most}")
    run = GrundyRun(as_game(game), np.zeros(1, dtype=np.int64))
    stage = min(most, FIRST_STAGE)
    while True:
        run = extend(run, stage, method)
        found = find_octal_period(run.game, run.values, run.method)
        if found.status == "proven" or stage >= most:
            return found
        stage = min(most, stage * 4)


# ---------------------------------------------------------------------------------------
# Misère play
