"""A compiled game's parameters reach its loops at run time (issue 46, item 9): one
compiled copy serves every parameter set, a new ``-p`` value compiles nothing, and each
parameter set still gets its own answers (and its own compiled search)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import reference
from cli_script import run_cli
from compiled_random import TierGame

from perfectplay import progress, solve
from perfectplay.compiled_games import building, form
from perfectplay.values import Value

KEYED = Path(__file__).resolve().parents[1] / "compiled_keyed.py"


def test_one_compiled_copy_serves_every_parameter_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(form, "_MODE", "compiled")
    monkeypatch.setattr(building, "_built", {})  # (not the loops an earlier test built)
    heard: list[str] = []
    monkeypatch.setattr(progress, "_announcers", [heard.append])
    games = [TierGame(seed=seed, n=300, block=30) for seed in (3, 4, 5)]
    idents = {game.engine_loops(True).ident for game in games}
    assert len(idents) == 1 and "" not in idents
    assert len(heard) == 1  # one compile, for the first parameter set only
    for game in games:  # each with its own parameters: the reference's answers
        solved = reference.solve_outcomes(game)
        solution = solve(game)
        for state, (value, plies) in solved.items():
            assert solution.value(state) == value, (game.params, state)
            if value is not Value.DRAW:
                assert solution.remoteness(state) == plies, (game.params, state)
    copies = list((tmp_path / "cache" / "games").glob("perfectplay_game_*.py"))
    assert len(copies) == 1


def test_a_new_parameter_value_compiles_nothing_in_a_fresh_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the command line, as a user would: the second -p value adds no compiled copy
    of the loops to the cache, and its answer is its own."""
    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PERFECTPLAY_KERNELS", "compiled")
    first = run_cli("solve", f"{KEYED}:Counters", "-p", "goal=3")
    second = run_cli("solve", f"{KEYED}:Counters", "-p", "goal=4")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    listed = json.loads(run_cli("cache", "--json").stdout)["folders"]["games"]["copies"]
    assert listed == {"Counters": 1}  # one compiled copy of the loops for both

    def rows(text: str) -> list[str]:
        return [" ".join(line.split()) for line in text.splitlines()
                if line.startswith(("value", "remoteness"))]  # fmt: skip

    assert rows(first.stdout) == ["value win", "remoteness 5"], first.stdout
    assert rows(second.stdout) != rows(first.stdout) and len(rows(second.stdout)) == 2
