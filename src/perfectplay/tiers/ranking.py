"""Automatic ranking: each tier's reachable codes, sorted, found forward from the start.

A position's index in its tier is the rank of its code in the tier's sorted array of
reachable codes (``CodeSet``); no ranking to write. A code is found by a bucket index on its
high bits, (code - first code) >> shift, with about 8 codes a bucket, and a binary search
inside its bucket: a few probes of one or two cache lines, whatever the tier's size. A code
that is not in the tier is reported as -1, never answered with another position's index.
Memory: 8 bytes a code and about 1 byte a code of buckets.

``discover`` walks the tiers in increasing order (a move never lowers the tier): a tier's
codes are the children its earlier tiers sent it, closed under its own moves (a loopy tier,
found in rounds of new codes), deduplicated by scattering the children into buckets of
values as they come and sorting each bucket once, when the tier is reached.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import json
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import GameError, InterruptedSolve, TablebaseError
from ..memory import MemoryWatch
from ..progress import ProgressCallback
from ..spaces.pipeline import THREADS, in_parallel
from .files import file_sha256
from .packed_codes import ENCODING, unpack
from .sorting import (
    bucket_starts,
    group_by_tier,
    merge_distinct,
    missing_from,
    rank_in_order,
    scatter_by_bucket,
    sort_distinct,
    union_of_buckets,
)

if TYPE_CHECKING:  # the loops a compiled game hands the engine (compiled_games imports us)
    from ..compiled_games.building import Loops

CODES_PER_BUCKET = 8
IN_ORDER_FROM = 4096
"""Queries from which a tier is searched in one walk, queries sorted first (``rank_in_order``:
Quixo's moves out of its tiers, 88 million of them, 60 ns a query against 110 by the bucket
index, the two measured on the same queries in one run)."""
CHILDREN_PER_CHUNK = 1 << 20
"""Moves a chunk of states expanded at once while discovering should make (about 25 bytes
each, a few chunks in flight): the chunk's states follow from the moves a state had so far
(Connect Four 6x4: about 4, chunks of 2**18 states; Quixo 4x4: 17, chunks of 2**16). Fewer,
larger chunks mean fewer pieces held for a tier until it is reached."""


class CodeSet:
    """One tier's sorted reachable codes, with the bucket index that finds a code in them.

    The codes are an array, or a file of little-endian int64 mapped while the tier is in
    use (``release`` unmaps it: out of core, only the tiers being solved stay resident)."""

    def __init__(self, codes: Any, buckets: Any, base: int, shift: int, path: Path | None = None):
        self._codes = codes
        self._buckets = buckets
        self._base = base
        self._shift = shift
        self.path = path
        self.size = int(codes.shape[0])

    @property
    def buckets(self) -> Any:
        """buckets[b]: the first index whose code's bucket, (code - base) >> shift, is b+."""
        return self._buckets

    @property
    def base(self) -> int:
        """The least code."""
        return self._base

    @property
    def shift(self) -> int:
        """Bits of a code below its bucket number."""
        return self._shift

    @classmethod
    def of(cls, codes: Any, path: Path | None = None) -> CodeSet:
        """The set of sorted, distinct ``codes``, with its bucket index (``path``: where the
        same codes are kept, mapped again after ``release``)."""
        n = int(codes.shape[0])
        if n == 0:
            return cls(codes, np.zeros(2, dtype=np.int64), 0, 0, path)
        base = int(codes[0])
        span = int(codes[-1]) - base + 1
        wanted = max(1, n // CODES_PER_BUCKET)
        shift = max(0, (span - 1).bit_length() - wanted.bit_length() + 1)
        count = ((span - 1) >> shift) + 1
        return cls(codes, bucket_starts(codes, base, shift, count), base, shift, path)

    @property
    def codes(self) -> Any:
        """The sorted codes (mapped from the file again if released)."""
        found = self._codes
        if found is None:
            assert self.path is not None
            found = self._codes = _mapped(self.path, self.size)
        return found

    def release(self) -> None:
        """Unmap the codes of a tier kept in a file (arrays in memory stay)."""
        if self.path is not None:
            self._codes = None

    def __len__(self) -> int:
        return self.size

    def rank(self, loops: Loops, queries: Any) -> Any:
        """The index of each query code in this set, -1 where it is not a member: many
        queries put in order and found in one walk (``rank_in_order``), a few by the
        bucket index."""
        queries = np.ascontiguousarray(queries, dtype=np.int64)
        out = np.empty(queries.shape[0], dtype=np.int64)
        if queries.shape[0] >= IN_ORDER_FROM and loops.compiled:
            rank_in_order.run_compiled(self.codes, queries, out)
        else:
            loops.find_all(self.codes, self.buckets, self.base, self.shift, queries, out)
        return out


class PackedCodeSet(CodeSet):
    """A tier's codes packed for shipping (``packed_codes``), decoded, with their bucket
    index, the first time the tier is used: opening a tablebase reads no tier it does not
    need."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        self.size = size
        self._whole: CodeSet | None = None
        self._lock = threading.Lock()

    def _decoded(self) -> CodeSet:
        whole = self._whole
        if whole is None:
            with self._lock:
                if self._whole is None:
                    assert self.path is not None
                    try:
                        self._whole = CodeSet.of(unpack(self.path, self.size))
                    except ValueError as exc:
                        raise TablebaseError(f"{self.path} cannot be decoded ({exc})") from None
                whole = self._whole
        return whole

    @property
    def codes(self) -> Any:
        return self._decoded().codes

    @property
    def buckets(self) -> Any:
        return self._decoded().buckets

    @property
    def base(self) -> int:
        return self._decoded().base

    @property
    def shift(self) -> int:
        return self._decoded().shift

    def release(self) -> None:
        """Kept decoded (decoding again would cost more than the memory)."""


def _mapped(path: Path, size: int) -> Any:
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.memmap(path, dtype="<i8", mode="r", shape=(size,))


KEEP = 4
"""Tiers whose codes stay mapped at once (a tier being solved and its child tiers)."""


@dataclass
class Ranking:
    """Every tier's code set and the tiers its moves lead into."""

    tiers: dict[int, CodeSet]
    children: dict[int, tuple[int, ...]]
    """Child tiers of each tier, itself included when its moves stay inside it."""
    initial_tier: int
    seconds: float = 0.0
    expanded: int = field(default=0)
    moves: int = 0
    """States expanded and the moves they made, while discovering."""
    directory: Path | None = None
    """Where the codes are kept (``codes.json`` and a file per tier), if anywhere."""
    _recent: list[int] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def use(self, tier: int) -> CodeSet | None:
        """A tier's code set, kept mapped; the tiers not used lately are released."""
        found = self.tiers.get(tier)
        if found is None or found.path is None:
            return found
        with self._lock:
            if tier in self._recent:
                self._recent.remove(tier)
            self._recent.append(tier)
            while len(self._recent) > KEEP:
                self.tiers[self._recent.pop(0)].release()
        return found

    def as_json(self) -> dict[str, Any]:
        """What a tablebase header and ``codes.json`` keep of it (with ``save_tier``'s)."""
        return {"tiers": [self.entries[t] for t in sorted(self.tiers)]}

    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per tier kept in files: {"tier", "file", "sha256", "count", "children"}."""


CODES_JSON = "codes.json"


def codes_file_name(tier: int) -> str:
    """The file of a tier's codes: ``tier-000012.codes`` (beside ``tier-000012.rec``)."""
    return f"tier-{tier:06d}.codes"


def save_tier(directory: Path, tier: int, parts: list[Any]) -> tuple[CodeSet, dict[str, Any]]:
    """Write a tier's codes into ``directory`` (fsync'd) from its sorted parts, in order
    (never joined in memory); its set, mapped from the file, and its entry (children filled
    in later)."""
    name = codes_file_name(tier)
    path = directory / name
    digest = hashlib.sha256()
    count = 0
    temporary = path.with_suffix(".codes-partial")
    with temporary.open("wb") as handle:
        for part in parts:
            array = np.ascontiguousarray(part, dtype="<i8")
            if array.size:
                array.tofile(handle)
                digest.update(array.data)
                count += int(array.shape[0])
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    found = CodeSet.of(_mapped(path, count), path)
    found.release()
    entry = {"tier": tier, "file": name, "sha256": digest.hexdigest(), "count": count}
    return found, entry


def finish_ranking(directory: Path, ranking: Ranking, identity: dict[str, Any]) -> None:
    """Write ``codes.json`` (atomically, last): the ranking in ``directory`` is whole."""
    for tier, entry in ranking.entries.items():
        entry["children"] = list(ranking.children.get(tier, ()))
    data = {"identity": identity, "initial_tier": ranking.initial_tier, **ranking.as_json()}
    temporary = directory / (CODES_JSON + ".partial")
    temporary.write_text(json.dumps(data))
    os.replace(temporary, directory / CODES_JSON)


def save_ranking(directory: Path, ranking: Ranking, identity: dict[str, Any]) -> Ranking:
    """A ranking found in memory, written into ``directory``; the same ranking read from
    there."""
    kept = Ranking({}, dict(ranking.children), ranking.initial_tier, ranking.seconds,
                   ranking.expanded, ranking.moves, directory)  # fmt: skip
    for tier, found in sorted(ranking.tiers.items()):
        kept.tiers[tier], kept.entries[tier] = save_tier(directory, tier, [found.codes])
    finish_ranking(directory, kept, identity)
    return kept


def load_ranking(
    directory: Path, entries: list[dict[str, Any]], initial_tier: int, check: bool = True
) -> Ranking:
    """A ranking kept in ``directory``: each file at its length and, with ``check``, its
    SHA-256 (TablebaseError otherwise, naming the file)."""
    ranking = Ranking({}, {}, initial_tier, directory=directory)
    for raw in entries:
        tier, name, count = int(raw["tier"]), str(raw["file"]), int(raw["count"])
        path = directory / name
        if not path.is_file():
            raise TablebaseError(f"{directory}: {name} is missing")
        if raw.get("encoding") == ENCODING:  # packed for shipping: decoded whole, checked
            if file_sha256(path) != raw["sha256"]:
                raise TablebaseError(
                    f"{directory}: {name} fails its checksum (damaged or changed); no answer "
                    "from it can be trusted"
                )
            ranking.tiers[tier] = PackedCodeSet(path, count)  # decoded when first used
            ranking.children[tier] = tuple(int(t) for t in raw["children"])
            ranking.entries[tier] = dict(raw)
            continue
        if path.stat().st_size != 8 * count:
            raise TablebaseError(
                f"{directory}: {name} holds {path.stat().st_size:,} bytes, not {8 * count:,} "
                "(truncated or damaged)"
            )
        if check and file_sha256(path) != raw["sha256"]:
            raise TablebaseError(
                f"{directory}: {name} fails its checksum (damaged or changed); no answer "
                "from it can be trusted"
            )
        found = CodeSet.of(_mapped(path, count), path)
        found.release()
        ranking.tiers[tier] = found
        ranking.children[tier] = tuple(int(t) for t in raw["children"])
        ranking.entries[tier] = dict(raw)
    return ranking


def load_kept(directory: Path) -> Ranking | None:
    """The whole ranking kept in ``directory`` (checked), whatever game it names: for a
    copy of the game that found it, in another process."""
    path = directory / CODES_JSON
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    return load_ranking(directory, data["tiers"], int(data["initial_tier"]))


def kept_ranking(directory: Path, identity: dict[str, Any]) -> Ranking | None:
    """The whole ranking a solve of this game left in ``directory``, checked; None when
    there is none, or it was made for another game or fails a check (found again then)."""
    path = directory / CODES_JSON
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        if data.get("identity") != identity:
            return None
        return load_ranking(directory, data["tiers"], int(data["initial_tier"]))
    except (TablebaseError, ValueError, KeyError, TypeError):
        return None


def _joined(parts: list[Any]) -> Any:
    """Sorted parts in order as one array (no copy for one part)."""
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


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
    and ``table`` maps cells to buckets, non-decreasing, the buckets cut at quantiles of a
    sample of the tier's codes so that they hold about as many codes each. Codes outside the
    sample's range fall into the end buckets, which only makes those larger: order and
    correctness never depend on the sample."""

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
        starts = low + (np.arange(1 << CELL_BITS, dtype=np.int64) << shift)
        table = np.searchsorted(np.unique(splitters), starts, side="right").astype(np.int64)
        return cls(low, shift, table)


class _Slot:
    """One worker's scattered pieces per tier, each with its bucket starts."""

    def __init__(self) -> None:
        self.pieces: dict[int, list[tuple[Any, Any]]] = {}
        self.held = 0

    def add(self, tier: int, starts: Any, grouped: Any) -> None:
        self.pieces.setdefault(tier, []).append((starts, grouped))
        self.held += int(grouped.shape[0])

    def pop(self, tier: int) -> list[tuple[Any, Any]]:
        pieces = self.pieces.pop(tier, [])
        self.held -= sum(int(g.shape[0]) for _, g in pieces)
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
                    starts, grouped = scatter_by_bucket(
                        codes, layout.low, layout.shift, layout.table
                    )
                    slot.add(tier, starts, grouped)
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


def _union_of_pieces(pieces: list[tuple[Any, Any]]) -> list[Any]:
    """The sorted distinct codes of scattered pieces, as sorted parts in order: their
    buckets cut into ranges of about equal size, each range's buckets gathered from every
    piece and sorted on a core."""
    if not pieces:
        return [np.zeros(0, dtype=np.int64)]
    buckets = int(pieces[0][0].shape[0]) - 1
    starts = np.stack([s for s, _ in pieces])
    sizes = (starts[:, 1:] - starts[:, :-1]).sum(axis=0)
    total = int(sizes.sum())
    compiled = union_of_buckets.compiles_for(total)
    arrays: Any = [g for _, g in pieces]
    if compiled:  # numba takes a list of arrays as its typed List (no copy of the codes)
        from numba.typed import List

        arrays = List(arrays)
    run = union_of_buckets.run_compiled if compiled else union_of_buckets.interpreted
    parts = 1 if total < PARALLEL_UNION or THREADS <= 1 else 4 * THREADS
    ends = np.searchsorted(np.cumsum(sizes), (np.arange(1, parts) * total) // parts)
    cuts = sorted({0, buckets, *(int(e) + 1 for e in ends if 0 <= e < buckets - 1)})
    ranges = list(itertools.pairwise(cuts))
    found: dict[int, Any] = {}

    def union(span: tuple[int, int]) -> tuple[int, Any]:
        return span[0], run(arrays, starts, span[0], span[1])

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
        while any(part.shape[0] for part in frontier):
            inside = self.expand(tier, frontier, kids)
            if not inside:
                break
            whole = _joined(known)  # moves inside the tier: it is loopy
            new = missing_from(whole, _union(inside))
            if new.shape[0]:
                whole = merge_distinct(whole, new)
            known, frontier = [whole], [new]
        self.keep(tier, known)
        self.ranking.children[tier] = tuple(sorted(kids))
        self.found += sum(int(part.shape[0]) for part in known)

    def expand(self, tier: int, frontier: list[Any], kids: set[int]) -> list[Any]:
        """Expand the frontier's chunks on every core: children in later tiers go to the
        pending buckets (by the workers), the tier's own come back (sorted, per chunk)."""
        inside: list[Any] = []

        def compute(chunk: Any) -> _Children:
            found = _children(self.loops, self.name, tier, chunk, self.describe)
            self.pending.add([(kid, codes) for kid, codes in found.groups if kid != tier])
            # Kept for the calling thread: the tier's own codes, sorted (a loopy tier's next
            # round); the others were scattered into a slot.
            found.groups = [(kid, sort_distinct(codes) if kid == tier else codes[:0])
                            for kid, codes in found.groups]  # fmt: skip
            return found

        def gather(children: _Children) -> None:
            for kid, codes in children.groups:
                kids.add(kid)
                if kid == tier:
                    inside.append(codes)
                else:  # scattered into a slot by the worker
                    self.pending.note(kid)
            self.ranking.expanded += children.expanded
            self.ranking.moves += children.moves
            if self.memory is not None:
                self.memory.check(
                    f"finding the positions of {self.name}", self.found + self.pending.held,
                    "give more with --memory (the budget counts the whole process: Python, "
                    "numpy and the compiled code too); finished tiers are on disk, but the "
                    "positions found for later tiers are held in memory",
                )  # fmt: skip

        in_parallel(_chunks(frontier, self.ranking), compute, gather)
        return inside

    def keep(self, tier: int, known: list[Any]) -> None:
        """A finished tier's codes: in memory, or written beside the search for the next
        tiers (fsync waits on the disk; no more than two tiers' codes wait to be written)."""
        if self.directory is None:
            self.ranking.tiers[tier] = CodeSet.of(_joined(known))
            return
        self.writing.append((tier, self.writer.submit(save_tier, self.directory, tier, known)))
        self.wait_for_writes(2)

    def wait_for_writes(self, waiting: int) -> None:
        """Take in written tiers until at most ``waiting`` are still being written."""
        while len(self.writing) > waiting:
            tier, future = self.writing.popleft()
            self.ranking.tiers[tier], self.ranking.entries[tier] = future.result()


def _spread_sample(parts: list[Any]) -> Any:
    """About SAMPLE codes spread evenly over sorted parts (all of them when fewer)."""
    total = sum(int(part.shape[0]) for part in parts)
    if total <= SAMPLE:
        return _joined(parts) if parts else np.zeros(0, dtype=np.int64)
    picks = (np.arange(SAMPLE, dtype=np.int64) * total) // SAMPLE
    whole = np.cumsum([0] + [int(part.shape[0]) for part in parts])
    which = np.searchsorted(whole, picks, side="right") - 1
    return np.array([parts[w][i - whole[w]] for w, i in zip(which, picks, strict=True)],
                    dtype=np.int64)  # fmt: skip


def _chunks(frontier: list[Any], ranking: Ranking) -> Iterator[Any]:
    """The frontier's parts in chunks of about CHILDREN_PER_CHUNK moves (by the moves a
    state made so far), from 2**12 to 2**18 states."""
    for part in frontier:
        a = 0
        while a < part.shape[0]:
            per_state = max(1.0, ranking.moves / max(1, ranking.expanded))
            size = int(min(1 << 18, max(1 << 12, CHILDREN_PER_CHUNK / per_state)))
            yield part[a : a + size]
            a += size


@dataclass
class _Children:
    """A chunk's children: codes per tier (the chunk's own tier's sorted and distinct once
    the worker is done with them, the others emptied: they went to a slot)."""

    groups: list[tuple[int, Any]]
    expanded: int
    moves: int = 0


def _children(
    loops: Loops, name: str, tier: int, chunk: Any, describe: Callable[[int], str]
) -> _Children:
    """The children of a chunk of a tier, by tier, unsorted (in a thread)."""
    parents, children, child_tiers, bad = loops.expand_tiers(chunk)
    if bad >= 0:
        raise GameError(
            f"{name}.moves() of {describe(int(chunk[bad]))} gave a count of moves that is "
            "negative or more than the game's max_moves"
        )
    if children.shape[0] == 0:
        return _Children([], int(chunk.shape[0]), 0)
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
