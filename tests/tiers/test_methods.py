"""The table of tier methods (``perfectplay.tiers.methods``).

Every method forced (``tier_method``) on the same random tier games gives the reference's
answers and the same bytes, tier by tier, as the table's own choice; the header names the
method that solved each tier, so each test asserts which method ran. A method that cannot
take a tier is refused in one line, and an unknown name before any work.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import examples_loader
import pytest
import reference
from cli_script import one_line_error, run_cli
from compiled_random import TierKeyUnmovesGame, TierTurnsGame, TierUnmovesGame, random_turn

from perfectplay import build_tablebase, open_tablebase
from perfectplay.compiled_games import form
from perfectplay.errors import GameError
from perfectplay.games import ConnectFour, Dobutsu
from perfectplay.rules import Rules
from perfectplay.tablebase.header import Header
from perfectplay.tiers.graph import TierGraph
from perfectplay.tiers.methods import METHODS, method_named

SEEDS = range(8)
# what the engine's random tier games (un-moves of their own, moves passing the turn) take
ENGINE_GAME = ("engine-sweep", "chunks", "by-edges", "in-records", "by-unmoves", "value-iteration")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games' loops as plain Python; no fsync (durability is not tested here)."""
    monkeypatch.setattr(form, "_MODE", "interpreted")
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def methods_of(header: Header) -> dict[int, str | None]:
    return {tier: entry.method for tier, entry in header.tiers.items()}


def hashes_of(header: Header) -> dict[int, str]:
    return {tier: entry.sha256 for tier, entry in header.tiers.items()}


def loopy_tiers(game: Any) -> set[int]:
    return set(TierGraph(Rules(game)).loopy)


def test_the_table_names_each_method_once_and_ends_with_one_that_takes_any_loopy_tier() -> None:
    names = [method.name for method in METHODS]
    assert len(names) == len(set(names))
    assert METHODS[-1].name == "value-iteration" and METHODS[-1].loopy is True
    assert {method.loopy for method in METHODS} == {None, False, True}


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize("method", ENGINE_GAME)
def test_a_forced_method_gives_the_reference_and_the_tables_bytes(
    tmp_path: Path, method: str, keyed: bool
) -> None:
    """Every method on random tier games, with and without a key (a keyed state may move
    to both states of a pair: two moves to one position, which un-moves tell once)."""
    kind = TierKeyUnmovesGame if keyed else TierUnmovesGame
    forced_kind = method_named(method).loopy
    forced_tiers = 0
    for seed in SEEDS:
        for mode in (1,) if forced_kind else (3,):  # loopy tiers; every move to the next
            made = {"seed": seed, "n": 120, "block": 30, "mode": mode}
            game = kind(**made)
            chosen, _ = build_tablebase(game, tmp_path / f"auto-{seed}-{mode}")
            where = tmp_path / f"{method}-{seed}-{mode}"
            forced, _ = build_tablebase(kind(**made), where, tier_method=method)
            assert hashes_of(forced) == hashes_of(chosen), made
            loopy = loopy_tiers(game)
            for tier, used in methods_of(forced).items():
                if (tier in loopy) == forced_kind:
                    assert used == method, (made, tier)
                    forced_tiers += 1
                else:
                    assert used == chosen.tiers[tier].method, (made, tier)
            solved = reference.solve_outcomes(game)
            with open_tablebase(where, game) as base:
                for state, (value, remoteness) in solved.items():
                    assert (base.value(state), base.remoteness(state)) == (value, remoteness)
    assert forced_tiers >= len(SEEDS)  # the method really ran, on many tiers


def test_the_tables_own_choice_on_the_engines_games(tmp_path: Path) -> None:
    """Left to itself: a loopy tier in its records where the game writes its un-moves,
    its moves laid out where it has extra turns (they fit: no budget); the engine's sweep
    where every move leads into one next tier."""
    seen: set[str | None] = set()
    for seed in SEEDS:
        for game in (TierUnmovesGame(seed=seed, mode=1), TierTurnsGame(seed=seed, mode=1),
                     TierUnmovesGame(seed=seed, mode=3)):  # fmt: skip
            header, _ = build_tablebase(
                game, tmp_path / f"{type(game).__name__}-{seed}-{game.mode}"
            )
            loopy = loopy_tiers(game)
            for tier, used in methods_of(header).items():
                if tier in loopy:
                    turns = isinstance(game, TierTurnsGame)
                    assert used == ("by-edges" if turns else "in-records"), (seed, tier)
                elif game.mode == 3:
                    assert used == "engine-sweep", (seed, tier)
                seen.add(used)
    assert {"by-edges", "in-records", "engine-sweep"} <= seen


class TierUnmovesTurnsGame(TierUnmovesGame):
    """Random loopy tiers with un-moves of their own and extra turns."""

    def to_move(p, s):  # type: ignore[no-untyped-def]
        return random_turn(p, s)


def test_extra_turns_refuse_the_unmove_methods_in_one_line(tmp_path: Path) -> None:
    game = TierUnmovesTurnsGame(seed=1, mode=1)
    assert loopy_tiers(game)
    for method in ("in-records", "by-unmoves"):
        with pytest.raises(GameError, match=r"extra turns \(to_move\)") as caught:
            build_tablebase(game, tmp_path / method, tier_method=method)
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("method", "mode", "why"),
    [
        ("in-slots", 1, "not marked in bit sets"),
        ("game-sweep", 3, "the engine ranks the game"),
        ("engine-sweep", 2, "batch_solve_tier declines the tier"),  # moves into two tiers
    ],
)
def test_a_method_that_cannot_take_a_tier_is_refused_in_one_line(
    tmp_path: Path, method: str, mode: int, why: str
) -> None:
    game = TierUnmovesGame(seed=1, mode=mode)
    with pytest.raises(GameError, match=f"tier method {method} cannot solve tier .*{why}") as e:
        build_tablebase(game, tmp_path / "refused", tier_method=method)
    assert "\n" not in str(e.value)


def test_a_method_for_tiers_the_game_has_none_of_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    game = TierUnmovesGame(seed=1, mode=3)  # no loopy tier
    assert not loopy_tiers(game)
    with pytest.raises(GameError, match="by-edges solves loopy tiers; TierUnmovesGame has none"):
        build_tablebase(game, tmp_path / "none", tier_method="by-edges")
    assert not (tmp_path / "none" / "progress.json").exists()


def test_an_unknown_method_is_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="unknown tier method 'fastest'; choose one of in-slots"):
        build_tablebase(TierUnmovesGame(seed=1, mode=1), tmp_path / "none", tier_method="fastest")
    assert not (tmp_path / "none" / "progress.json").exists()


def test_connect_four_by_its_own_sweep_and_by_chunks(tmp_path: Path) -> None:
    """A game's sweep (batch_mark_tier recorded the ends, batch_solve_tier solves) runs on
    the tiers it takes; forced, the chunks give the same bytes."""
    swept, _ = build_tablebase(ConnectFour(4, 4), tmp_path / "sweep")
    assert set(methods_of(swept).values()) == {"game-sweep"}
    chunks, _ = build_tablebase(ConnectFour(4, 4), tmp_path / "chunks", tier_method="chunks")
    assert set(methods_of(chunks).values()) == {"chunks"}
    assert hashes_of(chunks) == hashes_of(swept)


def test_a_loopy_tier_alone_in_its_game_is_solved_in_slots(tmp_path: Path) -> None:
    """Dobutsu on three rows: one hand-ranked loopy tier, marked in bits; forced by
    counters in a record per index, the same bytes."""
    slots, _ = build_tablebase(Dobutsu(3, "c"), tmp_path / "slots")
    assert methods_of(slots) == {0: "in-slots"}
    with pytest.raises(GameError, match=r"tier method in-records cannot solve tier 0 .*bit sets"):
        build_tablebase(Dobutsu(3, "c"), tmp_path / "refused", tier_method="in-records")


def test_the_command_line_forces_a_method_and_refuses_one_without_tiers(tmp_path: Path) -> None:
    saved = run_cli("solve", "connect-four", "-p", "width=4", "-p", "height=4", "--save",
                    str(tmp_path / "c4"), "--tier-method", "chunks", "-q")  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    header = (tmp_path / "c4" / "header.json").read_text()
    assert '"method": "chunks"' in header and "game-sweep" not in header
    refused = run_cli("solve", "nim", "--tier-method", "chunks")
    one_line_error(refused, "--tier-method goes with --save DIR and a game with tiers")
    unknown = run_cli("solve", "connect-four", "--save", str(tmp_path / "x"),
                      "--tier-method", "fastest")  # fmt: skip
    assert unknown.returncode == 2 and "fastest" in unknown.stderr


@pytest.mark.parametrize("method", ["in-records", "by-unmoves", "value-iteration"])
def test_a_loopy_tier_tells_the_build_its_tier_and_positions(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, method: str
) -> None:
    """While a loopy tier is solved, the build is told the tier (not a level inside it) and
    the positions of the tiers solved so far: never fewer than those before the tier,
    never more than with it, and never going back. Compiled: value iteration over
    interpreted loops took four minutes here."""
    monkeypatch.setattr(form, "_MODE", "compiled")
    told: list[tuple[int, int | None]] = []

    def progress(done: int, found: int, /, level: int | None = None) -> None:
        told.append((done, level))

    game = examples_loader.load("morris").MorrisMidgame(points=16, stones=4)
    header, _ = build_tablebase(game, tmp_path, progress=progress, tier_method=method)
    assert {e.method for e in header.tiers.values()} == {method}
    solving = told[told.index((0, None)) + 1 :]  # (the marking before: solving says so)
    order = list(dict.fromkeys(level for _, level in solving))
    assert sorted(order) == sorted(header.tiers)
    before = 0
    for tier in order:
        mine = [done for done, level in solving if level == tier]
        assert mine == sorted(mine)
        assert all(before <= done <= before + header.tiers[tier].positions for done in mine)
        before += header.tiers[tier].positions
