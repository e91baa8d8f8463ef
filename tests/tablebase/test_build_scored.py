"""Scored games saved as tablebases: every position's score and plies read back as an
independent negamax gives them, through compression, verify and damage."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import reference
from cli_script import run_cli
from compiled_random import ScoredGame

from perfectplay import build_tablebase, open_tablebase, save_solution, solve
from perfectplay.games import WeightedTicTacToe
from perfectplay.tablebase.blocks import compress
from perfectplay.tablebase.header import read_header, write_header
from perfectplay.tablebase.verify import verify


class TieredScores(ScoredGame):
    """The random scored game with tiers (moves only go up the states): saved tier by tier,
    each tier's scores beside its records."""

    def tier(p, s):
        return s // 7


def assert_same_scores(base: Any, game: Any) -> int:
    expected = reference.negamax_scores(game)
    for state, (score, plies) in expected.items():
        found = base.lookup(state)
        assert found is not None, state
        assert found[0] == score or (math.isinf(score) and found[0] == score), (state, found)
        assert found[1] == plies, (state, found, plies)
    return len(expected)


@pytest.mark.parametrize("cls", [ScoredGame, TieredScores])
def test_a_scored_game_is_saved_with_its_scores(tmp_path: Path, cls: Any) -> None:
    checked = 0
    for seed in range(8):
        header, _ = build_tablebase(cls(seed=seed, n=80), tmp_path / f"s{seed}")
        assert header.scores is not None
        assert header.layout == ("tiers" if cls is TieredScores else "graph")
        with open_tablebase(tmp_path / f"s{seed}", cls(seed=seed, n=80)) as base:
            assert base.scored
            checked += assert_same_scores(base, cls(seed=seed, n=80))
            assert verify(base, samples=200) == []
    assert checked > 150


def test_scores_survive_compression_and_damage_is_found(tmp_path: Path) -> None:
    game = WeightedTicTacToe()
    solution = solve(game)
    header = save_solution(solution, tmp_path / "tb")
    packed = compress(tmp_path / "tb", tmp_path / "zst", header)
    write_header(tmp_path / "zst", packed)
    assert read_header(tmp_path / "zst").scores == header.scores
    with open_tablebase(tmp_path / "zst", WeightedTicTacToe()) as base:
        for state in reference.reachable(game)[:400]:
            assert base.value(state) == solution.value(state)
            assert base.remoteness(state) == solution.remoteness(state)
        assert [m.move for m in base.move_values()] == [m.move for m in solution.move_values()]
    scores = tmp_path / "tb" / "scores.f64"
    data = bytearray(scores.read_bytes())
    data[100] ^= 0x40
    scores.write_bytes(bytes(data))
    with open_tablebase(tmp_path / "tb", WeightedTicTacToe()) as base:
        problems = verify(base, samples=50)
    assert problems and "scores.f64 fails its checksum" in problems[0]


def test_the_cli_saves_a_scored_game_and_answers_from_it(tmp_path: Path) -> None:
    target = tmp_path / "wt"
    saved = run_cli("solve", "weighted-tictactoe", "--save", str(target))
    assert saved.returncode == 0, saved.stderr
    plain = run_cli("analyze", "weighted-tictactoe", "--moves", "5,1")
    from_db = run_cli("analyze", "weighted-tictactoe", "--db", str(target), "--moves", "5,1")
    assert from_db.returncode == 0, from_db.stderr

    def rows(text: str) -> list[str]:
        lines = text.splitlines()
        return [" ".join(line.split()) for line in lines if line.startswith(("value", "│"))]

    assert rows(from_db.stdout) == rows(plain.stdout) and rows(plain.stdout)
    checked = run_cli("verify", str(target), "weighted-tictactoe")
    assert checked.returncode == 0 and "sound" in checked.stdout
