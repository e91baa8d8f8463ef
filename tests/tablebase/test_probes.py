"""The compiled search with a tablebase at its leaves (``perfectplay.tablebase.probes``):
Morris searched through its placement over a database of every position once all stones
are placed (Gasser's method), against the whole game solved tier by tier."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import examples_loader
import numpy as np
import pytest

from perfectplay import LOSS, WIN, build_tablebase, open_tablebase
from perfectplay.errors import SolverChoiceError, TablebaseError, TablebaseMismatch
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import CompiledSearch
from perfectplay.tablebase.probes import ProbedSearch, open_for_probing, plies_outside

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "morris.py"
VARIANTS = [(16, 4, True), (16, 5, False), (24, 3, True)]


def morris() -> Any:
    return examples_loader.load("morris")


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> dict[Any, tuple[Path, Path]]:
    """Per variant: the midgame database (every position once all stones are placed) and
    the whole game solved tier by tier."""
    found = {}
    for points, stones, jumps in VARIANTS:
        where = tmp_path_factory.mktemp(f"morris-{points}-{stones}-{jumps}")
        params = {"points": points, "stones": stones, "jumps": jumps}
        build_tablebase(morris().MorrisMidgame(**params), where / "mid")
        build_tablebase(morris().Morris(**params), where / "whole")
        found[(points, stones, jumps)] = (where / "mid", where / "whole")
    return found


def placement_positions(game: Any, count: int, seed: int) -> list[Any]:
    """Positions of random playouts while stones are still in hand, the start first."""
    rng = random.Random(seed)
    found = [game.initial()]
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 2 * game.stones)):
            moves = game.moves(state)
            if game.outcome(state) is not None or not moves:
                break
            state = game.play(state, rng.choice(moves))
            if (state >> 48) & 255 == 0:
                break  # every stone placed: the database's own
            found.append(state)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_over_the_midgame_database_gives_the_whole_games_values(
    databases: dict[Any, tuple[Path, Path]], variant: tuple[int, int, bool]
) -> None:
    """Every sampled placement position: the search that reads the midgame database at its
    leaves gives the value the whole game's tablebase holds (another path: the placement
    tiers solved backward too)."""
    mid, whole = databases[variant]
    points, stones, jumps = variant
    game = morris().Morris(points=points, stones=stones, jumps=jumps)
    rules = Rules(game)
    reference = open_tablebase(whole, rules.game)
    base = open_for_probing(mid, rules)
    start = rules.initial_state()
    probed = ProbedSearch(rules, base, start, log_size=16)
    assert probed.plies == 2 * stones  # placement: one tier a ply, then the database
    seen = {1: 0, 0: 0, -1: 0}
    for state in placement_positions(game, 80, seed=points * stones):
        held = reference.lookup(state)
        assert held is not None
        expected = 1 if held[0] == WIN else -1 if held[0] == LOSS else 0
        assert probed.search.score((state,)) == expected, game.show(state)
        seen[expected] += 1
    assert sum(seen.values()) >= 80


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_keys_a_position_and_its_images_alike(
    databases: dict[Any, tuple[Path, Path]], variant: tuple[int, int, bool]
) -> None:
    """Morris has no key rule: over its database the search keys its table by the least of
    a position's images (the tablebase's own tables), and meets fewer nodes than keyed by
    the position itself, for the same score of the start and of each first move."""
    mid, _ = databases[variant]
    points, stones, jumps = variant
    rules = Rules(morris().Morris(points=points, stones=stones, jumps=jumps))
    start = rules.initial_state()
    folded = ProbedSearch(rules, open_for_probing(mid, rules), start, log_size=16).search
    assert folded.rules.fold is not None
    plain = CompiledSearch(folded.rules._replace(fold=None), 16, folded.db)
    states = [start, *(rules.play(start, m) for m in rules.legal_moves(start))]
    assert [folded.score((s,)) for s in states] == [plain.score((s,)) for s in states]
    assert folded.nodes < plain.nodes
    images = {folded.key((rules.play(start, m),)) for m in rules.legal_moves(start)}
    assert len(images) == (2 if points == 16 else 4)  # first stones up to symmetry


def test_analyze_reads_the_database_at_the_leaves_and_agrees_with_the_whole_game(
    databases: dict[Any, tuple[Path, Path]],
) -> None:
    """The command: ``analyze --db`` with the midgame database answers the start and each
    first move by search; with the whole game's tablebase, by reading it: the same values."""
    from cli_script import run_cli

    mid, whole = databases[(16, 4, True)]
    game = [f"{EXAMPLE}:Morris", "-p", "points=16", "-p", "stones=4"]
    reports = []
    for db, bound in ((mid, []), (whole, []), (mid, ["--memory", "1G"])):
        done = run_cli("analyze", *game, "--db", str(db), "--moves", "0", "--json", *bound)
        assert done.returncode == 0, done.stderr  # (a game without max_plies: the db's depth)
        reports.append(json.loads(done.stdout))
    searched, read, bounded = reports
    assert bounded["moves"] == searched["moves"]
    rules = Rules(morris().Morris(points=16, stones=4))
    start = rules.initial_state()
    state, seen = rules.play(start, rules.parse_move(start, "0")), []
    for move in searched["principal_variation"]:  # a draw's line stops where it goes round
        assert state not in seen[:-1]
        seen.append(state)
        state = rules.play(state, rules.parse_move(state, move))
    assert not searched["principal_variation_to_the_end"] or not rules.legal_moves(state)
    assert "compiled search" in searched["method"]
    assert searched["value"] == read["value"]
    values = {m["move"]: m["value"] for m in read["moves"]}
    assert {m["move"]: m["value"] for m in searched["moves"]} == values
    assert len(values) == 15


def test_a_database_of_other_parameters_or_damaged_is_refused(
    databases: dict[Any, tuple[Path, Path]], tmp_path: Path
) -> None:
    mid, _ = databases[(16, 4, True)]
    other = Rules(morris().Morris(points=16, stones=5, jumps=True))
    with pytest.raises(TablebaseMismatch, match="parameters") as caught:
        open_for_probing(mid, other)
    assert "\n" not in str(caught.value)
    copy = tmp_path / "damaged"
    copy.mkdir()
    for file in mid.iterdir():
        (copy / file.name).write_bytes(file.read_bytes())
    largest = max(copy.glob("tier-*"), key=lambda f: f.stat().st_size)
    data = bytearray(largest.read_bytes())
    data[len(data) // 2] ^= 0x20
    largest.write_bytes(bytes(data))
    rules = Rules(morris().Morris(points=16, stones=4, jumps=True))
    base = open_for_probing(copy, rules)
    with pytest.raises(TablebaseError, match="checksum"):
        ProbedSearch(rules, base, rules.initial_state(), log_size=12)


def test_a_tier_outside_the_tablebase_whose_moves_stay_in_it_is_refused() -> None:
    """Without the midgame's tiers the search could follow positions that repeat: one line,
    naming the tier, never a value."""
    rules = Rules(morris().Morris(points=16, stones=3, jumps=True))
    tiers = rules.tiers
    assert tiers is not None
    start_tier = int(tiers.batch_tier(np.array([rules.initial_state()]))[0])
    with pytest.raises(SolverChoiceError, match="may stay in it") as caught:
        plies_outside(rules, start_tier, set())
    assert "\n" not in str(caught.value)


def test_a_game_not_ranked_by_stones_is_told_what_the_probe_needs(tmp_path: Path) -> None:
    from perfectplay.games.tictactoe import TicTacToe

    build_tablebase(TicTacToe(), tmp_path / "ttt")
    rules = Rules(TicTacToe())
    base = open_tablebase(tmp_path / "ttt", rules.game)
    with pytest.raises(SolverChoiceError, match="ranked by their stones"):
        ProbedSearch(rules, base, rules.initial_state())


def test_play_answers_before_the_database_by_search_and_in_it_by_reading(
    databases: dict[Any, tuple[Path, Path]],
) -> None:
    """What play and explore ask (``ProbedAnswers``): before the database the search's
    value (no remoteness), in it the database's record; both the whole game's, and the
    best move keeps the value."""
    from perfectplay.tablebase.probes import ProbedAnswers

    mid, whole = databases[(16, 4, True)]
    game = morris().Morris(points=16, stones=4, jumps=True)
    rules = Rules(game)
    reference = open_tablebase(whole, rules.game)
    answers = ProbedAnswers(rules, open_for_probing(mid, rules))
    rng = random.Random(5)
    placed = 0
    for _ in range(12):
        state = game.initial()
        for _ in range(14):
            if game.outcome(state) is not None or not game.moves(state):
                break
            expected = reference.lookup(state)
            found = answers.lookup(state)
            assert expected is not None and found is not None
            assert found[0] == expected[0], game.show(state)
            in_hand = (state >> 48) & 255
            if in_hand:
                assert found[1] is None
            else:
                placed += 1
                assert found == expected
            best = answers.best_move(state)
            child = reference.lookup(game.play(state, best))
            assert child is not None and child[0] == expected[0].flipped()
            state = game.play(state, rng.choice(game.moves(state)))
    assert placed > 0


def test_a_database_of_only_the_positions_one_start_reaches_is_never_read_wrong(
    tmp_path: Path,
) -> None:
    """A midgame database solved from its start alone (``every_position`` off) lacks
    positions the placement reaches: the search says so in one line, never a value."""
    module = morris()

    class Reached(module.MorrisMidgame):  # type: ignore[misc, name-defined]
        every_position = False

    build_tablebase(Reached(points=16, stones=4), tmp_path / "reached")
    rules = Rules(module.Morris(points=16, stones=4))
    base = open_for_probing(tmp_path / "reached", rules)
    with pytest.raises((TablebaseError, SolverChoiceError)) as caught:
        probed = ProbedSearch(rules, base, rules.initial_state(), log_size=12)
        probed.search.score((rules.initial_state(),))
    assert "\n" not in str(caught.value)
