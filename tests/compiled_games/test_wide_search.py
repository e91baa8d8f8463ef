"""Issue 48 item 2: games whose state is several words (``WideGame``), searched with the
table keyed by their whole canonical words, against independent exhaustive search
(``reference``) and against perfectplay's strong solve of the same rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import reference
from cli_script import run_cli
from wide_random import (
    WideOutcomes,
    WideOutcomesKeyed,
    WideOutcomesTabled,
    WideOutcomesTurns,
    WideRewardTurns,
    WideRewardTurnsKeyed,
    WideRewardTurnsTabled,
    WideScored,
    WideScoredUntabled,
)

from perfectplay import solve
from perfectplay.compiled_games.wide import WideGame
from perfectplay.errors import GameError
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import CompiledSearch, compiled_rules_of, solve_position
from perfectplay.values import LOSS, TIE, WIN

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OUTCOME_SCORE = {WIN: 1, TIE: 0, LOSS: -1}


def _as_search_score(value: Any, wide: int = 1 << 20) -> int:
    if value in (float("inf"), float("-inf")):
        return wide if value > 0 else -wide
    return int(value)


def _searched(game: Any, log_size: int) -> tuple[CompiledSearch, Any]:
    rules = compiled_rules_of(Rules(game))
    return CompiledSearch(rules, log_size), rules.encode


@pytest.mark.parametrize(
    "cls", [WideScored, WideRewardTurns, WideRewardTurnsKeyed, WideRewardTurnsTabled]
)
def test_every_state_of_random_wide_scored_games_scores_as_exhaustive_search(cls: Any) -> None:
    """Scores, rewards, extra turns, a key merging positions whose words differ: every
    reachable state's score equals the reference's. A small table (2**6 entries) makes
    states share entries, so a table that kept one word or trusted the hash would fail."""
    checked = 0
    for seed in range(8):
        game = cls(seed=seed, n=60)
        expected = reference.upward_scores(game)
        search, encode = _searched(game, 6)
        for state, (score, _) in expected.items():
            assert search.score(encode(state)) == _as_search_score(score), (seed, state)
            checked += 1
    assert checked > 250


@pytest.mark.parametrize(
    "cls", [WideOutcomes, WideOutcomesKeyed, WideOutcomesTurns, WideOutcomesTabled]
)
def test_every_state_of_random_wide_win_loss_games_has_the_references_value(cls: Any) -> None:
    checked = 0
    for seed in range(8):
        game = cls(seed=seed)
        expected = reference.solve_outcomes(game)
        search, encode = _searched(game, 6)
        for state, (value, _) in expected.items():
            assert search.score(encode(state)) == OUTCOME_SCORE[value], (seed, state)
            checked += 1
    assert checked > 250


def test_a_position_the_tabled_rule_refuses_is_neither_kept_nor_trusted() -> None:
    """``tabled`` false everywhere: the search scores as exhaustive search and leaves its
    table empty; the same game without the rule fills it."""
    for seed in range(4):
        expected = reference.upward_scores(WideScoredUntabled(seed=seed, n=60))
        untabled, encode = _searched(WideScoredUntabled(seed=seed, n=60), 8)
        tabled, _ = _searched(WideScored(seed=seed, n=60), 8)
        for state, (score, _) in expected.items():
            assert untabled.score(encode(state)) == _as_search_score(score), (seed, state)
            tabled.score(encode(state))
        assert untabled.table_fill() == 0.0
        assert tabled.table_fill() > 0.0


def test_the_strong_solve_of_the_same_rules_agrees_and_a_best_move_is_proven() -> None:
    """The plain path (tuples of words) solves the same rules; the search's best move
    leads to a child whose score, through the move, is the start's."""
    for seed in range(4):
        game = WideRewardTurnsKeyed(seed=seed, n=60)
        solved = solve(game)
        found = solve_position(game, log_size=8)
        assert found.score == _as_search_score(solved.value()), seed
        rules = Rules(game)
        child = rules.play(rules.initial_state(), found.best_move)
        after = solve_position(game, child, log_size=8).score
        kept = rules.to_move is not None and not rules.mover_changes(rules.initial_state(), child)
        earned = game.reward(rules.initial_state(), found.best_move)
        assert (after if kept else -after) + earned == found.score


def test_othello_4x4_by_search_equals_its_strong_solve() -> None:
    """The example's Othello (two words a state) on 4x4: the start and every first move,
    by `analyze --method search` and by the strong solve of the same rules."""
    game = [f"{EXAMPLES / 'othello.py'}:Othello", "-p", "size=4", "--json"]
    reports = []
    for method in ("search", "auto"):
        done = run_cli("analyze", *game, "--method", method)
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    threaded = run_cli("analyze", *game, "--method", "search", "--threads", "2")
    assert threaded.returncode == 0, threaded.stderr
    reports.append(json.loads(threaded.stdout))
    searched, solved, on_two = reports
    solving = run_cli("analyze", *game, "--threads", "2")  # (auto: 4x4 is solved whole)
    assert solving.returncode == 2 and solving.stderr.count("\n") == 1, solving.stderr
    assert "--threads goes with a search" in solving.stderr
    assert {m["move"]: m["value"] for m in on_two["moves"]} == {
        m["move"]: m["value"] for m in searched["moves"]
    }
    assert searched["method"] == "compiled search"
    assert solved["method"] != "compiled search"
    assert searched["value"] == solved["value"]
    assert {m["move"]: m["value"] for m in searched["moves"]} == {
        m["move"]: m["value"] for m in solved["moves"]
    }


def test_a_wide_rule_that_writes_past_the_state_is_one_line() -> None:
    class Spills(WideGame):
        words = 2

        def start(p, s):
            s[2] = 1

        def moves(p, s, out):
            return 0

        def play(p, s, m, t):
            pass

        def outcome(p, s):
            return 2

    with pytest.raises(GameError, match=r"Spills.start\(p\) wrote or read past an array"):
        Spills().initial()


def test_a_wide_game_checks_its_states_and_its_declaration() -> None:
    with pytest.raises(GameError, match="words must be a positive int"):

        class NoWords(WideGame):
            words = 0

            def start(p, s):
                pass

    game = WideScored(seed=1)
    with pytest.raises(GameError, match="a state is 2 int64 words"):
        game.moves((1, 2, 3))
    with pytest.raises(GameError, match="lacks the rule function"):

        class Partial(WideGame):
            def start(p, s):
                pass

        Partial()


@pytest.mark.parametrize("cls", [WideScored, WideRewardTurns, WideRewardTurnsKeyed])
def test_every_null_window_answers_as_exhaustive_search_near_the_ends_too(cls: Any) -> None:
    """``at_most(state, bound)`` (one null-window search, as best moves and proofs ask)
    for bounds around the score and at the range's ends, where a reward once moved a
    finite window onto -inf and a score of -3 was said to be +inf. One shared small
    table: a wrong bound kept would spoil later answers too."""
    wide = 1 << 20
    asked = 0
    for seed in range(6):
        game = cls(seed=seed, n=40)
        expected = reference.upward_scores(game)
        search, encode = _searched(game, 6)
        for state, (value, _) in expected.items():
            score = _as_search_score(value)
            bounds = {-wide, -wide + 1, -1, 0, 1, score - 1, score, wide - 2, wide - 1}
            for bound in sorted(b for b in bounds if -wide <= b < wide):
                assert search.at_most(encode(state), bound) == (score <= bound), (
                    seed,
                    state,
                    bound,
                )
                asked += 1
    assert asked > 1000


@pytest.mark.parametrize("cls", [WideScored, WideRewardTurnsKeyed])
def test_the_principal_variation_keeps_the_score_at_every_move(cls: Any) -> None:
    """The line of best moves from the start of random scored games: each move's score
    (its reward and its child's exact score by the reference, through the move) is its
    position's score, and the line ends where the game does."""
    from perfectplay.solvers.compiled_search import principal_variation, through_move

    for seed in range(6):
        game = cls(seed=seed, n=60)
        expected = reference.upward_scores(game)
        rules = Rules(game)
        start = rules.initial_state()
        first = solve_position(rules.game, log_size=6).best_move
        if first is None:
            continue
        search, _ = _searched(game, 6)
        line, whole = principal_variation(rules, start, first, search, 10**6)
        assert whole, seed
        state = start
        for move in line:
            child = rules.play(state, move)
            score = _as_search_score(expected[child][0])
            assert through_move(rules, state, move, child, score) == _as_search_score(
                expected[state][0]
            ), (seed, line)
            state = child
        assert not rules.legal_moves(state)


@pytest.mark.parametrize("cls", [WideScored, WideOutcomesKeyed])
def test_two_threads_on_one_table_score_every_state_as_exhaustive_search(cls: Any) -> None:
    """``threads=2``: both lanes search each window on one small table (2**6 entries, so
    their writes meet in the same entries all the time); every reachable state's score is
    the reference's, and the nodes counted are both lanes'."""
    checked = 0
    for seed in range(6):
        game = cls(seed=seed, n=60) if cls is WideScored else cls(seed=seed)
        solved = (
            reference.upward_scores(game) if cls is WideScored else reference.solve_outcomes(game)
        )
        rules = compiled_rules_of(Rules(game))
        search = CompiledSearch(rules, 6, threads=2)
        assert search.threads == 2
        for state, (value, _) in solved.items():
            want = _as_search_score(value) if cls is WideScored else OUTCOME_SCORE[value]
            assert search.score(rules.encode(state)) == want, (seed, state)
            checked += 1
    assert checked > 150


def test_a_torn_entry_is_not_trusted_by_threads_sharing_the_table() -> None:
    """An entry whose bound changed without its seal (what a read between another
    thread's writes sees) is taken as empty: the score stays exact. The same entry
    misleads a search without seals, so it is the seal that refused it."""
    game = WideScored(seed=3, n=60)
    solved = reference.upward_scores(game)
    rules = compiled_rules_of(Rules(game))
    state = Rules(game).initial_state()
    want = _as_search_score(solved[state][0])
    assert abs(want) < rules.max_score
    for threads in (2, 1):
        search = CompiledSearch(rules, 16, threads=threads)
        assert search.score(rules.encode(state)) == want
        slot = search.key(rules.encode(state)) % search.size
        assert search.vals[slot] != 0  # the root's entry, kept
        search.vals[slot] = 2 * (rules.max_score - rules.min_score + 1)  # (>= the greatest)
        found = search.score(rules.encode(state))
        if threads == 2:
            assert found == want
        else:
            assert found != want
