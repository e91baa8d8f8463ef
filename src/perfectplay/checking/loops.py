"""The engine's tier loops over a compiled game, checked against its ``expand`` loop.

A tier solve of a compiled game does not go through ``expand`` alone: the discovery marks
positions by ``expand_tiers``, a loopy tier is laid out by ``tier_moves`` (which also marks
the moves that keep the player to move), a tier into one other tier is expanded by
``expand_ranked``, and un-moves may be derived by ``reverse_edges``. Each repeats the
rules' calls in its own way, so each can disagree with ``expand`` (which the self-test
compares with the plain rules): a key that hands the turn to the other player once made
``tier_moves`` mark ordinary moves as extra turns. Here each loop runs on a small code set
built from sampled positions and their children, and must give what ``expand`` gives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..compiled_games.code_sets import CodeSet

Report = Callable[[str], None]
"""Takes one problem, a sentence naming the loop, the tier and the position."""
Codes = npt.NDArray[np.int64]


PER_TIER = 4
"""Sampled codes checked in each tier: the loops run interpreted over them and the codes
of their tier they lead to, so this bounds the check's time (Teeko's took 9 s with every
sampled code, Quixo's 6 s with 16 a tier; now 0.6 s and 1.0 s before every solve)."""
AT_MOST = 24
"""Sampled codes checked in all, over the tiers in order."""


def check_tier_loops(loops: Any, codes: Codes, report: Report, *, scored: bool) -> None:
    """Check every tier loop on ``codes`` (keyed codes that play reaches), tier by tier, a
    few codes of each (PER_TIER, AT_MOST in all)."""
    codes = np.unique(np.asarray(codes, dtype=np.int64))
    tiers = np.empty_like(codes)
    loops.tiers(codes, tiers)
    left = AT_MOST
    for tier in np.unique(tiers).tolist():
        here = codes[tiers == tier][: min(PER_TIER, left)]
        if not here.shape[0]:
            break
        left -= here.shape[0]
        _check_tier(loops, int(tier), here, report, scored)


def _moves_by_row(loops: Any, codes: Codes) -> tuple[Any, ...]:
    """``expand`` of codes that go on: (parents, children, same mover as 0/1)."""
    parents, children, same, _, bad = loops.expand(codes, True)
    if bad >= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint8)
    turns = np.asarray(same, dtype=np.uint8) if same.shape[0] else np.zeros_like(children)
    return np.asarray(parents), np.asarray(children), turns.astype(np.uint8)


def _check_tier(loops: Any, tier: int, here: Codes, report: Report, scored: bool) -> None:
    moves = _moves_by_row(loops, here)
    parents, children, _ = moves
    kid_tiers = np.empty_like(children)
    loops.tiers(children, kid_tiers)
    _check_marking(loops, tier, here, parents, children, kid_tiers, report, scored)
    if scored:
        return  # the loops below serve WIN/LOSS/TIE games only
    inside = CodeSet.of(np.union1d(here, children[kid_tiers == tier]))
    _check_layout(loops, tier, here, moves, inside, report)
    _check_reversed(loops, tier, inside, report)
    others = np.unique(kid_tiers[kid_tiers != tier])
    if others.shape[0]:
        kid = int(others[0])
        _check_ranked(loops, tier, here, parents, children, kid_tiers, kid, report)


def _check_marking(
    loops: Any,
    tier: int,
    here: Codes,
    parents: Any,
    children: Any,
    kid_tiers: Any,
    report: Report,
    scored: bool,
) -> None:
    """expand_tiers (the discovery's marking): the same children in the same order, their
    tiers, and which positions have ended."""
    ended = np.zeros(here.shape[0], dtype=np.uint8)
    found, found_tiers, _, _, problem, _, _ = loops.expand_tiers(here, tier, ended)
    if problem:
        return  # a move lowering the tier: the self-test's own check reports it
    outcome = np.empty(here.shape[0], dtype=np.float64 if scored else np.int8)
    loops.outcomes(here, outcome)
    over = ~np.isnan(outcome) if scored else outcome != 0
    if not np.array_equal(ended.astype(bool), over):
        at = int(np.flatnonzero(ended.astype(bool) != over)[0])
        report(f"expand_tiers: tier {tier}: code {int(here[at])} ended {bool(ended[at])}, "
               f"outcome says {bool(over[at])}")  # fmt: skip
    elif not (np.array_equal(found, children) and np.array_equal(found_tiers, kid_tiers)):
        report(f"expand_tiers: tier {tier}: the children of codes {_first(here, parents)} "
               "differ from expand's")  # fmt: skip


def _check_layout(
    loops: Any, tier: int, here: Codes, moves: tuple[Any, ...], kept: CodeSet, report: Report
) -> None:
    """tier_moves (a loopy tier's moves laid out): for each sampled code, its children and
    whether each move keeps the player to move, inside the tier and out of it, as
    ``moves`` (``expand``'s of ``here``) has them; ``kept``: the tier's codes met."""
    inside = np.asarray(kept.codes)
    laid = loops.tier_moves(
        kept.codes, kept.buckets, kept.base, kept.shift, tier, 0, inside.shape[0]
    )
    _, counts, targets, out_rows, out_children, _, out_same = laid
    got: dict[int, Counter[tuple[int, int]]] = {}
    e = 0
    for i in range(inside.shape[0]):
        row_moves = got.setdefault(int(inside[i]), Counter())
        for at in targets[e : e + int(counts[i])].tolist():
            row_moves[(int(inside[~at if at < 0 else at]), int(at < 0))] += 1
        e += int(counts[i])
    turns = out_same if out_same.shape[0] else np.zeros(out_rows.shape[0], np.uint8)
    for row, child, again in zip(out_rows.tolist(), out_children.tolist(), turns.tolist(),
                                 strict=True):  # fmt: skip
        got[int(inside[row])][(int(child), int(again))] += 1
    parents, children, same = moves
    want: dict[int, Counter[tuple[int, int]]] = {int(c): Counter() for c in here}
    for p, child, again in zip(parents.tolist(), children.tolist(), same.tolist(), strict=True):
        want[int(here[p])][(int(child), int(again))] += 1
    for code, expected in want.items():
        if got.get(code, Counter()) != expected:
            report(f"tier_moves: tier {tier}: code {code} has moves (child, keeps the turn) "
                   f"{sorted(got.get(code, Counter()).elements())} laid out, but expand gives "
                   f"{sorted(expected.elements())}")  # fmt: skip
            return


def _check_reversed(loops: Any, tier: int, kept: CodeSet, report: Report) -> None:
    """reverse_edges (un-moves derived from the moves inside the tier): each code of
    ``kept`` has as parents the codes whose moves lead to it, as often."""
    inside = np.asarray(kept.codes)
    offsets, parents = loops.reverse_edges(kept.codes, kept.buckets, kept.base, kept.shift, tier)
    rows, children, _ = _moves_by_row(loops, inside)
    position = {int(c): i for i, c in enumerate(inside.tolist())}
    want: list[Counter[int]] = [Counter() for _ in range(inside.shape[0])]
    for row, child in zip(rows.tolist(), children.tolist(), strict=True):
        if child in position:
            want[position[child]][int(row)] += 1
    for j in range(inside.shape[0]):
        got = Counter(parents[offsets[j] : offsets[j + 1]].tolist())
        if got != want[j]:
            report(f"reverse_edges: tier {tier}: code {int(inside[j])} has parents "
                   f"{_codes(inside, got)}, expand says {_codes(inside, want[j])}")  # fmt: skip
            return


def _check_ranked(
    loops: Any,
    tier: int,
    here: Codes,
    parents: Any,
    children: Any,
    kid_tiers: Any,
    kid: int,
    report: Report,
) -> None:
    """expand_ranked (a tier whose moves lead into one other tier): each move's child found
    at its index in that tier's codes (-1 for a child of another tier)."""
    kid_set = CodeSet.of(np.unique(children[kid_tiers == kid]))
    outcome = np.empty(here.shape[0], dtype=np.int8)
    rows, found = loops.expand_ranked(
        here, np.arange(here.shape[0], dtype=np.int64), kid_set.codes, kid_set.buckets,
        kid_set.base, kid_set.shift, outcome,
    )  # fmt: skip
    if (outcome < 0).any():
        return  # a count of moves out of range: the self-test's own check reports it
    going = np.flatnonzero(outcome == 0)
    codes = np.asarray(kid_set.codes)
    want = np.where(kid_tiers == kid, np.searchsorted(codes, children), -1)
    if not (np.array_equal(going[rows], parents) and np.array_equal(found, want)):
        report(f"expand_ranked: tier {tier}: the children of codes {_first(here, parents)} "
               f"found in tier {kid} differ from expand's")  # fmt: skip


def _first(codes: Codes, rows: Any) -> list[int]:
    """A few codes, to name in a problem."""
    return [int(codes[r]) for r in np.unique(rows)[:3].tolist()]


def _codes(inside: Codes, rows: Counter[int]) -> list[int]:
    return sorted(int(inside[r]) for r in rows.elements())
