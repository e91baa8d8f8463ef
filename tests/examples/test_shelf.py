"""GamesmanOne's shelf in perfectplay's compiled form (examples/): each small variant
solved here against the independent reference over the plain protocol, and against what
GamesmanOne v1.3.0 (commit 1969986) answered on this machine (bench/gamesmanone_queries.py
compares them position by position; the figures below are its output, kept)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.statistics import statistics
from perfectplay.values import LOSS, TIE, WIN

FSVP_10_BY_GAMESMANONE = {
    # (value, remoteness): positions, from `gamesman analyze fsvp 6` (size 10)
    **{("win", r): n for r, n in {1: 9, 3: 5, 5: 3, 7: 2, 9: 5, 11: 3, 13: 2, 15: 1}.items()},
    **{("loss", r): n for r, n in {0: 1, 2: 2, 4: 1, 6: 1, 8: 1, 10: 3, 12: 1, 14: 2}.items()},
}


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9, 10, 11])
def test_fair_shares_agrees_with_the_reference_at_every_position(size: int) -> None:
    """Fair Shares and Varied Pairs (positions repeat): every reachable partition's value
    and remoteness as the reference's rounds find them."""
    game = load("fsvp").FairShares(size=size)
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    for state, (value, plies) in expected.items():
        assert solution.value(state) == value, (size, game.show(state))
        assert solution.remoteness(state) == plies, (size, game.show(state))


def test_fair_shares_10_counts_as_gamesmanone_does() -> None:
    found = statistics(solve(load("fsvp").FairShares(size=10)))
    ours = {(name, r): n for name, per in found.remoteness.items() for r, n in per.items()}
    assert ours == FSVP_10_BY_GAMESMANONE


def test_tictactoe_starts_as_gamesmanone_says() -> None:
    """mtttier's start by GamesmanOne's query: a tie in 9; after X in a corner, a tie in
    8, O's edge replies losing in 5 (a win in 5 for X)."""
    game = load("tictactoe").TicTacToe(size=3)
    solution = solve(game)
    start = game.initial()
    assert (solution.value(start), solution.remoteness(start)) == (TIE, 9)
    corner = game.play(start, 0)
    assert (solution.value(corner), solution.remoteness(corner)) == (TIE, 8)
    edge = game.play(corner, 1)
    assert (solution.value(edge), solution.remoteness(edge)) == (WIN, 5)
    assert solution.value(game.play(corner, 4)) == TIE
    assert LOSS not in {solution.value(game.play(start, m)) for m in game.moves(start)}


def test_the_shelf_table_gives_each_example_its_size_within_200_lines() -> None:
    """The results page's table of the shelf names each example with its length, the
    file's own, and no example of the shelf passes the 200 lines the shelf allows."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "results" / "gamesmanone.md").read_text()
    rows = re.findall(r"^\| [^|]+ \| `(\w+\.py)` \| (\d+) \|", page, flags=re.MULTILINE)
    assert len(rows) >= 11, rows
    for name, lines in rows:
        actual = len((root / "examples" / name).read_text().splitlines())
        assert (name, int(lines)) == (name, actual)
        assert actual <= 200, name
