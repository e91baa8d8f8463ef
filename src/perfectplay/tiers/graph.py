"""Ranked tiers: a game's positions indexed densely, tier by tier, by the game's own ranking.

No hash table and no edge arrays: a position is (tier, index), its record lives at that
index of the tier's file (``files``), and its moves are found again whenever they are
needed, a chunk of positions at a time, by unranking, expanding and ranking the children.
``TierGraph`` orders the tiers (parents first; an error for a cycle); ``reach`` marks, root
first, every position play can reach, so counts compare with published ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.arrays import I8, I64, B
from ..core.compiled import kernel
from ..core.memory import SAVE_ADVICE, MemoryWatch
from ..core.parallel import in_parallel
from ..core.records import REACHED, sweep_codes
from ..errors import GameError, InterruptedSolve, describe
from ..progress import ProgressCallback
from ..protocol import Codes
from ..rules import Rules, TierRules
from ..spaces.batch import expand_checked
from ..terminals import Terminals
from ..values import UNDECIDED, Value
from .counted import CountedWriter, first_records
from .files import TierFiles, let_go
from .reached_set import FreshMarks

CHUNK = 1 << 16
"""Positions handled at once: bounds the working memory (about 200 bytes each, with
their moves). Connect Four 6x4 peaks at 220 MB with it, 405 MB with four times as many."""
CHUNK_BYTES = 200 * CHUNK
PARTS = 32
PART_AT_LEAST = 1 << 14
"""``tier_moves`` hands a loopy tier's moves out in parts of at most max(PART_AT_LEAST,
n / PARTS) positions (a large tier in about PARTS windows, whose arrays of tens of MB the C
allocator maps and gives back to the system when freed, where thousands of small windows
left a gigabyte of freed but held memory on Teeko: 3.75 GB peak instead of 2.8). A part of
2**14 positions of Quixo 4x4 holds about 10 MB while laid out; 2**16 held 40 MB, and Quixo
on two threads peaked 30 MB higher (346 MB against 313-317, 2026-11-27)."""


MOST_TIERS = 1 << 20
"""More tiers than any game has (Nine Men's Morris: 35 in its database, 224 in the whole
game): a ``child_tiers`` that makes new tiers forever is stopped here."""


class TierGraph:
    """The tiers reachable from the initial tier, ordered parents first."""

    def __init__(self, rules: Rules[Any, Any]) -> None:
        if rules.tiers is None:
            raise GameError(f"{rules.name} does not speak the tier protocol")
        self.rules = rules
        self.hooks: TierRules = rules.tiers
        self.scored = rules.ends_in_scores()
        """Whether the game ends in scores (``scored``): solved by ``tiers.scored``."""
        self.children: dict[int, tuple[int, ...]] = {}
        """Each tier's child tiers, itself left out."""
        self.loopy: set[int] = set()
        """The tiers with moves inside them: those that list themselves as a child."""
        self.order = self._parents_first(self.hooks.initial_tier)
        self.sizes = {t: int(self.hooks.tier_size(t)) for t in self.order}
        self.longest = self._longest_path()
        """Moves along the longest chain of tiers; None when some tier is loopy."""

    def _parents_first(self, root: int) -> list[int]:
        """Depth-first from the root without recursion; a cycle is a GameError."""
        finished: list[int] = []
        on_path: set[int] = {root}
        stack = [(root, iter(self._children_of(root)))]
        while stack:
            tier, rest = stack[-1]
            child = next(rest, None)
            if child is None:
                stack.pop()
                on_path.discard(tier)
                finished.append(tier)
            elif child in on_path:
                raise GameError(f"{self.rules.name}: the tiers form a cycle through tier {child}")
            elif child not in self.children:
                on_path.add(child)
                stack.append((child, iter(self._children_of(child))))
        return finished[::-1]

    def _children_of(self, tier: int) -> tuple[int, ...]:
        if tier not in self.children:
            if len(self.children) >= MOST_TIERS:  # (else a walk that never ends)
                raise GameError(
                    f"{self.rules.name}: more than {MOST_TIERS:,} tiers below tier "
                    f"{self.hooks.initial_tier}; does child_tiers() lead on forever (tier "
                    f"{tier} is one of them)?"
                )
            kids = tuple(int(t) for t in self.hooks.child_tiers(tier))
            if tier in kids:
                self.loopy.add(tier)
            self.children[tier] = tuple(k for k in kids if k != tier)
        return self.children[tier]

    def targets(self, tier: int) -> tuple[int, ...]:
        """The tiers a move from ``tier`` may lead into: its children, and itself if loopy."""
        return (*self.children[tier], tier) if tier in self.loopy else self.children[tier]

    def _longest_path(self) -> int | None:
        """Moves along the longest chain of tiers: no game lasts longer, unless it loops."""
        if self.loopy:
            return None
        depth = {t: 0 for t in self.order}
        for tier in reversed(self.order):
            depth[tier] = max((depth[c] + 1 for c in self.children[tier]), default=0)
        return depth[self.order[0]]

    def mapped_bytes(self, record_bytes: int) -> int:
        """The most any tier and its children map at once, plus a chunk's working arrays."""
        widest = max(
            self.sizes[t] + sum(self.sizes[c] for c in self.children[t]) for t in self.order
        )
        return widest * record_bytes + CHUNK_BYTES

    @property
    def total_size(self) -> int:
        """Indices over every tier."""
        return sum(self.sizes.values())


@dataclass
class Chunk:
    """A chunk of positions of one tier, with their ends and their moves."""

    indices: I64
    outcome: I8
    """0 goes on, else WIN / LOSS / TIE for the mover."""
    open_rows: I64
    """Rows (into the chunk) of the positions that go on, in order."""
    parents: I64
    """Per move, the row in ``open_rows`` of the position it is made from."""
    child_tier: I64
    child_index: I64
    same_mover: B | None
    single_kid: int | None = None
    """The child tier of every move, when all lead into one."""
    child_end: I8 | None = None
    """Each move's child's end for its mover (0 goes on, as batch_outcome), where asked for
    and known."""
    scores: Any = None
    """A scored game's: each position's score (NaN: it goes on)."""
    rewards: Any = None
    """A scored game's: the points each move earns its mover (None: no rewards)."""


def expand_chunk(
    graph: TierGraph, terminals: Terminals, tier: int, indices: I64, with_ends: bool = False
) -> Chunk:
    """Unrank a chunk, read its ends, expand the rest and rank every child in its tier;
    ``with_ends``: the children's ends too, where the game gives them or their codes are
    made (not from batch_expand_tier, or batch_ranked_children without them)."""
    rules, hooks = graph.rules, graph.hooks
    assert rules.batch is not None
    kids = graph.targets(tier)
    if graph.scored:  # (the one-tier hooks answer in outcomes)
        return _scored_chunk(graph, terminals, tier, indices)
    if len(kids) == 1 and kids[0] != tier and hooks.batch_expand_tier is not None:
        expanded = _expanded_indices(graph, terminals, tier, indices)
        if expanded is not None:
            return expanded
    codes = _unranked(graph, tier, indices)
    outcome, scores = terminals.check_batch(codes, rules.batch.batch_outcome(codes))
    if scores is not None:
        raise GameError(
            f"{rules.name} ends in scores (its first playout did not): say so with scored = "
            "True to solve it tier by tier"
        )
    open_rows = np.flatnonzero(outcome == UNDECIDED)
    if (
        len(kids) == 1
        and hooks.batch_ranked_children is not None
        and (kids[0] != tier or rules.to_move is None)  # (no mark of a move keeping the turn)
    ):
        ranked = _ranked_children(graph, terminals, tier, codes[open_rows])
        if ranked is not None:
            parents, child_index, child_end = ranked
            child_tier = np.broadcast_to(np.int64(kids[0]), child_index.shape)
            return Chunk(indices, outcome, open_rows, parents, child_tier, child_index,
                         None, kids[0], child_end)  # fmt: skip
    ends_of = terminals if with_ends else None
    return _ranked_chunk(graph, tier, indices, codes, outcome, open_rows, ends_of)


def _unranked(graph: TierGraph, tier: int, indices: I64) -> I64:
    """The codes of a tier's indices, checked."""
    codes = np.asarray(graph.hooks.batch_unrank(tier, indices), dtype=np.int64)
    if codes.shape != indices.shape or (codes < 0).any():
        bad = int(indices[np.flatnonzero(codes < 0)[0]]) if codes.shape == indices.shape else -1
        raise GameError(
            f"{graph.rules.name}.batch_unrank(tier {tier}, ...) gave no position for index "
            f"{bad}, which play reaches"
        )
    return codes


def _scored_chunk(graph: TierGraph, terminals: Terminals, tier: int, indices: I64) -> Chunk:
    """A chunk of a scored game: its scores (NaN: goes on) and its moves' rewards too."""
    assert graph.rules.batch is not None
    codes = _unranked(graph, tier, indices)
    outcome, scores = terminals.check_batch(codes, graph.rules.batch.batch_outcome(codes))
    if scores is None:  # (a batch with no end may come as outcome codes: all 0)
        if (outcome != UNDECIDED).any():
            raise GameError(
                f"{graph.rules.name} is scored (or earns rewards) but ends in WIN/LOSS/TIE"
            )
        scores = np.full(codes.shape[0], np.nan)
    open_rows = np.flatnonzero(outcome == UNDECIDED)
    chunk = _ranked_chunk(graph, tier, indices, codes, outcome, open_rows)
    chunk.scores = scores
    return chunk


def _ranked_chunk(graph: TierGraph, tier: int, indices: I64, codes: I64, outcome: Any,
                  open_rows: Any, ends_of: Terminals | None = None) -> Chunk:  # fmt: skip
    """The chunk's open positions expanded by the batch protocol, every child ranked in
    its tier (found by batch_tier when the tier has several child tiers); with
    ``ends_of``, the children's ends read and checked by it (``Chunk.child_end``) where
    every move leads into one tier."""
    rules, hooks, kids = graph.rules, graph.hooks, graph.targets(tier)
    assert rules.batch is not None
    exp = expand_checked(rules, rules.batch, codes[open_rows])
    if len(kids) == 1:
        # Every move leads into the one child tier: no batch_tier needed, and a child that
        # is not in that tier shows as an index of -1.
        child_index = np.asarray(hooks.batch_rank(kids[0], exp.children), dtype=np.int64)
        if child_index.size and child_index.min() < 0:
            _unranked_child(graph, tier, codes[open_rows], exp.parents, exp.children, child_index)
        child_tier = np.broadcast_to(np.int64(kids[0]), exp.children.shape)  # no copy
        child_end = None
        if ends_of is not None:
            child_end, _ = ends_of.check_batch(
                exp.children, rules.batch.batch_outcome(exp.children)
            )
        return Chunk(indices, outcome, open_rows, exp.parents, child_tier, child_index,
                     exp.same_mover, kids[0], child_end, rewards=exp.rewards)  # fmt: skip
    if hooks.batch_tier is not None:
        child_tier = np.asarray(hooks.batch_tier(exp.children), dtype=np.int64)
    elif exp.children.size == 0:
        child_tier = np.full(0, -1, dtype=np.int64)
    else:
        raise GameError(f"{rules.name}: tier {tier} has several child tiers but no batch_tier()")
    child_index = np.empty(exp.children.shape[0], dtype=np.int64)
    present: dict[int, I64 | None] = {}  # each child tier present: its moves (None: all)
    if child_tier.size and child_tier.min() == child_tier.max():  # every move into one tier
        present[int(child_tier[0])] = None
    else:  # (a mask per child tier: np.unique sorted a million children to find two)
        for k in kids:
            if (w := np.flatnonzero(child_tier == k)).size:
                present[k] = w
        if sum(w.shape[0] for w in present.values() if w is not None) != child_tier.shape[0]:
            stray = np.setdiff1d(child_tier, np.array(kids, dtype=np.int64))
            present[int(stray[0])] = None
    for kid, where in present.items():
        if kid not in kids:
            _stray_move(graph, tier, codes[open_rows], exp.parents, child_tier, kid)
        if where is None:
            child_index[:] = hooks.batch_rank(kid, exp.children)
        else:
            child_index[where] = hooks.batch_rank(kid, exp.children[where])
    if child_index.size and child_index.min() < 0:
        _unranked_child(graph, tier, codes[open_rows], exp.parents, exp.children, child_index)
    single = next(iter(present)) if len(present) == 1 else None
    return Chunk(indices, outcome, open_rows, exp.parents, child_tier, child_index,
                 exp.same_mover, single, rewards=exp.rewards)  # fmt: skip


def _expanded_indices(
    graph: TierGraph, terminals: Terminals, tier: int, indices: I64
) -> Chunk | None:
    """The chunk by the game's batch_expand_tier, checked; None when it declines, meets an
    index that is no position or ranks no child: the caller then goes step by step (and
    explains the fault)."""
    hooks, name = graph.hooks, graph.rules.name
    assert hooks.batch_expand_tier is not None
    expanded = hooks.batch_expand_tier(tier, indices)
    if expanded is None:
        return None
    outcome, parents, child_index = (np.asarray(a) for a in expanded)
    if outcome.shape != indices.shape or parents.shape != child_index.shape:
        raise GameError(
            f"{name}.batch_expand_tier(tier {tier}, ...) gave {outcome.shape} outcomes for "
            f"{indices.shape[0]} indices, or parents and indices of different shapes"
        )
    low, high = (int(outcome.min()), int(outcome.max())) if outcome.size else (0, 0)
    if low < 0:
        return None
    if high > int(Value.TIE):
        i = int(np.flatnonzero(outcome > int(Value.TIE))[0])
        raise GameError(
            f"{name}.batch_expand_tier(tier {tier}, ...) gave outcome {int(outcome[i])} for "
            f"index {int(indices[i])}; expected 0 (goes on), 1 WIN, 2 LOSS or 3 TIE"
        )
    if high > 0:
        i = int(np.argmax(outcome))
        terminals.met_outcome(int(outcome[i]), f"index {int(indices[i])}", "batch_expand_tier")
    open_rows = np.flatnonzero(outcome == UNDECIDED)
    parents = np.asarray(parents, dtype=np.int64)
    child_index = np.asarray(child_index, dtype=np.int64)
    if parents.size and (parents[-1] >= open_rows.shape[0] or parents[0] < 0):
        raise GameError(
            f"{name}.batch_expand_tier(tier {tier}, ...) gave a parent row beyond the "
            f"{open_rows.shape[0]} positions that go on"
        )
    if child_index.size and child_index.min() < 0:
        return None
    kid = graph.children[tier][0]
    child_tier = np.broadcast_to(np.int64(kid), child_index.shape)
    return Chunk(indices, outcome.astype(np.int8, copy=False), open_rows, parents, child_tier,
                 child_index, None, kid)  # fmt: skip


def _ranked_children(
    graph: TierGraph, terminals: Terminals, tier: int, codes: Codes
) -> tuple[I64, I64, I8 | None] | None:
    """The game's batch_ranked_children of open codes, checked: (parents, indices, the
    children's ends or None where it gives none); None when it declines or a child is
    unranked (-1): the caller then expands and ranks, and explains any fault."""
    hooks, name = graph.hooks, graph.rules.name
    assert hooks.batch_ranked_children is not None
    ranked = hooks.batch_ranked_children(tier, codes)
    if ranked is None:
        return None
    if len(ranked) not in (2, 3):
        raise GameError(
            f"{name}.batch_ranked_children(tier {tier}, ...) gave {len(ranked)} arrays; "
            "expected (parents, indices) or (parents, indices, ends)"
        )
    parents, child_index = (np.asarray(a, dtype=np.int64) for a in ranked[:2])
    given = np.asarray(ranked[2], dtype=np.int64) if len(ranked) == 3 else None
    if (
        parents.shape != child_index.shape
        or parents.ndim != 1
        or (given is not None and given.shape != parents.shape)
    ):
        shapes = f"{parents.shape}, {child_index.shape}" + (
            f" and {given.shape}" if given is not None else ""
        )
        raise GameError(
            f"{name}.batch_ranked_children(tier {tier}, ...) gave parents, indices (and "
            f"ends) of different shapes: {shapes}"
        )
    if child_index.size and child_index.min() < 0:
        return None
    if given is None or not given.size:
        return parents, child_index, None if given is None else given.astype(np.int8)
    low, high = int(given.min()), int(given.max())
    if low < 0 or high > int(Value.TIE):
        bad = int(given[(given < 0) | (given > int(Value.TIE))][0])
        raise GameError(
            f"{name}.batch_ranked_children(tier {tier}, ...) gave end {bad} for a child; "
            "expected 0 (goes on), 1 WIN, 2 LOSS or 3 TIE"
        )
    if high > 0:
        terminals.met_outcome(high, f"a child in tier {tier}", "batch_ranked_children")
    return parents, child_index, given.astype(np.int8)


def _unranked_child(
    graph: TierGraph, tier: int, codes: Codes, parents: I64, children: Codes, child_index: I64
) -> None:
    """The error for a move whose child its tier's ranking does not know: a move into an
    undeclared tier when batch_tier says so, else a ranking that misses a position."""
    rules, hooks = graph.rules, graph.hooks
    bad = int(np.flatnonzero(child_index < 0)[0])
    if hooks.batch_tier is not None:
        kid = int(hooks.batch_tier(children[bad : bad + 1])[0])
        if kid not in graph.targets(tier):
            rows = np.full(children.shape[0], kid, dtype=np.int64)
            _stray_move(graph, tier, codes, parents[bad : bad + 1], rows[:1], kid)
    code = int(codes[int(parents[bad])])
    state = code if rules.from_code is None else rules.from_code(code)
    child = int(children[bad])
    raise GameError(
        f"{rules.name}: a move from {describe(state)} in tier {tier} leads to code {child}, "
        f"which batch_rank of tier(s) {list(graph.targets(tier))} does not index (gave -1)"
    )


def _stray_move(
    graph: TierGraph, tier: int, codes: Codes, parents: I64, child_tier: I64, kid: int
) -> None:
    """The error for a move into a tier that is not a declared child."""
    rules = graph.rules
    row = int(parents[np.flatnonzero(child_tier == kid)[0]])
    code = int(codes[row])
    state = code if rules.from_code is None else rules.from_code(code)
    if kid == tier:
        raise GameError(
            f"{rules.name}: a move from {describe(state)} stays in tier {tier}; a tier with "
            f"moves inside it must list itself among child_tiers({tier})"
        )
    raise GameError(
        f"{rules.name}: a move from {describe(state)} in tier {tier} leads into tier {kid}, "
        f"which child_tiers({tier}) does not list ({list(graph.targets(tier))})"
    )


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
        first = first_records(chunk.outcome, chunk.open_rows, chunk.parents, chunk.child_end,
                              files.record.shift, graph.rules.name)  # fmt: skip
        return chunk, first

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


SWEEP = 1 << 18
"""Indices of a tier per call of batch_mark_tier / batch_solve_tier (a task of a thread)."""


def sweep_windows(size: int) -> list[tuple[int, int]]:
    """The (start, stop) windows of a tier of ``size`` indices, one per sweep call."""
    return [(start, min(start + SWEEP, size)) for start in range(0, size, SWEEP)]


def sweep_child(graph: TierGraph, tier: int, kids: dict[int, Any], dtype: Any) -> Any | None:
    """The one child tier's records as an array for a sweep (empty without a child), or
    None when the tier has moves inside it or into several tiers: no sweep then."""
    if tier in graph.loopy or len(kids) > 1:
        return None
    if not kids:
        return np.zeros(0, dtype=dtype)
    return np.asarray(next(iter(kids.values())))


def solves_by_sweep(graph: TierGraph, files: TierFiles, tier: int) -> bool:
    """Whether a tier is solved by the game's batch_solve_tier: after batch_mark_tier
    recorded its ends, or in a game ranked by the engine, whose sweep judges the ends
    itself (every index is reached; there is no marking pass)."""
    return graph.hooks.batch_solve_tier is not None and (
        files.ends_recorded(tier) or graph.hooks.ranked_by_engine
    )


def sweep_taking(
    graph: TierGraph, files: TierFiles, tier: int, kids: dict[int, Any], hook_name: str
) -> tuple[Callable[..., int | None], Any] | None:
    """The game's sweep ``hook_name`` (batch_mark_tier or batch_solve_tier) and the child
    records it reads, where it takes the tier: asked with an empty window first. None where
    the game has no such sweep, the tier's moves stay in it or lead into several tiers, or
    the game declines."""
    hook: Callable[..., int | None] | None = getattr(graph.hooks, hook_name)  # named as the hooks
    child = sweep_child(graph, tier, kids, files.record.dtype)
    if hook is None or child is None:
        return None
    empty = np.zeros(0, dtype=files.record.dtype)
    if hook(tier, 0, empty, child, sweep_codes(files.record)) is None:
        return None
    return hook, child


def sweep_tier(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    hook_name: str,
    after: Callable[[int], None],
) -> bool:
    """Run the game's sweep ``hook_name`` (batch_mark_tier or batch_solve_tier) over every
    window of a tier, a window per task on every core (windows write their own records;
    marking writes the same value, reached, into the child tier, where they may overlap),
    and ``after(result)`` in this thread, in order. False when the game declines: it is
    asked with an empty window first (``sweep_taking``)."""
    taking = sweep_taking(graph, files, tier, kids, hook_name)
    if taking is None:
        return False
    hook, child = taking
    codes = sweep_codes(files.record)
    flat = np.asarray(records)

    def visit(window: tuple[int, int]) -> int | None:
        start, stop = window
        return hook(tier, start, flat[start:stop], child, codes)

    windows = sweep_windows(flat.shape[0])
    finished = iter(windows)
    # The tier was the child of the tier before (marked all over): its pages come back
    # window by window instead of all staying while the next tier fills.
    let_go(records, 0, flat.shape[0])

    def apply(result: int | None) -> None:
        if result is None:
            raise GameError(f"{graph.rules.name}.{hook_name} declined part of tier {tier}")
        let_go(records, *next(finished))  # results come in order: that window is done
        after(int(result))

    in_parallel(windows, visit, apply)
    return True


def mark_by_sweeps(
    graph: TierGraph,
    files: TierFiles,
    tier: int,
    records: Any,
    kids: dict[int, Any],
    progress: ProgressCallback | None,
    done: int,
    memory: MemoryWatch | None,
) -> int | None:
    """Mark a tier's children by the game's batch_mark_tier (``sweep_tier``); returns
    ``done`` plus the positions visited, or None when the game declines."""
    counted = [done]

    def count(visited: int) -> None:
        counted[0] += visited
        if memory is not None:
            memory.check(f"marking the reachable positions of {graph.rules.name}", counted[0],
                          SAVE_ADVICE)  # fmt: skip
        if progress is not None:
            progress(counted[0], counted[0], level=tier)

    if not sweep_tier(graph, files, tier, records, kids, "batch_mark_tier", count):
        return None
    return counted[0]


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
    a database, not what play reaches), chunk by chunk on every core; holes stay unmarked."""
    done = 0
    for tier in graph.order:
        if files.is_expanded(tier):
            continue
        size = graph.sizes[tier]
        records = files.partial(tier, size)
        done = _mark_every_index(graph, files, tier, records, progress, done)
        _flush(records)
        del records
        files.mark_expanded(tier)


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


def reach(
    graph: TierGraph,
    files: TierFiles,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> None:
    """Mark every position play reaches from the initial state, tier by tier, root first."""
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
        if hooks.every_position:
            mark_every_position(graph, files, progress)
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
