"""Compiled games (``perfectplay.compiled_games``) against references that share no code with
the engine.

Random compiled games (``compiled_random``: rules that hash (seed, state)) are solved in
memory and tier by tier on disk, and every reachable state's value, remoteness, best moves
and move values are compared with the plain reference solvers of ``reference`` (outcome
games) or a reference written here (scored games with rewards), both with the loops run
as plain Python and compiled by numba. The automatic ranking is compared with a
breadth-first search over the plain protocol, and its code sets with a linear search on
adversarial sets of codes. The compiled Connect Four of ``examples/connect_four.py`` is
compared with the built-in one. Last, the errors a game author meets, and the command line.

Numba compiles the loops once per game class and parameter set (a few seconds each, then
kept in its disk cache), so the many-seed runs are interpreted and the compiled runs take
one larger game of each kind.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import json
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference
from cli_script import run_cli
from compiled_random import (
    KeyGame,
    RandomGame,
    RewardGame,
    RewardTurnsGame,
    ScoredGame,
    SwapKeyGame,
    SwapKeyTurnsGame,
    TierGame,
    TierKeyGame,
    TierSwapKeyGame,
    TierSwapKeyTurnsGame,
    TierTurnsGame,
    TierUnmovesGame,
    TurnsGame,
    TurnsKeyGame,
)

from perfectplay import (
    LOSS,
    GameError,
    Value,
    build_tablebase,
    open_tablebase,
    solve,
)
from perfectplay.compiled_games import ONGOING, CompiledGame, form
from perfectplay.compiled_games.code_sets import CODES_PER_BUCKET, CodeSet
from perfectplay.games import ConnectFour

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "connect_four.py"
SEEDS = range(30)
MODES = ("interpreted", "compiled")


@pytest.fixture
def interpreted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games' loops run as plain Python (ranking included)."""
    monkeypatch.setattr(form, "_MODE", "interpreted")


@pytest.fixture
def quick_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """No fsync while building many small tablebases (their durability is not tested here,
    and fsync is most of the time a small one takes)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def use_mode(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    monkeypatch.setattr(form, "_MODE", mode)


def used_loops(game: CompiledGame) -> set[bool]:
    """Which loops a game has built: True compiled, False plain Python."""
    return set(game._loops)


# --------------------------------------------------------------------------- references


def reference_scores(game: Any) -> reference.Solved:
    """Scores of a game whose moves all lead to larger states (``reference.upward_scores``)."""
    return reference.upward_scores(game)


def expected(game: Any) -> reference.Solved:
    """The reference answers of every reachable state of a random game."""
    return reference_scores(game) if game.scored else reference.solve_outcomes(game)


def move_options(game: Any, solved: reference.Solved, state: int) -> dict[int, tuple[Any, Any]]:
    """Each move's (value, remoteness) for the mover, from the reference answers."""
    if not game.scored:
        return {m: (v, r) for m, v, r in reference.move_options(game, solved, state)}
    reward = getattr(game, "reward", None)
    options = {}
    for move, child, same in reference.successors(game, state):
        value, plies = solved[child]
        gain = reward(state, move) if reward is not None else 0.0
        options[move] = ((value if same else -value) + gain, plies + 1)  # type: ignore[operator]
    return options


def mismatches(answers: Any, game: Any, solved: reference.Solved) -> list[str]:
    """Where ``answers`` (a Solution or a Tablebase) disagree with the reference."""
    problems = []
    for state, want in solved.items():
        got = (answers.value(state), answers.remoteness(state))
        if got != want:
            problems.append(f"state {state}: value, remoteness {got}, expected {want}")
            continue
        options = move_options(game, solved, state)
        values = {mv.move: (mv.value, mv.remoteness) for mv in answers.move_values(state)}
        if values != options:
            problems.append(f"state {state}: move values {values}, expected {options}")
        if game.scored:
            top = max((v for v, _ in options.values()), default=None)
            best = [m for m, (v, _) in options.items() if v == top]
        else:
            best = reference.best_moves(game, solved, state, scored=False)
        if sorted(answers.best_moves(state)) != sorted(best):
            problems.append(f"state {state}: best moves {answers.best_moves(state)}, not {best}")
    return problems


def assert_agree(answers: Any, game: Any, solved: reference.Solved, what: str) -> None:
    problems = mismatches(answers, game, solved)
    assert not problems, f"{what}: {len(problems)} disagreements, first {problems[:3]}"


def keyed(game: Any, state: int) -> int:
    key = getattr(game, "key", None)
    return state if key is None else int(key(state))


def tier_of(game: CompiledGame, code: int) -> int:
    """A code's tier, from the rule function itself (not the engine's loops)."""
    return int(game.rule_functions["tier"](game.params, code))


def bfs_tiers(game: Any) -> tuple[dict[int, list[int]], dict[int, tuple[int, ...]]]:
    """Every tier's sorted reachable keyed codes and its child tiers (itself included when
    a move stays inside it), by a breadth-first search over the plain protocol."""
    codes: dict[int, set[int]] = {}
    kids: dict[int, set[int]] = {}
    for state in reference.reachable(game):
        code = keyed(game, state)
        tier = tier_of(game, code)
        codes.setdefault(tier, set()).add(code)
        kids.setdefault(tier, set())
        for _, child, _ in reference.successors(game, state):
            kids[tier].add(tier_of(game, keyed(game, child)))
    return (
        {t: sorted(found) for t, found in codes.items()},
        {t: tuple(sorted(found)) for t, found in kids.items()},
    )


def check_symmetry(game: Any, solved: reference.Solved) -> None:
    """The premise of the keyed games: states sharing a key have the reference's same
    answers (the key is a true symmetry of the rules)."""
    by_key: dict[int, tuple[Any, Any]] = {}
    for state, answer in solved.items():
        assert by_key.setdefault(keyed(game, state), answer) == answer, state


# --------------------------------------------------------------------------- random games

OUTCOME_CASES: dict[str, tuple[type[CompiledGame], dict[str, int]]] = {
    "graph": (RandomGame, {}),
    "graph, turns": (TurnsGame, {}),
    "graph, key": (KeyGame, {}),
    "graph, turns, key": (TurnsKeyGame, {}),
    "graph, key swaps the mover": (SwapKeyGame, {}),
    "graph, turns, key swaps the mover": (SwapKeyTurnsGame, {}),
}
TIER_CASES: dict[str, tuple[type[CompiledGame], dict[str, int]]] = {
    "loopy tiers": (TierGame, {"mode": 1}),
    "tiers, two ahead": (TierGame, {"mode": 2}),
    "tiers, next only": (TierGame, {"mode": 3}),
    "loopy tiers, turns": (TierTurnsGame, {"mode": 1}),
    "tiers next only, turns": (TierTurnsGame, {"mode": 3}),
    "loopy tiers, key": (TierKeyGame, {"mode": 1}),
    "tiers two ahead, key": (TierKeyGame, {"mode": 2}),
    "loopy tiers, key swaps the mover": (TierSwapKeyGame, {"mode": 1}),
    "loopy tiers, turns, key swaps the mover": (TierSwapKeyTurnsGame, {"mode": 1}),
    "tiers next only, key swaps the mover": (TierSwapKeyGame, {"mode": 3}),
    "tiers two ahead, turns, key swaps the mover": (TierSwapKeyTurnsGame, {"mode": 2}),
    "loopy tiers, unmoves": (TierUnmovesGame, {"mode": 1}),
}
SCORED_CASES: dict[str, type[CompiledGame]] = {
    "scored": ScoredGame,
    "rewards": RewardGame,
    "rewards, turns": RewardTurnsGame,
}
COMPILED_CASES: dict[str, tuple[type[CompiledGame], dict[str, int]]] = {
    "graph, turns, key": (TurnsKeyGame, {"seed": 1, "n": 3000}),
    "rewards, turns": (RewardTurnsGame, {"seed": 2, "n": 1500}),
    "loopy tiers, turns": (TierTurnsGame, {"seed": 1, "n": 2000, "block": 100, "mode": 1}),
    "tiers next only, key": (TierKeyGame, {"seed": 1, "n": 2000, "block": 100, "mode": 3}),
    "loopy tiers, turns, key swaps the mover": (
        TierSwapKeyTurnsGame,
        {"seed": 1, "n": 2000, "block": 100, "mode": 1},
    ),
    "loopy tiers, unmoves": (TierUnmovesGame, {"seed": 0, "n": 1000, "block": 50, "mode": 1}),
}


def test_the_random_games_are_games_worth_testing() -> None:
    """Premises: the families reach tens to hundreds of states, with cycles, draws, every
    value, extra turns, merged keys and several tiers."""
    values: Counter[Any] = Counter()
    turns: Counter[bool] = Counter()
    sizes = []
    for seed in range(10):
        game = TurnsKeyGame(seed=seed)
        solved = reference.solve_outcomes(game)
        check_symmetry(game, solved)
        values.update(v for v, _ in solved.values())
        turns.update(same for s in solved for _, _, same in reference.successors(game, s))
        sizes.append(len(solved))
        assert len({keyed(game, s) for s in solved}) < len(solved) or len(solved) < 5
    assert set(values) == set(Value)
    assert min(turns[True], turns[False]) > 100
    assert sorted(sizes)[5] >= 40
    tiers, kids = bfs_tiers(TierGame(seed=1))
    assert len(tiers) >= 4 and any(t in k for t, k in kids.items())
    assert reference.has_cycle(TierGame(seed=1))
    assert not reference.has_cycle(TierGame(seed=1, mode=2))
    scores = reference_scores(RewardTurnsGame(seed=0))
    assert len(scores) >= 30 and len({v for v, _ in scores.values()}) >= 5


@pytest.mark.usefixtures("interpreted")
@pytest.mark.parametrize("case", list(OUTCOME_CASES))
def test_random_games_solve_as_the_reference(case: str) -> None:
    cls, params = OUTCOME_CASES[case]
    for seed in SEEDS:
        game = cls(seed=seed, **params)
        solved = reference.solve_outcomes(game)
        if "key" in case:
            check_symmetry(game, solved)
        assert_agree(solve(game), game, solved, f"{case}, seed {seed}")
        assert used_loops(game) == {False}


@pytest.mark.usefixtures("interpreted")
@pytest.mark.parametrize("case", list(SCORED_CASES))
def test_random_scored_games_solve_as_the_reference(case: str) -> None:
    cls = SCORED_CASES[case]
    for seed in SEEDS:
        game = cls(seed=seed)
        solved = reference_scores(game)
        if cls is ScoredGame:  # no rewards, no turns: the shared reference agrees
            assert solved == reference.negamax_scores(game)
        solution = solve(game)
        assert solution.scored
        assert_agree(solution, game, solved, f"{case}, seed {seed}")


@pytest.mark.usefixtures("interpreted")
@pytest.mark.parametrize("case", list(TIER_CASES))
def test_random_tier_games_solve_as_the_reference(case: str) -> None:
    cls, params = TIER_CASES[case]
    for seed in SEEDS:
        game = cls(seed=seed, **params)
        solved = reference.solve_outcomes(game)
        if "key" in case:
            check_symmetry(game, solved)
        assert_agree(solve(game), game, solved, f"{case}, seed {seed}")


@pytest.mark.usefixtures("interpreted", "quick_disk")
@pytest.mark.parametrize("case", list(TIER_CASES))
def test_random_tier_games_build_tablebases_as_the_reference(case: str, tmp_path: Path) -> None:
    """Every seed for the loopy tiers, fewer for the other kinds (the disk is slow)."""
    cls, params = TIER_CASES[case]
    for seed in SEEDS if case == "loopy tiers" else SEEDS[::3]:
        game = cls(seed=seed, **params)
        solved = reference.solve_outcomes(game)
        directory = tmp_path / f"seed-{seed}"
        header, _ = build_tablebase(game, directory)
        one_each = {keyed(game, s): s for s in solved}  # a state of each code
        assert header.counts()["positions"] == len(one_each)
        assert header.counts()["values"] == dict(
            Counter(str(int(solved[s][0])) for s in one_each.values())
        )
        with open_tablebase(directory, cls(seed=seed, **params)) as tablebase:
            assert_agree(tablebase, game, solved, f"{case}, seed {seed}, tablebase")
        assert used_loops(game) == {False}


@pytest.fixture
def one_position_a_part(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The plain loops that list moves make room for one position a part (``drivers``'
    ``_room``), so a batch is listed in as many parts as it has positions with moves, each
    joined to those before (the random games' moves fit one part otherwise); counts the
    joins."""
    from perfectplay.compiled_games import building

    made = building._driver_module
    parts: Counter[str] = Counter()

    class Joins:  # numpy for the plain loops, its concatenate counted
        def __getattr__(self, name: str) -> Any:
            return getattr(np, name)

        def concatenate(self, arrays: Any) -> Any:
            parts["joined"] += 1
            return np.concatenate(arrays)

    def parted(cls: type, ident: str, compiled: bool) -> Any:
        module = made(cls, ident, compiled)
        if not compiled:
            module._room = lambda n: int(module.MAX_MOVES)
            module.np = Joins()
        return module

    monkeypatch.setattr(building, "_driver_module", parted)
    monkeypatch.setattr(building, "_built", {})  # (loops built before: in one part)
    return parts


@pytest.mark.usefixtures("interpreted", "quick_disk")
def test_moves_listed_in_parts_solve_as_the_reference(
    one_position_a_part: Counter[str], tmp_path: Path
) -> None:
    """Every loop that lists moves (expand with turns and rewards, expand_tiers,
    tier_moves, expand_ranked, unmoves) joined from parts of one position: random games
    of each kind in memory, tier by tier and into tablebases, as the reference."""
    cases = [*OUTCOME_CASES.values(), *TIER_CASES.values()]
    for (cls, params), seed in itertools.product(cases, SEEDS[:4]):
        game = cls(seed=seed, **params)
        solved = reference.solve_outcomes(game)
        assert_agree(solve(game), game, solved, f"{cls.__name__} {params}, seed {seed}")
        if cls in (c for c, _ in TIER_CASES.values()):
            directory = tmp_path / f"{cls.__name__}-{params}-{seed}"
            build_tablebase(game, directory)
            with open_tablebase(directory, cls(seed=seed, **params)) as tablebase:
                assert_agree(tablebase, game, solved, f"{cls.__name__} {params}, {seed}")
    for cls in SCORED_CASES.values():
        for seed in SEEDS[:4]:
            game = cls(seed=seed)
            assert_agree(solve(game), game, reference_scores(game), f"{cls.__name__} {seed}")
    assert one_position_a_part["joined"] > 1000


@pytest.mark.usefixtures("interpreted", "quick_disk")
@pytest.mark.parametrize("kernels", ["interpreted", "compiled"])
def test_tablebases_agree_with_the_reference_however_the_engine_kernels_run(
    kernels: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's own kernels (records written, levels, sweeps) interpreted and compiled
    alike: an int8 value shifted into its record lost its bits when interpreted, so every
    tablebase solved before numba was loaded held wrong records. One loopy tier alone in its
    game and several tiers, with and without extra turns and keys that swap the mover."""
    from perfectplay.core import compiled

    monkeypatch.setattr(compiled, "MODE", kernels)
    cases = [(TierGame, {}), (TierGame, {"mode": 3}), (TierTurnsGame, {}),
             (TierSwapKeyTurnsGame, {}), (TierSwapKeyGame, {"mode": 3})]  # fmt: skip
    for (cls, params), seed in itertools.product(cases, SEEDS[:6]):
        for block in (20, 40):  # several tiers; one loopy tier alone
            game = cls(seed=seed, n=40, block=block, **{"mode": 1, **params})
            solved = reference.solve_outcomes(game)
            directory = tmp_path / f"{cls.__name__}-{params}-{seed}-{block}"
            build_tablebase(game, directory)
            fresh = cls(seed=seed, n=40, block=block, **{"mode": 1, **params})
            with open_tablebase(directory, fresh) as tablebase:
                assert_agree(tablebase, game, solved, f"{cls.__name__}, seed {seed}, {block}")


@pytest.mark.usefixtures("interpreted", "quick_disk")
def test_extra_turns_in_loopy_tiers_are_solved_from_the_moves_laid_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loopy tiers whose moves sometimes keep the player to move go through the moves laid
    out (retrograde_by_edges, which marks those moves inside the tier and out of it), every
    loopy tier of every seed: the reference's values, and tier by tier the same bytes as
    rounds of value iteration (where the moves do not fit the memory, and before this)."""
    from perfectplay.tiers import retrograde_by_edges

    by_edges = retrograde_by_edges.solve_loopy_by_edges
    used: list[int] = []

    def spy(graph: Any, files: Any, terminals: Any, tier: int, records: Any) -> Any:
        used.append(tier)
        return by_edges(graph, files, terminals, tier, records)

    turns_inside = turns_out = loopy = 0
    for seed in SEEDS[:12]:
        game = TierTurnsGame(seed=seed, mode=1)
        solved = reference.solve_outcomes(game)
        used.clear()
        with monkeypatch.context() as patch:
            patch.setattr(retrograde_by_edges, "solve_loopy_by_edges", spy)
            edges, _ = build_tablebase(game, tmp_path / f"edges-{seed}")
        tier_rules = game.tiers()
        kids_of = tier_rules.engine.ranking().children
        tiers = sorted(t for t, kids in kids_of.items() if t in kids)
        assert sorted(used) == tiers, seed
        loopy += len(tiers)
        for tier in tiers:
            outside: list[Any] = []
            _, _, parents, _ = tier_rules.engine.tier_moves(tier, outside.append)
            turns_inside += int((np.asarray(parents) < 0).sum())
            turns_out += sum(int(np.asarray(moves[3]).sum()) for moves in outside)
        with open_tablebase(tmp_path / f"edges-{seed}", TierTurnsGame(seed=seed, mode=1)) as base:
            assert_agree(base, game, solved, f"extra turns, seed {seed}")
        with monkeypatch.context() as patch:
            patch.setattr(retrograde_by_edges, "BYTES_AN_INDEX", 1 << 40)  # never fits
            rounds, _ = build_tablebase(
                TierTurnsGame(seed=seed, mode=1), tmp_path / f"rounds-{seed}", memory=16 << 30
            )
        assert {t: e.sha256 for t, e in edges.tiers.items()} == {
            t: e.sha256 for t, e in rounds.tiers.items()
        }, seed
    assert loopy >= 20 and turns_inside >= 50 and turns_out >= 50  # premises


@pytest.mark.usefixtures("interpreted")
@pytest.mark.parametrize("case", list(TIER_CASES))
def test_the_ranking_is_each_tiers_reachable_keyed_codes(case: str) -> None:
    cls, params = TIER_CASES[case]
    for seed in SEEDS:
        game = cls(seed=seed, **params)
        check_ranking(game, f"{case}, seed {seed}")


def check_ranking(game: Any, what: str) -> None:
    """The ranking against a breadth-first search, and the tier protocol over it."""
    tiers, kids = bfs_tiers(game)
    protocol = game.tiers()  # the tier protocol a compiled game gives Rules
    ranking = protocol.engine.ranking()
    assert sorted(ranking.tiers) == sorted(tiers), what
    for tier, codes in tiers.items():
        found = np.asarray(ranking.tiers[tier].codes)
        assert found.dtype == np.int64
        assert np.all(np.diff(found) > 0), f"{what}: tier {tier} codes not sorted and distinct"
        assert found.tolist() == codes, f"{what}: tier {tier}"
        assert protocol.tier_size(tier) == len(codes)
        index = np.arange(len(codes), dtype=np.int64)
        assert protocol.batch_rank(tier, found).tolist() == index.tolist()
        assert protocol.batch_unrank(tier, index).tolist() == codes
        outside = np.array([-1, len(codes), len(codes) + 5], dtype=np.int64)
        assert protocol.batch_unrank(tier, outside).tolist() == [-1, -1, -1]
        assert [protocol.tier_index(c) for c in codes] == [(tier, i) for i in range(len(codes))]
        if tier in kids[tier]:  # a loopy tier's indices moved as it was found: no bits
            assert tier not in ranking.ended, f"{what}: tier {tier}"
        else:  # the bits the solve reads instead of asking the rules again
            bits = np.unpackbits(ranking.ended[tier], bitorder="little")
            assert bits.shape[0] == 8 * (-(-len(codes) // 8)), f"{what}: tier {tier}"
            ends = [int(game.outcome(c) is not None) for c in codes]  # (not the dead ends)
            assert bits[: len(codes)].tolist() == ends, f"{what}: tier {tier}"
    assert ranking.children == kids, what
    assert protocol.initial_tier == tier_of(game, game.initial())
    assert all(protocol.child_tiers(t) == kids[t] for t in kids)


@pytest.mark.parametrize("case", list(COMPILED_CASES))
def test_compiled_loops_agree_with_plain_ones_and_the_reference(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One larger game of each kind with the loops compiled by numba: the compiled loops
    give the plain ones' outputs on every reachable state, and the answers are the
    reference's, in memory and (tier games) from a tablebase."""
    use_mode(monkeypatch, "compiled")
    cls, params = COMPILED_CASES[case]
    game = cls(**params)
    solved = expected(game)
    assert len(solved) >= 200  # a game worth compiling
    states = np.array(sorted(solved), dtype=np.int64)
    plain, fast = game.engine_loops(False), game.engine_loops(True)
    assert fast.compiled and not plain.compiled
    for name in ("outcomes", "keys", "tiers"):
        kind = np.float64 if (name == "outcomes" and game.scored) else np.int64
        a, b = np.empty(states.shape[0], kind), np.empty(states.shape[0], kind)
        getattr(plain, name)(states, a)
        getattr(fast, name)(states, b)
        np.testing.assert_array_equal(a, b)
    for a, b in zip(plain.expand(states, True), fast.expand(states, True), strict=True):
        np.testing.assert_array_equal(a, b)
    assert plain.start() == fast.start() == keyed(game, game.initial())

    assert_agree(solve(game), game, solved, f"{case}, compiled, solve")
    if "tier" not in game.rule_functions:
        return
    check_ranking(game, f"{case}, compiled")
    header, _ = build_tablebase(game, tmp_path / "tb")
    assert header.counts()["positions"] == len({keyed(game, s) for s in solved})
    with open_tablebase(tmp_path / "tb", cls(**params)) as tablebase:
        assert_agree(tablebase, game, solved, f"{case}, compiled, tablebase")
    assert True in used_loops(game)


# --------------------------------------------------------------------------- code sets


def adversarial_code_sets() -> Iterator[tuple[str, list[int]]]:
    """Sets of codes shaped to trouble a bucket index."""
    rng = random.Random(7)
    top = 2**63 - 1
    yield "empty", []
    yield "zero", [0]
    yield "one code", [123_456_789]
    yield "the largest code", [top]
    yield "two ends", [0, top]
    yield "span 2**62", [0, 2**62]
    yield "span 2**62 from 1", [1, 2**62 + 1]
    yield "top half", [2**62, top]
    yield "consecutive", list(range(1000, 1100))
    yield "consecutive near the top", list(range(top - 99, top + 1))
    yield "eight", list(range(8))
    yield "nine", list(range(9))
    yield "clustered and one far", [*range(2**40, 2**40 + 60), 2**62]
    yield "one low and a far cluster", [3, *range(2**61, 2**61 + 60)]
    yield "clustered both ends", [*range(50), *range(top - 49, top + 1)]
    yield "powers of two", [2**k for k in range(63)]
    yield "random 62-bit", [rng.randrange(2**62) for _ in range(500)]
    yield "random 63-bit", [rng.randrange(2**63) for _ in range(500)]
    yield "random small", [rng.randrange(5000) for _ in range(3000)]
    yield "geometric", sorted({int(1.3**k) for k in range(160)})
    yield "evens", list(range(0, 4000, 2))


def absent_queries(codes: list[int], code_set: CodeSet) -> list[int]:
    """Codes not in the set: below the first, above the last, between neighbours, at
    and beside the bucket edges, and at random."""
    rng = random.Random(len(codes))
    top = 2**63 - 1
    members = set(codes)
    queries = [-(2**63), -1, 0, 1, 2**62, top, top - 1]
    if codes:
        first, last = codes[0], codes[-1]
        queries += [first - 1, first - 2, first - 1000, last + 1, last + 2, last + 1000]
        for a, b in itertools.pairwise(codes):
            queries += [a + 1, b - 1, (a + b) // 2]
        for k in range(len(code_set.buckets) + 1):
            edge = code_set.base + (k << code_set.shift)
            queries += [edge - 1, edge, edge + 1]
        queries += [rng.randint(first, last) for _ in range(200)]
    queries += [rng.randrange(2**63) for _ in range(200)]
    return [q for q in queries if -(2**63) <= q <= top and q not in members]


@pytest.mark.parametrize("mode", MODES)
def test_code_sets_rank_members_and_refuse_everything_else(mode: str) -> None:
    game = TierKeyGame(**COMPILED_CASES["tiers next only, key"][1])
    loops = game.engine_loops(mode == "compiled")
    problems = []
    for name, raw in adversarial_code_sets():
        codes = sorted(set(raw))
        code_set = CodeSet.of(np.array(codes, dtype=np.int64))
        assert len(code_set) == len(codes)
        assert len(code_set.buckets) <= len(codes) // CODES_PER_BUCKET + 3, name
        members = code_set.rank(loops, np.array(codes, dtype=np.int64)).tolist()
        if members != list(range(len(codes))):
            lost = [(c, r) for i, (c, r) in enumerate(zip(codes, members, strict=True)) if r != i]
            problems.append(f"{name}: members ranked wrong (code, rank) {lost[:3]}")
        absent = absent_queries(codes, code_set)
        got = code_set.rank(loops, np.array(absent, dtype=np.int64))
        wrong = [(q, int(i)) for q, i in zip(absent, got.tolist(), strict=True) if i != -1]
        if wrong:
            problems.append(f"{name}: absent codes ranked {wrong[:3]}")
        for i in rng_sample(len(codes)):  # the one-code probe too
            one = loops.find(
                code_set.codes, code_set.buckets, code_set.base, code_set.shift, codes[i]
            )
            if one != i:
                problems.append(f"{name}: find({codes[i]}) is {one}, not {i}")
                break
    assert not problems, problems


def rng_sample(n: int) -> list[int]:
    return sorted(random.Random(n).sample(range(n), min(n, 20)))


@pytest.mark.usefixtures("interpreted", "quick_disk")
def test_a_tier_of_codes_spanning_2_62_is_ranked_and_built(tmp_path: Path) -> None:
    """Codes are any non-negative int64: a tier whose codes span more than 2**62."""
    game = FarCodes()
    solved = reference.solve_outcomes(game)
    check_ranking(game, "far codes")
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", FarCodes()) as tablebase:
        assert_agree(tablebase, game, solved, "far codes")


class FarCodes(CompiledGame):
    """The start moves to 1 and to 2**62 + 1 (tier 1), lost for their mover, or to 2**62 + 3
    which moves to 2**63 - 1."""

    def start(p):
        return 0

    def moves(p, s, out):
        if s == 0:
            out[0] = 1
            out[1] = (1 << 62) + 1
            out[2] = (1 << 62) + 3
            return 3
        if s == (1 << 62) + 3:
            out[0] = (1 << 62) + ((1 << 62) - 1)
            return 1
        return 0

    def play(p, s, m):
        return m

    def outcome(p, s):
        return ONGOING

    def tier(p, s):
        return 0 if s == 0 else 1


class BackInTier(CompiledGame):
    """The start (tier 0) moves to 1 and 2 (tier 1); 1 moves to 2, a code tier 1 already
    holds from the start: a move inside tier 1 that finds no new code."""

    def start(p):
        return 0

    def moves(p, s, out):
        if s == 0:
            out[0] = 1
            out[1] = 2
            return 2
        if s == 1:
            out[0] = 2
            return 1
        return 0

    def play(p, s, m):
        return m

    def outcome(p, s):
        return LOSS if s == 2 else ONGOING

    def tier(p, s):
        return 0 if s == 0 else 1


@pytest.mark.usefixtures("interpreted", "quick_disk")
def test_a_tier_lists_itself_when_its_moves_stay_inside_it(tmp_path: Path) -> None:
    game = BackInTier()
    assert game.tiers().engine.ranking().children == {0: (1,), 1: (1,)}
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", BackInTier()) as tablebase:
        assert_agree(tablebase, game, reference.solve_outcomes(game), "back in tier")


class UnreachedParent(CompiledGame):
    """One loopy tier: 0 moves to 3 (a lost end) and to 9, and 9 and 8 move to each other
    for ever; 5, which play never reaches, also moves to 3. Its un-moves are exact: 3 is
    reached from 0 and 5, 9 from 0 and 8, 8 from 9."""

    def start(p):
        return 0

    def moves(p, s, out):
        if s == 0:
            out[0] = 3
            out[1] = 9
            return 2
        if s == 5 or s == 8 or s == 9:
            out[0] = 3 if s == 5 else 17 - s
            return 1
        return 0

    def play(p, s, m):
        return m

    def outcome(p, s):
        return LOSS if s == 3 else ONGOING

    def tier(p, s):
        return 0

    def unmoves(p, s, out):
        if s == 3:
            out[0] = 0
            out[1] = 5
            return 2
        if s == 9:
            out[0] = 0
            out[1] = 8
            return 2
        if s == 8:
            out[0] = 9
            return 1
        return 0


@pytest.mark.usefixtures("interpreted", "quick_disk")
def test_unmoves_from_positions_play_never_reaches_are_ignored(tmp_path: Path) -> None:
    """The rules cannot know which parents play reaches: un-moves from 5 (never reached)
    must not count for another position of the tier (9 and 8 never end: DRAW)."""
    game = UnreachedParent()
    solved = reference.solve_outcomes(game)
    assert solved[9] == (Value.DRAW, None)
    assert_agree(solve(game), game, solved, "unreached parent, solve")
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", UnreachedParent()) as tablebase:
        assert_agree(tablebase, game, solved, "unreached parent, tablebase")


# --------------------------------------------------------------------------- Connect Four


def load_example() -> Any:
    """examples/connect_four.py, loaded under the module name the command line gives it
    (numba's disk cache names functions by module: the two share their compiled code)."""
    name = f"perfectplay_user_{hashlib.sha256(str(EXAMPLE).encode()).hexdigest()[:16]}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, EXAMPLE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def playouts(
    builtin: Any, moves_of: Callable[[Any], list[int]], n: int, seed: int
) -> Iterator[list[int]]:
    """Move sequences of random games of the built-in board, every prefix (the start too)."""
    rng = random.Random(seed)
    for _ in range(n):
        state, line = builtin.initial(), []
        yield []
        while builtin.outcome(state) is None and moves_of(state):
            move = rng.choice(moves_of(state))
            line.append(move)
            state = builtin.play(state, move)
            yield list(line)


def replay(game: Any, line: list[int]) -> Any:
    state = game.initial()
    for move in line:
        assert move in game.moves(state)
        state = game.play(state, move)
    return state


def same_answers(mine: Any, theirs: Any, example: Any, builtin: Any, lines: Any) -> int:
    """The two answer sets agree at the end of every line; how many positions were seen."""
    seen = 0
    for line in lines:
        a, b = replay(example, line), replay(builtin, line)
        assert example.moves(a) == builtin.moves(b), line
        assert (example.outcome(a) is None) == (builtin.outcome(b) is None), line
        assert (mine.value(a), mine.remoteness(a)) == (theirs.value(b), theirs.remoteness(b))
        want = [(mv.move, mv.value, mv.remoteness) for mv in theirs.move_values(b)]
        assert sorted((mv.move, mv.value, mv.remoteness) for mv in mine.move_values(a)) == sorted(
            want
        ), line
        assert sorted(mine.best_moves(a)) == sorted(theirs.best_moves(b)), line
        seen += 1
    return seen


@pytest.mark.usefixtures("quick_disk")
@pytest.mark.parametrize("size", [(4, 3), (3, 4), (4, 4)])
def test_connect_four_example_builds_the_builtins_tablebase(
    size: tuple[int, int], tmp_path: Path
) -> None:
    width, height = size
    example = load_example().ConnectFour(width=width, height=height)
    builtin = ConnectFour(width, height)
    mine, _ = build_tablebase(example, tmp_path / "example")
    theirs, _ = build_tablebase(builtin, tmp_path / "builtin")
    assert mine.counts() == theirs.counts()
    assert sorted(mine.tiers) == sorted(theirs.tiers) == list(range(width * height + 1))
    for tier, entry in mine.tiers.items():
        other = theirs.tiers[tier]
        assert (entry.positions, entry.values, entry.remoteness) == (
            other.positions,
            other.values,
            other.remoteness,
        ), tier
        assert entry.size == entry.positions  # the engine's ranking holds reachable codes only
    with (
        open_tablebase(
            tmp_path / "example", load_example().ConnectFour(width=width, height=height)
        ) as a,
        open_tablebase(tmp_path / "builtin", ConnectFour(width, height)) as b,
    ):
        assert (a.value(), a.remoteness()) == (b.value(), b.remoteness())
        lines = playouts(builtin, builtin.moves, 60, seed=width * 10 + height)
        assert same_answers(a, b, example, builtin, lines) > 500


@pytest.mark.parametrize("mode", MODES)
def test_connect_four_example_solves_as_the_builtin(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_mode(monkeypatch, mode)
    example = load_example().ConnectFour(width=3, height=4)
    builtin = ConnectFour(3, 4)
    mine, theirs = solve(example), solve(builtin)
    assert mine.stats.states == theirs.stats.states
    assert (mine.value(), mine.remoteness()) == (theirs.value(), theirs.remoteness())
    lines = playouts(builtin, builtin.moves, 40, seed=5)
    assert same_answers(mine, theirs, example, builtin, lines) > 300
    assert used_loops(example) == {mode == "compiled"}


# --------------------------------------------------------------------------- errors


class DictMoves(CompiledGame):
    """moves() keeps a Python dict numba cannot type."""

    def start(p):
        return 0

    def moves(p, s, out):
        table = {}
        out[0] = len(table) + 1
        return 1

    def play(p, s, m):
        return s + m

    def outcome(p, s):
        return LOSS if s > 2 else ONGOING


class TextOutcome(CompiledGame):
    """outcome() returns a string while the game goes on."""

    def start(p):
        return 0

    def moves(p, s, out):
        out[0] = 1
        return 1

    def play(p, s, m):
        return s + m

    def outcome(p, s):
        if s > 2:
            return LOSS
        return "going on"


def line_of(function: Any, text: str) -> int:
    """The line of a function's source holding ``text``."""
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize(("cls", "name"), [(DictMoves, "moves"), (TextOutcome, "outcome")])
def test_a_rule_numba_cannot_compile_is_a_one_line_game_error(
    cls: type[CompiledGame], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_mode(monkeypatch, "compiled")
    with pytest.raises(GameError) as caught:
        solve(cls())
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{cls.__name__}.{name}()"), message
    assert "cannot be compiled by numba" in message
    lines, first = inspect.getsourcelines(cls.rule_functions[name])
    place = re.search(rf"{re.escape(Path(__file__).name)}:(\d+)", message)
    assert place is not None, message
    assert first <= int(place.group(1)) < first + len(lines), message
    with pytest.raises(GameError):  # the same game, asked again
        cls().engine_loops(True)


def test_a_rule_numba_cannot_compile_is_told_numbas_reason() -> None:
    """The one line carries numba's reason (here: it cannot type ``table``), not only the
    name of the step of its pipeline that failed."""
    with pytest.raises(GameError) as caught:
        DictMoves().engine_loops(True)
    message = str(caught.value)
    assert "table" in message, message
    assert f"{Path(__file__).name}:{line_of(DictMoves.rule_functions['moves'], 'table = {}')}" in (
        message
    )


class TooManyMoves(CompiledGame):
    """From state 2 on, moves() fills the buffer and claims one move more."""

    max_moves = 4

    def start(p):
        return 0

    def moves(p, s, out):
        for j in range(out.shape[0]):
            out[j] = 1
        return 1 if s < 2 else out.shape[0] + 1

    def play(p, s, m):
        return s + m

    def outcome(p, s):
        return LOSS if s > 5 else ONGOING

    def tier(p, s):
        return s


@pytest.mark.parametrize("mode", MODES)
def test_more_moves_than_max_moves_is_a_game_error(
    mode: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_mode(monkeypatch, mode)
    assert TooManyMoves().moves(1) == [1]
    with pytest.raises(GameError, match="max_moves"):
        TooManyMoves().moves(2)
    with pytest.raises(GameError, match="max_moves"):
        solve(TooManyMoves())  # explored in memory, through the batch protocol
    with pytest.raises(GameError, match="max_moves"):
        TooManyMoves().tiers().engine.ranking()
    with pytest.raises(GameError, match="max_moves"):
        build_tablebase(TooManyMoves(), tmp_path / "tb")


@pytest.mark.usefixtures("interpreted")
def test_a_move_lowering_the_tier_is_a_game_error(tmp_path: Path) -> None:
    game = TierGame(seed=3, mode=0)  # moves anywhere: some lower the tier
    lowering = [
        (s, c)
        for s in reference.reachable(game)
        for _, c, _ in reference.successors(game, s)
        if tier_of(game, c) < tier_of(game, s)
    ]
    assert lowering
    with pytest.raises(GameError, match="may not lower the tier"):
        game.tiers().engine.ranking()
    with pytest.raises(GameError, match="may not lower the tier"):
        build_tablebase(TierGame(seed=3, mode=0), tmp_path / "tb")


def test_a_game_without_a_required_rule_is_a_game_error() -> None:
    class NoPlay(CompiledGame):
        def start(p):
            return 0

        def moves(p, s, out):
            return 0

        def outcome(p, s):
            return LOSS

    with pytest.raises(GameError, match="play"):
        NoPlay()


def test_parameters_are_keywords_with_defaults_and_nothing_else() -> None:
    game = TierKeyGame(seed=5, n=80)
    assert game.params == (5, 80, 3, 1, 20, 1)
    assert game.sym is True and game.n == 80
    assert TierKeyGame.parameter_names == ("seed", "n", "degree", "mode", "block", "sym")
    assert list(inspect.signature(TierKeyGame).parameters) == list(TierKeyGame.parameter_names)
    with pytest.raises(TypeError, match="colour"):
        TierKeyGame(colour=1)
    with pytest.raises(ValueError, match="seed"):
        TierKeyGame(seed="one")
    assert not hasattr(RandomGame(), "key") and not hasattr(RandomGame(), "to_move")
    assert hasattr(KeyGame(), "key") and hasattr(TurnsGame(), "to_move")
    assert RandomGame().tiers() is None and TierGame().tiers().batch_rank is not None
    assert TierUnmovesGame().tiers().batch_parents is not None


@pytest.mark.usefixtures("interpreted")
def test_an_outcome_out_of_range_is_a_game_error() -> None:
    class Nine(CompiledGame):
        def start(p):
            return 0

        def moves(p, s, out):
            out[0] = 1
            return 1

        def play(p, s, m):
            return s + 1

        def outcome(p, s):
            return 9 if s == 3 else ONGOING

    with pytest.raises(GameError, match="9"):
        Nine().outcome(3)
    assert Nine().outcome(2) is None
    with pytest.raises(GameError, match="9"):
        solve(Nine())


# --------------------------------------------------------------------------- command line


def cli(*args: str) -> dict[str, Any]:
    result = run_cli(*args, "--json", "-q")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def test_the_command_line_solves_saves_and_analyzes_the_example(tmp_path: Path) -> None:
    game = f"{EXAMPLE}:ConnectFour"
    size = ("-p", "width=4", "-p", "height=3")
    builtin = solve(ConnectFour(4, 3))

    solved = run_cli("solve", game, *size, "-q")
    assert solved.returncode == 0, solved.stderr
    assert "Traceback" not in solved.stderr
    rows = dict(line.split(None, 1) for line in solved.stdout.splitlines() if line.strip())
    assert rows["value"].strip() == str(builtin.value())
    assert rows["remoteness"].strip() == str(builtin.remoteness())
    assert rows["method"].strip() == "tiers"  # tier by tier, in a directory removed after
    assert rows["positions"].strip().replace(",", "") == str(builtin.stats.states)
    assert "tablebase" not in rows and "bytes" not in rows
    explored = run_cli("solve", game, *size, "-q", "--method", "retrograde")  # as a graph
    assert explored.returncode == 0, explored.stderr
    again = dict(line.split(None, 1) for line in explored.stdout.splitlines() if line.strip())
    for row in ("value", "remoteness", "best", "perfect"):
        assert again[row].split() == rows[row].split(), row
    assert again["states"].strip().replace(",", "") == str(builtin.stats.states)

    saved = cli("solve", game, *size, "--save", str(tmp_path / "db"))
    assert (saved["value"], saved["remoteness"]) == (str(builtin.value()), builtin.remoteness())
    assert (tmp_path / "db" / "header.json").is_file()

    analyzed = cli("analyze", game, *size, "--db", str(tmp_path / "db"), "--moves", "1,2,1")
    state = replay(ConnectFour(4, 3), [1, 2, 1])
    assert analyzed["value"] == str(builtin.value(state))
    assert analyzed["remoteness"] == builtin.remoteness(state)
    want = {str(mv.move): (str(mv.value), mv.remoteness) for mv in builtin.move_values(state)}
    assert {m["move"]: (m["value"], m["remoteness"]) for m in analyzed["moves"]} == want
    # Without --db: solved tier by tier into a directory removed after, the same answers.
    passing = cli("analyze", game, *size, "--moves", "1,2,1")
    assert passing["method"] == "tiers"
    assert (passing["value"], passing["remoteness"]) == (analyzed["value"], analyzed["remoteness"])
    assert {m["move"]: (m["value"], m["remoteness"]) for m in passing["moves"]} == want


def test_the_command_line_tells_a_bad_parameter_of_the_example() -> None:
    result = run_cli("solve", f"{EXAMPLE}:ConnectFour", "-p", "depth=3", "-q")
    assert result.returncode != 0
    assert "depth" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_cached_loops_are_keyed_by_the_library_kernels_they_inline() -> None:
    """A game's cached loops and search rules inline the board toolkit, the count of bits
    and (the search's probe) the ranking by stones: each source is in the cache's key, so
    a change there compiles them again rather than loading stale machine code."""
    from pathlib import Path

    from perfectplay.boards import hexagon, morris, square
    from perfectplay.compiled_games import building, stones
    from perfectplay.core import bits

    keyed = set(building._toolkit_sources())
    for module in (hexagon, morris, square, bits, stones):
        assert Path(module.__file__).read_bytes() in keyed, module.__name__
