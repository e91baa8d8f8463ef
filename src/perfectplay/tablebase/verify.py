"""Verifying a tablebase: every checksum, every tier's counts, and a sample of positions
derived again from their children.

A sampled position's record must be what its moves give: its end if it has one, a loss in
0 if it has no move (a score of -inf in a scored game), otherwise the best of its
children's records (the winner hurries, the loser stalls, a tie comes as soon as possible;
in a scored game, the best score, then the fewest plies). The children are read from the
tablebase itself, so a record that disagrees with its neighbours is found wherever it
lies. In an opening book, only the positions whose children it holds are derived again.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from ..core.records import RecordFormat, TierSummary
from ..errors import describe
from ..values import LOSS, Value
from .header import TablebaseError
from .reader import Tablebase

PIECE = 1 << 22


def verify(base: Tablebase[Any, Any], *, samples: int = 1000, seed: int = 0) -> list[str]:
    """Problems found in a tablebase (empty when it is sound)."""
    problems = []
    header = base.header
    extras: list[tuple[dict[str, Any] | None, str]] = [
        (header.keys, "<i8"), (header.grundy, "<i4"), (header.scores, "<f8")]  # fmt: skip
    extras += [(e.scores, e.scores["dtype"]) for e in header.tiers.values() if e.scores]
    for extra, dtype in extras:
        if extra is not None and "file" in extra:
            try:
                base.mapped(extra["file"], extra["sha256"], dtype)  # checksum first
            except TablebaseError as exc:
                problems.append(str(exc))
    for entry in base.header.tiers.values():
        try:
            problems += _count_problems(base, entry)
        except TablebaseError as exc:
            problems.append(str(exc))
    if problems:
        return problems
    rng = random.Random(seed)
    for state in _sample(base, samples, rng):
        if base.header.book is not None and not _children_held(base, state):
            continue  # a book's last plies: their children lie beyond it
        problem = _derive(base, state)
        if problem is not None:
            problems.append(problem)
    return problems


def _count_problems(base: Tablebase[Any, Any], entry: Any) -> list[str]:
    """Whether a tier's records hold the counts its header promises (read a piece at a
    time: a tier may be larger than memory)."""
    record: RecordFormat = base.record
    records = base.tier_records(entry.tier)
    summary = TierSummary()
    for start in range(0, entry.size, PIECE):
        block = np.asarray(records[start : min(start + PIECE, entry.size)])
        values = record.value_codes(block)
        present = values != 0
        summary.add(values[present], record.remoteness(block[present]))
    found = summary.as_json()
    if found["values"] != entry.values or found["remoteness"] != entry.remoteness:
        return [f"tier {entry.tier}: the counts of its records differ from the header's"]
    return []


def _sample(base: Tablebase[Any, Any], samples: int, rng: random.Random) -> list[Any]:
    """States behind random non-empty records, drawn across tiers by size."""
    tiers = [e for e in base.header.tiers.values() if e.positions > 0]
    rules = base.rules
    chosen = []
    for _ in range(samples):
        entry = rng.choices(tiers, weights=[e.positions for e in tiers])[0]
        records = base.tier_records(entry.tier)
        for _attempt in range(64):
            index = rng.randrange(entry.size)
            if int(records[index]) >> base.record.shift != 0:
                break
        else:
            continue
        code = _code(base, entry.tier, index)
        chosen.append(code if rules.from_code is None else rules.from_code(code))
    return chosen


def _code(base: Tablebase[Any, Any], tier: int, index: int) -> int:
    if base.header.layout == "graph":
        assert base.header.keys is not None
        keys = base.mapped(base.header.keys["file"], base.header.keys["sha256"], "<i8")
        return int(keys[index])
    assert base.rules.tiers is not None
    return int(base.rules.tiers.batch_unrank(tier, np.array([index], dtype=np.int64))[0])


def _children_held(base: Tablebase[Any, Any], state: Any) -> bool:
    """Whether the tablebase holds every child of ``state`` (an ended one has none)."""
    rules = base.rules
    return all(base.lookup(rules.play(state, m)) is not None for m in rules.legal_moves(state))


def _derive(base: Tablebase[Any, Any], state: Any) -> str | None:
    """The problem with one position's record, judged from its moves, or None."""
    stored = base.lookup(state)
    rules = base.rules
    end = rules.outcome(state)
    if end is not None:
        expected: tuple[Any, Any] = (end, 0)
    else:
        ranked = base.move_values(state)
        no_move = (-math.inf, 0) if base.scored else (LOSS, 0)  # (normal play)
        expected = no_move if not ranked else (ranked[0].value, ranked[0].remoteness)
        if expected[0] is Value.DRAW:
            expected = (Value.DRAW, None)
    if stored != expected:
        return f"position {describe(state)}: the tablebase says {stored}, its moves give {expected}"
    return None
