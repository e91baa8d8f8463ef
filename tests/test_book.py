"""The opening book shipped in the package: it opens (checksums, rules fingerprint), its
first-move values are the published ones, and play and analyze use it on 7 x 6. A book
build stopped midway goes on from its journal and ends with the same bytes."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_script import run_cli

from perfectplay import open_tablebase
from perfectplay.book import build_book, journal_path, read_journal, shipped_book
from perfectplay.games import ConnectFour
from perfectplay.rules import Rules
from perfectplay.values import LOSS, TIE, WIN

# Published (Allis, Tromp; Pons' solver): the first player's first move in 7 x 6 Connect
# Four, column by column, scores -2, -1, 0, +1, 0, -1, -2.
FIRST_MOVES = {1: -2, 2: -1, 3: 0, 4: 1, 5: 0, 6: -1, 7: -2}


def test_the_shipped_7x6_book_holds_the_published_first_moves() -> None:
    rules = Rules(ConnectFour(7, 6))
    where = shipped_book(rules)
    assert where is not None
    with open_tablebase(where, rules.game) as book:
        start = book.initial
        assert book.value(start) is WIN
        for move in rules.legal_moves(start):
            child = rules.play(start, move)
            value, remoteness = book.value(child), book.remoteness(child)
            expected = -FIRST_MOVES[int(rules.format_move(move))]  # for the second player
            assert value is (WIN if expected > 0 else LOSS if expected < 0 else TIE)
            if value is not TIE:  # Pons' score from value and remoteness, one disc down
                sign = 1 if value is WIN else -1
                assert sign * ((42 + 2 - 1 - remoteness) // 2) == expected


def test_no_book_ships_for_other_boards() -> None:
    assert shipped_book(Rules(ConnectFour(6, 5))) is None
    assert shipped_book(Rules(ConnectFour(7, 6, connect=5))) is None


def test_play_on_7x6_opens_from_the_shipped_book() -> None:
    run = run_cli(
        "play", "connect-four", "-p", "width=7", "-p", "height=6", "--as", "second",
        input="quit\n", timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "perfectplay plays 4" in run.stdout


def test_a_book_build_stopped_midway_goes_on_from_its_journal(tmp_path: Path) -> None:
    from perfectplay.solvers import compiled_search

    rules = Rules(ConnectFour(4, 4))
    build_book(rules, tmp_path / "whole", 2, log_size=14)
    assert not journal_path(tmp_path / "whole").exists()  # removed once saved

    calls = {"n": 0}
    real = compiled_search.CompiledSearch.score

    def dies_on_the_fifth(self: Any, words: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return int(real(self, words))

    compiled_search.CompiledSearch.score = dies_on_the_fifth  # type: ignore[method-assign]
    try:
        with pytest.raises(KeyboardInterrupt):
            build_book(rules, tmp_path / "book", 2, log_size=14)
        kept = read_journal(journal_path(tmp_path / "book"))
        assert len(kept) == 4  # four positions solved before the stop
        with journal_path(tmp_path / "book").open("a") as handle:
            handle.write("12345 1")  # a line cut short by a kill (no "ok"): ignored
        calls["n"] = -1000  # no more stops
        before = calls["n"]
        summary = build_book(rules, tmp_path / "book", 2, log_size=14)
        searched = calls["n"] - before
    finally:
        compiled_search.CompiledSearch.score = real  # type: ignore[method-assign]
    assert searched == summary.positions - 4  # the journal's positions were not searched
    for name in ("header.json", "keys.i64", "tier-000000.rec"):
        assert (tmp_path / "book" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


def test_the_shipped_book_answers_play_to_ply_8_without_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """perfectplay on either side against random replies: every answer of its first eight
    plies comes from the book (a search would fail the test at once)."""
    from perfectplay.book import SearchAnswers
    from perfectplay.solvers.compiled_search import CompiledSearch

    def no_search(*args: Any) -> Any:
        raise AssertionError("the book did not hold this answer: a search was started")

    monkeypatch.setattr(CompiledSearch, "score", no_search)
    monkeypatch.setattr(CompiledSearch, "at_most", no_search)
    rules = Rules(ConnectFour(7, 6))
    where = shipped_book(rules)
    assert where is not None
    rng = random.Random(11)
    with open_tablebase(where, rules.game) as book:
        answers = SearchAnswers(rules, book)
        for game in range(80):
            perfectplay_first = game % 2 == 0
            state = rules.initial_state()
            for ply in range(8):
                if rules.outcome(state) is not None:  # won early: the line ends here
                    break
                if (ply % 2 == 0) == perfectplay_first:
                    move = answers.best_move(state)
                else:
                    move = rng.choice(rules.legal_moves(state))
                state = rules.play(state, move)


def test_the_shipped_book_is_negamax_consistent() -> None:
    """Every position of the book whose moves all lead to positions the book holds scores
    the best of its children's scores negated: the book's searches agree with each other."""
    from perfectplay.book import book_score
    from perfectplay.solvers.compiled_search import compiled_rules_of

    rules = Rules(ConnectFour(7, 6))
    compiled = compiled_rules_of(rules)
    where = shipped_book(rules)
    assert where is not None
    keys = np.fromfile(where / "keys.i64", dtype="<i8").tolist()
    checked = 0
    with open_tablebase(where, rules.game) as book:
        for key in keys:
            state = rules.from_code(int(key)) if rules.from_code else key
            score = book_score(book, compiled, state)
            assert score is not None
            kids = [
                book_score(book, compiled, rules.play(state, m)) for m in rules.legal_moves(state)
            ]
            if kids and all(kid is not None for kid in kids):
                assert score == max(-kid for kid in kids if kid is not None), key
                checked += 1
    assert checked >= 300  # the first plies, and the positions along its lines of play
