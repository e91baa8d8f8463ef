"""Every reachable position of a compiled game, tier by tier, found forward from the start.

``discover`` walks the tiers in increasing order (a move never lowers the tier): a tier's
codes are the children its earlier tiers sent it, closed under its own moves (a loopy tier,
found in rounds of new codes), deduplicated by scattering the children into buckets of
values as they come and sorting each bucket once, when the tier is reached. The result is a
``Ranking`` (``ranking``), each tier kept in memory or written to a file as it is found.
"""

from __future__ import annotations

import heapq
import itertools
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.compiled import read_only
from ..core.memory import MemoryWatch, give_back
from ..core.parallel import THREADS, in_parallel
from ..core.sorting import (
    group_by_tier,
    merge_distinct,
    missing_from,
    scatter_by_bucket,
    sort_distinct,
    union_of_buckets,
)
from ..errors import GameError, InterruptedSolve
from ..progress import ProgressCallback
from .code_sets import CodeSet
from .ranking import Ranking, finish_ranking, joined, save_tier

if TYPE_CHECKING:  # (a type only: the loops a compiled game hands the engine)
    from .building import Loops

EMPTY = np.zeros(0, dtype=np.int64)
CHILDREN_PER_CHUNK = 1 << 18
"""Moves a chunk of states expanded at once while discovering should make (about 25 bytes
each, a few chunks in flight): the chunk's states follow from the moves a state had so far
(Connect Four 6x4: about 2.5, chunks of about 2**16.7 states; Quixo 4x4: 17, chunks of
2**14). Fewer, larger chunks mean fewer pieces held for a tier until it is reached; 2**20
moves took Quixo 4x4's discovery on two threads to 158-163 MB above its start where 2**18
take 126-128 MB, Connect Four 6x4's discovery as fast either way (2026-11-27)."""


def _union(pieces: list[Any]) -> Any:
    """The sorted distinct codes of sorted distinct pieces, merged pairwise (no sort)."""
    if not pieces:
        return np.zeros(0, dtype=np.int64)
    while len(pieces) > 1:
        pieces = [
            merge_distinct(pieces[i], pieces[i + 1]) if i + 1 < len(pieces) else pieces[i]
            for i in range(0, len(pieces), 2)
        ]
    return pieces[0]


BUCKET_BITS = 11
"""Codes sent to a tier are scattered into up to 2**BUCKET_BITS buckets of values as they
come, and each bucket is sorted once when the tier is reached: a bucket of the largest tiers
holds thousands of codes, sorted in cache (where sorting each chunk and merging the sorted
pieces passed over every code about seven times)."""
CELL_BITS = 16
"""A code's bucket is looked up in a table of 2**CELL_BITS cells of values (its high bits)."""
SAMPLE = 4096
"""States of a tier expanded first, spread over it, to lay out the buckets of its children."""
PARALLEL_UNION = 1 << 16
"""Codes from which a tier's buckets are sorted in ranges on every core."""
DEDUP_BELOW = 0.5
"""A chunk's children for a tier are sorted and their duplicates dropped before they are
held when the first chunk sent there had fewer distinct codes than this share of its codes
(Quixo: most of a chunk's children repeat; Connect Four: 80% are distinct, and holding
them as they come is cheaper than sorting every chunk)."""


@dataclass(frozen=True)
class _Layout:
    """How a tier's codes are bucketed: a code's cell is (code - low) >> shift, clamped,
    and ``table`` maps cells to buckets (uint16), non-decreasing, the buckets cut at
    quantiles of a sample of the tier's codes so that they hold about as many codes each.
    Codes outside the sample's range fall into the end buckets, which only makes those
    larger: order and correctness never depend on the sample."""

    low: int
    shift: int
    table: Any

    @classmethod
    def of(cls, sample: Any) -> _Layout:
        ordered = np.sort(sample)
        low, high = int(ordered[0]), int(ordered[-1])
        span = high - low
        low = max(0, low - span // 8)
        shift = max(0, (span + span // 4).bit_length() - CELL_BITS)
        splitters = ordered[(np.arange(1, 1 << BUCKET_BITS) * ordered.shape[0]) >> BUCKET_BITS]
        # table[c]: the distinct splitters at or below cell c's first code, low + (c << shift),
        # as runs: from the first cell starting at or above the i-th splitter to the cell
        # before the next one's, i + 1 (a search of every cell took a millisecond a tier).
        splitters = splitters[np.flatnonzero(np.diff(splitters, prepend=low - 1))]  # distinct
        first_cells = np.minimum((splitters - low + (1 << shift) - 1) >> shift, 1 << CELL_BITS)
        runs = np.diff(first_cells, prepend=0, append=1 << CELL_BITS)
        table = np.repeat(np.arange(runs.shape[0], dtype=np.uint16), runs)
        return cls(low, shift, table)


class _Slot:
    """One worker's scattered pieces per tier, each as ``scatter_by_bucket`` gives it: its
    bucket starts, its codes grouped by bucket, and each bucket's least and greatest code."""

    def __init__(self) -> None:
        self.pieces: dict[int, list[tuple[Any, Any, Any]]] = {}
        self.held = 0

    def add(self, tier: int, piece: tuple[Any, Any, Any]) -> None:
        self.pieces.setdefault(tier, []).append(piece)
        self.held += int(piece[1].shape[0])

    def pop(self, tier: int) -> list[tuple[Any, Any, Any]]:
        pieces = self.pieces.pop(tier, [])
        self.held -= sum(int(piece[1].shape[0]) for piece in pieces)
        return pieces


class _Pending:
    """Codes sent to tiers not yet reached, scattered by value into buckets (``_Layout``) by
    the worker threads as they come, each thread into a slot no other thread is using (no
    lock but the one fixing a tier's layout); when a tier is reached, its buckets are sorted,
    duplicates dropped, in ranges of buckets on every core (``union_of_buckets``). The tiers
    waiting are noted by the calling thread (``note``), which pops them after the workers of
    a round are done."""

    def __init__(self, slots: int) -> None:
        self._slots = [_Slot() for _ in range(max(1, slots))]
        self._free: queue.SimpleQueue[_Slot] = queue.SimpleQueue()
        for slot in self._slots:
            self._free.put(slot)
        self._layouts: dict[int, _Layout] = {}
        self._dedup: dict[int, bool] = {}
        self._layout_lock = threading.Lock()
        self._waiting: set[int] = set()
        self._heap: list[int] = []

    def lay_out(self, groups: list[tuple[int, Any]]) -> None:
        """Lay out the buckets of tiers not yet laid out from a sample of their codes
        (calling thread, before the workers of a tier start)."""
        for tier, codes in groups:
            if codes.shape[0]:
                self._layout(tier, codes)

    def _layout(self, tier: int, codes: Any) -> _Layout:
        with self._layout_lock:
            layout = self._layouts.get(tier)
            if layout is None:
                layout = self._layouts[tier] = _Layout.of(codes)
            return layout

    def add(self, groups: list[tuple[int, Any]]) -> None:
        """Scatter each (tier, codes) into a free slot (from any thread; codes unsorted,
        duplicates allowed)."""
        slot = self._free.get()
        try:
            for tier, codes in groups:
                if codes.shape[0]:
                    layout = self._layout(tier, codes)
                    dedup = self._dedup.get(tier)
                    if dedup is None or dedup:  # (the first chunk tells which is cheaper)
                        distinct = sort_distinct(codes)
                        if dedup is None:
                            fewer = distinct.shape[0] < DEDUP_BELOW * codes.shape[0]
                            with self._layout_lock:
                                self._dedup.setdefault(tier, fewer)
                        codes = distinct
                    # (the work is the codes: the cell table is large for any tier)
                    scattered = scatter_by_bucket.run(
                        codes.shape[0], codes, layout.low, layout.shift, layout.table
                    )
                    slot.add(tier, scattered)
        finally:
            self._free.put(slot)

    def note(self, tier: int) -> None:
        """Codes were sent to ``tier`` (calling thread only)."""
        if tier not in self._waiting:
            self._waiting.add(tier)
            heapq.heappush(self._heap, tier)

    def pop(self) -> tuple[int, list[Any]] | None:
        """The lowest tier waiting and its codes, sorted and distinct, as parts in order
        (calling thread, no worker running)."""
        if not self._heap:
            return None
        tier = heapq.heappop(self._heap)
        self._waiting.discard(tier)
        self._layouts.pop(tier, None)
        self._dedup.pop(tier, None)
        return tier, _union_of_pieces([piece for slot in self._slots for piece in slot.pop(tier)])

    @property
    def held(self) -> int:
        """Codes held for later tiers (duplicates counted)."""
        return sum(slot.held for slot in self._slots)


def _union_of_pieces(pieces: list[tuple[Any, Any, Any]]) -> list[Any]:
    """The sorted distinct codes of scattered pieces, as sorted parts in order: their
    buckets cut into ranges of about equal size, each range's buckets gathered from every
    piece and sorted on a core. A range's answer is first written to an array as long as
    all its codes, repeats included, then copied to its length, so a large tier is cut
    into ranges on one thread too: sorted whole, it took Connect Four 5x4's solve to a
    peak of 10.9-12.3 bytes a position above its baseline, in 4 * THREADS ranges 8.2-9.7
    (four runs each, 2026-11-27)."""
    if not pieces:
        return [np.zeros(0, dtype=np.int64)]
    buckets = int(pieces[0][0].shape[0]) - 1
    starts = np.stack([s for s, _, _ in pieces])
    extent = np.stack(
        [np.min([e[0] for _, _, e in pieces], axis=0), np.max([e[1] for _, _, e in pieces], axis=0)]
    )
    sizes = (starts[:, 1:] - starts[:, :-1]).sum(axis=0)
    total = int(sizes.sum())
    compiled = union_of_buckets.compiles_for(total)
    arrays: Any = [g for _, g, _ in pieces]
    if compiled:  # numba takes a list of arrays as its typed List (no copy of the codes)
        from ..core.piece_lists import typed_list

        arrays = typed_list(arrays)
    run = union_of_buckets.run_compiled if compiled else union_of_buckets.interpreted
    parts = 1 if total < PARALLEL_UNION else 4 * THREADS
    ends = np.searchsorted(np.cumsum(sizes), (np.arange(1, parts) * total) // parts)
    cuts = sorted({0, buckets, *(int(e) + 1 for e in ends if 0 <= e < buckets - 1)})
    ranges = list(itertools.pairwise(cuts))
    found: dict[int, Any] = {}

    def union(span: tuple[int, int]) -> tuple[int, Any]:
        return span[0], run(arrays, starts, extent, span[0], span[1])

    def keep(result: tuple[int, Any]) -> None:
        found[result[0]] = result[1]

    in_parallel(ranges, union, keep, threads=min(THREADS, len(ranges)))
    return [found[first] for first, _ in ranges]


def discover(
    loops: Loops,
    name: str,
    progress: ProgressCallback | None = None,
    memory: MemoryWatch | None = None,
    describe: Callable[[int], str] = str,
    directory: Path | None = None,
    identity: dict[str, Any] | None = None,
) -> Ranking:
    """Every reachable position, tier by tier (see the module docstring). Chunks of a tier
    are expanded and sorted on every core; their children are gathered here, in order.
    With ``directory``, each tier's codes go to a file there as soon as the tier is found
    (only the tiers still being found stay in memory), and ``codes.json`` last."""
    started = time.perf_counter()
    search = _Discovery(loops, name, memory, describe, directory)
    try:
        while (popped := search.pending.pop()) is not None:
            tier, known = popped  # sorted parts in order
            search.find_tier(tier, known)
            if progress is not None:
                progress(search.found, search.found + search.pending.held, level=tier)
        search.wait_for_writes(0)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while finding the positions of {name} ({search.found:,} so far)"
        ) from None
    finally:
        search.writer.shutdown(wait=True, cancel_futures=True)
    ranking = search.ranking
    del search
    give_back()  # the buckets the workers sorted, freed in arenas of their own
    ranking.seconds = time.perf_counter() - started
    if directory is not None:
        finish_ranking(directory, ranking, identity or {})
    return ranking


class _Discovery:
    """The state of one ``discover``: the codes sent to tiers not yet reached, the ranking
    found so far, and the thread writing finished tiers' codes to disk."""

    def __init__(self, loops: Loops, name: str, memory: MemoryWatch | None,
                 describe: Callable[[int], str], directory: Path | None) -> None:  # fmt: skip
        self.loops, self.name, self.memory, self.describe = loops, name, memory, describe
        self.directory = directory
        root = int(loops.start())
        if root < 0:
            raise GameError(f"{name}.start() gave {root}: states are non-negative int64 codes")
        probe = np.array([root], dtype=np.int64)
        tier_out = np.empty(1, dtype=np.int64)
        loops.tiers(probe, tier_out)
        self.pending = _Pending(THREADS + 1)
        self.pending.add([(int(tier_out[0]), probe)])
        self.pending.note(int(tier_out[0]))
        self.ranking = Ranking({}, {}, int(tier_out[0]), directory=directory)
        self.found = 0
        """Positions of the tiers finished so far."""
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="perfectplay-codes")
        self.writing: deque[tuple[int, Future[tuple[CodeSet, dict[str, Any]]]]] = deque()

    def find_tier(self, tier: int, known: list[Any]) -> None:
        """Every code of ``tier`` from the codes its earlier tiers sent it: their children
        sent on to later tiers, closed under the tier's own moves (rounds of new codes
        while it proves loopy), then kept (in memory, or written out)."""
        kids: set[int] = set()
        sample = _spread_sample(known)
        if sample.shape[0]:  # the children's buckets laid out from a sample of them
            found_sample = _children(self.loops, self.name, tier, sample, self.describe)
            self.pending.lay_out([(kid, c) for kid, c in found_sample.groups if kid != tier])
        frontier: list[Any] = known
        ended: Any = np.empty(sum(int(part.shape[0]) for part in known), dtype=np.uint8)
        while any(part.shape[0] for part in frontier):
            inside = self.expand(tier, frontier, kids, ended)
            if not inside:
                break
            whole = joined(known)  # moves inside the tier: it is loopy
            new = missing_from(whole, _union(inside))
            if new.shape[0]:
                whole = merge_distinct(whole, new)
            known, frontier = [whole], [new]
            ended = None  # its indices moved: the solve of a loopy tier asks again
        if ended is not None:  # one bit a position, read by the solve (Ranking.ended)
            self.ranking.ended[tier] = np.packbits(ended, bitorder="little")
        self.keep(tier, known)
        self.ranking.children[tier] = tuple(sorted(kids))
        self.found += sum(int(part.shape[0]) for part in known)

    def expand(self, tier: int, frontier: list[Any], kids: set[int], ended: Any) -> list[Any]:
        """Expand the frontier's chunks on every core: children in later tiers go to the
        pending buckets (by the workers), the tier's own come back (sorted, per chunk);
        ``ended`` (one byte a state of the frontier, or None) is set to which have ended."""
        inside: list[Any] = []

        def compute(piece: tuple[int, Any]) -> _Children:
            at, chunk = piece
            flags = None if ended is None else ended[at : at + chunk.shape[0]]
            found = _children(self.loops, self.name, tier, chunk, self.describe, flags)
            self.pending.add([(kid, codes) for kid, codes in found.groups if kid != tier])
            # Kept for the calling thread: the tier's own codes, sorted (a loopy tier's next
            # round); the others were scattered into a slot (an empty array stands for them,
            # not a view that would keep the chunk's buffer alive).
            found.groups = [(kid, sort_distinct(codes) if kid == tier else EMPTY)
                            for kid, codes in found.groups]  # fmt: skip
            return found

        def gather(children: _Children) -> None:
            for kid, codes in children.groups:
                kids.add(kid)
                if kid == tier:
                    _add_merged(inside, codes)
                else:  # scattered into a slot by the worker
                    self.pending.note(kid)
            self.ranking.expanded += children.expanded
            self.ranking.moves += children.moves
            if self.memory is not None:
                self.memory.check(
                    f"finding the positions of {self.name}", self.found + self.pending.held,
                    "give more with --memory (the budget counts the whole process: Python, "
                    "numpy and the compiled code too); the positions found for the tiers "
                    "not yet finished are held in memory",
                )  # fmt: skip

        in_parallel(_chunks(frontier, self.ranking), compute, gather)
        return inside

    def keep(self, tier: int, known: list[Any]) -> None:
        """A finished tier's codes: in memory, or written beside the search for the next
        tiers by a thread of its own (no more than two tiers' codes wait to be written)."""
        if self.directory is None:
            self.ranking.tiers[tier] = CodeSet.of(joined(known))
            return
        self.writing.append((tier, self.writer.submit(save_tier, self.directory, tier, known)))
        self.wait_for_writes(2)

    def wait_for_writes(self, waiting: int) -> None:
        """Take in written tiers until at most ``waiting`` are still being written."""
        while len(self.writing) > waiting:
            tier, future = self.writing.popleft()
            self.ranking.tiers[tier], self.ranking.entries[tier] = future.result()


def _add_merged(pieces: list[Any], codes: Any) -> None:
    """Add sorted distinct ``codes`` to ``pieces``, merging the last two while the one
    before is at most twice the last (a binary counter): the pieces stay few and their
    sizes fall geometrically, so a loopy tier's round holds about its distinct codes, not
    every move's child until the round ends (Teeko: 307 million moves, 19 million codes)."""
    pieces.append(codes)
    while len(pieces) > 1 and pieces[-2].shape[0] <= 2 * pieces[-1].shape[0]:
        last = pieces.pop()
        pieces[-1] = merge_distinct(pieces[-1], last)


def _spread_sample(parts: list[Any]) -> Any:
    """About SAMPLE codes spread evenly over sorted parts (all of them when fewer)."""
    total = sum(int(part.shape[0]) for part in parts)
    if total <= SAMPLE:
        return joined(parts) if parts else np.zeros(0, dtype=np.int64)
    picks = (np.arange(SAMPLE, dtype=np.int64) * total) // SAMPLE
    whole = np.cumsum([0] + [int(part.shape[0]) for part in parts])
    which = np.searchsorted(whole, picks, side="right") - 1
    return np.concatenate(
        [  # each part's picks taken at once (one index a pick: 0.17 s)
            parts[w][picks[which == w] - whole[w]] for w in np.unique(which).tolist()
        ]
    )


def _chunks(frontier: list[Any], ranking: Ranking) -> Iterator[tuple[int, Any]]:
    """The frontier's parts in chunks of about CHILDREN_PER_CHUNK moves (by the moves a
    state made so far), from 2**12 to 2**18 states, each with its first state's place in
    the whole frontier."""
    at = 0
    for part in frontier:
        a = 0
        while a < part.shape[0]:
            per_state = max(1.0, ranking.moves / max(1, ranking.expanded))
            size = int(min(1 << 18, max(1 << 12, CHILDREN_PER_CHUNK / per_state)))
            chunk = part[a : a + size]
            yield at, chunk
            at += int(chunk.shape[0])
            a += size


@dataclass
class _Children:
    """A chunk's children: codes per tier (the chunk's own tier's sorted and distinct once
    the worker is done with them, the others emptied: they went to a slot)."""

    groups: list[tuple[int, Any]]
    expanded: int
    moves: int = 0


def _children(
    loops: Loops,
    name: str,
    tier: int,
    chunk: Any,
    describe: Callable[[int], str],
    ended: Any = None,
) -> _Children:
    """The children of a chunk of a tier, by tier, unsorted (in a thread); ``ended[i]``
    set to whether chunk[i] has ended (a scratch array when None)."""
    if ended is None:
        ended = np.empty(chunk.shape[0], dtype=np.uint8)
    children, child_tiers, low, high, problem, row, child = loops.expand_tiers(
        read_only(chunk), tier, ended
    )
    if problem:
        _refuse(loops, name, tier, int(chunk[row]), int(child), int(problem), describe)
    if children.shape[0] == 0:
        return _Children([], int(chunk.shape[0]), 0)
    low, high = int(low), int(high)
    if low == high:
        return _Children([(low, children)], int(chunk.shape[0]),
                         int(children.shape[0]))  # fmt: skip
    if high - low < 4 * children.shape[0] + 64:  # a few tiers, close together: count them
        starts, grouped = group_by_tier(children, child_tiers, low, high - low + 1)
        groups = [
            (low + t, grouped[starts[t] : starts[t + 1]])
            for t in np.flatnonzero(np.diff(starts)).tolist()
        ]
    else:
        order = np.argsort(child_tiers, kind="stable")
        ranked, kid_codes = child_tiers[order], children[order]
        cuts = np.r_[0, np.flatnonzero(np.diff(ranked)) + 1, ranked.shape[0]]
        groups = [(int(ranked[a]), kid_codes[a:b]) for a, b in itertools.pairwise(cuts)]
    return _Children(groups, int(chunk.shape[0]), int(children.shape[0]))


def _refuse(loops: Loops, name: str, tier: int, state: int, child: int, problem: int,
            describe: Callable[[int], str]) -> None:  # fmt: skip
    """The GameError for a problem expand_tiers found at ``state`` (``drivers.BAD_*``)."""
    if problem == 1:  # the drivers' BAD_COUNT, BAD_CODE, BAD_TIER: 1, 2, 3
        raise GameError(
            f"{name}.moves() of {describe(state)} gave a count of moves that is "
            "negative or more than the game's max_moves"
        )
    if problem == 2:
        raise GameError(
            f"{name}: a move from {describe(state)} gives code {child}; states are "
            "non-negative int64 codes"
        )
    child_tier = np.empty(1, dtype=np.int64)
    loops.tiers(np.array([child], dtype=np.int64), child_tier)
    raise GameError(
        f"{name}: a move from {describe(state)} (tier {tier}) leads to {describe(child)} in "
        f"tier {int(child_tier[0])}; a move may not lower the tier"
    )
