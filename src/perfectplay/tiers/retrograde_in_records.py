"""Loopy tiers in the records alone: retrograde analysis with each open position's counter
kept in its own record, for tiers of a billion indices (Dobutsu shogi: 855 million).

Precondition: a loopy tier with un-moves (``batch_parents``), 2-byte records, and moves
that always pass the turn. Moves into other tiers (solved before) and an index that stands
for a position's images too are read as ``children_beside`` says.
Contract: the values and remoteness of retrograde analysis on the explored graph, as
``retrograde_by_unmoves`` gives them, in no memory beyond the tier's records and one chunk.

Encoding while the solve runs: an open position (value code 7) keeps in its remoteness
field the number of its children not yet known to lose for its mover (each child position
once, however many moves, or images of it under the game's key, lead there: its un-moves
tell a parent once; counted by moves, a position with two moves to two images of one child
waited for a word that never came, a draw for a loss; in a tier with no other
child tier, this counter is all an open position needs; ``children_beside`` flags the rest
in two bits above it). A decided position has its
final record. Beside the records, one bit per index (``pending``, an eighth of a byte a
position) marks the positions decided whose un-moves are not yet followed; level r's
frontier is the pending positions whose record says remoteness r (those of level r + 1,
found meanwhile, stay pending), so no list of positions is kept from one level to the
next, and a level reads the bits, not every record (Dobutsu shogi: about 160 levels, each
of which read all 1.7 GB of records before):

1. one pass over the reached positions writes the ends (remoteness 0), the losses without
   moves, and every other position's counter; it also reads the ends among its children,
   so that a move to a lost end wins at 1 and moves to won ends are not counted (most of
   Dobutsu shogi's positions are such ends: their un-moves are never followed). Where the
   marking counted these first records (``counted``), the pass scatters them instead;
2. for r = 0, 1, ...: through the un-moves of the wins and losses at level r (at level 0
   only the losses: the won ends were counted in pass 1), an open parent of a loss wins at
   r + 1; an open parent whose counter falls to 0 loses at r + 1;
3. ties spread the same way from tied ends to open parents, at r + 1 for level r;
4. what stays open never ends: a DRAW.

A tier solved by index in its working file saves resume points as it goes
(``resume_points``: in the first pass and between levels, every two minutes at most), and
a solve run again after a kill goes on from the last.

A tier alone in its game is marked in bit sets (``graph.in_bits``) and solved here in the
records of its reached positions alone (``solve_in_slots``: a record per slot of
``reached_set``, the un-moves into positions play does not reach left out), then written
out as its file; the same bytes as a record per index (Dobutsu shogi, 2026-11-27: 2,090 MB
at peak with a record per index, 774 MB in one-byte codes of its reached positions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import inlined_kernel, kernel
from ..core.memory import SAVE_ADVICE, MemoryWatch
from ..core.parallel import in_parallel
from ..core.prefetch import prefetch
from ..core.records import REACHED, RecordFormat, TierSummary
from ..errors import GameError, TablebaseError
from ..progress import ProgressCallback
from ..terminals import Terminals
from ..values import UNDECIDED
from .children_beside import LOST_BESIDE, TIED_BESIDE, Beside, reads_beside
from .counted import counted_pieces, counter_mask, first_of_each, first_records
from .files import TierFiles
from .graph import TierGraph, present_codes, ranked_parents
from .reached_set import ReachedSet
from .resume_points import FIRST, ResumePoints
from .slot_codes import DECIDED, LEVELS, SettledSlots, TooNarrow, narrowed

U16 = Any  # uint16 record arrays
U8 = Any
U64 = Any

_WIN, _LOSS, _TIE, _DRAW = 1, 2, 3, 4
SCAN = 1 << 22
"""Records read at once in a pass over the tier."""
FRONTIER_SCAN = 1 << 20
"""Indices of ``pending`` read at once when looking for a level's frontier (whose positions
found there are held until handed out: 4 bytes an index at most, 16 bytes with its scan).
The positions found are handed out in pieces of ``PIECE`` gathered across the scans: a
piece per scan gave a small level hundreds of pieces of a few positions, each paying the
fixed cost of finding its parents (Nine Men's Morris's sector 7-5, 2026-12-01: 107 levels
of fewer than 10,000 positions, 30 ms each on one core)."""
AHEAD = 16
"""How many un-moves ahead ``_apply`` asks for a parent's record (``core.prefetch``). Each
record is at a random place in the tier's records (Nine Men's Morris: up to 2 GB), and the
one thread applying them waited on each in turn. Sector 7-4 (111 million indices,
2026-12-01, 2 cores): 37.5 ns an un-move applied without, 16-20 ns with (40 ahead: the
same), the levels 34.4 s against 24-28 s."""
WAITING = 1 << 22
"""Positions a level holds whose loss waits for a child beside (``_settle_waiting``: 8
bytes each, 32 MB) before their records are found and written. Held to the level's end
(each piece's list a view of an array as long as its un-moves), sector 9-7's first levels
took this process's own memory from 0.36 to 2.3 GB, then more joined into one array: most
of the whole build's peak (2026-12-01)."""
PIECE = 1 << 14
"""Positions a worker takes at once. Their un-moves (Dobutsu shogi: up to 30 a position)
and those of the pieces waiting beside them make the working memory: 2**16 at once put
about 300 MB on top of Dobutsu's 650 MB of records and bits (2026-11-27)."""
WIDE_PIECE = 1 << 16
"""Positions a worker takes at once in a tier counted by orbits (``children_beside``: a
game ranked by stones, whose first pass lists only the moves leaving the tier and whose
un-moves are a few a position: Nine Men's Morris's 6.7). Each piece costs its hand-offs
between threads and a few dozen calls into numpy and the kernels: Nine Men's Morris's
sector 7-5 (2026-12-02, 2 cores, two runs each) left the machine 9-10% idle through its
first pass and 13-14% through its levels in pieces of ``PIECE``, 4-5% and 9-10% in
these; the first pass took 0.87 of the time and the levels 0.81."""


def fits(graph: TierGraph, files: TierFiles, tier: int) -> bool:
    """Whether this solver takes the tier (see the precondition)."""
    return tier in graph.loopy and graph.hooks.batch_parents is not None and files.record.bytes == 2


def _first_pass(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    flat: Any,
    bits: _PendingBits,
    reached_set: ReachedSet | None,
    narrow: bool,
    counted: Any,
    points: ResumePoints | None,
    progress: ProgressCallback | None,
    every_index: bool,
) -> tuple[int, int, Beside | None]:
    """Each position's first record (its end, a win a move out of the tier gives, or its
    counter of children): the positions reached, the largest remoteness decided ahead of
    the levels (1 at most, but from children beside), and the reader of children beside
    when the tier's moves lead into other tiers. ``points``: resume points of a tier
    solved by index (from the one found in this pass, if any); ``every_index``: see
    ``solve_with_counters``."""
    shift = files.record.shift
    if every_index and (reached_set is not None or narrow or counted is not None):
        raise GameError(f"tier {tier}: a tier left unmarked is solved in records per index")
    if reads_beside(graph, tier):
        if reached_set is not None or narrow:
            raise GameError(f"tier {tier}: its moves into other tiers need records per index")
        beside = Beside(graph, files, terminals, tier, holes=every_index)
        reached, highest = _count_beside(
            beside, flat, shift, bits, _Saver(points, bits, 1, progress), every_index
        )
        return reached, highest, beside
    if counted is not None and reached_set is not None:
        return _scatter_counted(flat, shift, bits, reached_set, counted), 1, None
    saver = _Saver(points, bits, 0, progress)
    reached = _count_moves(graph, terminals, tier, flat, shift, bits, reached_set, saver,
                           every_index)  # fmt: skip
    return reached, 1, None


class _Saver:
    """Resume points of the first pass (``resume_points``): where it starts, the counts so
    far, and a point saved after a piece when one is due."""

    def __init__(
        self,
        points: ResumePoints | None,
        bits: _PendingBits,
        highest: int,
        progress: ProgressCallback | None,
    ) -> None:
        self.points, self.bits, self.progress = points, bits, progress
        found = points.found if points is not None else None
        if found is not None and found.stage == FIRST:
            self.row, self.reached, self.highest = found.row, found.reached, found.highest
        else:
            self.row, self.reached, self.highest = 0, 0, highest

    def written(self, rows: I64, reached: int, highest: int) -> None:
        """After a piece ending at ``rows[-1]`` is written."""
        self.reached += reached
        self.highest = max(self.highest, highest)
        if self.progress is not None:  # (half a position each: the levels tell the rest)
            self.progress(self.reached // 2, self.reached)
        if self.points is not None and rows.size and self.points.due():
            self.points.save_first(int(rows[-1]) + 1, self.reached, self.highest,
                                   self.bits.words, self.bits.mark_words)  # fmt: skip


def solve_with_counters(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    records: Any,
    progress: ProgressCallback | None = None,
    reached_set: ReachedSet | None = None,
    settled: SettledSlots | None = None,
    watch: MemoryWatch | None = None,
    counted: Any = None,
    points: ResumePoints | None = None,
    every_index: bool = False,
) -> TierSummary:
    """Solve the reached positions of a self-contained loopy tier in ``records`` (each
    reached one open, value code 7) in place; see the module docstring. With a
    ``reached_set``, ``records`` are those of its slots (the reached positions alone); with
    ``settled`` too, they are one-byte codes (``slot_codes``) settled into the tier's file
    as the levels go, which raises TooNarrow in the first pass for a tier they cannot hold.
    ``watch``: the memory budget, checked after the first pass and every level.
    ``counted``: where the marking counted the first records (``counted``, with a
    ``reached_set``), (indices, records) pieces of them, scattered into the slots in place
    of the first pass. ``progress`` is told (positions of the tier, reached): half a
    position as its first record is written, half as it is decided (Morris's first pass
    takes most of the time; Dobutsu's levels do). ``points``: the resume points of a
    tier solved in its working file by index (``resume_points``), the solve going on from
    the one found. ``every_index``: the tier is not marked (``marking.unmarked``): the first
    pass takes every index, and leaves those that unrank to no position (holes) at 0."""
    flat = np.asarray(records)
    bits = _PendingBits(flat.shape[0])
    found = points.found if points is not None else None
    if points is not None and found is not None:
        points.restore(flat, bits.words, bits.mark_words)
    if found is None or found.stage == FIRST:
        reached, highest, beside = _first_pass(graph, files, terminals, tier, flat, bits,
                                               reached_set, settled is not None, counted,
                                               points, progress, every_index)  # fmt: skip
        start = (1, 0, reached, highest, 0)
        if points is not None and points.found is not None:  # (a point of the first pass
            # would open again records the levels have changed: one of the levels replaces it)
            points.save_levels(1, 0, (reached, highest, 0), bits.words, bits.mark_words)
    else:
        beside = Beside(graph, files, terminals, tier) if reads_beside(graph, tier) else None
        start = (found.phase, found.level, found.reached, found.highest, found.decided)
    _levels(graph, files, tier, flat, bits, reached_set, settled, beside,
            _Levels(progress, watch, points), start)  # fmt: skip
    if settled is not None:
        settled.settle_all(flat)
        return settled.summary
    return _finish(flat, files.record)


@dataclass
class _Levels:
    """What the levels report to: progress, the memory budget, resume points."""

    progress: ProgressCallback | None
    watch: MemoryWatch | None
    points: ResumePoints | None


def _levels(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    flat: Any,
    bits: _PendingBits,
    reached_set: ReachedSet | None,
    settled: SettledSlots | None,
    beside: Beside | None,
    report: _Levels,
    start: tuple[int, int, int, int, int],
) -> None:
    """Steps 2 and 3 of the module docstring, from ``start``: (phase, level, reached,
    highest, decided), a resume point's, or (1, 0, ...) after the first pass."""
    shift, narrow = files.record.shift, settled is not None
    first_phase, level, reached, highest, decided = start
    for phase in (1,) if narrow else (1, 2):  # (narrow codes hold no tie: no phase 2)
        if phase < first_phase:
            continue
        if phase > first_phase or level == 0:
            level = 0
            if phase == 2:  # ties ahead of the levels: those of children beside, if any
                highest = _ties_beside(beside, flat, shift, bits) if beside is not None else 0
        while True:
            if level >= files.record.max_remoteness:
                raise GameError(f"tier {tier}: remoteness beyond {level} plies")
            if report.watch is not None:
                report.watch.check(f"solving tier {tier} of {graph.rules.name}", decided,
                                   SAVE_ADVICE)  # fmt: skip
            if settled is not None and level - settled.base >= LEVELS:
                settled.settle_below(level, flat)
            read = level - settled.base if settled is not None else level  # as coded
            found, later = _follow_level(graph, tier, flat, shift, bits, read, phase,
                                         reached_set, narrow, beside)  # fmt: skip
            highest = max(highest, later)
            decided += found
            if report.progress is not None:  # (the first pass told the first half)
                report.progress((reached + min(decided, reached)) // 2, reached, level=level)
            if found == 0 and level >= highest:
                break
            level += 1
            if report.points is not None and report.points.due():
                report.points.save_levels(phase, level, (reached, highest, decided),
                                          bits.words, bits.mark_words)  # fmt: skip


class _PendingBits:
    """A bit per record for the positions decided whose un-moves are not followed yet
    (``pending``, also as 64-bit ``words``), and a bit per word that may hold one
    (``marks``, also as ``mark_words``)."""

    def __init__(self, size: int) -> None:
        self.words = np.zeros(-(-size // 64), dtype=np.uint64)  # read 64 bits at a time
        self.pending = self.words.view(np.uint8)  # bit i: byte i >> 3, bit i & 7
        self.mark_words = np.zeros(-(-self.words.shape[0] // 64), dtype=np.uint64)
        self.marks = self.mark_words.view(np.uint8)  # bit w: words[w] may hold one


def _follow_level(
    graph: TierGraph,
    tier: int,
    flat: Any,
    shift: int,
    bits: _PendingBits,
    read: int,
    phase: int,
    reached_set: ReachedSet | None,
    narrow: bool,
    beside: Beside | None = None,
) -> tuple[int, int]:
    """Follow the un-moves of one level's frontier (its remoteness ``read`` as the records
    code it), the workers finding the positions before, this thread applying them; returns
    how many positions the frontier held, and the largest remoteness of the losses that
    children beside put off (``children_beside``; 0: none)."""
    found = [0]
    waiting: list[I64] = []  # counters fallen to 0 with a child lost beside
    held = [0]  # how many of them
    later = [0]  # the largest remoteness their losses were written with

    weighed = beside is not None and beside.orbits
    size = WIDE_PIECE if weighed else PIECE

    def frontier() -> Any:  # (pieces of ``size`` but the last, gathered across the scans)
        gathered: list[I64] = []
        count = 0
        for start in range(0, flat.shape[0], FRONTIER_SCAN):
            stop = min(start + FRONTIER_SCAN, flat.shape[0])
            rows = _frontier(bits.words, bits.pending, bits.mark_words, bits.marks, flat,
                             start, stop, shift, read, phase, narrow)  # fmt: skip
            found[0] += rows.shape[0]
            gathered.append(rows)
            count += rows.shape[0]
            if count >= size:
                rows = np.concatenate(gathered)
                whole = rows.shape[0] - rows.shape[0] % size
                for piece in range(0, whole, size):
                    yield rows[piece : piece + size]
                gathered, count = [rows[whole:]], rows.shape[0] - whole
        if count:
            yield np.concatenate(gathered)

    def spread(before: tuple[I64, I64, U8, U8]) -> None:
        waits = _apply(flat, bits.pending, bits.marks, *before, read, shift,
                       counter_mask(shift), phase, narrow)  # fmt: skip
        if waits.size:
            waiting.append(waits)
            held[0] += waits.shape[0]
            if held[0] >= WAITING:  # (in this thread: the records are written here)
                later[0] = max(later[0], _settle_waiting(beside, flat, shift, bits, waiting, read))
                held[0] = 0

    def parents(slots: I64) -> tuple[I64, I64, U8, U8]:
        return _parents_of(graph, tier, flat, shift, slots, reached_set, weighed)

    in_parallel(frontier(), parents, spread)
    if waiting:
        later[0] = max(later[0], _settle_waiting(beside, flat, shift, bits, waiting, read))
    return found[0], later[0]


def _settle_waiting(
    beside: Beside | None,
    flat: Any,
    shift: int,
    bits: _PendingBits,
    waiting: list[I64],
    read: int,
) -> int:
    """Write the losses of the positions in ``waiting`` (counters fallen to 0 at level
    ``read`` with a child lost beside), each in the later of read + 1 and its slowest such
    child, pending, and empty the list; returns the largest remoteness written. Their
    records are found by a pool of workers of their own (the level's workers, if any, wait
    meanwhile) and written here. Safe before the level is over: such a position's every
    child inside the tier is known, so no later un-move of the level changes it, and its
    remoteness is past the level's frontier."""
    assert beside is not None
    later = [0]

    def losses(piece: I64) -> tuple[I64, Any]:
        return beside.slowest_losses(piece, read)

    def write(done: tuple[I64, Any]) -> None:
        later[0] = max(later[0], _write_decided(flat, shift, bits, done[0], done[1]))

    pieces = (rows[i : i + PIECE] for rows in waiting for i in range(0, rows.shape[0], PIECE))
    in_parallel(pieces, losses, write)
    waiting.clear()
    return later[0]


def _count_beside(
    beside: Beside, flat: Any, shift: int, bits: _PendingBits, saver: _Saver, every_index: bool
) -> tuple[int, int]:
    """Pass 1 of a tier that reads children beside (``children_beside``): every reached
    position's first record, the decided ones pending (won ends too: their parents counted
    them); returns how many positions the tier reaches and the largest remoteness
    decided. ``every_index``: every index taken, the holes left out by ``beside``."""

    def write(done: tuple[I64, Any, int]) -> None:
        written = _write_first(flat, shift, bits.pending, bits.marks, done[0], done[1],
                               won_ends_counted=False)  # fmt: skip
        saver.written(done[0], written, done[2])

    size = WIDE_PIECE if beside.exits_only else PIECE
    pieces = _reached_pieces(flat, shift, saver.row, every_index, size)
    in_parallel(pieces, beside.first_records, write)
    return saver.reached, saver.highest


def _ties_beside(beside: Beside, flat: Any, shift: int, bits: _PendingBits) -> int:
    """Before ties spread: each open position with a tied child beside tied in the fewest
    plies such a child gives, pending; returns the largest of those remoteness (0: none)."""
    later = [0]

    def flagged() -> Any:
        for start in range(0, flat.shape[0], SCAN):
            block = np.asarray(flat[start : start + SCAN])
            rows = np.flatnonzero(((block >> shift) == REACHED) & ((block & TIED_BESIDE) != 0))
            for piece in range(0, rows.shape[0], PIECE):
                yield start + rows[piece : piece + PIECE]

    def write(done: tuple[I64, Any]) -> None:
        later[0] = max(later[0], _write_decided(flat, shift, bits, done[0], done[1]))

    in_parallel(flagged(), beside.fastest_ties, write)
    return later[0]


def _write_decided(flat: Any, shift: int, bits: _PendingBits, rows: I64, records: U16) -> int:
    """Write records that children beside decided (``children_beside``) at ``rows``, each
    pending; returns the largest remoteness among them."""
    flat[rows] = records
    _set_pending(bits.pending, bits.marks, rows)
    return int((records & ((1 << shift) - 1)).max())


def _positions(batch: Any, children: I64) -> I64:
    """One int64 a child position: its key where the game folds images of a position into
    one (two moves to two images of a child are one child to count, as its un-moves tell
    the parent once), else its code."""
    if batch.batch_key is None:
        return children
    return np.asarray(batch.batch_key(children), dtype=np.int64)


def _count_moves(
    graph: TierGraph,
    terminals: Terminals,
    tier: int,
    flat: U16,
    shift: int,
    bits: _PendingBits,
    reached_set: ReachedSet | None,
    saver: _Saver,
    every_index: bool = False,
) -> int:
    """Pass 1: ends, losses without moves, and every open position's counter, the decided
    ones pending but won ends; returns how many positions the tier reaches. ``flat`` is
    indexed by slot where a ``reached_set`` is given, else by index. ``every_index``: every
    index taken, those that unrank to no position left out."""
    rules, hooks = graph.rules, graph.hooks
    assert rules.batch is not None

    def count(indices: I64) -> tuple[I64, Any]:
        if every_index:  # (holes: no position)
            indices, codes = present_codes(graph, tier, indices)
        else:
            positions = indices if reached_set is None else reached_set.indices(indices)
            codes = np.asarray(hooks.batch_unrank(tier, positions), dtype=np.int64)
        if (codes < 0).any():
            raise GameError(f"{rules.name}.batch_unrank gave no position for a reached index")
        assert rules.batch is not None
        outcome, scores = terminals.check_batch(codes, rules.batch.batch_outcome(codes))
        if scores is not None:
            raise GameError(f"{rules.name} is scored: tiered solving takes WIN/LOSS/TIE games")
        open_rows = np.flatnonzero(outcome == UNDECIDED)
        parents = np.zeros(0, dtype=np.int64)
        ends = np.zeros(0, dtype=np.int8)
        if open_rows.size:
            exp = rules.batch.batch_expand(codes[open_rows])
            if exp.same_mover is not None and np.asarray(exp.same_mover).any():
                raise GameError("un-moves in a loopy tier need moves that always pass the turn")
            parents = np.asarray(exp.parents, dtype=np.int64)
            children = np.asarray(exp.children, dtype=np.int64)
            once = first_of_each(parents, _positions(rules.batch, children))
            parents, children = parents[once], children[once]
            ends, _ = terminals.check_batch(children, rules.batch.batch_outcome(children))
        return indices, first_records(outcome, open_rows, parents, ends, shift, rules.name)

    def write(done: tuple[I64, Any]) -> None:
        saver.written(done[0], _write_first(flat, shift, bits.pending, bits.marks, *done), 1)

    in_parallel(_reached_pieces(flat, shift, saver.row, every_index), count, write)
    return saver.reached


def _write_first(
    flat: Any,
    shift: int,
    pending: U8,
    marks: U8,
    rows: I64,
    records: U16,
    won_ends_counted: bool = True,
) -> int:
    """Write first records (2-byte, as ``counted.first_records``) at ``rows`` of ``flat``
    (narrowed to one-byte codes there), the decided ones pending but won ends where
    ``won_ends_counted`` (counted in their parents' counters: never followed); returns how
    many."""
    flat[rows] = narrowed(records, shift) if flat.dtype == np.uint8 else records
    values = records >> shift
    won_end = (values == _WIN) & (records & ((1 << shift) - 1) == 0) & won_ends_counted
    followed = (values == _LOSS) | (values == _TIE) | ((values == _WIN) & ~won_end)
    _set_pending(pending, marks, rows[followed])
    return int(rows.shape[0])


def _scatter_counted(
    flat: Any, shift: int, bits: _PendingBits, reached_set: ReachedSet, counted: Any
) -> int:
    """Pass 1 from the first records the marking counted (as many as the reached set
    holds, which the caller checked): each piece's indices found as slots (by the
    workers) and written there; returns how many positions the tier reaches. Files that
    do not belong to these bits (an index not reached, or slots whose sum is not that of
    every slot once: one repeated where another is missing) are refused."""
    found, total = [0], [0]

    def slots_of(piece: tuple[I64, U16]) -> tuple[I64, U16]:
        slots = reached_set.slots(piece[0])
        if slots.size and int(slots.min()) < 0:
            raise TablebaseError(_NOT_COUNTED)
        return slots, piece[1]

    def write(done: tuple[I64, U16]) -> None:
        found[0] += _write_first(flat, shift, bits.pending, bits.marks, done[0], done[1])
        total[0] += int(done[0].sum())

    in_parallel(counted, slots_of, write)
    if total[0] != found[0] * (found[0] - 1) // 2:
        raise TablebaseError(_NOT_COUNTED)
    return found[0]


_NOT_COUNTED = (
    "the first records counted while marking (the tier's .counted and .counted-at files) "
    "do not match the positions it reached: remove those two files and run the same solve "
    "again"
)


def _reached_pieces(
    flat: Any, shift: int, first: int = 0, every_index: bool = False, size: int = PIECE
) -> Any:
    """The reached records' places from ``first`` on, ``size`` at most at once (one-byte
    codes of slots, or ``every_index``: all)."""
    for start in range(first, flat.shape[0], SCAN):
        if flat.dtype == np.uint8 or every_index:
            rows = np.arange(min(SCAN, flat.shape[0] - start), dtype=np.int64)
        else:
            rows = np.flatnonzero(flat[start : start + SCAN] >> shift)
        for piece in range(0, rows.shape[0], size):
            yield start + rows[piece : piece + size]


def _parents_of(
    graph: TierGraph,
    tier: int,
    flat: U16,
    shift: int,
    indices: I64,
    reached_set: ReachedSet | None = None,
    weighed: bool = False,
) -> tuple[I64, I64, U8, U8]:
    """The positions one move before a piece of a frontier (read in a worker thread):
    each un-move's parent index (-1: none, to skip) and its row in the piece, and by row
    the value of the frontier position and what each of its un-moves takes from a
    counter. With a ``reached_set``: slots, those parents that play does not reach left
    out. One un-move per child and parent taking 1: the counters count each child position
    once (two moves to two images of a child, or to one child, are one); ``weighed``
    (``children_beside.counts_orbits``): every un-move, taking the size of the child's
    orbit. The values and takes go by row, read by ``_apply`` as it reads each un-move
    (from arrays a piece long): gathered here by numpy, the parents of no index dropped,
    a frontier position of Nine Men's Morris's sector 7-5 took 353 ns of a worker against
    331 (2026-12-02, the two taking turns in one process)."""
    hooks = graph.hooks
    assert hooks.batch_parents is not None
    if flat.dtype == np.uint8:  # one-byte codes (``slot_codes``): decided ones only here
        values = (((flat[indices] - DECIDED) & 1) + 1).astype(np.uint8)
    else:
        values = (flat[indices] >> shift).astype(np.uint8)
    positions = indices if reached_set is None else reached_set.indices(indices)
    codes = np.asarray(hooks.batch_unrank(tier, positions), dtype=np.int64)
    ranked, rows = ranked_parents(graph, tier, codes, keep_unindexed=reached_set is None)
    if weighed:
        assert hooks.batch_orbit_sizes is not None
        takes = np.asarray(hooks.batch_orbit_sizes(tier, codes), dtype=np.uint8)
    else:
        first = first_of_each(rows, ranked)
        ranked, rows = ranked[first], rows[first]
        takes = np.ones(indices.shape[0], dtype=np.uint8)
    if reached_set is None:
        return ranked, rows, values, takes
    slots = reached_set.slots(ranked)
    kept = slots >= 0
    return slots[kept], rows[kept], values, takes


@kernel
def _apply(
    flat: U16,
    pending: U8,
    marks: U8,
    parents: I64,
    rows: I64,
    child_value: U8,
    takes: U8,
    level: int,
    shift: int,
    counter: int,
    phase: int,
    narrow: bool,
) -> I64:
    """Per un-move into an open parent (``parents``, -1: none; the child's value and what
    it takes from a counter at its row, ``rows``): a lost child makes it a win at level +
    1, a won child takes from its counter (a loss at level + 1 when none is left); in
    phase 2 a tied child makes it a tie at level + 1. A parent decided is pending. A
    parent decided later than level + 1 by a child beside (``children_beside``), a win or a tie, is
    brought forward so. Returns the parents whose counter fell to 0 with a child lost
    beside (their loss waits for its slowest). ``narrow``: the records are one-byte codes
    (``slot_codes``; phase 1 only, ``level`` from their base)."""
    mask = (1 << shift) - 1
    waits = np.empty(parents.shape[0], dtype=np.int64)
    w = 0
    count = parents.shape[0]
    for e in range(count):
        if e + AHEAD < count and parents[e + AHEAD] >= 0:  # (asked for ahead: see AHEAD)
            prefetch(flat, parents[e + AHEAD])
        p = parents[e]
        if p < 0:
            continue
        record = flat[p]
        row = rows[e]
        value = child_value[row]
        take = np.int64(takes[row])
        decided = -1
        if narrow:  # one-byte codes: 0 settled, 1..63 open (its counter), then decided
            if record == 0 or record >= DECIDED:
                continue
            if value == _LOSS:
                decided = _WIN
            elif value == _WIN and record > take:
                flat[p] = record - take
            elif value == _WIN:
                decided = _LOSS
        else:
            now = record >> shift
            sooner = now != REACHED and (record & mask) > level + 1  # (not followed yet)
            if phase == 2:
                if value == _TIE and (now == REACHED or (now == _TIE and sooner)):
                    decided = _TIE
            elif value == _LOSS:
                if now == REACHED or (now == _WIN and sooner):
                    decided = _WIN
            elif value == _WIN and now == REACHED:
                left = (record & counter) - take
                if left < 0:
                    continue  # waiting for its slowest child beside
                if left > 0:
                    flat[p] = record - take
                elif record & LOST_BESIDE:
                    flat[p] = record - take
                    waits[w] = p
                    w += 1
                else:
                    decided = _LOSS
        if decided > 0:
            if narrow:
                flat[p] = DECIDED + 2 * (level + 1) + decided - 1
            else:
                flat[p] = (decided << shift) | (level + 1)
            pending[p >> 3] |= 1 << (p & 7)
            marks[p >> 9] |= 1 << ((p >> 6) & 7)
    return waits[:w].copy()  # (a view would hold the whole array, as long as the un-moves)


@kernel
def _set_pending(pending: U8, marks: U8, indices: I64) -> None:
    """Mark ``indices`` pending (and their words in ``marks``)."""
    for i in indices:
        pending[i >> 3] |= 1 << (i & 7)
        marks[i >> 9] |= 1 << ((i >> 6) & 7)


@kernel
def _frontier(
    words: U64,
    pending: U8,
    mark_words: U64,
    marks: U8,
    flat: U16,
    start: int,
    stop: int,
    shift: int,
    level: int,
    phase: int,
    narrow: bool,
) -> I64:
    """The frontier at ``level`` among the pending indices in [start, stop) (start a
    multiple of 4,096): wins and losses (phase 1) or ties (phase 2) of that remoteness, no
    longer pending once returned; the others stay pending. ``narrow``: the records are
    one-byte codes (``slot_codes``; phase 1 only, ``level`` from their base).

    Two levels of bits: ``words`` are ``pending`` 64 bits at a time, and ``marks`` (and
    ``mark_words``, 64 of them at a time) hold a bit per word that may have a pending bit,
    cleared here when its word is found empty. A level reads only the words so marked (byte
    by byte, a level's scan of Dobutsu's 107 MB of bits took 0.16 s, 25 s over the solve's
    160-odd levels; word by word 0.05 s, 2026-11-27: the late levels, with few positions
    left, waited on it). Each level of bits is read by ``_set_bits``: the marked words,
    then the pending positions in those that hold any."""
    mask = (1 << shift) - 1
    groups = np.empty(((stop + 4095) >> 12) - (start >> 12), dtype=np.int64)
    n = 0
    for group in range(start >> 12, (stop + 4095) >> 12):
        if mark_words[group] != 0:
            groups[n] = group
            n += 1
    marked = _set_bits(marks, groups[:n])  # the words that may hold a pending bit
    live = np.empty(marked.shape[0], dtype=np.int64)
    n = 0
    for word in marked:
        if words[word] == 0:
            marks[word >> 3] &= ~np.uint8(1 << (word & 7))  # found empty
        else:
            live[n] = word
            n += 1
    pending_here = _set_bits(pending, live[:n])
    out = np.empty(pending_here.shape[0], dtype=np.int64)
    n = 0
    for i in pending_here:
        record = flat[i]
        value = record >> shift
        if narrow:  # one-byte codes (``slot_codes``), ``level`` from their base
            hit = record >= DECIDED and (record - DECIDED) >> 1 == level
        elif phase == 1:
            hit = value in (_WIN, _LOSS) and (record & mask) == level
        else:
            hit = value == _TIE and (record & mask) == level
        if hit:
            out[n] = i
            n += 1
            pending[i >> 3] &= ~np.uint8(1 << (i & 7))
    return out[:n]


@inlined_kernel
def _set_bits(bits: U8, words: I64) -> I64:
    """The set bits (as bit indices) of the 64-bit words of ``bits`` (its bytes, 8 a word)
    whose indices are ``words``, in order."""
    found = np.empty(64 * words.shape[0], dtype=np.int64)
    n = 0
    for word in words:
        for byte in range(word << 3, (word << 3) + 8):
            here = bits[byte]
            if here == 0:
                continue
            for k in range(8):
                if here >> k & 1:
                    found[n] = (byte << 3) + k
                    n += 1
    return found[:n]


def _finish(flat: U16, record: RecordFormat) -> TierSummary:
    """What stayed open never ends: DRAW. The tier's counts."""
    tally = np.zeros(1 << (8 * record.bytes), dtype=np.int64)  # (as ``add_records``'s)
    for start in range(0, flat.shape[0], SCAN):
        _drawn_tallied(flat[start : start + SCAN], record.shift, tally)
    summary = TierSummary()
    summary.add_tally(tally, record)
    return summary


@kernel
def _drawn_tallied(block: U16, shift: int, tally: Any) -> None:
    """Write DRAW over the open records of ``block`` and tally every record
    (``tally[record] += 1``). One pass, compiled: in numpy, six passes over the records
    took 9 ns a record on one core (Nine Men's Morris's sector 7-7: 4.1 s, 2026-12-01)."""
    draw = np.uint16(_DRAW << shift)
    for i in range(block.shape[0]):
        record = block[i]
        if record >> shift == REACHED:
            record = draw
            block[i] = record
        tally[record] += 1


def solve_in_slots(
    graph: TierGraph,
    files: TierFiles,
    terminals: Terminals,
    tier: int,
    progress: ProgressCallback | None = None,
    watch: MemoryWatch | None = None,
) -> TierSummary:
    """Solve a tier marked in bit sets (``graph.in_bits``) in records of its reached
    positions alone, and write the tier's working file: those records at their indices,
    zeros between. In one-byte codes settled into the file as the levels go
    (``slot_codes``), or where they do not fit (a tie, more than 63 moves) in 2-byte records
    written at the end. Dobutsu shogi: 246.8 million codes of one byte beside the 107 MB
    bit set, where a record per index took 1.7 GB. An interrupted solve starts again from
    the bits. ``watch``, the memory budget, is checked once the records are made and after
    every level."""
    size = graph.sizes[tier]
    words = files.reached_bits(tier, size)
    if words is None:
        raise GameError(f"tier {tier}: its reached bit set is gone; run the same solve again")
    reached = ReachedSet(words)
    rows = files.counted_rows(tier)
    paths = files.counted_paths(tier)

    def counted() -> Any:  # (each pass reads the file anew)
        whole = rows == reached.count
        return counted_pieces(paths, size, reached.count) if whole else None

    codes = np.zeros(reached.count, dtype=np.uint8)
    settled = SettledSlots(files, tier, size, reached)
    pieces = counted()
    try:
        return solve_with_counters(graph, files, terminals, tier, codes, progress, reached,
                                   settled, watch, pieces)  # fmt: skip
    except TooNarrow:
        del codes
        if pieces is not None:
            pieces.close()  # (its files, read partway)
    slots = np.full(reached.count, files.record.reached, dtype=files.record.dtype)
    summary = solve_with_counters(graph, files, terminals, tier, slots, progress, reached,
                                  None, watch, counted())  # fmt: skip

    def windows() -> Any:
        for start, stop, here, first in reached.windows(size, SCAN):
            block = np.zeros(stop - start, dtype=files.record.dtype)
            block[here - start] = slots[first : first + here.shape[0]]
            yield start, block

    files.write_partial(tier, size, windows())
    return summary
