"""What play reaches, marked tier by tier, root first: a tier's reached positions expanded
(or swept by the game, ``sweeps``) and their children marked in the child tiers' records;
a loopy tier marked inside itself, in its records or in bit sets (``reached_set``) for a
tier alone in its game; a database of every position marked whole. ``reach`` is the
driver; counts then compare with published ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import kernel
from ..core.memory import SAVE_ADVICE, MemoryWatch
from ..core.parallel import in_parallel
from ..core.records import REACHED, sweep_codes
from ..errors import GameError, InterruptedSolve
from ..progress import ProgressCallback
from ..protocol import Codes
from ..terminals import Terminals
from .counted import CountedWriter, first_records_of
from .files import TierFiles
from .graph import CHUNK, Chunk, TierGraph, expand_chunk
from .reached_set import FreshMarks
from .sweeps import mark_by_sweeps, sweep_child

FRESH = 6
"""While a loopy tier is being marked: reached, its moves not followed yet (then REACHED)."""
SCAN = 1 << 22


def _mark_children(files: TierFiles, chunk: Chunk, kids: dict[int, Any]) -> None:
    """Mark the children of a chunk in the other tiers as reached."""
    if chunk.single_kid is not None and chunk.single_kid in kids:
        kids[chunk.single_kid][chunk.child_index] = files.record.reached
        return
    for kid, kid_records in kids.items():
        where = chunk.child_index[chunk.child_tier == kid]
        kid_records[where] = files.record.reached


def _reach_inside(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    done: int,
    progress: ProgressCallback | None,
) -> int:
    """Mark a loopy tier by frontiers: each pass follows the moves of the positions marked
    fresh (FRESH) since they were found, until none is left; returns ``done`` updated.
    A position becomes REACHED only after its children are marked, so a pass interrupted
    anywhere is taken up again by marking every reached position fresh."""
    shift = files.record.shift
    flat = np.asarray(records)
    while True:
        batches = _FreshBatches(flat, shift)
        done = expand_marking(graph, files, terminals, tier, batches, kids, flat, progress, done)
        if batches.found == 0:
            return done


class _FreshBatches:
    """The fresh positions of a tier's records, a chunk at a time, scanned as they are
    asked for; ``found`` counts them."""

    def __init__(self, flat: Any, shift: int) -> None:
        self.flat, self.shift, self.found = flat, shift, 0

    def __iter__(self) -> Any:
        for start in range(0, self.flat.shape[0], SCAN):
            rows = find_code(self.flat[start : start + SCAN], self.shift, FRESH)
            self.found += rows.shape[0]
            for piece in range(0, rows.shape[0], CHUNK):
                yield start + rows[piece : piece + CHUNK]


def expand_marking(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    batches: Any,
    kids: dict[int, Any],
    inside: Any,
    progress: ProgressCallback | None,
    done: int,
    memory: MemoryWatch | None = None,
    writer: CountedWriter | None = None,
) -> int:
    """Expand each batch of a tier's indices (on every core) and mark the children: in
    ``kids``, an array per other tier, and when ``inside`` (the tier's own records) is
    given, fresh inside it, the batch then REACHED (or in its bit sets, ``FreshMarks``).
    With a ``writer``, each position's first record goes to it (``counted``), given up at
    the first chunk whose children's ends are not known. Returns ``done`` plus the
    positions."""
    counted = [done]
    fresh = np.asarray(FRESH << files.record.shift, dtype=files.record.dtype)
    reached = np.asarray(files.record.reached, dtype=files.record.dtype)

    def mark(expanded: tuple[Chunk, Any]) -> None:
        chunk, first = expanded
        if writer is not None and first is not None:
            writer.write(chunk.indices, first)
        elif writer is not None:
            writer.give_up()
        _mark_children(files, chunk, kids)
        if isinstance(inside, FreshMarks) and writer is not None and writer.whole:
            # (the tier is alone in its game: every child is in it, its end known)
            ended = inside.add(chunk.child_index, chunk.indices, chunk.child_end)
            end = np.asarray(chunk.child_end)[ended].astype(np.uint16) << files.record.shift
            writer.write(chunk.child_index[ended], end)
        elif isinstance(inside, FreshMarks):
            inside.add(chunk.child_index[chunk.child_tier == tier], chunk.indices)
        elif inside is not None:
            new = chunk.child_index[chunk.child_tier == tier]
            inside[new[inside[new] == 0]] = fresh
            inside[chunk.indices] = reached
        counted[0] += chunk.indices.shape[0]
        if memory is not None:
            memory.check(f"marking the reachable positions of {graph.rules.name}", counted[0],
                          SAVE_ADVICE)  # fmt: skip
        if progress is not None:
            progress(counted[0], counted[0], level=tier)

    def expand(indices: I64) -> tuple[Chunk, Any]:
        if writer is None or not writer.whole:
            return expand_chunk(graph, terminals, tier, indices), None
        chunk = expand_chunk(graph, terminals, tier, indices, with_ends=True)
        if chunk.child_end is None or (chunk.same_mover is not None and chunk.same_mover.any()):
            return chunk, None  # (a move keeping the turn: the counting pass explains)
        return chunk, first_records_of(graph, tier, chunk, files.record.shift)

    in_parallel(batches, expand, mark)
    return counted[0]


def reach_span(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    marks: Any,
    span: tuple[int, int],
    kids: dict[int, Any],
) -> tuple[int, Any | None]:
    """Mark in ``kids`` (an array per child tier, nonzero = reached) the children of the
    reached positions of indices ``span`` = (start, stop) of a tier without moves inside
    it; returns how many positions were expanded, and, where the game's batch_mark_tier
    did it (``kids`` holding records), the span's marks with its ends recorded (a copy:
    ``marks`` are not written). Spans are independent."""
    start, stop = span
    hook = graph.hooks.batch_mark_tier
    child = sweep_child(graph, tier, kids, files.record.dtype)
    if hook is not None and child is not None and child.dtype == files.record.dtype:
        window = np.array(marks[start:stop])
        visited = hook(tier, start, window, child, sweep_codes(files.record))
        if visited is not None:
            return int(visited), window
    batches = (reached_indices(marks, a, min(a + CHUNK, stop)) for a in range(start, stop, CHUNK))
    return expand_marking(graph, files, terminals, tier, batches, kids, None, None, 0), None


def reach_inside(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    kids: dict[int, Any],
) -> int:
    """Mark a loopy tier whose reached positions are marked, and its children in ``kids``;
    returns how many positions were expanded (see ``_reach_inside``)."""
    mark_fresh(records, files.record.shift)
    return _reach_inside(graph, files, terminals, tier, records, kids, 0, None)


def in_bits(graph: TierGraph, files: TierFiles, tier: int) -> bool:
    """Whether a tier is marked in bit sets and solved in records of its reached positions
    alone (``reached_set``, ``retrograde_in_records``): a hand-ranked loopy tier alone in its
    game (no tier above or below it), with un-moves, moves that pass the turn and 2-byte
    records (Dobutsu shogi: a quarter of its 855 million indices reached; 2.1 GB at peak with
    a record per index, 2026-11-26)."""
    hooks = graph.hooks
    return (
        graph.order == [tier]
        and tier in graph.loopy
        and hooks.batch_parents is not None
        and graph.rules.to_move is None
        and not hooks.ranked_by_engine
        and files.record.bytes == 2
        and not graph.scored
    )


def _reach_in_bits(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    root_code: Codes,
    done: int,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> int:
    """Mark a tier alone in its game in its bit sets (see ``in_bits``), by frontiers as
    ``_reach_inside``; returns ``done`` plus the positions expanded. The reached bits live
    in a file, flushed before the progress says the tier is marked; the fresh ones only
    in memory: a marking interrupted anywhere is taken up again with every position
    reached so far fresh (followed again). A tier marked already is left as it is."""
    tier = graph.order[0]
    _forget_lost_bits(graph, files, tier)
    if files.is_expanded(tier):
        return done
    root = int(graph.hooks.batch_rank(tier, root_code)[0])
    reached = files.reached_bits_to_mark(tier, graph.sizes[tier])
    fresh = np.array(reached)  # (all zeros on a first start)
    marks = FreshMarks(reached, fresh, graph.sizes[tier])
    marks.add(np.array([root], dtype=np.int64), np.zeros(0, dtype=np.int64))
    writer = CountedWriter(files.counted_paths(tier), graph.sizes[tier])
    try:
        while True:
            batches = marks.batches(SCAN, CHUNK)
            done = expand_marking(
                graph, files, terminals, tier, batches, {}, marks, progress, done, memory, writer
            )
            if marks.found == 0:
                break
        _flush(reached)
        rows = writer.finish()
    finally:
        writer.close()
    files.mark_expanded(tier, in_bits=True, counted=rows)
    return done


def _forget_lost_bits(graph: TierGraph, files: TierFiles, tier: int) -> None:
    """A tier noted marked in bits but not solved, whose reached bit set is gone or cut
    short, noted unmarked: marked again."""
    if (
        files.marked_in_bits(tier)
        and str(tier) not in files.progress["solved"]
        and files.reached_bits(tier, graph.sizes[tier]) is None
    ):
        files.forget_marking(tier)


def mark_fresh(records: Any, shift: int) -> None:
    """Every reached position of a tier fresh again (its moves to be followed)."""
    flat = np.asarray(records)
    for start in range(0, flat.shape[0], SCAN):
        block = flat[start : start + SCAN]
        block[(block >> shift) == REACHED] = np.asarray(FRESH << shift, dtype=flat.dtype)


@kernel
def find_code(block: Any, shift: int, value: int) -> I64:
    """Offsets in ``block`` of the records whose value code is ``value``."""
    count = 0
    for i in range(block.shape[0]):
        if block[i] >> shift == value:
            count += 1
    out = np.empty(count, dtype=np.int64)
    count = 0
    for i in range(block.shape[0]):
        if block[i] >> shift == value:
            out[count] = i
            count += 1
    return out


def reached_indices(records: Any, start: int, stop: int) -> I64:
    """The indices in [start, stop) of a tier whose records are not empty."""
    return start + np.flatnonzero(np.asarray(records[start:stop]) != 0)


def _flush(*arrays: Any) -> None:
    """Write mapped arrays' changes to their files (no name outlives the call: a loop
    variable left bound to a child tier's map kept it, and its pages, into the next tier)."""
    for array in arrays:
        if isinstance(array, np.memmap):
            array.flush()


def mark_every_position(
    graph: TierGraph, files: TierFiles, progress: ProgressCallback | None
) -> None:
    """Mark every index of every tier that unranks to a code (a game of ``every_position``:
    a database, not what play reaches), chunk by chunk on every core; holes stay unmarked.
    (The local solve marks a tier so only where its method needs the marks:
    ``mark_one_tier``.)"""
    done = 0
    for tier in graph.order:
        if not files.is_expanded(tier):
            done = mark_one_tier(graph, files, tier, progress, done)


def mark_one_tier(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    progress: ProgressCallback | None = None,
    done: int = 0,
) -> int:
    """``mark_every_position`` for one tier, noted as marked once on disk; returns ``done``
    and its indices."""
    records = files.partial(tier, graph.sizes[tier])
    done = _mark_every_index(graph, files, tier, records, progress, done)
    _flush(records)
    del records
    files.mark_expanded(tier)
    return done


def _mark_every_index(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    progress: ProgressCallback | None,
    done: int,
) -> int:
    """mark_every_position for one tier, on every core (the 9.2 billion indices of Nine
    Men's Morris unrank in about 20 minutes on one); returns ``done`` and its indices."""
    size = graph.sizes[tier]
    marked = [done]

    def mark(start: int) -> tuple[int, Any]:
        stop = min(size, start + CHUNK)
        codes = np.asarray(graph.hooks.batch_unrank(tier, np.arange(start, stop)), np.int64)
        return start, np.where(codes >= 0, files.record.reached, 0).astype(files.record.dtype)

    def write(block: tuple[int, Any]) -> None:
        records[block[0] : block[0] + block[1].shape[0]] = block[1]
        marked[0] += block[1].shape[0]
        if progress is not None:
            progress(marked[0], marked[0], level=tier)

    in_parallel(range(0, size, CHUNK), mark, write)
    return marked[0]


def _reach_tier(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    root_code: Codes | None,
    done: int,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> int:
    """Mark the children of a tier's reached positions (the root's tier: ``root_code``
    marked first), by the game's sweeps, by expanding its positions, or inside a loopy
    tier; noted as expanded once on disk. Returns the positions expanded so far."""
    records = files.partial(tier, graph.sizes[tier])
    kids = {k: files.partial(k, graph.sizes[k]) for k in graph.children[tier]}
    loopy = tier in graph.loopy
    if loopy:
        mark_fresh(records, files.record.shift)  # an interrupted pass starts over
    if root_code is not None:
        root = int(graph.hooks.batch_rank(tier, root_code)[0])
        records[root] = FRESH << files.record.shift if loopy else files.record.reached
    swept = None
    if not loopy and not graph.scored:
        swept = mark_by_sweeps(graph, files, tier, records, kids, progress, done, memory)
    if swept is not None:
        done = swept
    elif not loopy:
        batches = (
            reached_indices(records, start, start + CHUNK)
            for start in range(0, graph.sizes[tier], CHUNK)
        )
        done = expand_marking(
            graph, files, terminals, tier, batches, kids, None, progress, done, memory
        )
    else:
        done = _reach_inside(graph, files, terminals, tier, records, kids, done, progress)
        memory.check(f"marking the reachable positions of {graph.rules.name}", done, SAVE_ADVICE)
    _flush(records, *kids.values())  # on disk before the progress says so
    del records, kids  # unmapped: the next tier's pages take their place
    files.mark_expanded(tier, ends_recorded=swept is not None)
    return done


def unmarked(graph: TierGraph, files: TierFiles, tier: int) -> bool:
    """Whether a tier of a database of every position is left unmarked: its solve takes
    every index for a position, and the holes (indices that unrank to none) for none.
    Marking them all first unranked each index once more: Nine Men's Morris's 8.9 billion
    in 131 s of a 5,908 s build, its 2-byte records all written (17.8 GB) before the first
    sector (2026-12-01). Dask's coordinator still marks every tier first."""
    return bool(graph.hooks.every_position) and not files.is_expanded(tier)


def reach(
    graph: TierGraph,
    files: TierFiles,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> None:
    """Mark every position play reaches from the initial state, tier by tier, root first
    (a database of every position: none here, see ``unmarked``)."""
    rules, hooks = graph.rules, graph.hooks
    assert rules.batch is not None
    root_code = np.array([rules.key_of(rules.initial_state())], dtype=np.int64)
    root_tier = hooks.initial_tier
    if hooks.batch_tier is not None and int(hooks.batch_tier(root_code)[0]) != root_tier:
        raise GameError(f"{rules.name}: the initial state is not in initial_tier {root_tier}")
    terminals = Terminals(rules.name)
    done = 0
    try:
        if hooks.ranked_by_engine:  # every index a position play reaches: no marks (made
            # all reached when solved; filled here, 22 ms of a 0.4 s solve, 2026-11-27)
            left = [tier for tier in graph.order if not files.is_expanded(tier)]
            if left:
                files.mark_expanded(*left)
            return
        if hooks.every_position:  # (each tier by itself, as it is solved: ``unmarked``)
            return
        for tier in graph.order:
            if in_bits(graph, files, tier):  # (alone in its game: the root's tier)
                done = _reach_in_bits(graph, files, terminals, root_code, done, progress, memory)
                continue
            if not files.is_expanded(tier):
                root = root_code if tier == root_tier else None
                done = _reach_tier(graph, files, terminals, tier, root, done, progress, memory)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while marking the reachable positions of {rules.name} "
            f"({done:,} so far); run the same solve again to go on"
        ) from None
