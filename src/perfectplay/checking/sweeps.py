"""The self-test of a game's tier sweeps (batch_mark_tier, batch_solve_tier), for check_game.

Each sampled position is swept alone, as a window of one index: the marking sweep must
record the end batch_outcome gives it, or else mark exactly the children batch_expand and
batch_rank give it; the solving sweep, given random records for those children, must
record what retrograde analysis decides (written out here from the values, not from the
sweeps' tables). Child tiers too large to hold in memory as one array are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.records import RecordFormat, sweep_codes
from ..protocol import TierRules
from ..values import Value

LARGEST_CHILD_TIER = 1 << 22
"""Child tiers of more indices are not swept (the sweep wants the whole tier as an array)."""
RECORD = RecordFormat(1)

Problem = Callable[[str, str], None]
"""add(hook, message): how the checker reports a problem."""
Call = Callable[..., Any]
"""call(hook, function, *args): the function's result, or None when it raised (reported)."""


def check_sweeps(
    tiers: TierRules,
    batch: Any,
    listed: Callable[[int], list[int]],
    samples: dict[int, list[int]],
    add: Problem,
    call: Call,
    rng: random.Random,
) -> None:
    """Sweep every sampled code (``samples``: codes by tier) of each tier with at most one
    child tier, and report where the sweeps disagree with batch_outcome and batch_expand."""
    codes_table = sweep_codes(RECORD)
    for tier, codes in sorted(samples.items()):
        kids = listed(tier)
        if len(kids) > 1 or tier in kids:
            continue
        size = int(tiers.tier_size(kids[0])) if kids else 0
        if size > LARGEST_CHILD_TIER:
            continue
        child = np.zeros(size, dtype=RECORD.dtype)
        for code in codes[:20]:
            _sweep_one(tiers, batch, tier, kids, code, child, codes_table, add, call, rng)


def _sweep_one(
    tiers: TierRules,
    batch: Any,
    tier: int,
    kids: list[int],
    code: int,
    child: Any,
    codes: Any,
    add: Problem,
    call: Call,
    rng: random.Random,
) -> None:
    """Both sweeps on one position (child: the child tier's records, all 0, left so);
    none where the ranking does not give the code back (the rank checks tell that)."""
    array = np.array([code], dtype=np.int64)
    index = int(np.asarray(tiers.batch_rank(tier, array))[0])
    if not 0 <= index < int(tiers.tier_size(tier)):
        return
    if int(np.asarray(tiers.batch_unrank(tier, np.array([index], dtype=np.int64)))[0]) != code:
        return
    end = int(np.asarray(batch.batch_outcome(array))[0])
    window = np.array([codes.reached], dtype=RECORD.dtype)
    assert tiers.batch_mark_tier is not None
    if call("batch_mark_tier", tiers.batch_mark_tier, tier, index, window, child, codes) is None:
        return
    marked = np.flatnonzero(child)
    child[marked] = 0
    where = f"tier {tier}, code {code} (index {index})"
    if end:
        if int(window[0]) != int(codes.ended[end]) or marked.size:
            add("batch_mark_tier", f"{where}: ended ({end}) but recorded {int(window[0])} "
                f"and marked {marked.size} children")  # fmt: skip
        return
    moves = batch.batch_expand(array)
    want = (
        sorted(set(np.asarray(tiers.batch_rank(kids[0], moves.children)).tolist())) if kids else []
    )
    if int(window[0]) != codes.reached or marked.tolist() != want:
        add("batch_mark_tier", f"{where}: marked children {marked.tolist()}, batch_expand "
            f"and batch_rank give {want}")  # fmt: skip
        return
    if tiers.batch_solve_tier is None or not want:
        return
    values = [rng.choice((Value.WIN, Value.LOSS, Value.TIE)) for _ in want]
    plies = [rng.randrange(0, 6) for _ in want]
    for i, value, depth in zip(want, values, plies, strict=True):
        child[i] = (int(value) << RECORD.shift) | depth
    found = call("batch_solve_tier", tiers.batch_solve_tier, tier, index, window, child, codes)
    child[want] = 0
    expected = _retrograde(values, plies)
    if found is not None and int(window[0]) != expected:
        add("batch_solve_tier", f"{where}: recorded {int(window[0])} from children "
            f"{list(zip(want, values, plies, strict=True))}, expected {expected}")  # fmt: skip


def _retrograde(values: list[Value], plies: list[int]) -> int:
    """The record retrograde analysis gives a position whose moves lead to children of
    these values (for their own mover) and remoteness: the fastest win, else the fastest
    tie, else the slowest loss."""
    wins = [p + 1 for v, p in zip(values, plies, strict=True) if v == Value.LOSS]
    ties = [p + 1 for v, p in zip(values, plies, strict=True) if v == Value.TIE]
    if wins:
        return (int(Value.WIN) << RECORD.shift) | min(wins)
    if ties:
        return (int(Value.TIE) << RECORD.shift) | min(ties)
    return (int(Value.LOSS) << RECORD.shift) | (max(plies) + 1)
