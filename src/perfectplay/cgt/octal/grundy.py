"""Grundy values of heaps by kernels: the plain method (every option, O(n^2)) and the
sparse-space method (rare and common values; see the package docstring), and the run that
extends them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...core.compiled import kernel
from ...errors import UsageProblem
from .codes import I64, SAMPLE, Method, TakeAndBreak, as_game, grundy_game


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
    octal_plain.run(_plain_work(game, start, values.shape[0]), *args)


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
        rare = octal_sparse.run((last + 1) * 64, *args)
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
