"""Octal and take-and-break games by code: Grundy values of heaps, periods proven by the
Guy-Smith theorem, and misère Grundy values while the game stays tame.

The code ``d0.d1d2d3...`` (``0.77`` is Kayles, ``0.07`` Dawson's Kayles, ``0.137`` Dawson's
chess) says, digit by digit, what a move that takes ``j`` tokens from one heap may leave in
its place: digit ``dj`` is a sum of 1 (nothing: the heap had exactly ``j`` tokens), 2 (one
non-empty heap), 4 (two non-empty heaps) and, in hexadecimal codes (digits 8-9 and a-f),
8 (three non-empty heaps). The digit before the point is for taking nothing, so it may only
split (4, 8 or c); it may be left out (``.77``). Trailing zeros change nothing and are
dropped from the canonical code. Grundy's game (split a heap into two unequal heaps) is
``4.0`` with the extra rule that the two parts differ; ``grundy_game()`` gives it.

Values are plain int64 arrays, ``values[n]`` the Grundy value of a heap of ``n``, computed
by kernels (``perfectplay.compiled``) with no Python step per heap:

- the plain method marks every option of every heap and takes the mex: O(n^2) in all;
- the sparse-space method (Winning Ways, "sparse space spells speed"; Flammenkamp's tables)
  splits positions into rare and common by the parity of the value's bits under a mask
  (and optionally of the heap size). The xor of two heaps has the "common" parity only if
  exactly one of them is rare, so those options come from the few rare heaps; options of
  the other parity are searched for one candidate value at a time, and the search rarely
  runs long. It is exact for every mask (the mask only decides the speed) and equals the
  plain method, which the tests check.

A period is proven by the theorem of Guy and Smith: if a game's moves take at most ``t``
tokens and leave at most two heaps, and ``G(n + p) = G(n)`` for every ``n`` from ``n0`` up to
``2 n0 + p + t``, then it holds for every ``n >= n0``. So values computed through heap
``2 n0 + 2 p + t`` prove period ``p`` from ``n0`` on (here with ``n0`` at least 1, and with
factor 3 in place of 2 for moves that leave three heaps). A period seen in a range too
short for that is reported as apparent, never as fact; the theorem does not cover Grundy's
game (the unequal-split rule breaks its argument), so no period of it is called proven.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..compiled import kernel
from ..errors import UsageProblem

I64 = npt.NDArray[np.int64]
Method = Literal["auto", "plain", "sparse"]

MAX_DIGITS = 256
"""Longest code accepted (digits after the point)."""
SAMPLE = 2048
"""Heaps computed by the plain method before the sparse method picks its mask."""
FIRST_STAGE = 256
"""Heaps computed first when looking for a proof; each later stage is four times larger."""
GENUS_TERMS = 6
"""Terms gamma_0..gamma_5 of a genus computed; three suffice to tell a tame genus."""

KNOWN = {
    "0.77": "Kayles",
    "0.07": "Dawson's Kayles",
    "0.137": "Dawson's chess",
}
ALIASES = {
    "kayles": "0.77",
    "dawsons-kayles": "0.07",
    "dawson-kayles": "0.07",
    "dawsons-chess": "0.137",
    "dawson-chess": "0.137",
}
GRUNDY_NAMES = ("grundy", "grundys-game", "grundy-game")


@dataclass(frozen=True)
class TakeAndBreak:
    """A take-and-break game: what each number of tokens taken may leave (see the module).

    ``digits[j]`` is the digit for taking ``j`` tokens; ``unequal`` forbids splitting into two
    equal heaps (Grundy's game).
    """

    code: str
    digits: tuple[int, ...]
    unequal: bool = False
    name: str = ""

    @property
    def max_take(self) -> int:
        """t: the most tokens one move takes (0 when no move takes any)."""
        return max((j for j, d in enumerate(self.digits) if d), default=0)

    @property
    def max_heaps(self) -> int:
        """The most heaps one move leaves in place of one (0 to 3)."""
        bits = 0
        for d in self.digits:
            bits |= d
        return 3 if bits & 8 else 2 if bits & 4 else 1 if bits & 2 else 0

    def takes(self, bit: int) -> I64:
        """The numbers of tokens j whose digit has ``bit`` (1, 2, 4 or 8), ascending."""
        return np.array([j for j, d in enumerate(self.digits) if d & bit], dtype=np.int64)

    @property
    def proof_applies(self) -> bool:
        """Whether the Guy-Smith theorem covers this game (not Grundy's game)."""
        return not self.unequal

    def proof_bound(self, preperiod: int, period: int) -> int | None:
        """The last heap whose value a proof of (preperiod, period) needs, or None when no
        theorem here applies. Conservative by one heap."""
        if not self.proof_applies:
            return None
        k = max(self.max_heaps, 1)
        return k * max(preperiod, 1) + k * period + self.max_take

    def title(self) -> str:
        """The code and, for a well-known game, its name: ``0.77 (Kayles)``."""
        return f"{self.code} ({self.name})" if self.name else self.code


def grundy_game() -> TakeAndBreak:
    """Grundy's game: split one heap into two non-empty heaps of different sizes."""
    return TakeAndBreak("grundy", (4,), unequal=True, name="Grundy's game")


def parse_code(text: str) -> TakeAndBreak:
    """The game a code names: ``0.77``, ``.07``, ``4.07``, ``0.f`` (hexadecimal), ``octal:0.77``,
    or a name (``kayles``, ``dawsons-kayles``, ``dawsons-chess``, ``grundy``).

    Raises UsageProblem (a ValueError) with a sentence saying what is wrong.
    """
    raw = text.strip().lower()
    raw = raw.removeprefix("octal:")
    word = re.sub(r"['’]", "", raw).replace("_", "-").replace(" ", "-")
    if word in GRUNDY_NAMES:
        return grundy_game()
    raw = ALIASES.get(word, raw)
    if not raw:
        raise UsageProblem("an octal code is empty: write one such as 0.77 (Kayles)")
    if "." not in raw:
        hint = f"0.{raw}" if re.fullmatch(r"[0-9a-f]+", raw) else "0.77"
        raise UsageProblem(
            f"octal code {text.strip()!r} has no point: write it like {hint} (the digits after "
            "the point say what taking 1, 2, 3... tokens may leave)"
        )
    before, _, after = raw.partition(".")
    for position, char in enumerate(raw, start=1):
        if char != "." and char not in "0123456789abcdef":
            raise UsageProblem(
                f"octal code {text.strip()!r}: {char!r} at position {position} is no digit "
                "(octal digits 0-7, or hexadecimal 0-9 and a-f)"
            )
    if "." in after:
        raise UsageProblem(f"octal code {text.strip()!r} has more than one point")
    if len(before) > 1:
        raise UsageProblem(
            f"octal code {text.strip()!r}: one digit at most before the point (for taking "
            f"no token), got {before!r}"
        )
    if not after:
        raise UsageProblem(f"octal code {text.strip()!r} has no digit after the point")
    if len(after) > MAX_DIGITS:
        raise UsageProblem(
            f"octal code has {len(after)} digits after the point (at most {MAX_DIGITS})"
        )
    d0 = int(before, 16) if before else 0
    if d0 & 3:
        raise UsageProblem(
            f"octal code {text.strip()!r}: the digit before the point is for taking no token, "
            "so it may only split a heap (4: into two, 8: into three, c: either), "
            f"not {before!r}"
        )
    digits = [d0, *(int(c, 16) for c in after)]
    while len(digits) > 2 and digits[-1] == 0:
        digits.pop()
    code = f"{digits[0]:x}." + "".join(f"{d:x}" for d in digits[1:])
    return TakeAndBreak(code, tuple(digits), name=KNOWN.get(code, ""))


def as_game(game: TakeAndBreak | str) -> TakeAndBreak:
    """A game, or the game a code or name names."""
    return game if isinstance(game, TakeAndBreak) else parse_code(game)


# ---------------------------------------------------------------------------------------
# Grundy values


@kernel
def octal_plain(
    values: I64, start: int, zero: I64, one: I64, two: I64, three: I64, unequal: bool
) -> None:
    """Fill ``values[start:]`` by the mex over every option (``values[:start]`` are given).

    ``zero``, ``one``, ``two``, ``three``: the numbers of tokens a move may take leaving that
    many heaps. Option values are bits of ``acc`` (64 to a word); they stay below ``cap``, a
    power of two above every value so far, so the mex is at most ``cap``. The values of the
    splits of m tokens into two heaps are one bit set per m, kept in a ring of rows: heaps
    n and n + 1 taking 1 and 2 tokens split the same m, which is enumerated once.
    """
    top = 0
    for i in range(start):
        top = max(top, values[i])
    cap = 2
    while cap <= top:
        cap *= 2
    words = cap // 64 + 1
    low = 0
    ring = 1
    if two.shape[0] > 0:
        low = two[0]
        ring = two[two.shape[0] - 1] - low + 1
    rows = np.zeros((ring, words), dtype=np.int64)
    held = np.full(ring, -1, dtype=np.int64)  # the m whose splits each row holds
    acc = np.zeros(words, dtype=np.int64)
    for n in range(start, values.shape[0]):
        acc[:] = 0
        for k in range(zero.shape[0]):
            if zero[k] == n:
                acc[0] |= 1
        for k in range(one.shape[0]):
            m = n - one[k]
            if m > 0:
                v = values[m]
                acc[v >> 6] |= 1 << (v & 63)
        for k in range(two.shape[0]):
            m = n - two[k]
            if m < 2:
                continue
            r = (m - low) % ring
            if held[r] != m:
                rows[r, :] = 0
                for a in range(1, m // 2 + 1):
                    if unequal and 2 * a == m:
                        continue
                    v = values[a] ^ values[m - a]
                    rows[r, v >> 6] |= 1 << (v & 63)
                held[r] = m
            for w in range(words):
                acc[w] |= rows[r, w]
        for k in range(three.shape[0]):
            m = n - three[k]
            for a in range(1, m // 3 + 1):
                for b in range(a, (m - a) // 2 + 1):
                    v = values[a] ^ values[b] ^ values[m - a - b]
                    acc[v >> 6] |= 1 << (v & 63)
        w = 0
        while acc[w] == -1:
            w += 1
        bit = 0
        while (acc[w] >> bit) & 1:
            bit += 1
        g = w * 64 + bit
        values[n] = g
        if g >= cap:
            cap *= 2
            words = cap // 64 + 1
            rows = np.zeros((ring, words), dtype=np.int64)
            held[:] = -1
            acc = np.zeros(words, dtype=np.int64)


@kernel
def octal_sparse(
    values: I64,
    start: int,
    zero: I64,
    one: I64,
    two: I64,
    unequal: bool,
    mask: int,
    domain: int,
    rare_class: int,
) -> int:
    """Fill ``values[start:]`` by the sparse-space method; the count of rare heaps.

    A heap x is rare when parity(values[x] & mask) ^ (domain & x) == rare_class. Splitting
    m tokens into a + b gives a value of parity 1 ^ (domain & m) exactly when one part is
    rare and the other common, so pairing each rare heap with its complement marks every
    split option of that parity; one-heap and zero-heap options are all marked too. The mex
    is then the first value that is unmarked and either of that parity or, of the other
    parity, found by no split (searched pair by pair, stopping at the first hit).
    ``domain`` may be 1 only when every split takes the same parity of tokens.
    """
    top = 0
    for i in range(start):
        top = max(top, values[i])
    cap = 2
    while cap <= top:
        cap *= 2
    seen = np.full(cap + 1, -1, dtype=np.int64)
    rare = np.empty(64, dtype=np.int64)
    count = 0
    for x in range(1, start):
        bits = values[x] & mask
        parity = 0
        while bits:
            bits &= bits - 1
            parity ^= 1
        if parity ^ (domain & x) == rare_class:
            if count == rare.shape[0]:
                rare = np.concatenate((rare, np.empty(count, dtype=np.int64)))
            rare[count] = x
            count += 1
    for n in range(start, values.shape[0]):
        for k in range(zero.shape[0]):
            if zero[k] == n:
                seen[0] = n
        for k in range(one.shape[0]):
            m = n - one[k]
            if m > 0:
                seen[values[m]] = n
        target = 1
        for k in range(two.shape[0]):
            m = n - two[k]
            target = 1 ^ (domain & m)
            for i in range(count):
                a = rare[i]
                if a >= m:
                    break
                if unequal and 2 * a == m:
                    continue
                seen[values[a] ^ values[m - a]] = n
        g = 0
        while True:
            if seen[g] == n:
                g += 1
                continue
            bits = g & mask
            parity = 0
            while bits:
                bits &= bits - 1
                parity ^= 1
            if parity == target:
                break  # every split option of this parity is marked: g is missing
            # Search every split at once, smallest parts first: a hit is usually near.
            found = False
            if two.shape[0] == 1:
                m = n - two[0]
                for a in range(1, m // 2 + 1):
                    if values[a] ^ values[m - a] == g and not (unequal and 2 * a == m):
                        found = True
                        break
            widest = (n - two[0]) // 2 if two.shape[0] > 1 else 0
            for a in range(1, widest + 1):
                for k in range(two.shape[0]):
                    m = n - two[k]
                    if 2 * a > m:
                        break  # two[] ascends, so m only shrinks
                    if values[a] ^ values[m - a] == g and not (unequal and 2 * a == m):
                        found = True
                        break
                if found:
                    break
            if not found:
                break
            g += 1
        values[n] = g
        if g >= cap:
            cap *= 2
            seen = np.full(cap + 1, -1, dtype=np.int64)
        bits = g & mask
        parity = 0
        while bits:
            bits &= bits - 1
            parity ^= 1
        if parity ^ (domain & n) == rare_class:
            if count == rare.shape[0]:
                rare = np.concatenate((rare, np.empty(count, dtype=np.int64)))
            rare[count] = n
            count += 1
    return count


@dataclass(frozen=True)
class SparseSpace:
    """How the sparse-space method splits heaps into rare and common (see octal_sparse)."""

    mask: int
    domain: int
    rare_class: int
    rare_in_sample: int
    sample: int

    def describe(self) -> str:
        """The mask as Winning Ways writes it: finite, or a complement (~b) with every bit
        above set."""
        mask = f"~{~self.mask:#x}" if self.mask < 0 else f"{self.mask:#x}"
        where = ", with the heap's parity" if self.domain else ""
        return f"mask {mask}{where}: {self.rare_in_sample} rare of {self.sample - 1} heaps"


def _parities(bits: int) -> npt.NDArray[np.int8]:
    """parity(v & mask) for every mask below 2**bits (rows) and every value below (columns)."""
    size = 1 << bits
    table = np.zeros(size, dtype=np.int8)
    for b in range(bits):
        table[1 << b : 2 << b] = table[: 1 << b] ^ 1
    masks = np.arange(size, dtype=np.int64)
    result: npt.NDArray[np.int8] = table[masks[:, None] & masks[None, :]]
    return result


def choose_space(game: TakeAndBreak, values: I64) -> SparseSpace:
    """The mask (and whether the heap's parity joins in) that leaves the fewest rare heaps
    among ``values[1:]``: the sparse method's speed, never its result, depends on it."""
    two = game.takes(4)
    domains = [0]
    if two.size and len({int(j) & 1 for j in two}) == 1:
        domains.append(1)
    sample = values[1:]
    bits = max(1, int(sample.max(initial=0)).bit_length())
    bits = min(bits, 10)
    low = sample & ((1 << bits) - 1)
    heap_parity = (np.arange(1, values.shape[0]) & 1).astype(np.int64)
    counts = np.zeros((1 << bits, 2), dtype=np.int64)
    np.add.at(counts, (low, heap_parity), 1)
    parity = _parities(bits).astype(np.int32)  # [mask, value]
    best: tuple[int, int, int, int] | None = None  # (rare, mask, domain, class)
    for domain in domains:
        rare_class = domain & (int(two[0]) & 1) if two.size else 0
        # heaps with s = parity ^ (domain & heap) == rare_class, for every mask at once
        odd = parity @ counts[:, 1]
        even = parity @ counts[:, 0]
        # heaps with s = 1: an odd value on an even heap or, with the heap's parity, an
        # even value on an odd heap
        ones = even + (counts[:, 1].sum() - odd) if domain else even + odd
        total = counts.sum()
        rare = ones if rare_class == 1 else total - ones
        rare[0] = total + 1  # mask 0 makes every heap one class
        mask = int(np.argmin(rare))
        candidate = (int(rare[mask]), mask, domain, rare_class)
        if best is None or candidate[0] < best[0]:
            best = candidate
    assert best is not None
    rare_count, mask, domain, rare_class = best
    # Bits above the sample's values: set them all (Winning Ways' infinite bit strings).
    full_mask = mask | (-1 << bits)
    return SparseSpace(full_mask, domain, rare_class, rare_count, values.shape[0])


@dataclass
class GrundyRun:
    """Grundy values of heaps 0..len-1, extendable, and how they were computed."""

    game: TakeAndBreak
    values: I64
    method: str = "plain"
    space: SparseSpace | None = None
    rare: int = 0

    @property
    def last(self) -> int:
        """The largest heap whose value is known."""
        return int(self.values.shape[0]) - 1


def _plain_work(game: TakeAndBreak, start: int, stop: int) -> int:
    """Options the plain method marks for heaps start..stop-1, roughly."""
    span = stop * stop - start * start
    return (span // 4) * game.takes(4).size + (span * stop // 36) * game.takes(8).size + stop


def _run_plain(game: TakeAndBreak, values: I64, start: int) -> None:
    args = (
        values,
        start,
        game.takes(1),
        game.takes(2),
        game.takes(4),
        game.takes(8),
        game.unequal,
    )
    if octal_plain.compiles_for(_plain_work(game, start, values.shape[0])):
        octal_plain.run_compiled(*args)
    else:
        octal_plain.interpreted(*args)


def sparse_applies(game: TakeAndBreak) -> bool:
    """Whether the sparse method can run: some split into two, none into three."""
    return game.takes(4).size > 0 and game.takes(8).size == 0


def extend(run: GrundyRun, last: int, method: Method = "auto") -> GrundyRun:
    """The run with values through heap ``last`` (computing only the new heaps)."""
    if last <= run.last:
        return run
    if last < 0:
        raise UsageProblem(f"a heap size is a whole number >= 0, got {last}")
    game = run.game
    if method == "sparse" and not sparse_applies(game):
        raise UsageProblem(
            f"the sparse-space method needs splits into two heaps and none into three; "
            f"{game.title()} has {'splits into three' if game.takes(8).size else 'no split'}"
        )
    start = run.last + 1
    values = np.zeros(last + 1, dtype=np.int64)
    values[:start] = run.values
    sparse = method == "sparse" or (method == "auto" and sparse_applies(game) and last > SAMPLE)
    if not sparse:
        _run_plain(game, values, start)
        return GrundyRun(game, values, run.method, run.space, run.rare)
    # The mask is chosen on values the plain loop computes first (fewer when forced on a
    # short run, so that the sparse loop computes most of them).
    sample = SAMPLE if method == "auto" else min(SAMPLE, max(16, (last + 1) // 8))
    head = min(last + 1, max(start, sample))
    if head > start:
        _run_plain(game, values[:head], start)
        start = head
    space = run.space or choose_space(game, values[:start])
    if method == "auto" and space.rare_in_sample * 4 > space.sample:
        _run_plain(game, values, start)  # no sparse space: the plain loop is as quick
        return GrundyRun(game, values, run.method, run.space, run.rare)
    rare = 0
    if start <= last:
        args = (
            values,
            start,
            game.takes(1),
            game.takes(2),
            game.takes(4),
            game.unequal,
            space.mask,
            space.domain,
            space.rare_class,
        )
        work = (last + 1) * 64
        if octal_sparse.compiles_for(work):
            rare = octal_sparse.run_compiled(*args)
        else:
            rare = octal_sparse.interpreted(*args)
    return GrundyRun(game, values, "sparse", space, rare)


def grundy_values(game: TakeAndBreak | str, last: int, method: Method = "auto") -> I64:
    """Grundy values of heaps 0..last of a game or code: plain, sparse, or auto (sparse for
    long runs of games that split into two heaps)."""
    if last < 0:
        raise UsageProblem(f"a heap size is a whole number >= 0, got {last}")
    start = GrundyRun(as_game(game), np.zeros(1, dtype=np.int64))
    return extend(start, last, method).values


def grundy_game_values(last: int, method: Method = "auto") -> I64:
    """Grundy values of heaps 0..last of Grundy's game."""
    return grundy_values(grundy_game(), last, method)


# ---------------------------------------------------------------------------------------
# Periods


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
        if misere_genera.compiles_for(_plain_work(g, 0, stage + 1)):
            wild = int(misere_genera.run_compiled(*args))
        else:
            wild = int(misere_genera.interpreted(*args))
        if wild >= 0:
            return Misere(g, values[: wild + 1], gammas[: wild + 1], wild)
        if stage >= last:
            return Misere(g, values, gammas, None)
        stage = min(last, stage * 4)
