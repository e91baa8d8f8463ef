"""Loopy tiers from their moves laid out whole: retrograde analysis by levels, compiled.

Precondition: a loopy tier of a game whose ranking the engine made (every index a position
play reaches) and that lays out the tier's moves (``tier_moves(tier, take_out)``: returns the
moves inside the tier backward, as a compressed list, and hands the moves out of it to
``take_out`` as (rows, child codes, move slots, same mover) a part of the tier at a time, as
they are made, in parts of at most max(PART_AT_LEAST, n / PARTS) positions that share no
row (take_out may be called from several threads at once), each folded at once and let
go); a move that keeps the player to move (an extra turn) is marked: its
parent as ~index inside the tier, a flag beside it outside. Its other child tiers solved.
Contract: the values and remoteness of retrograde analysis on the explored graph, as
``retrograde_by_unmoves`` gives them (the winner hurries, the loser stalls, a tie comes soonest,
what never ends is a DRAW), in one compiled loop instead of one numpy step per level.

Cost: the game's moves played once (windows of the tier on every core), O(moves) after.
Memory: 4 bytes a move inside the tier, about 33 an index (plus the tier's codes): the
fastest win, tie and slowest loss out of the tier and the remoteness as int16, offsets as
int32 where the moves inside number under 2**31; the moves out (16 bytes each) only of the
parts being laid out and folded (Quixo 4x4's largest tier: 5.7 million moves out, 86 MB when
they were all held until the fold).

The analysis, levels r = 0, 1, 2, ... (remoteness):
1. wins and losses: a position is decided at level r when it wins in r by a move out of the
   tier (the fastest), or a move inside reaches a position lost at r - 1 for the player it
   passes the turn to, or won at r - 1 where the move gives another turn (a win in r), or
   its last move inside that was not known to lose is found to lose at r - 1 and it has no
   move to a tie or a draw: then it loses at the later of r and its slowest move out;
2. ties, the same way from tied ends and moves out of the tier to ties, through what is
   still open;
3. what stays open never ends: DRAW.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.compiled import inlined_kernel, kernel
from ..core.parallel import THREADS
from ..core.records import TierSummary
from ..errors import GameError
from ..terminals import Terminals
from .files import TierFiles
from .graph import PART_AT_LEAST, PARTS, TierGraph, expand_chunk

_WIN, _LOSS, _TIE, _DRAW = 1, 2, 3, 4
NEVER = np.iinfo(np.int16).max
"""No such move out (a remoteness never reaches it: records hold at most 8191 plies)."""
FOLD = 1 << 18
"""Moves out of the tier folded at once (about 40 bytes each while folded)."""


BYTES_AN_INDEX = 33
BYTES_A_MOVE_INSIDE = 4
BYTES_A_MOVE_OUT = 16
SAMPLE = 4_096
"""Positions expanded to estimate a tier's moves before laying them out."""


def fits(graph: TierGraph, tier: int) -> bool:
    """Whether this solver takes the tier (see the precondition)."""
    engine = graph.hooks.engine
    return tier in graph.loopy and engine is not None and engine.lays_out_moves


def fits_in(graph: TierGraph, tier: int, room: int) -> bool:
    """Whether laying out ``tier``'s moves takes at most ``room`` bytes: at once where even
    ``max_moves`` moves out of each position would fit (the game's bound, when it gives
    one), else by ``estimated_bytes``."""
    engine = graph.hooks.engine
    most = None if engine is None else engine.max_moves
    n = graph.sizes[tier]
    if most is not None and n * (BYTES_AN_INDEX + BYTES_A_MOVE_OUT * most) <= room:
        return True
    return estimated_bytes(graph, tier) <= room


def estimated_bytes(graph: TierGraph, tier: int) -> int:
    """About the memory this solver takes for ``tier`` (see the module docstring), from the
    moves of up to SAMPLE positions spread over the tier, unranked and expanded."""
    n = graph.sizes[tier]
    if n == 0:
        return 0
    indices = np.unique(np.linspace(0, n - 1, num=min(n, SAMPLE)).astype(np.int64))
    chunk = expand_chunk(graph, Terminals(graph.rules.name), tier, indices)
    inside = int((np.asarray(chunk.child_tier) == tier).sum())
    out = int(chunk.child_tier.shape[0]) - inside
    return layout_bytes(n, n * inside / len(indices), n * out / len(indices))


def layout_bytes(n: int, inside: float, out: float) -> int:
    """The memory of a tier of ``n`` positions whose moves inside and out number as given:
    every index and move inside, and the moves out of the parts on every core at once (one
    more part is laid out while the others fold)."""
    held = min(1.0, (THREADS + 1) * max(PART_AT_LEAST, n / PARTS) / max(1, n))
    return int(BYTES_AN_INDEX * n + BYTES_A_MOVE_INSIDE * inside + BYTES_A_MOVE_OUT * out * held)


def solve_loopy_by_edges(
    graph: TierGraph, files: TierFiles, terminals: Terminals, tier: int, records: Any
) -> TierSummary:
    """Solve every position of a loopy tier into ``records`` (see the module docstring)."""
    hooks, name = graph.hooks, graph.rules.name
    assert hooks.engine is not None and hooks.engine.lays_out_moves
    n = int(records.shape[0])
    folds = list(_no_moves_out(n))  # (a list: emptied below, to let the arrays go)
    win_out, tie_out, loss_out, draw_out = folds

    def take_out(moves: tuple[Any, ...]) -> None:
        """A part's moves out, folded at once (in the game's worker: parts share no row)."""
        rows = moves[0]
        if rows.shape[0] and not 0 <= int(rows.min()) <= int(rows.max()) < n:
            raise GameError(f"{name}: a move out of tier {tier} from a row outside it")
        for start in range(0, rows.shape[0], FOLD):
            piece = tuple(column[start : start + FOLD] for column in moves)
            _fold_outside(graph, files, tier, piece, *folds)

    outcome, offsets, parents, pending = hooks.engine.tier_moves(tier, take_out)
    if int(outcome.shape[0]) != n:
        raise GameError(
            f"{name}: the moves of tier {tier} cover {outcome.shape[0]:,} of its {n:,} positions"
        )
    if n and int(outcome.max()) > _TIE:
        raise GameError(f"{name}: an outcome code {int(outcome.max())} in tier {tier}")
    record = files.record
    value, remoteness = analyse(outcome, offsets, parents, pending, win_out, tie_out,
                                loss_out, draw_out, record.max_remoteness)  # fmt: skip
    del outcome, offsets, parents, pending, win_out, tie_out, loss_out, draw_out
    folds.clear()
    if n and int(remoteness.max()) > record.max_remoteness:
        raise GameError(f"tier {tier}: remoteness beyond {record.max_remoteness} plies")
    out = np.asarray(records)
    write_records(value, remoteness, record.shift, out)  # in place: no temporary arrays
    summary = TierSummary()
    summary.add_records(out, record)
    return summary


def _no_moves_out(n: int) -> tuple[Any, Any, Any, Any]:
    """(win_out, tie_out, loss_out, draw_out) of ``n`` positions before any move out is
    folded in: per index of the tier, the fastest win, the fastest tie and the slowest loss
    its moves out of the tier give, and whether one gives a draw (NEVER, NEVER, -1, False
    where none does)."""
    return (
        np.full(n, NEVER, dtype=np.int16),
        np.full(n, NEVER, dtype=np.int16),
        np.full(n, -1, dtype=np.int16),
        np.zeros(n, dtype=np.bool_),
    )


def _fold_outside(
    graph: TierGraph, files: TierFiles, tier: int, piece: tuple[Any, ...], win_out: Any,
    tie_out: Any, loss_out: Any, draw_out: Any,
) -> None:  # fmt: skip
    """What each position's moves out of the tier give, from the child tiers' records;
    ``piece`` holds (rows, child codes, move slots, same mover) of some of the tier's moves
    out (same mover: 1 where the move gives another turn; empty in games without them)."""
    hooks, name = graph.hooks, graph.rules.name
    rows, children, slots, same = piece
    assert hooks.batch_tier is not None
    kid_tiers = np.asarray(hooks.batch_tier(children), dtype=np.int64)
    low = int(kid_tiers.min()) if kid_tiers.size else 0
    present = np.flatnonzero(np.bincount(kid_tiers - low)) + low  # (numpy's unique hashes)
    for kid in present.tolist():
        if kid not in graph.children[tier]:
            raise GameError(
                f"{name}: a move from tier {tier} leads into tier {kid}, which "
                f"child_tiers({tier}) does not list"
            )
        where = np.flatnonzero(kid_tiers == kid)
        if hooks.engine is not None:  # children by one move come in order: look near
            index = np.asarray(hooks.engine.rank_near(kid, children[where], slots[where]), np.int64)
        else:
            index = np.asarray(hooks.batch_rank(kid, children[where]), dtype=np.int64)
        if index.size and index.min() < 0:
            bad = int(children[where[int(np.argmin(index))]])
            raise GameError(
                f"{name}: a move from tier {tier} leads to code {bad}, not in tier {kid}"
            )
        child_records = files.final(kid)[index]
        fold(rows[where], child_records, same[where] if same.shape[0] else same,
             files.record.shift, files.record.max_remoteness, win_out, tie_out, loss_out,
             draw_out)  # fmt: skip


@kernel
def fold(
    rows: Any, child_records: Any, same: Any, shift: int, mask: int, win_out: Any,
    tie_out: Any, loss_out: Any, draw_out: Any,
) -> None:  # fmt: skip
    """Per row, the fastest win, the fastest tie, the slowest loss and any draw that its
    moves out of the tier reach (child records final, for the child's mover: the row's own
    opponent, or the row's mover itself where ``same`` marks an extra turn)."""
    turns = same.shape[0] > 0
    for e in range(rows.shape[0]):
        i = rows[e]
        code = child_records[e] >> shift
        plies = (child_records[e] & mask) + 1
        if turns and same[e] and code in (_WIN, _LOSS):
            code = _WIN + _LOSS - code  # the child's mover is the row's: seen as the other
        if code == _LOSS:
            if plies < win_out[i]:
                win_out[i] = plies
        elif code == _TIE:
            if plies < tie_out[i]:
                tie_out[i] = plies
        elif code == _WIN:
            if plies > loss_out[i]:
                loss_out[i] = plies
        elif code == _DRAW:
            draw_out[i] = True
        else:
            loss_out[i] = -2  # an unsolved child: reported by analyse


@inlined_kernel
def _schedule(head: Any, link: Any, i: int, level: int) -> None:
    """Position i to be decided at ``level`` (a list per level, linked through ``link``)."""
    link[i] = head[level]
    head[level] = i


@inlined_kernel
def _take(
    head: Any, link: Any, kind: Any, value: Any, remoteness: Any, frontier: Any, size: int,
    level: int,
) -> Any:  # fmt: skip
    """Decide the positions scheduled at ``level`` that are still open, as ``kind`` says,
    onto the frontier; (the frontier's new size, how many were scheduled there)."""
    taken = 0
    i = head[level]
    while i >= 0:
        taken += 1
        if value[i] == 0:
            value[i] = kind[i]
            remoteness[i] = level
            frontier[size] = i
            size += 1
        i = link[i]
    head[level] = -1
    return size, taken


@kernel
def write_records(value: Any, remoteness: Any, shift: int, out: Any) -> None:
    """out[i]: the record of value[i] in remoteness[i] plies (a DRAW's remoteness is 0)."""
    for i in range(value.shape[0]):
        v = int(value[i])  # (an int8 shifted interpreted would lose the value's bits)
        plies = 0 if v == _DRAW else int(remoteness[i])
        out[i] = (v << shift) | plies


@kernel
def analyse(
    outcome: Any, offsets: Any, parents: Any, pending: Any, win_out: Any, tie_out: Any,
    loss_out: Any, draw_out: Any, top: int,
) -> Any:  # fmt: skip
    """(value, remoteness) of every index (see the module docstring); remoteness top + 1
    where it would pass ``top``."""
    n = outcome.shape[0]
    value = np.zeros(n, dtype=np.int8)
    remoteness = np.zeros(n, dtype=np.int16)
    levels = top + 2
    head = np.full(levels + 1, -1, dtype=np.int64)  # per level: positions decided then
    link = np.full(n, -1, dtype=np.int32)  # (parents are int32 indices already)
    kind = np.zeros(n, dtype=np.int8)  # what a scheduled position is decided as
    frontier = np.empty(n, dtype=np.int32)
    following = np.empty(n, dtype=np.int32)
    size = 0
    later = 0
    for i in range(n):
        o = outcome[i]
        if o in (_WIN, _LOSS):
            value[i] = o
            frontier[size] = i
            size += 1
        elif o == 0:
            if loss_out[i] == -2:
                return value, np.full(n, top + 1, dtype=np.int16)
            at = -1
            if win_out[i] < NEVER:
                at = min(win_out[i], levels)
                kind[i] = _WIN
            elif pending[i] == 0 and tie_out[i] == NEVER and not draw_out[i]:
                at = min(max(loss_out[i], 0), levels)
                kind[i] = _LOSS
            if at == 0:
                value[i] = kind[i]
                frontier[size] = i
                size += 1
            elif at > 0:
                _schedule(head, link, i, at)
                later += 1
    level = 0
    while size > 0 or later > 0:
        # the frontier holds the positions decided at this level: their parents next
        grown = 0
        for f in range(size):
            c = frontier[f]
            v = value[c]
            for e in range(offsets[c], offsets[c + 1]):
                p = parents[e]
                lost = v == _LOSS  # for the player the move hands the turn to
                if p < 0:  # an extra turn: c's mover is p's own
                    p = ~p
                    lost = not lost
                if value[p] != 0:
                    continue
                if lost:
                    value[p] = _WIN
                    remoteness[p] = level + 1
                    following[grown] = p
                    grown += 1
                else:
                    pending[p] -= 1
                    if (
                        pending[p] == 0
                        and win_out[p] == NEVER
                        and tie_out[p] == NEVER
                        and (not draw_out[p])
                    ):
                        at = max(level + 1, loss_out[p])
                        if at == level + 1:
                            value[p] = _LOSS
                            remoteness[p] = at
                            following[grown] = p
                            grown += 1
                        else:
                            kind[p] = _LOSS
                            _schedule(head, link, p, min(at, levels))
                            later += 1
        level += 1
        frontier, following = following, frontier
        size = grown
        if level <= levels:
            size, taken = _take(head, link, kind, value, remoteness, frontier, size, level)
            later -= taken
    # ties: from tied ends and moves out to ties, through what is still open
    size = 0
    later = 0
    for i in range(n):
        if outcome[i] == _TIE:
            value[i] = _TIE
            frontier[size] = i
            size += 1
        elif value[i] == 0 and tie_out[i] < NEVER:
            kind[i] = _TIE
            _schedule(head, link, i, min(tie_out[i], levels))
            later += 1
    level = 0
    while size > 0 or later > 0:
        grown = 0
        for f in range(size):
            c = frontier[f]
            for e in range(offsets[c], offsets[c + 1]):
                p = parents[e]
                if p < 0:
                    p = ~p
                if value[p] == 0:
                    value[p] = _TIE
                    remoteness[p] = level + 1
                    following[grown] = p
                    grown += 1
        level += 1
        frontier, following = following, frontier
        size = grown
        if level <= levels:
            size, taken = _take(head, link, kind, value, remoteness, frontier, size, level)
            later -= taken
    for i in range(n):
        if value[i] == 0:
            value[i] = _DRAW
    return value, remoteness
