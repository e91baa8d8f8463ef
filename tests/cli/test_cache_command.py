"""perfectplay cache (issue 46, item 9): the compiled code kept on disk listed by game,
and cleared; and a first compile is announced on a terminal, a cached one not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_script import run_cli

from perfectplay import progress
from perfectplay.compiled_games import form

GAME = Path(__file__).resolve().parents[1] / "compiled_keyed.py"


def test_the_cache_lists_a_compiled_game_and_clears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    empty = json.loads(run_cli("cache", "--json").stdout)
    assert empty["folders"]["games"]["copies"] == {} and empty["folders"]["games"]["bytes"] == 0
    monkeypatch.setenv("PERFECTPLAY_KERNELS", "compiled")
    assert run_cli("solve", f"{GAME}:Counters", "-q").returncode == 0
    found = json.loads(run_cli("cache", "--json").stdout)["folders"]["games"]
    assert found["copies"] == {"Counters": 1} and found["bytes"] > 0
    text = run_cli("cache").stdout
    assert "Counters (1)" in text and f"{found['bytes']:,} bytes" in text
    cleared = json.loads(run_cli("cache", "--clear", "--json").stdout)
    assert cleared["cleared"] and not (tmp_path / "cache" / "games").exists()
    assert json.loads(run_cli("cache", "--json").stdout)["folders"]["games"]["bytes"] == 0


def test_a_first_compile_is_announced_and_a_cached_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiled_keyed import TicTacToe

    from perfectplay.compiled_games import building

    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(form, "_MODE", "compiled")
    monkeypatch.setattr(building, "_built", {})  # (not the loops an earlier test built)
    heard: list[str] = []
    monkeypatch.setattr(progress, "_announcers", [heard.append])
    TicTacToe().engine_loops(True)
    assert len(heard) == 1 and "compiling TicTacToe's rules with numba" in heard[0]
    monkeypatch.setattr(building, "_built", {})  # a fresh process: loaded from the disk
    TicTacToe().engine_loops(True)
    assert len(heard) == 1, heard
    assert os.listdir(tmp_path / "cache" / "games")


def test_a_small_tiered_game_runs_as_plain_python_with_no_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46, item 9: a 12-position game with a tier took a 20 s first compile; small
    tiered work runs interpreted as small untiered work does, in memory and saved."""
    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("PERFECTPLAY_KERNELS", raising=False)
    for extra in ([], ["--save", str(tmp_path / "tb")]):
        done = run_cli("solve", f"{GAME}:SwappedCounters", "--json", *extra)
        assert done.returncode == 0 and '"value": "win"' in done.stdout, done.stderr
    found = json.loads(run_cli("cache", "--json").stdout)["folders"]["games"]
    assert found["copies"] == {}, found
