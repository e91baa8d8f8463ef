"""Statistics of a solved game: the same from a Solution and from a Tablebase, and every
example position shows the figure it stands for (checked against the solution directly)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_script import run_cli

from perfectplay import Rules, build_tablebase, open_tablebase, solve
from perfectplay.games import ConnectFour, Subtraction, TicTacToe
from perfectplay.statistics import statistics

GAMES = [TicTacToe(), ConnectFour(4, 4), Subtraction(stones=30, take=(1, 3, 4))]


class Enumerated:
    """A fresh solve of a game, and each of its positions' value, remoteness and number of
    moves, found once by plain enumeration (the checks below read them many times)."""

    def __init__(self, game: Any) -> None:
        self.solution = solve(game)
        rules = Rules(game)
        self.rows = []
        for code in self.solution.graph.states:
            state = _state(game, code)
            self.rows.append((str(self.solution.value(state)), self.solution.remoteness(state),
                              len(rules.legal_moves(state))))  # fmt: skip
        self.rules = rules


def check_examples(stats: Any, enumerated: Enumerated) -> None:
    """Every example is what it claims, judged by a fresh solve and plain enumeration."""
    solution = enumerated.solution
    for name, example in stats.longest.items():
        assert str(solution.value(example.state)) == name
        assert solution.remoteness(example.state) == example.measure
        assert max(r for v, r, _ in enumerated.rows if v == name) == example.measure
    widest = max(moves for _, _, moves in enumerated.rows)
    assert stats.most_moves.measure == widest
    assert len(enumerated.rules.legal_moves(stats.most_moves.state)) == widest


def _state(game: Any, code: Any) -> Any:
    return game.from_code(int(code)) if isinstance(game, ConnectFour) else int(code)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__)
def test_solution_and_tablebase_statistics_agree(tmp_path: Path, game: Any) -> None:
    enumerated = Enumerated(game)
    from_memory = statistics(enumerated.solution)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        from_disk = statistics(base)
    assert from_disk.positions == from_memory.positions == enumerated.solution.stats.states
    assert from_disk.values == from_memory.values
    assert from_disk.remoteness == from_memory.remoteness
    assert sum(from_disk.values.values()) == from_disk.positions
    assert {k: e.measure for k, e in from_disk.longest.items()} == {
        k: e.measure for k, e in from_memory.longest.items()
    }
    check_examples(from_memory, enumerated)
    check_examples(from_disk, enumerated)


def test_cli_stats_in_text_and_json(tmp_path: Path) -> None:
    done = run_cli("analyze", "tictactoe", "--stats", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["statistics"]
    assert figures["positions"] == 5478
    assert figures["values"] == statistics(solve(TicTacToe())).values
    assert figures["longest"]["tie"]["remoteness"] == 9
    text = run_cli("analyze", "tictactoe", "--stats")
    assert "longest win: 5 plies" in text.stdout
    assert "positions per remoteness" in text.stdout
    scored = run_cli("analyze", "weighted-tictactoe", "--stats")
    assert scored.returncode == 0 and "positions per score" in scored.stdout, scored.stderr


def test_draws_are_counted_but_have_no_remoteness(tmp_path: Path) -> None:
    """Issue 46, item 14: a draw never ends, so it is no bar at remoteness 0; it is
    counted among the values, and the JSON's remoteness has no draw (as a draw's is null)."""
    from compiled_random import TierGame

    seed = next(s for s in range(40) if "draw" in statistics(solve(TierGame(seed=s))).values)
    game = TierGame(seed=seed)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", TierGame(seed=seed)) as base:
        from_disk = statistics(base)
    for stats in (statistics(solve(game)), from_disk):
        assert stats.values["draw"] > 0 and "draw" not in stats.remoteness
        counted = sum(sum(by.values()) for by in stats.remoteness.values())
        assert counted + stats.values["draw"] == stats.positions
    source = Path(__file__).resolve().parent / "compiled_random.py"
    done = run_cli("analyze", f"{source}:TierGame", "-p", f"seed={seed}", "--stats", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)["statistics"]
    assert found["values"]["draw"] == from_disk.values["draw"]
    assert "draw" not in found["remoteness"]


def test_a_scored_games_statistics_count_positions_per_score(tmp_path: Path) -> None:
    """Issue 46, item 8: --stats of a scored game, from memory and from a tablebase alike,
    against a count of every reachable position's score; the longest game's example
    starts a game that long."""
    from collections import Counter

    from perfectplay.games import Invisible
    from perfectplay.statistics import score_statistics

    game = Invisible((3, -1, 5), (2, 4))
    solution = solve(game)
    states = [solution.graph.state(i) for i in range(solution.stats.states)]
    want = Counter(float(solution.value(s)) for s in states)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        from_disk = score_statistics(base)
    for stats, answers in ((score_statistics(solution), solution), (from_disk, solution)):
        assert stats.scores == dict(sorted(want.items()))
        assert stats.positions == len(states) and len(stats.scores) > 3
        assert stats.longest is not None
        assert stats.longest.measure == max(solution.remoteness(s) for s in states)
        assert answers.remoteness(stats.longest.state) == stats.longest.measure
    done = run_cli("analyze", "invisible", "--stats", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)["statistics"]
    assert sum(found["scores"].values()) == found["positions"]
