"""Notebook views (issue 46, item 16): a solved game and its positions drawn with their
values, from a Solution and a Tablebase alike, and the positions-by-remoteness chart."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from perfectplay import build_tablebase, open_tablebase, solve
from perfectplay.games import TicTacToe
from perfectplay.notebook import board
from perfectplay.rules import Rules
from perfectplay.statistics import statistics


def rows(page: str) -> list[tuple[bool, list[str]]]:
    """The moves table's rows: (in bold, cells)."""
    found = re.findall(r"<tr( style=\"font-weight:bold\")?>((?:<td>[^<]*</td>)+)</tr>", page)
    return [(bool(bold), re.findall(r"<td>([^<]*)</td>", cells)) for bold, cells in found]


def test_a_solved_position_shows_its_board_value_and_every_move(tmp_path: Path) -> None:
    game = TicTacToe()
    solution = solve(game)
    rules = Rules(game)
    state = rules.play(game.initial(), 0)  # X in a corner: O has one move that ties
    page = solution.position(state)._repr_html_()
    drawing = rules.presentation.draw_svg
    assert drawing is not None and drawing(state, None) in page
    assert f"to move: <b>{solution.value(state)}, {solution.remoteness(state)} plies" in page
    table = rows(page)
    options = solution.move_values(state)
    assert [cells for _, cells in table] == [
        [rules.format_move(o.move), str(o.value), f"{o.remoteness} plies"] for o in options
    ]
    best = {rules.format_move(m) for m in solution.best_moves(state)}
    assert {cells[0] for bold, cells in table if bold} == best and len(best) < len(table)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        assert base.position(state)._repr_html_() == page
        assert base._repr_html_() == solution._repr_html_()
    assert "tictactoe: the start" in solution._repr_html_()


class Race:
    """Add 1 or 2 to a total; whoever reaches 5 wins. No drawing of its own."""

    def initial(self) -> int:
        return 0

    def moves(self, total: int) -> list[int]:
        return [1, 2]

    def play(self, total: int, step: int) -> int:
        return total + step

    def outcome(self, total: int) -> Any:
        from perfectplay import LOSS

        return LOSS if total >= 5 else None


def test_an_ended_position_and_a_game_without_a_drawing() -> None:
    solution = solve(Race())
    assert "no moves: the game is over" in solution.position(5)._repr_html_()
    drawn = board(Race(), 3)._repr_svg_()
    assert drawn.startswith("<svg") and ">3<" in drawn and str(board(Race(), 3)) == "3"
    assert solution.position(3)._repr_html_().count("<svg") == 1


def test_the_remoteness_chart_stacks_every_position_that_ends() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from perfectplay.plots import plot_remoteness

    solution = solve(TicTacToe())
    ax: Any = plot_remoteness(solution)
    heights = sum(bar.get_height() for bar in ax.patches)
    stats = statistics(solution)
    assert heights == stats.positions - stats.values.get("draw", 0)
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"win", "loss", "tie"}
    assert f"{stats.positions:,} positions" in ax.get_title()
