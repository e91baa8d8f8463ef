"""Scored games solved tier by tier on disk (``tiers.scored``): every position's score and
remoteness as an independent upward negamax gives them, rewards and extra turns included;
a loop refused; an interrupted solve goes on; damaged scores are found and solved again."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference
from compiled_random import TierRewardTurnsGame, TierScoredGame, TierScoredLoopGame

from perfectplay import build_tablebase, open_tablebase
from perfectplay.compiled_games import form
from perfectplay.errors import GameError, InterruptedSolve
from perfectplay.statistics import score_statistics
from perfectplay.tablebase.verify import verify
from perfectplay.tiers import scored


@pytest.fixture
def interpreted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games' loops as plain Python (small games; compiling each would take seconds)."""
    monkeypatch.setattr(form, "_MODE", "interpreted")
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # (durability is not tested here)


def disagreements(base: Any, game: Any) -> list[tuple[int, Any, Any]]:
    """Every reachable state whose tablebase answer differs from the reference's."""
    wrong = []
    for state, (score, plies) in reference.upward_scores(game).items():
        found = base.lookup(state)
        if found is None or found[1] != plies or found[0] != score:
            wrong.append((state, found, (score, plies)))
    return wrong


@pytest.mark.usefixtures("interpreted")
@pytest.mark.parametrize("cls", [TierScoredGame, TierRewardTurnsGame])
def test_random_scored_tier_games_agree_with_the_reference(tmp_path: Path, cls: Any) -> None:
    checked = 0
    kinds: set[str] = set()
    for seed in range(30):
        params = {"seed": seed, "n": 90, "block": 7 + seed % 5}
        game = cls(**params)
        header, _ = build_tablebase(game, tmp_path / f"s{seed}")
        assert header.layout == "tiers" and header.scores is not None
        kinds.update(e.scores["dtype"] for e in header.tiers.values() if e.scores)
        with open_tablebase(tmp_path / f"s{seed}", cls(**params)) as base:
            assert base.scored
            wrong = disagreements(base, game)
            assert not wrong, (seed, len(wrong), wrong[:3])
            checked += len(reference.upward_scores(game))
            if seed % 10 == 0:
                assert verify(base, samples=100) == []
    assert checked > 1000
    assert "<i1" in kinds and "<f8" in kinds  # whole scores in a byte; -inf needs floats


@pytest.mark.usefixtures("interpreted")
def test_the_scored_statistics_from_tiers_match_the_reference(tmp_path: Path) -> None:
    game = TierRewardTurnsGame(seed=3, n=90)
    build_tablebase(game, tmp_path / "tb")
    expected = reference.upward_scores(game)
    with open_tablebase(tmp_path / "tb", TierRewardTurnsGame(seed=3, n=90)) as base:
        stats = score_statistics(base)
    counts: dict[float, int] = {}
    for score, _ in expected.values():
        counts[score] = counts.get(score, 0) + 1
    assert stats.positions == len(expected)
    assert stats.scores == dict(sorted(counts.items()))
    assert stats.longest is not None
    assert stats.longest.measure == max(plies for _, plies in expected.values())
    assert expected[stats.longest.state][1] == stats.longest.measure


@pytest.mark.usefixtures("interpreted")
def test_a_scored_game_whose_moves_loop_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(GameError, match=r"scored but its moves loop .* tier 8"):
        build_tablebase(TierScoredLoopGame(seed=1, n=60), tmp_path / "tb")


@pytest.mark.usefixtures("interpreted")
def test_an_interrupted_scored_solve_goes_on_from_its_finished_tiers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = TierRewardTurnsGame(seed=5, n=90)
    solved_tiers: list[int] = []
    real = scored._solve_tier

    def stop_after_three(*args: Any) -> Any:
        if len(solved_tiers) == 3:
            raise KeyboardInterrupt
        solved_tiers.append(args[3])
        return real(*args)

    monkeypatch.setattr(scored, "_solve_tier", stop_after_three)
    with pytest.raises(InterruptedSolve):
        build_tablebase(game, tmp_path / "tb")
    again: list[int] = []

    def counting(*args: Any) -> Any:
        again.append(args[3])
        return real(*args)

    monkeypatch.setattr(scored, "_solve_tier", counting)
    build_tablebase(TierRewardTurnsGame(seed=5, n=90), tmp_path / "tb")
    assert not set(again) & set(solved_tiers) and again
    with open_tablebase(tmp_path / "tb", TierRewardTurnsGame(seed=5, n=90)) as base:
        assert disagreements(base, game) == []


def damaged_largest_tier(game: Any, directory: Path, at: float) -> Any:
    """Build the game's tablebase, then flip a bit of its largest tier's scores file, the
    byte at fraction ``at`` of it; that tier's header entry."""
    header, _ = build_tablebase(game, directory)
    entry = max(header.tiers.values(), key=lambda e: e.positions)
    assert entry.scores is not None
    path = directory / entry.scores["file"]
    data = bytearray(path.read_bytes())
    data[int(at * (len(data) - 1))] ^= 0x01
    path.write_bytes(bytes(data))
    return entry


@pytest.mark.usefixtures("interpreted")
def test_a_damaged_scores_file_is_found_and_solved_again(tmp_path: Path) -> None:
    game = TierScoredGame(seed=2, n=90)
    entry = damaged_largest_tier(game, tmp_path / "tb", at=0.5)
    with open_tablebase(tmp_path / "tb", TierScoredGame(seed=2, n=90)) as base:
        problems = verify(base, samples=20)
    assert problems and f"{entry.scores['file']} fails its checksum" in problems[0]
    # A solve that finds the tier's scores damaged (progress kept) solves that tier again.
    (tmp_path / "tb" / "header.json").unlink()
    build_tablebase(TierScoredGame(seed=2, n=90), tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", TierScoredGame(seed=2, n=90)) as base:
        assert disagreements(base, game) == []


def test_the_narrowest_exact_type_is_chosen() -> None:
    assert scored._narrowest(np.array([-5.0, 3.0])) == "<i1"
    assert scored._narrowest(np.array([-5.0, 300.0])) == "<i2"
    assert scored._narrowest(np.array([70000.0])) == "<i4"
    assert scored._narrowest(np.array([0.5])) == "<f8"
    assert scored._narrowest(np.array([-math.inf, 1.0])) == "<f8"


def test_a_compiled_scored_tier_game_agrees_with_its_solve_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's loops compiled by numba (tiers found by the engine's ranking), against
    the same game solved in memory by negamax and the reference."""
    monkeypatch.setattr(form, "_MODE", "compiled")
    game = TierRewardTurnsGame(seed=1, n=1500, degree=6, block=60)
    header, _ = build_tablebase(game, tmp_path / "tb")
    assert header.codes is not None  # ranked by the engine
    expected = reference.upward_scores(game)
    assert len(expected) > 1000
    with open_tablebase(
        tmp_path / "tb", TierRewardTurnsGame(seed=1, n=1500, degree=6, block=60)
    ) as base:
        assert disagreements(base, game) == []
        assert True in game._loops  # compiled


KALAH = str(Path(__file__).resolve().parents[2] / "examples" / "kalah.py") + ":Kalah"


def test_kalah_from_its_file_is_saved_tier_by_tier_and_answers_as_in_memory(
    tmp_path: Path,
) -> None:
    """The command line: a scored compiled game with tiers is saved tier by tier (not
    explored in memory), and its value, statistics, compressed copy and verification
    agree with the solve in memory by negamax."""
    from cli_script import run_cli

    size = ("-p", "houses=3", "-p", "seeds=2")
    saved = run_cli("solve", KALAH, *size, "--save", str(tmp_path / "tb"), "--json")
    memory = run_cli("solve", KALAH, *size, "--method", "negamax", "--json")
    assert saved.returncode == 0 and memory.returncode == 0, saved.stderr + memory.stderr
    on_disk, in_memory = json.loads(saved.stdout), json.loads(memory.stdout)
    assert on_disk["tablebase"]["layout"] == "tiers"
    for field in ("value", "remoteness", "best_moves"):
        assert on_disk[field] == in_memory[field], field
    stats_disk = run_cli("analyze", KALAH, *size, "--db", str(tmp_path / "tb"), "--stats", "--json")
    stats_memory = run_cli("analyze", KALAH, *size, "--method", "negamax", "--stats", "--json")
    assert stats_disk.returncode == 0, stats_disk.stderr
    disk = json.loads(stats_disk.stdout)["statistics"]
    mem = json.loads(stats_memory.stdout)["statistics"]
    assert disk["scores"] == mem["scores"] and disk["positions"] == mem["positions"] > 1000
    assert disk["longest"]["remoteness"] == mem["longest"]["remoteness"]
    assert disk["most_moves"]["moves"] == mem["most_moves"]["moves"]
    packed = run_cli("compress", str(tmp_path / "tb"), str(tmp_path / "zst"), KALAH, *size)
    assert packed.returncode == 0, packed.stderr
    assert "int8" in packed.stdout  # Kalah's scores in a byte each
    for directory in ("tb", "zst"):
        checked = run_cli("verify", str(tmp_path / directory), KALAH, *size)
        assert checked.returncode == 0 and "sound" in checked.stdout, checked.stdout


def test_the_advice_for_a_scored_game_names_no_search() -> None:
    """Issue 46, item 8: out of memory, a scored game was told to try --method search,
    which it could not take (Kalah says not how long it lasts: no max_plies); --save is the
    route (tier by tier when it has tiers). With max_plies it may (issue 48)."""
    import examples_loader

    from perfectplay import Rules
    from perfectplay.core.memory import exploring_advice

    kalah = examples_loader.load("kalah")
    rules = Rules(kalah.Kalah(houses=3, seeds=2))
    assert rules.compiled_rules is not None and not rules.may_search()
    advice = exploring_advice(rules.tiers is not None, rules.may_search())
    assert "--save DIR" in advice and "--method search" not in advice
    connect = examples_loader.load("connect_four")
    assert Rules(connect.ConnectFour(width=4, height=4)).may_search()

    class LastingKalah(kalah.Kalah):  # type: ignore[misc, name-defined]
        def max_plies(self) -> int:
            return 100

    assert Rules(LastingKalah(houses=3, seeds=2)).may_search()


@pytest.mark.usefixtures("interpreted")
def test_scored_statistics_read_compressed_and_block_hashed_tiers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tier read in blocks (a compressed copy, or a file with a hash per block) gives
    the same statistics as the reference (it crashed reading the tier as one array)."""
    from perfectplay.tablebase.blocks import compress
    from perfectplay.tablebase.header import write_header
    from perfectplay.tiers import files

    monkeypatch.setattr(files, "HASH_BLOCK", 8)  # every tier file of more than 8 bytes
    game = TierRewardTurnsGame(seed=3, n=90)
    header, _ = build_tablebase(game, tmp_path / "tb")
    assert any(entry.blocks for entry in header.tiers.values())
    write_header(tmp_path / "zst", compress(tmp_path / "tb", tmp_path / "zst", header))
    expected: dict[float, int] = {}
    for score, _ in reference.upward_scores(game).values():
        expected[score] = expected.get(score, 0) + 1
    for directory in ("tb", "zst"):
        with open_tablebase(tmp_path / directory, TierRewardTurnsGame(seed=3, n=90)) as base:
            assert score_statistics(base).scores == dict(sorted(expected.items())), directory


@pytest.mark.usefixtures("interpreted")
def test_a_finished_tablebase_with_damaged_scores_is_repaired(tmp_path: Path) -> None:
    """``solve --save`` checks a finished tablebase's files before reusing it: a damaged
    scores file names its tier, which is solved again (it was reused, every probe of that
    tier then failing its checksum)."""
    from perfectplay.tablebase.build import damaged_tiers, reopen_damaged
    from perfectplay.tablebase.header import read_header

    game = TierScoredGame(seed=2, n=90)
    entry = damaged_largest_tier(game, tmp_path / "tb", at=0.0)
    assert damaged_tiers(tmp_path / "tb", read_header(tmp_path / "tb")) == [entry.tier]
    reopen_damaged(tmp_path / "tb", read_header(tmp_path / "tb"), [entry.tier], True)
    build_tablebase(TierScoredGame(seed=2, n=90), tmp_path / "tb")
    assert damaged_tiers(tmp_path / "tb", read_header(tmp_path / "tb")) == []
    with open_tablebase(tmp_path / "tb", TierScoredGame(seed=2, n=90)) as base:
        assert disagreements(base, game) == []


@pytest.mark.usefixtures("interpreted")
def test_the_outcome_tier_solver_refuses_a_scored_game(tmp_path: Path) -> None:
    """Its ends would be read as ties: refused, not solved wrong."""
    from perfectplay import Rules
    from perfectplay.core.records import RecordFormat
    from perfectplay.tiers.files import TierFiles
    from perfectplay.tiers.graph import TierGraph
    from perfectplay.tiers.solve import solve_tiers

    rules = Rules(TierScoredGame(seed=1, n=60))
    files = TierFiles(tmp_path / "tb", RecordFormat(2), {"game": "x"})
    with pytest.raises(GameError, match="is scored"):
        solve_tiers(TierGraph(rules), files)
