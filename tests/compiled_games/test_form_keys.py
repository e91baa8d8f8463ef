"""Symmetry keys of compiled games: a key that hands the turn to the other player is solved
right by every route, and a key that is no symmetry is refused before a solve and
reported by ``check``, while a true one passes (issue 46, items 1 and 2)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference
from cli_script import one_line_error, run_cli
from compiled_keyed import CornerStart, Counters, SwappedCounters, TicTacToe
from compiled_random import TierSwapKeyTurnsGame

from perfectplay import LOSS, TIE, WIN, build_tablebase, open_tablebase, solve
from perfectplay.checking import check_game, presolve_problem
from perfectplay.checking.loops import check_tier_loops
from perfectplay.compiled_games import form
from perfectplay.rules import Rules

KEYED = Path(__file__).resolve().parents[1] / "compiled_keyed.py"


@pytest.fixture(autouse=True)
def interpreted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(form, "_MODE", "interpreted")


def answers(found: Any, game: Any) -> dict[int, tuple[Any, Any]]:
    return {s: (found.value(s), found.remoteness(s)) for s in reference.reachable(game)}


def test_a_key_that_swaps_the_player_to_move_solves_as_without_it(tmp_path: Path) -> None:
    """Counters: a first-player win in 5 plies, in memory and from tiers on disk, with the
    key that swaps the players as without it (the tiers once said: a draw)."""
    plain = reference.solve_outcomes(Counters())
    assert plain[Counters().initial()] == (WIN, 5)
    for cls in (Counters, SwappedCounters):
        assert answers(solve(cls()), cls()) == plain, cls.__name__
        build_tablebase(cls(), tmp_path / cls.__name__)
        with open_tablebase(tmp_path / cls.__name__, cls()) as tablebase:
            assert answers(tablebase, cls()) == plain, cls.__name__


def test_the_loopy_layout_marks_turns_as_played_not_as_keyed() -> None:
    """tier_moves against expand, by the loop check: the fixed layout agrees; one that
    asks who moves of the keyed child (the old mistake) is reported."""
    game = TierSwapKeyTurnsGame(seed=3, n=120, block=20, mode=1)
    codes = np.array(sorted({game.key(s) for s in reference.reachable(game)}), dtype=np.int64)
    loops = game.engine_loops(False)
    found: list[str] = []
    check_tier_loops(loops, codes, found.append, scored=False)
    assert found == []
    real = loops.tier_moves

    def keyed_turns(*args: Any) -> Any:  # each move's "keeps the turn" mark flipped
        outcome, inside, targets, rows, children, slots, same = real(*args)
        return outcome, inside, ~targets, rows, children, slots, 1 - same

    broken = dataclasses.replace(loops, tier_moves=keyed_turns)
    check_tier_loops(broken, codes, found.append, scored=False)
    assert found and found[0].startswith("tier_moves: tier ")


def test_a_key_that_is_no_symmetry_is_reported_and_refused() -> None:
    """Tic-tac-toe with one of its eight images wrong: check finds it, the short test run
    before a solve refuses it; the true key passes both and solves to a tie in 9."""
    assert presolve_problem(Rules(TicTacToe())) is None
    assert check_game(TicTacToe()) == []
    solution = solve(TicTacToe())
    assert (solution.value(), solution.remoteness()) == (TIE, 9)
    problem = presolve_problem(Rules(TicTacToe(wrong=True)))
    assert problem is not None and "share key" in problem.line and not problem.rules_fail
    assert any("share key" in line for line in check_game(TicTacToe(wrong=True)))


def test_the_command_line_refuses_a_wrong_key_in_one_line(tmp_path: Path) -> None:
    for extra in ([], ["--save", str(tmp_path / "tb")]):
        result = run_cli("solve", f"{KEYED}:TicTacToe", "-p", "wrong=true", *extra)
        one_line_error(result, "TicTacToe.key: states")
        assert not (tmp_path / "tb").exists()
    right = run_cli("solve", f"{KEYED}:TicTacToe", "--json")
    assert right.returncode == 0 and '"value": "tie"' in right.stdout
    swapped = run_cli("solve", f"{KEYED}:SwappedCounters", "--save", str(tmp_path / "c"),
                      "--json")  # fmt: skip
    assert swapped.returncode == 0 and '"value": "win"' in swapped.stdout
    checked = run_cli("check", f"{KEYED}:SwappedCounters")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_issue_counters_lose_for_the_second_player() -> None:
    """The premise: the counters game is decided (no draw) for the player to move first."""
    solved = reference.solve_outcomes(Counters(goal=2))
    assert solved[0][0] == WIN and LOSS in {v for v, _ in solved.values()}


def test_a_start_that_is_not_its_own_key_answers_with_its_own_moves() -> None:
    """The solution's start, best moves and line are the game's, not its key's image's (the
    command line once printed the image's moves as the start's)."""
    game = CornerStart()
    start = game.initial()
    assert Rules(game).key_of(start) != start  # (the case in point)
    found = solve(game)
    assert found.initial == start
    expected = reference.solve_outcomes(game)
    legal = set(game.moves(start))
    outcomes = {m: expected[game.play(start, m)] for m in legal}
    assert (LOSS, 5) not in outcomes.values() and 0 in legal and 8 not in legal
    best = found.best_moves()
    assert set(best) == {m for m, found_there in outcomes.items() if found_there == (TIE, 6)}
    state = start
    for move in found.principal_variation():
        assert move in set(game.moves(state))
        state = game.play(state, move)
    assert game.outcome(state) is not None


def test_the_command_line_shows_the_start_s_own_moves() -> None:
    game = CornerStart()
    result = run_cli("solve", f"{KEYED}:CornerStart")
    assert result.returncode == 0, result.stderr
    line = next(row for row in result.stdout.splitlines() if row.startswith("best moves"))
    shown = set(line.split()[2:])
    assert shown and shown <= {str(m) for m in game.moves(game.initial())}
