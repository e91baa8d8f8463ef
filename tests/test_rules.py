"""Rules reads the batch and tier protocols as two typed groups, and refuses in one line a
game that gives their parts loose (the older form) or tiers without the batch protocol."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from perfectplay import Expansion, GameError, solve
from perfectplay.games import Subtraction, TicTacToe
from perfectplay.protocol import BatchRules, GameKind, TierRules
from perfectplay.rules import Rules


class LooseBatch:
    """A pile game that writes the batch protocol's parts as methods, no speed()."""

    def initial(self) -> int:
        return 5

    def moves(self, n: int) -> list[int]:
        return [t for t in (1, 2) if t <= n]

    def play(self, n: int, t: int) -> int:
        return n - t

    def outcome(self, n: int) -> Any:
        return None

    def batch_outcome(self, codes: Any) -> Any:
        return np.zeros(len(codes), dtype=np.int8)

    def batch_expand(self, codes: Any) -> Expansion:
        pairs = [(i, int(n) - t) for i, n in enumerate(codes) for t in (1, 2) if t <= n]
        return Expansion(
            np.array([p for p, _ in pairs], np.int64), np.array([c for _, c in pairs], np.int64)
        )


class Grouped(LooseBatch):
    def __init__(self) -> None:
        self.expanded = 0  # batch_expand's calls

    def counted_expand(self, codes: Any) -> Expansion:
        self.expanded += 1
        return self.batch_expand(codes)

    def speed(self) -> BatchRules:
        return BatchRules(self.batch_outcome, self.counted_expand)


class TiersAlone(LooseBatch):
    """Tiers of a game that gives no batch protocol (it names its batch parts otherwise)."""

    batch_outcome = None  # type: ignore[assignment]
    batch_expand = None  # type: ignore[assignment]

    def tiers(self) -> TierRules:
        return TierRules(0, lambda t: [], lambda t: 6, lambda t, c: c, lambda t, i: i)


def test_parts_given_loose_are_refused_in_one_line_that_says_what_to_write() -> None:
    with pytest.raises(GameError, match=r"defines batch_\w+\(\) but no speed\(\)") as caught:
        Rules(LooseBatch())
    assert "\n" not in str(caught.value) and "BatchRules" in str(caught.value)


def test_the_same_parts_in_their_group_are_read_and_solve_alike() -> None:
    rules = Rules(Grouped())
    assert rules.batch is not None and rules.batch.batch_key is None
    fast, slow = Grouped(), Grouped()
    batch, plain = solve(fast), solve(slow, batch=False)
    assert fast.expanded > 0 and slow.expanded == 0
    assert [batch.value(n) for n in range(6)] == [plain.value(n) for n in range(6)]


def test_tiers_without_the_batch_protocol_are_refused() -> None:
    with pytest.raises(GameError, match=r"tiers\(\) without speed\(\)"):
        Rules(TiersAlone())


def test_a_group_is_built_with_its_required_fields_or_not_at_all() -> None:
    with pytest.raises(TypeError, match="batch_expand"):
        BatchRules(lambda codes: codes)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="batch_unrank"):
        TierRules(0, lambda t: [], lambda t: 1, lambda t, c: c)  # type: ignore[call-arg]


def test_a_built_in_gives_its_groups_and_overrides_reach_them() -> None:
    class Fewer(Subtraction):
        def batch_expand(self, codes: Any) -> Expansion:
            found = super().batch_expand(codes)
            return Expansion(found.parents[:0], found.children[:0])

    assert Rules(Subtraction(stones=9)).batch.universe == 10  # type: ignore[union-attr]
    assert Rules(Fewer(stones=9)).batch.batch_expand(np.array([9])).children.size == 0  # type: ignore[union-attr]
    tiers = Rules(TicTacToe()).tiers
    assert tiers is not None and tiers.initial_tier == 0 and tiers.tier_size(9) > 0


def test_the_kind_and_presentation_are_read_into_their_records() -> None:
    """What a game is (``rules.kind``) and how people see it (``rules.presentation``), each
    read once from its hooks; one alias given as a string is one name."""

    class Counting:
        name = "counting"
        aliases = "count"
        impartial = True

        def initial(self) -> int:
            return 0

        def moves(self, s: int) -> list[int]:
            return [1] if s < 2 else []

        def play(self, s: int, m: int) -> int:
            return s + m

        def outcome(self, s: int) -> None:
            return None

        def show(self, s: int) -> str:
            return f"at {s}"

        def draw_svg(self, s: int) -> str:
            return f"<svg>{s}</svg>"

    rules = Rules(Counting())
    assert rules.kind == GameKind("counting", ("count",), impartial=True, scored=None)
    assert rules.show(1) == "at 1"
    drawing = rules.presentation.draw_svg
    assert drawing is not None and drawing(1, 1) == "<svg>1</svg>"  # (its older form)
    assert rules.presentation.parse_state is None and rules.presentation.format_move is None
