"""Random tier games for the tests: layered graphs whose tiers are layers (moves lead into
later layers, or, in the loopy ones, also within their own), ends WIN / LOSS / TIE at
random; and the check that a tablebase answers as the explored solver does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from perfectplay import Expansion, open_tablebase, solve
from perfectplay.protocol import BatchRules, TierRules


class LayeredGame:
    """A random game in layers: a position of layer t moves into later layers only.

    Codes are ``layer * width + i``; a tier is a layer; ends are WIN / LOSS / TIE at random.
    """

    name = "layered"

    def __init__(self, moves: dict[int, list[int]], ends: dict[int, int], width: int) -> None:
        self.table = moves
        self.ends = ends
        self.width = width
        self.layers = max(moves) // width + 1

    def initial(self) -> int:
        return 0

    def moves(self, state: int) -> list[int]:
        return self.table[state]

    def play(self, state: int, move: int) -> int:
        return move

    def outcome(self, state: int) -> Any:
        from perfectplay import Value

        code = self.ends.get(state, 0)
        return None if code == 0 else Value(code)

    def batch_outcome(self, codes: Any) -> Any:
        return np.array([self.ends.get(int(c), 0) for c in codes], dtype=np.int8)

    def batch_expand(self, codes: Any) -> Expansion:
        parents = [i for i, c in enumerate(codes) for _ in self.table[int(c)]]
        children = [m for c in codes for m in self.table[int(c)]]
        return Expansion(np.array(parents, np.int64), np.array(children, np.int64))

    initial_tier = 0

    def child_tiers(self, tier: int) -> list[int]:
        inner = any(
            m // self.width == tier
            for code in range(tier * self.width, (tier + 1) * self.width)
            for m in self.table[code]
        )
        return ([tier] if inner else []) + list(range(tier + 1, self.layers))

    def tier_size(self, tier: int) -> int:
        return self.width

    def batch_rank(self, tier: int, codes: Any) -> Any:
        return np.asarray(codes, dtype=np.int64) - tier * self.width

    def batch_unrank(self, tier: int, indices: Any) -> Any:
        return np.asarray(indices, dtype=np.int64) + tier * self.width

    def batch_tier(self, codes: Any) -> Any:
        return np.asarray(codes, dtype=np.int64) // self.width

    batch_parents: Any = None  # (un-moves: LayeredGameWithUnmoves gives them)

    def speed(self) -> BatchRules:
        return BatchRules(self.batch_outcome, self.batch_expand)

    def tiers(self) -> TierRules:
        return TierRules(
            initial_tier=self.initial_tier,
            child_tiers=self.child_tiers,
            tier_size=self.tier_size,
            batch_rank=self.batch_rank,
            batch_unrank=self.batch_unrank,
            batch_tier=self.batch_tier,
            batch_parents=self.batch_parents,
        )


@st.composite
def layered_games(draw: Any) -> LayeredGame:
    layers = draw(st.integers(2, 6))
    width = draw(st.integers(1, 5))
    moves: dict[int, list[int]] = {}
    ends: dict[int, int] = {}
    for layer in range(layers):
        for i in range(width):
            code = layer * width + i
            later = list(range((layer + 1) * width, layers * width))
            moves[code] = draw(st.lists(st.sampled_from(later), max_size=4)) if later else []
            ends[code] = draw(st.sampled_from([0, 0, 0, 1, 2, 3]))
    return LayeredGame(moves, ends, width)


def same_answers(game: Any, directory: Path) -> None:
    """Every reachable position: the tablebase says what the explored solver says."""
    solution = solve(game, batch=False)
    with open_tablebase(directory, game) as base:
        for state in solution.graph.states:
            assert base.lookup(state) == (solution.value(state), solution.remoteness(state))
            assert base.move_values(state) == solution.move_values(state)
        assert base.principal_variation() == solution.principal_variation()
        positions = base.header.counts()["positions"]
    assert positions == solution.stats.states


@st.composite
def loopy_layered_games(draw: Any) -> LayeredGame:
    """Layered games whose positions may also move within their own layer: cycles, draws."""
    layers = draw(st.integers(2, 4))
    width = draw(st.integers(2, 6))
    moves: dict[int, list[int]] = {}
    ends: dict[int, int] = {}
    for layer in range(layers):
        for i in range(width):
            code = layer * width + i
            inner = list(range(layer * width, (layer + 1) * width))
            later = list(range((layer + 1) * width, layers * width)) or inner
            moves[code] = draw(st.lists(st.sampled_from(inner), max_size=2)) + draw(
                st.lists(st.sampled_from(later), max_size=3)
            )
            ends[code] = draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2, 3]))
    return LayeredGame(moves, ends, width)


class LayeredGameWithUnmoves(LayeredGame):
    """The same game, also giving its un-moves (every position one move before a code)."""

    def batch_parents(self, tier: int, codes: Any) -> Expansion:
        before: dict[int, list[int]] = {}
        for code, targets in self.table.items():
            if self.ends.get(code, 0) == 0:  # an end has no moves
                for target in targets:
                    before.setdefault(target, []).append(code)
        index = [i for i, c in enumerate(codes) for _ in before.get(int(c), [])]
        found = [p for c in codes for p in before.get(int(c), [])]
        return Expansion(np.array(index, np.int64), np.array(found, np.int64))


@st.composite
def one_loopy_tier(draw: Any) -> LayeredGame:
    """One tier whose moves all stay inside it: the solver that keeps its counters in the
    records takes it."""
    width = draw(st.integers(2, 14))
    moves = {c: draw(st.lists(st.integers(0, width - 1), max_size=4)) for c in range(width)}
    ends = {c: draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3])) for c in range(width)}
    return LayeredGameWithUnmoves(moves, ends, width)


@st.composite
def wide_loopy_tier(draw: Any) -> LayeredGame:
    """One loopy tier of hundreds of positions, many of them reached (each that goes on
    moves to the next, beside random moves): its pending positions span many 64-bit words
    of the counters solver's bits."""
    width = draw(st.integers(64, 400))
    moves = {
        c: ([c + 1] if c + 1 < width else [])
        + draw(st.lists(st.integers(0, width - 1), max_size=3))
        for c in range(width)
    }
    ends = {c: draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2, 3])) for c in range(width)}
    return LayeredGameWithUnmoves(moves, ends, width)
