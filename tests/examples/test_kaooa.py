"""Kaooa (examples/kaooa.py, GamesmanOne's mkaooa): a small variant solved against the
independent reference at every position, the game itself against what GamesmanOne answered
(bench/formal_kaooa.py compares them position by position), and rules written from the
board's drawing."""

from __future__ import annotations

from itertools import pairwise

import pytest
import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.compiled_games import form
from perfectplay.statistics import statistics
from perfectplay.values import DRAW, LOSS

kaooa = load("kaooa")
LINES = [(4, 9, 5, 1), (0, 9, 8, 3), (0, 5, 6, 2), (1, 6, 7, 3), (4, 8, 7, 2)]
"""The five lines as GamesmanOne's board drawing (kaooa.c) shows them, point by point."""
CROWS_TURN, VULTURE_TURN = 0, 1 << 23

BY_GAMESMANONE = {
    # GamesmanOne v1.3.0 (commit 1969986), `gamesman solve mkaooa 0` then `gamesman query
    # mkaooa 0 1_----------0` (the start: draw, remoteness 0, as it writes every draw) and
    # `gamesman analyze mkaooa 0` (positions reached, by value and remoteness), on this
    # machine.
    "start": ("draw", 0),
    "draw": 18081,
    **{("win", r): n for r, n in {1: 1470, 3: 130, 5: 255, 7: 110, 9: 205, 11: 25}.items()},
    **{("loss", r): n for r, n in {0: 1130, 2: 85, 4: 105, 6: 30, 8: 65, 10: 5}.items()},
}


def position(crows: list[int], vulture: int | None, dropped: int, turn: int) -> int:
    """A state from its points (the module's encoding)."""
    state = sum(1 << point for point in crows) | dropped << 20 | turn
    return state if vulture is None else state | 1 << (10 + vulture)


def test_a_small_variant_agrees_with_the_reference_at_every_position() -> None:
    game = kaooa.Kaooa(crows=3, captures=2)
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    assert len(expected) == 3356
    for state, (value, plies) in expected.items():
        found = (solution.value(state), solution.remoteness(state))
        assert found == (value, plies), game.show(state)


def test_the_game_solves_as_gamesmanone_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")  # 21,696 positions: no compile
    solution = solve(kaooa.Kaooa())
    start = kaooa.Kaooa().initial()
    assert (solution.value(start), solution.remoteness(start)) == (DRAW, None)
    # GamesmanOne writes remoteness 0 for a draw, perfectplay none.
    assert (str(solution.value(start)), 0) == BY_GAMESMANONE["start"]
    found = statistics(solution)
    ours = {(name, r): n for name, per in found.remoteness.items() for r, n in per.items()}
    assert {"start": ("draw", 0), "draw": found.values["draw"], **ours} == BY_GAMESMANONE


def test_the_board_is_the_drawing() -> None:
    """Every point's slides (to empty neighbours on a line) and the vulture's jumps (over a
    crow next to it on a line to the point beyond), from the lines alone."""
    game = kaooa.Kaooa()
    for point in range(10):
        near = set()
        for line in LINES:
            for a, b in pairwise(line):
                near |= {b} if a == point else {a} if b == point else set()
        alone = game.moves(position([], point, 0, VULTURE_TURN))
        assert sorted(alone) == sorted(point * 10 + n for n in near), point
        for line in LINES:
            for ends in (line, line[::-1]):
                if point in ends[:2]:
                    i = ends.index(point)
                    over, to = ends[i + 1], ends[i + 2]
                    state = position([over], point, 1, VULTURE_TURN)
                    assert point * 10 + to in game.moves(state), (point, over)
                    taken = game.play(state, point * 10 + to)
                    assert taken == position([], to, 1, CROWS_TURN), (point, over)


def test_a_jump_takes_a_crow_and_three_taken_lose() -> None:
    game = kaooa.Kaooa()
    state = position([5, 6, 9, 3, 8], 1, 6, VULTURE_TURN)  # one crow already taken
    assert game.outcome(state) is None
    assert [game.format_move(m) for m in game.moves(state)] == ["1x7"]  # not 1x9: a crow
    after = game.play(state, 17)
    assert after == position([5, 9, 3, 8], 7, 6, CROWS_TURN)
    assert game.show(after) == "---C-/C-VCC crows to move, dropped 6, taken 2"
    assert game.outcome(after) is None
    state = position([9, 2, 3], 0, 5, VULTURE_TURN)  # two taken
    assert "0x8" in {game.format_move(m) for m in game.moves(state)}
    third = game.play(state, 8)
    assert game.show(third) == "--CC-/---V- crows to move, dropped 5, taken 3"
    assert game.outcome(third) == LOSS


def test_a_trapped_vulture_loses_and_crows_drop_before_they_slide() -> None:
    game = kaooa.Kaooa()
    trapped = position([5, 9, 6, 8], 0, 4, VULTURE_TURN)  # next to 5 and 9, beyond: 6, 8
    assert game.outcome(trapped) == LOSS
    assert game.outcome(position([5, 9, 6], 0, 3, VULTURE_TURN)) is None  # 0x8 is open
    in_hand = position([5, 9, 6], 0, 3, CROWS_TURN)
    assert sorted(game.moves(in_hand)) == [11 * p for p in (1, 2, 3, 4, 7, 8)]  # drops only
    assert game.outcome(game.play(in_hand, 88)) == LOSS  # the drop on 8 traps the vulture
    out = position([1, 2, 3, 4, 5, 6], 8, 6, CROWS_TURN)  # all dropped: slides only
    assert sorted(game.format_move(m) for m in game.moves(out)) == [
        "2-7", "3-7", "4-9", "5-0", "5-9", "6-7"]  # fmt: skip
    drawing = game.draw_svg(out, last=85)
    assert drawing.startswith("<svg") and drawing.count("<circle") == 10
    assert drawing.count("data-move=") == 3 and drawing.count(" last") == 1
