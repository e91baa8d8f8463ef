"""Ranked tiers: a game's positions indexed densely, tier by tier, by the game's own ranking.

No hash table and no edge arrays: a position is (tier, index), its record lives at that
index of the tier's file (``files``), and its moves are found again whenever they are
needed, a chunk of positions at a time, by unranking, expanding and ranking the children.
``TierGraph`` orders the tiers (parents first; an error for a cycle); ``expand_chunk``
gives a chunk of a tier's positions with their children ranked, for the marking of what
play reaches (``marking``) and the solvers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.arrays import I8, I64, B
from ..errors import GameError, describe
from ..protocol import Codes, TierRules
from ..rules import Rules
from ..spaces.batch import expand_checked
from ..terminals import Terminals
from ..values import UNDECIDED, Value

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
    codes: I64 | None = None
    """The positions' codes, where the chunk was expanded from them."""
    inside: I64 | None = None
    """Per open position, its moves that stay in the tier, counted and not listed (then
    the moves listed are those leaving it: ``moves_out_chunk``)."""


def expand_chunk(
    graph: TierGraph,
    terminals: Terminals,
    tier: int,
    indices: I64,
    with_ends: bool = False,
    unranked_in: int | None = None,
    codes: I64 | None = None,
) -> Chunk:
    """Unrank a chunk, read its ends, expand the rest and rank every child in its tier;
    ``with_ends``: the children's ends too, where the game gives them or their codes are
    made (not from batch_expand_tier, or batch_ranked_children without them).
    ``unranked_in``: a tier whose children are left unranked (index -1; found by
    batch_tier), for a solve that only counts them. ``codes``: the indices' codes, where
    the caller unranked them."""
    rules, hooks = graph.rules, graph.hooks
    assert rules.batch is not None
    kids = graph.targets(tier)
    if graph.scored:  # (the one-tier hooks answer in outcomes)
        return _scored_chunk(graph, terminals, tier, indices)
    ranks_all = unranked_in is None
    if ranks_all and len(kids) == 1 and kids[0] != tier and hooks.batch_expand_tier is not None:
        expanded = _expanded_indices(graph, terminals, tier, indices)
        if expanded is not None:
            return expanded
    codes = _unranked(graph, tier, indices) if codes is None else codes
    outcome, open_rows = _ends(graph, terminals, codes)
    if (
        ranks_all
        and len(kids) == 1
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
    return _ranked_chunk(graph, tier, indices, codes, outcome, open_rows, ends_of, unranked_in)


def ranked_parents(
    graph: TierGraph, tier: int, codes: I64, keep_unindexed: bool = False
) -> tuple[I64, I64]:
    """The un-moves of ``codes`` (positions of ``tier``) into the tier itself: each
    parent's index and the row of the code it comes from. Parents of other tiers are
    dropped (by ``batch_tier``, unless the game's ``parents_in_tier`` says its un-moves
    hold none), and those the tier has no index for (play never makes them), or, with
    ``keep_unindexed``, left in as -1 for the caller to skip. Nine Men's Morris's sector
    7-4: the two filters took a tenth of the levels' work, with nothing to drop
    (2026-12-01)."""
    hooks = graph.hooks
    assert hooks.batch_parents is not None
    back = hooks.batch_parents(tier, codes)
    before = np.asarray(back.children, np.int64)  # the positions one move before
    rows = np.asarray(back.parents, np.int64)
    if hooks.batch_tier is not None and not hooks.parents_in_tier:
        here = np.asarray(hooks.batch_tier(before), np.int64) == tier
        before, rows = before[here], rows[here]
    ranked = np.asarray(hooks.batch_rank(tier, before), np.int64)
    if not keep_unindexed and ranked.size and ranked.min() < 0:  # (one of no index)
        indexed = ranked >= 0
        ranked, rows = ranked[indexed], rows[indexed]
    return ranked, rows


def present_codes(graph: TierGraph, tier: int, indices: I64) -> tuple[I64, I64]:
    """Those of a tier's indices that unrank to a position, and their codes: the holes
    (indices of no position, in a database of every position) left out."""
    codes = np.asarray(graph.hooks.batch_unrank(tier, indices), dtype=np.int64)
    kept = np.flatnonzero(codes >= 0)
    return indices[kept], codes[kept]


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


def moves_out_chunk(
    graph: TierGraph, terminals: Terminals, tier: int, indices: I64, codes: I64 | None = None
) -> Chunk:
    """Unrank a chunk (but where its ``codes`` are given) and read its ends; of the rest,
    the moves staying in the tier only counted (``Chunk.inside``, by the game's
    batch_moves_out) and those leaving it ranked in their tiers (``parents``,
    ``child_tier``, ``child_index``)."""
    hooks = graph.hooks
    assert hooks.batch_moves_out is not None
    codes = _unranked(graph, tier, indices) if codes is None else codes
    outcome, open_rows = _ends(graph, terminals, codes)
    inside, rows, children = (
        np.asarray(a, dtype=np.int64) for a in hooks.batch_moves_out(tier, codes[open_rows])
    )
    child_tier, child_index, single = _ranked_by_tier(
        graph, tier, codes[open_rows], rows, children, None
    )
    return Chunk(indices, outcome, open_rows, rows, child_tier, child_index, None, single,
                 codes=codes, inside=inside)  # fmt: skip


def _ends(graph: TierGraph, terminals: Terminals, codes: I64) -> tuple[Any, I64]:
    """The codes' ends (0: goes on), checked, and the rows of those that go on."""
    rules = graph.rules
    assert rules.batch is not None
    outcome, scores = terminals.check_batch(codes, rules.batch.batch_outcome(codes))
    if scores is not None:
        raise GameError(
            f"{rules.name} ends in scores (its first playout did not): say so with scored = "
            "True to solve it tier by tier"
        )
    return outcome, np.flatnonzero(outcome == UNDECIDED)


def _ranked_chunk(graph: TierGraph, tier: int, indices: I64, codes: I64, outcome: Any,
                  open_rows: Any, ends_of: Terminals | None = None,
                  unranked_in: int | None = None) -> Chunk:  # fmt: skip
    """The chunk's open positions expanded by the batch protocol, every child ranked in
    its tier (found by batch_tier when the tier has several child tiers, or children of
    ``unranked_in`` are left unranked); with ``ends_of``, the children's ends read and
    checked by it (``Chunk.child_end``) where every move leads into one tier."""
    rules, hooks, kids = graph.rules, graph.hooks, graph.targets(tier)
    assert rules.batch is not None
    exp = expand_checked(rules, rules.batch, codes[open_rows])
    if len(kids) == 1 and unranked_in is None:
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
    child_tier, child_index, single = _ranked_by_tier(
        graph, tier, codes[open_rows], exp.parents, exp.children, unranked_in
    )
    return Chunk(indices, outcome, open_rows, exp.parents, child_tier, child_index,
                 exp.same_mover, single, rewards=exp.rewards, codes=codes)  # fmt: skip


def _ranked_by_tier(graph: TierGraph, tier: int, codes: Codes, parents: I64, children: Codes,
                    unranked_in: int | None) -> tuple[I64, I64, int | None]:  # fmt: skip
    """Each child's tier (by batch_tier) and index in it (-1 in ``unranked_in``), and the
    one tier they all lead into (None: several); a move into a tier that is no child of
    ``tier``, or to a child its tier does not rank, is the game's fault, said."""
    rules, hooks, kids = graph.rules, graph.hooks, graph.targets(tier)
    if hooks.batch_tier is not None:
        child_tier = np.asarray(hooks.batch_tier(children), dtype=np.int64)
    elif children.size == 0:
        child_tier = np.full(0, -1, dtype=np.int64)
    else:
        raise GameError(f"{rules.name}: tier {tier} has several child tiers but no batch_tier()")
    child_index = np.empty(children.shape[0], dtype=np.int64)
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
            _stray_move(graph, tier, codes, parents, child_tier, kid)
        if kid == unranked_in:
            child_index[slice(None) if where is None else where] = -1
        elif where is None:
            child_index[:] = hooks.batch_rank(kid, children)
        else:
            child_index[where] = hooks.batch_rank(kid, children[where])
    missing = child_index < 0
    if unranked_in is not None:
        missing &= child_tier != unranked_in
    if missing.any():
        shown = np.where(missing, -1, 0)
        _unranked_child(graph, tier, codes, parents, children, shown)
    single = next(iter(present)) if len(present) == 1 else None
    return child_tier, child_index, single


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
