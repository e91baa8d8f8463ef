"""Misere play of octal games: genera (Conway's) while the game stays tame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.compiled import kernel
from ...errors import UsageProblem
from .codes import FIRST_STAGE, GENUS_TERMS, I64, TakeAndBreak, as_game
from .grundy import GrundyRun, _plain_work, extend


@kernel
def misere_genera(
    values: I64,
    gammas: I64,
    firm: I64,
    zero: I64,
    one: I64,
    two: I64,
    three: I64,
    unequal: bool,
) -> int:
    """Fill ``gammas[n, k]`` (misère Grundy value of heap n plus k nim-heaps of 2) and
    ``firm[n]`` heap by heap while every heap is tame; the first wild heap (its row filled,
    it stops there), or -1.

    A tame heap adds like a nim position: of normal value g, "firm" ones like a nim heap g
    (or two heaps >= 2), the others like g heaps of one token. A sum of tame heaps of xor
    x then has gamma_k = x ^ (2 if k odd), except gamma_0 = x ^ 1 when none is firm.
    gamma_0 of a heap is the mex over its options (1 with none); gamma_k, k >= 1, the mex
    over the options' gamma_k and gamma_{k-1} ^ 1 and gamma_{k-1} (a 2-heap taken to 1 or 0:
    adding a heap of 1 flips bit 0 of any misère Grundy value).
    """
    terms = gammas.shape[1]
    top = 0
    for i in range(values.shape[0]):
        top = max(top, values[i])
    cap = 4
    while cap <= top:
        cap *= 2
    xs = np.full(2 * cap + 8, -1, dtype=np.int64)
    g0s = np.full(2 * cap + 8, -1, dtype=np.int64)
    for n in range(values.shape[0]):
        count = 0
        for k in range(zero.shape[0]):
            if zero[k] == n:
                xs[0] = n
                g0s[1] = n
                count += 1
        for k in range(one.shape[0]):
            m = n - one[k]
            if m > 0:
                xs[values[m]] = n
                g0s[values[m] ^ (1 - firm[m])] = n
                count += 1
        for k in range(two.shape[0]):
            m = n - two[k]
            for a in range(1, m // 2 + 1):
                if unequal and 2 * a == m:
                    continue
                x = values[a] ^ values[m - a]
                xs[x] = n
                g0s[x ^ (1 - (firm[a] | firm[m - a]))] = n
                count += 1
        for k in range(three.shape[0]):
            m = n - three[k]
            for a in range(1, m // 3 + 1):
                for b in range(a, (m - a) // 2 + 1):
                    c = m - a - b
                    x = values[a] ^ values[b] ^ values[c]
                    xs[x] = n
                    g0s[x ^ (1 - (firm[a] | firm[b] | firm[c]))] = n
                    count += 1
        g = 0
        while g0s[g] == n:
            g += 1
        gammas[n, 0] = g if count > 0 else 1
        for t in range(1, terms):
            flip = 2 if t % 2 == 1 else 0
            before = gammas[n, t - 1]
            g = 0
            while xs[g ^ flip] == n or g == before or g == before ^ 1:
                g += 1
            gammas[n, t] = g
        v = values[n]
        is_firm = True
        is_fickle = v <= 1 and gammas[n, 0] == v ^ 1
        for t in range(terms):
            expected = v ^ (2 if t % 2 == 1 else 0)
            if gammas[n, t] != expected:
                if t > 0:
                    is_fickle = False
                is_firm = False
        if is_firm:
            firm[n] = 1
        elif is_fickle:
            firm[n] = 0
        else:
            return n
    return -1


@dataclass
class Misere:
    """Misère Grundy values of heaps 0..last, as far as genus arithmetic gives them.

    ``gammas[n]`` is the genus superscript of heap n (gamma_0 is its misère Grundy value:
    0 means the player to move loses); ``wild`` is the first heap that is not tame, whose
    own values are exact but beyond which sums are not given by nim rules (None: all tame).
    """

    game: TakeAndBreak
    values: I64
    gammas: I64
    wild: int | None

    @property
    def last(self) -> int:
        """The largest heap with misère values given."""
        return int(self.gammas.shape[0]) - 1

    def misere_values(self) -> list[int]:
        """gamma_0 of heaps 0..last."""
        return [int(v) for v in self.gammas[:, 0]]

    def genus(self, heap: int) -> str:
        """Conway's genus symbol g^{gamma...}, listed until the gammas alternate (x, x^2)."""
        row = [int(v) for v in self.gammas[heap]]
        shown = len(row)
        for stop in range(len(row)):
            if all(row[k + 1] == row[k] ^ 2 for k in range(stop, len(row) - 1)):
                shown = stop + 1 if stop == 0 else stop + 2
                break
        terms = row[:shown]
        sep = "," if any(v >= 10 for v in terms) else ""
        return f"{int(self.values[heap])}^{{{sep.join(map(str, terms))}}}"

    def tame_to(self) -> int:
        """The largest heap known tame (all heaps up to it are)."""
        return self.last if self.wild is None else self.wild - 1

    def to_json(self) -> dict[str, object]:
        """The misère findings as a JSON-ready dict."""
        return {
            "code": self.game.code,
            "misere_values": self.misere_values(),
            "genera": [self.genus(n) for n in range(self.last + 1)],
            "tame_to": self.tame_to(),
            "wild_at": self.wild,
        }


def misere(game: TakeAndBreak | str, last: int) -> Misere:
    """Genera and misère Grundy values of heaps 0..last, stopping at the first wild heap
    (in stages, like ``analyze``: most games turn wild within a few heaps)."""
    if last < 0:
        raise UsageProblem(f"a heap size is a whole number >= 0, got {last}")
    g = as_game(game)
    run = GrundyRun(g, np.zeros(1, dtype=np.int64))
    stage = min(last, FIRST_STAGE)
    while True:
        run = extend(run, stage)
        values = run.values
        gammas = np.zeros((stage + 1, GENUS_TERMS), dtype=np.int64)
        firm = np.zeros(stage + 1, dtype=np.int64)
        args = (
            values,
            gammas,
            firm,
            g.takes(1),
            g.takes(2),
            g.takes(4),
            g.takes(8),
            g.unequal,
        )
        wild = int(misere_genera.run(_plain_work(g, 0, stage + 1), *args))
        if wild >= 0:
            return Misere(g, values[: wild + 1], gammas[: wild + 1], wild)
        if stage >= last:
            return Misere(g, values, gammas, None)
        stage = min(last, stage * 4)
