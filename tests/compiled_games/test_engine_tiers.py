"""The engine's tiers of a compiled game: an object that owns its ranking, given to Rules
as one typed group; a tablebase answers from the codes it kept without touching the
user's game object."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest
import reference
from compiled_random import TierGame, TierScoredGame, TierTurnsGame

from perfectplay import GameError, build_tablebase, open_tablebase
from perfectplay.compiled_games import engine_tiers, form
from perfectplay.compiled_games.engine_tiers import EngineTiers
from perfectplay.protocol import HOOKS, BatchRules, TierRules
from perfectplay.rules import Rules

ENGINE_PLUMBING = ("engine_loops", "ranked_by_engine", "ranking", "use_ranking", "tier_moves")


@pytest.fixture(autouse=True)
def interpreted_and_quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loops as plain Python; no fsync for the small tablebases."""
    monkeypatch.setattr(form, "_MODE", "interpreted")
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def test_the_engines_plumbing_is_no_hook_a_game_is_read_for() -> None:
    names = {h.name for h in HOOKS}
    assert names.isdisjoint((*ENGINE_PLUMBING, "rank_near"))
    assert {"speed", "tiers"} <= names


@pytest.mark.parametrize("cls", [TierGame, TierTurnsGame, TierScoredGame])
def test_rules_take_the_compiled_games_groups_whole(cls: Any) -> None:
    game = cls(seed=4)
    rules = Rules(game)
    assert isinstance(rules.batch, BatchRules) and rules.batch.engine_loops is not None
    assert isinstance(rules.tiers, TierRules) and rules.tiers.ranked_by_engine
    assert isinstance(rules.tiers.engine, EngineTiers) and rules.tiers.engine.game is game
    assert rules.engine_loops == rules.batch.engine_loops
    # Moves that keep the turn, or scores, take no un-moves derived from the moves.
    derived = cls is TierGame
    assert rules.tiers.engine.parents_lay_out_moves is derived
    assert (rules.tiers.batch_parents is not None) is derived
    assert rules.tiers.engine.lays_out_moves is (cls is not TierScoredGame)
    # The engine's own plumbing is the engine's, not fields of the public tier protocol.
    fields = {f.name for f in dataclasses.fields(TierRules)}
    assert fields.isdisjoint(("tier_moves", "rank_near", "parents_lay_out_moves"))


def test_a_tablebase_answers_from_its_codes_and_leaves_the_game_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(6):
        built = TierGame(seed=seed, mode=1)
        solved = reference.solve_outcomes(built)
        build_tablebase(built, tmp_path / f"tb-{seed}")
        fresh = TierGame(seed=seed, mode=1)
        engine = fresh.tiers().engine

        def never(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the ranking was found again, not read from the tablebase")

        with monkeypatch.context() as patch:
            patch.setattr(engine_tiers, "discover", never)
            with open_tablebase(tmp_path / f"tb-{seed}", fresh) as tablebase:
                for state, (value, _) in solved.items():
                    assert tablebase.value(state) == value, (seed, state)
                assert tablebase.rules.tiers is not None
                assert tablebase.rules.tiers.engine is not engine  # the tablebase's own
        assert engine._ranking is None  # the user's object: handed nothing, found nothing
        assert Rules(fresh).tiers.engine is engine  # (and still its own)


def test_a_copy_in_another_process_reads_the_ranking_where_it_is_kept(tmp_path: Path) -> None:
    cloudpickle = pytest.importorskip("cloudpickle")  # (Dask's: how rules travel there)
    game = TierGame(seed=2, mode=1)
    build_tablebase(game, tmp_path / "tb")
    copy = cloudpickle.loads(cloudpickle.dumps(game))
    assert copy.tiers().engine._kept_in == tmp_path / "tb"
    original = game.tiers().engine.ranking()
    again = copy.tiers().engine.ranking()
    assert again.directory == tmp_path / "tb"
    assert sorted(again.tiers) == sorted(original.tiers)
    assert all(len(again.tiers[t]) == len(original.tiers[t]) for t in original.tiers)


class WrongGroups(TierGame):
    def tiers(self) -> Any:
        return {"initial_tier": 0}


class FailingGroups(TierGame):
    def speed(self) -> Any:
        raise ZeroDivisionError("no speed today")


def test_a_group_of_the_wrong_kind_or_that_fails_is_one_line_naming_it() -> None:
    with pytest.raises(GameError, match=r"tiers\(\) returned dict; expected a TierRules") as e:
        Rules(WrongGroups(seed=1))
    assert "\n" not in str(e.value)
    with pytest.raises(GameError, match=r"speed\(\) raised ZeroDivisionError: no speed today"):
        Rules(FailingGroups(seed=1))
