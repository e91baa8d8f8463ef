"""Automatic ranking: each tier's reachable codes, sorted, found forward from the start.

A position's index in its tier is the rank of its code in the tier's sorted array of
reachable codes (``CodeSet``); no ranking to write. A code is found by a bucket index on its
high bits, (code - first code) >> shift, with about 8 codes a bucket, and a binary search
inside its bucket: a few probes of one or two cache lines, whatever the tier's size. A code
that is not in the tier is reported as -1, never answered with another position's index.
Memory: 8 bytes a code and about 1 byte a code of buckets.

``discover`` walks the tiers in increasing order (a move never lowers the tier): a tier's
codes are the children its earlier tiers sent it, closed under its own moves (a loopy tier,
found in rounds of new codes), deduplicated by sorting each chunk's children and merging.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import GameError, InterruptedSolve
from ..memory import MemoryWatch
from ..progress import ProgressCallback
from ..spaces.pipeline import in_parallel
from .building import Loops
from .sorting import merge_distinct, missing_from, sort_distinct

CODES_PER_BUCKET = 8
CHUNK = 1 << 17
"""States expanded at once while discovering (about 50 bytes each with their children)."""


@dataclass(frozen=True)
class CodeSet:
    """One tier's sorted reachable codes, with the bucket index that finds a code in them."""

    codes: Any
    """Sorted, distinct int64 codes (an array or a read-only map)."""
    buckets: Any
    base: int
    shift: int

    @classmethod
    def of(cls, codes: Any) -> CodeSet:
        """The set of sorted, distinct ``codes``, with its bucket index."""
        n = int(codes.shape[0])
        if n == 0:
            return cls(codes, np.zeros(2, dtype=np.int64), 0, 0)
        base = int(codes[0])
        span = int(codes[-1]) - base + 1
        wanted = max(1, n // CODES_PER_BUCKET)
        shift = max(0, (span - 1).bit_length() - wanted.bit_length() + 1)
        count = ((span - 1) >> shift) + 1
        edges = base + (np.arange(count + 1, dtype=np.int64) << shift)
        buckets = np.searchsorted(codes, edges).astype(np.int64)
        return cls(codes, buckets, base, shift)

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def rank(self, loops: Loops, queries: Any) -> Any:
        """The index of each query code in this set, -1 where it is not a member."""
        queries = np.ascontiguousarray(queries, dtype=np.int64)
        out = np.empty(queries.shape[0], dtype=np.int64)
        loops.find_all(self.codes, self.buckets, self.base, self.shift, queries, out)
        return out


@dataclass
class Ranking:
    """Every tier's code set and the tiers its moves lead into."""

    tiers: dict[int, CodeSet]
    children: dict[int, tuple[int, ...]]
    """Child tiers of each tier, itself included when its moves stay inside it."""
    initial_tier: int
    seconds: float = 0.0
    expanded: int = field(default=0)


def _distinct(arrays: list[Any]) -> Any:
    """The sorted distinct codes of several arrays."""
    if not arrays:
        return np.zeros(0, dtype=np.int64)
    return sort_distinct(np.concatenate(arrays) if len(arrays) > 1 else arrays[0])


class _Pending:
    """Codes sent to tiers not yet reached, kept as sorted distinct pieces and compacted
    when they grow (so duplicates never pile up past twice the distinct codes)."""

    def __init__(self) -> None:
        self.pieces: dict[int, list[Any]] = {}
        self.sizes: dict[int, int] = {}
        self.compacted: dict[int, int] = {}
        self.heap: list[int] = []

    def add(self, tier: int, codes: Any) -> None:
        if tier not in self.pieces:
            self.pieces[tier], self.sizes[tier], self.compacted[tier] = [], 0, 0
            heapq.heappush(self.heap, tier)
        self.pieces[tier].append(codes)
        self.sizes[tier] += int(codes.shape[0])
        if self.sizes[tier] > 2 * self.compacted[tier] + (1 << 22):
            whole = _distinct(self.pieces[tier])
            self.pieces[tier] = [whole]
            self.sizes[tier] = self.compacted[tier] = int(whole.shape[0])

    def pop(self) -> tuple[int, Any] | None:
        if not self.heap:
            return None
        tier = heapq.heappop(self.heap)
        codes = _distinct(self.pieces.pop(tier))
        del self.sizes[tier], self.compacted[tier]
        return tier, codes

    @property
    def held(self) -> int:
        return sum(self.sizes.values())


def discover(
    loops: Loops,
    name: str,
    progress: ProgressCallback | None = None,
    memory: MemoryWatch | None = None,
    describe: Callable[[int], str] = str,
) -> Ranking:
    """Every reachable position, tier by tier (see the module docstring). Chunks of a tier
    are expanded and sorted on every core; their children are gathered here, in order."""
    started = time.perf_counter()
    root = int(loops.start())
    if root < 0:
        raise GameError(f"{name}.start() gave {root}: states are non-negative int64 codes")
    probe = np.array([root], dtype=np.int64)
    tier_out = np.empty(1, dtype=np.int64)
    loops.tiers(probe, tier_out)
    pending = _Pending()
    pending.add(int(tier_out[0]), probe)
    ranking = Ranking({}, {}, int(tier_out[0]))
    found = [0]
    try:
        while (popped := pending.pop()) is not None:
            tier, known = popped
            frontier = known
            kids: set[int] = set()
            while frontier.shape[0]:
                inside: list[Any] = []

                def compute(chunk: Any, tier: int = tier) -> _Children:
                    return _children(loops, name, tier, chunk, describe)

                def gather(children: _Children, inside: list[Any] = inside,
                           kids: set[int] = kids, tier: int = tier) -> None:  # fmt: skip
                    for kid, codes in children.groups:
                        if kid == tier:
                            inside.append(codes)
                        else:
                            kids.add(kid)
                            pending.add(kid, codes)
                    ranking.expanded += children.expanded
                    if memory is not None:
                        memory.check(f"finding the positions of {name}", found[0] + pending.held)

                chunks = (frontier[a : a + CHUNK] for a in range(0, frontier.shape[0], CHUNK))
                in_parallel(chunks, compute, gather)
                new = missing_from(known, _distinct(inside))
                if new.shape[0]:
                    kids.add(tier)
                    known = merge_distinct(known, new)
                frontier = new
            ranking.tiers[tier] = CodeSet.of(known)
            ranking.children[tier] = tuple(sorted(kids))
            found[0] += int(known.shape[0])
            if progress is not None:
                progress(found[0], found[0] + pending.held, level=tier)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while finding the positions of {name} ({found[0]:,} so far)"
        ) from None
    ranking.seconds = time.perf_counter() - started
    return ranking


@dataclass
class _Children:
    """A chunk's children: sorted distinct codes per tier."""

    groups: list[tuple[int, Any]]
    expanded: int


def _children(
    loops: Loops, name: str, tier: int, chunk: Any, describe: Callable[[int], str]
) -> _Children:
    """The children of a chunk of a tier, by tier, each sorted and distinct (in a thread)."""
    parents, children, child_tiers, bad = loops.expand_tiers(chunk)
    if bad >= 0:
        raise GameError(
            f"{name}.moves() of {describe(int(chunk[bad]))} gave a count of moves that is "
            "negative or more than the game's max_moves"
        )
    if children.shape[0] == 0:
        return _Children([], int(chunk.shape[0]))
    if children.min() < 0:
        i = int(np.flatnonzero(children < 0)[0])
        raise GameError(
            f"{name}: a move from {describe(int(chunk[parents[i]]))} gives code "
            f"{int(children[i])}; states are non-negative int64 codes"
        )
    low, high = int(child_tiers.min()), int(child_tiers.max())
    if low < tier:
        i = int(np.flatnonzero(child_tiers < tier)[0])
        raise GameError(
            f"{name}: a move from {describe(int(chunk[parents[i]]))} (tier {tier}) leads to "
            f"{describe(int(children[i]))} in tier {int(child_tiers[i])}; a move may not "
            "lower the tier"
        )
    if low == high:
        return _Children([(low, sort_distinct(children))], int(chunk.shape[0]))
    groups = []
    for kid in np.unique(child_tiers).tolist():
        groups.append((int(kid), sort_distinct(children[child_tiers == kid])))
    return _Children(groups, int(chunk.shape[0]))
