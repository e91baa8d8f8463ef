"""A compiled game's moves split at its tier's edge, by ``moves`` or by ``exits`` and ``stays``.

A loopy tier solved in its records (Nine Men's Morris's sectors) first reads, for every
position, how many of its moves stay in the tier and which children lie outside it (the
tier protocol's ``batch_moves_out``). From ``moves`` alone, every move is generated,
played and its child's tier found, though most of them (a Morris slide that closes no
mill) are only counted. A game may say the split itself with two optional rules::

    exits(p, s, out) -> int    write the moves of s that leave its tier into out (as
                               moves writes them: each once, with its own move number)
    stays(p, s) -> int         how many moves of s stay in its tier

Nine Men's Morris's sector 7-5: the loop over its positions 100-120 ns a position by its
``exits`` and ``stays`` (about 50 ns of it the two rules), 220-250 ns by ``moves``
(2026-12-02). Rules that disagree with ``moves`` would solve the
tier wrong without a word, so each batch has a few positions (``SPOT``, spread over it)
split both ways and compared, and ``perfectplay check`` compares more.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ..errors import GameError

SPOT = 8
"""Positions of each batch split both ways, by ``exits``/``stays`` and by ``moves``."""
PROBLEMS = {
    1: "{name}.{rule}() of state {state} gave a count that is negative or more than max_moves "
    "({max_moves})",
    2: "{name}: a move of {rule}() from state {state} gives code {child}; states are "
    "non-negative int64 codes",
    4: "{name}: a move of {rule}() from state {state} keeps the player to move; a loopy tier "
    "needs moves that pass the turn",
    5: "{name}.exits() of state {state} lists a move to {child}, which stays in tier {tier}: "
    "exits writes only the moves that leave the tier (stays counts the others)",
}
"""The drivers' ``moves_out`` problems (BAD_COUNT, BAD_CODE, BAD_TURN, BAD_EXIT) said."""


def moves_out(game: Any, tier: int, codes: Any) -> tuple[Any, Any, Any]:
    """(inside, rows, children) of ``codes`` in ``tier``: each code's moves staying in the
    tier counted, the others' keyed children listed with their rows; by the game's
    ``exits`` and ``stays`` where it writes them, spot-checked against ``moves``."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    splits = "exits" in game.rule_functions
    inside, rows, children = _split(game, tier, codes, by_moves=False)
    if splits and codes.shape[0]:
        spots = np.arange(0, codes.shape[0], -(-codes.shape[0] // SPOT), dtype=np.int64)
        problem = disagreement(game, tier, codes[spots], inside[spots], rows, children, spots)
        if problem:
            raise GameError(problem)
    return inside, rows, children


def disagreement(
    game: Any, tier: int, codes: Any, inside: Any, rows: Any, children: Any, spots: Any
) -> str:
    """Where the split by ``exits`` and ``stays`` of codes (``inside``; their exits as
    ``rows`` of ``spots`` and ``children``) differs from the split by ``moves``: one line
    naming the first such state, or "" where they agree."""
    want_inside, want_rows, want_children = _split(game, tier, codes, by_moves=True)
    # The exits of each spot (``rows`` ascend), as (spot, child) pairs against moves' own.
    starts, ends = np.searchsorted(rows, spots), np.searchsorted(rows, spots + 1)
    pieces = zip(starts.tolist(), ends.tolist(), strict=True)
    listed = np.concatenate([children[a:b] for a, b in pieces])
    listed_rows = np.repeat(np.arange(spots.shape[0]), ends - starts)
    mine, theirs = np.lexsort((listed, listed_rows)), np.lexsort((want_children, want_rows))
    if (
        np.array_equal(inside, want_inside)
        and np.array_equal(listed_rows[mine], want_rows[theirs])
        and np.array_equal(listed[mine], want_children[theirs])
    ):
        return ""  # (the usual way: a few numpy calls; which state differs is found below)
    name = type(game).__name__
    for k in range(spots.shape[0]):
        state = int(codes[k])
        if int(inside[k]) != int(want_inside[k]):
            return (
                f"{name}.stays() of state {state} says {int(inside[k])} moves stay in tier "
                f"{tier}; moves() has {int(want_inside[k])} that do"
            )
        exits = Counter(children[starts[k] : ends[k]].tolist())
        wanted = Counter(want_children[want_rows == k].tolist())
        if exits != wanted:
            return (
                f"{name}.exits() of state {state} leads to {sum(exits.values())} positions "
                f"out of tier {tier}; moves() to {sum(wanted.values())}, not all the same: "
                "exits writes every move that leaves the tier, as moves writes it"
            )
    return ""


def _split(game: Any, tier: int, codes: Any, by_moves: bool) -> tuple[Any, Any, Any]:
    """The drivers' ``moves_out`` over codes, its problems said in one line."""
    inside = np.empty(codes.shape[0], dtype=np.int64)
    loops = game.loops_for(codes.shape[0])
    rows, children, problem, row, child = loops.moves_out(codes, tier, inside, by_moves)
    if problem:
        splits = "exits" in game.rule_functions and not by_moves
        rule = "stays" if splits and problem == 1 and child == 1 else "exits" if splits else "moves"
        raise GameError(
            PROBLEMS[problem].format(
                name=type(game).__name__, rule=rule, state=int(codes[row]), child=int(child),
                max_moves=game.max_moves, tier=tier,
            )
        )  # fmt: skip
    return inside, rows, children
