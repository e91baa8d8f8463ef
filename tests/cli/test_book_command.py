"""Books of lines of play and the search's best move, against the strong solution.

``SearchAnswers.best_move`` proves one child instead of valuing every move; a book built
with ``play_depth`` holds, up to that ply, every position play meets when perfectplay
follows its best moves, each with the child of its best move. Checked on boards small
enough to solve strongly (5 x 4, 4 x 4): every book entry is the strong solution's value
and remoteness, every move chosen is one of the strong solution's best moves, and inside
the play depth a game against any opponent searches nothing.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import open_tablebase, solve
from perfectplay.book import SearchAnswers, build_book, journal_path, read_journal
from perfectplay.games import ConnectFour
from perfectplay.rules import Rules
from perfectplay.solution import Solution
from perfectplay.solvers import compiled_search


@cache
def strong(width: int, height: int) -> Solution[Any, Any]:
    return solve(ConnectFour(width, height))


def book_keys(directory: Path) -> list[int]:
    """The keys a book holds, read from its file of keys (sorted int64)."""
    return np.fromfile(directory / "keys.i64", dtype="<i8").tolist()


class Counting:
    """Counts the searches run while it is active (exact ones and null-window ones)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        cls = compiled_search.CompiledSearch
        score, at_most = cls.score, cls.at_most

        def counted_score(search: Any, words: Any) -> int:
            self.calls += 1
            return int(score(search, words))

        def counted_at_most(search: Any, words: Any, bound: int) -> bool:
            self.calls += 1
            return bool(at_most(search, words, bound))

        monkeypatch.setattr(cls, "score", counted_score)
        monkeypatch.setattr(cls, "at_most", counted_at_most)


def test_best_move_is_a_best_move_of_the_strong_solution() -> None:
    rules = Rules(ConnectFour(5, 4))
    solution = strong(5, 4)
    answers = SearchAnswers(rules)
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        state = rules.initial_state()
        for _ in range(rng.randrange(2, 14)):
            if rules.outcome(state) is not None:
                break
            state = rules.play(state, rng.choice(rules.legal_moves(state)))
        if rules.outcome(state) is not None:
            continue
        move = answers.best_move(state)
        assert move in solution.best_moves(state)
        assert answers.value(state) == solution.value(state)
        assert answers.remoteness(state) == solution.remoteness(state)
        checked += 1
    assert checked >= 40


def check_play_book(
    rules: Rules[Any, Any],
    directory: Path,
    play_depth: int,
    solution: Solution[Any, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> int:
    """Every entry of the book is the strong solution's; games against random opponents,
    perfectplay on either side, get best moves and no search inside the play depth.
    Returns the number of the book's positions."""
    keys = book_keys(directory)
    with open_tablebase(directory, rules.game) as book:
        for key in keys:
            state = rules.from_code(int(key)) if rules.from_code else key
            assert book.value(state) == solution.value(state)
            assert book.remoteness(state) == solution.remoteness(state)
        answers = SearchAnswers(rules, book)
        answers.best_move(rules.initial_state())  # the search compiled, the book warm
        with monkeypatch.context() as patch:
            counting = Counting(patch)
            rng = random.Random(3)
            moves_checked = 0
            for game in range(40):
                perfectplay_moves_first = game % 2 == 0
                state, ply = rules.initial_state(), 0
                while rules.outcome(state) is None and ply < play_depth:
                    if (ply % 2 == 0) == perfectplay_moves_first:
                        move = answers.best_move(state)
                        assert move in solution.best_moves(state)
                        moves_checked += 1
                    else:
                        move = rng.choice(rules.legal_moves(state))
                    state = rules.play(state, move)
                    ply += 1
            assert counting.calls == 0  # every answer inside the play depth: from the book
            assert moves_checked > 60
    return len(keys)


def test_a_play_book_holds_the_strong_values_and_answers_play_without_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules(ConnectFour(5, 4))
    summary = build_book(rules, tmp_path / "book", 1, play_depth=7, log_size=16)
    held = check_play_book(rules, tmp_path / "book", 7, strong(5, 4), monkeypatch)
    assert held == summary.positions
    plain = build_book(rules, tmp_path / "plain", 1, log_size=16)
    assert plain.positions < held  # the lines beyond depth 1 are in the book


def test_a_play_book_build_stopped_midway_searches_only_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules(ConnectFour(4, 4))
    fresh = Counting(monkeypatch)
    build_book(rules, tmp_path / "whole", 1, play_depth=6, log_size=14)
    monkeypatch.undo()
    real = compiled_search.CompiledSearch.score
    calls = {"n": 0}

    def dies_on_the_twelfth(search: Any, words: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 12:
            raise KeyboardInterrupt
        return int(real(search, words))

    with monkeypatch.context() as patch:
        patch.setattr(compiled_search.CompiledSearch, "score", dies_on_the_twelfth)
        with pytest.raises(KeyboardInterrupt):
            build_book(rules, tmp_path / "book", 1, play_depth=6, log_size=14)
    assert len(read_journal(journal_path(tmp_path / "book"))) >= 11
    again = Counting(monkeypatch)
    build_book(rules, tmp_path / "book", 1, play_depth=6, log_size=14)
    monkeypatch.undo()
    assert again.calls < fresh.calls  # the journal's positions were not searched again
    assert not journal_path(tmp_path / "book").exists()
    check_play_book(rules, tmp_path / "book", 6, strong(4, 4), monkeypatch)
