"""Every solver against plain references, on small random games (Hypothesis).

The references (tests/reference.py) solve from the definitions; the games
(tests/random_games.py) are explicit graphs with random ends, cycles, extra turns and
scores. Each full solver must agree with the reference on every reachable state, its
remoteness and best moves must obey their rules, and alpha-beta search must find the same
value from every state it can be started at.
"""

from __future__ import annotations

import math
import os
from functools import reduce
from operator import xor
from typing import Any

import pytest
import reference as ref
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from random_games import (
    ExplicitGame,
    ExplicitTurnGame,
    impartial_games,
    outcome_dags,
    outcome_graphs,
    scored_dags,
    scored_graphs,
    with_forced_cycle,
)

from perfectplay import (
    DRAW,
    LOSS,
    TIE,
    WIN,
    CycleError,
    Solution,
    SolverChoiceError,
    SumOfGames,
    Value,
    grundy_of_sum,
    search,
    solve,
)

# Scale every test's example count, e.g. PERFECTPLAY_EXAMPLE_SCALE=20 for a long hunt.
SCALE = float(os.environ.get("PERFECTPLAY_EXAMPLE_SCALE", "1"))


def examples(n: int, **kwargs: Any) -> settings:
    return settings(
        max_examples=max(1, round(n * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        **kwargs,
    )


# --- checks shared by the tests ----------------------------------------------------------


def integral(game: Any) -> bool:
    """Every reachable score is an int or infinite (so finite values come back as ints)."""
    for s in ref.reachable(game):
        end = game.outcome(s)
        if end is not None and not isinstance(end, (int, Value)) and not math.isinf(end):
            return False
    return True


def assert_same_value(actual: Any, expected: Any) -> None:
    if isinstance(expected, Value):
        assert actual is expected
    else:
        assert not isinstance(actual, Value)
        assert actual == expected


def check_agrees(sol: Solution[Any, Any], expected: ref.Solved, game: Any) -> None:
    """Value and remoteness of every reachable state as the reference has them."""
    assert sol.stats.states == len(expected)
    whole = sol.scored and integral(game)
    for s, (value, remoteness) in expected.items():
        assert_same_value(sol.value(s), value)
        assert sol.remoteness(s) == remoteness, s
        if whole and math.isfinite(value):
            assert type(sol.value(s)) is int


def check_rules(sol: Solution[Any, Any], game: Any, expected: ref.Solved) -> None:
    """Remoteness obeys its rules through move_values; move_values and best_moves agree
    with the reference's move by move; principal variations end where they should."""
    for s in expected:
        value, remoteness = sol.value(s), sol.remoteness(s)
        options = sol.move_values(s)
        want = {m: (v, r) for m, v, r in ref.move_options(game, expected, s)}
        assert sorted(mv.move for mv in options) == sorted(want)
        for mv in options:
            assert_same_value(mv.value, want[mv.move][0])
            assert mv.remoteness == want[mv.move][1]
        if ref.is_over(game, s):
            end = game.outcome(s)
            lost = LOSS if not sol.scored else -math.inf
            assert_same_value(value, lost if end is None else end)
            assert remoteness == 0
            assert sol.best_moves(s) == []
            assert sol.principal_variation(s) == []
            continue
        values = [mv.value for mv in options]
        if sol.scored:
            assert value == max(values)
            assert remoteness == min(mv.remoteness for mv in options if mv.value == value)
            assert options[0].value == value and options[0].remoteness == remoteness
        else:
            check_outcome_rule(value, remoteness, options)
        assert sorted(sol.best_moves(s)) == sorted(
            ref.best_moves(game, expected, s, scored=sol.scored)
        )
        check_principal_variation(sol, game, s)


def check_outcome_rule(value: Value, remoteness: int | None, options: list[Any]) -> None:
    by_value: dict[Value, list[int | None]] = {}
    for mv in options:
        by_value.setdefault(mv.value, []).append(mv.remoteness)
    if value is WIN:
        assert remoteness == min(by_value[WIN])  # the winner hurries
    elif value is TIE:
        assert WIN not in by_value
        assert remoteness == min(by_value[TIE])
    elif value is DRAW:
        assert remoteness is None
        assert WIN not in by_value and TIE not in by_value and DRAW in by_value
    else:
        assert set(by_value) == {LOSS}
        assert remoteness == max(by_value[LOSS])  # the loser stalls
    # Best first: the first move attains the state's own value and remoteness.
    assert options[0].value is value and options[0].remoteness == remoteness


def check_principal_variation(sol: Solution[Any, Any], game: Any, start: Any) -> None:
    line = sol.principal_variation(start)
    states = [start]
    for move in line:
        assert move in game.moves(states[-1])
        states.append(game.play(states[-1], move))
    if sol.value(start) is DRAW:
        # A draw never ends: the line stops when a state repeats, every state a draw.
        assert states[-1] in states[:-1]
        assert all(sol.value(s) is DRAW for s in states)
        return
    assert ref.is_over(game, states[-1])
    assert len(line) == sol.remoteness(start)
    assert [sol.remoteness(s) for s in states] == list(range(len(line), -1, -1))


def reference_for(game: Any) -> tuple[str, ref.Solved]:
    """The reference solution of an acyclic game, by its kind."""
    kind = ref.kind(game)
    solved = ref.negamax_scores(game) if kind == "scored" else ref.minimax_outcomes(game)
    return kind, solved


def check_search_from(game: ExplicitGame, state: int) -> None:
    """Alpha-beta from ``state`` (made the initial state) finds the reference's value, and
    a best move that attains it, in one unlimited pass and by iterative deepening."""
    start = game.with_root(state)
    _, solved = reference_for(start)
    value, _ = solved[state]
    for deepening in (False, True):
        result = search(start, deepening=deepening)
        assert_same_value(result.value, value)
        if ref.is_over(start, state):
            assert result.best_move is None
        else:
            options = {m: v for m, v, _ in ref.move_options(start, solved, state)}
            assert result.best_move in options
            assert_same_value(options[result.best_move], value)


def check_search_everywhere(game: ExplicitGame) -> None:
    for s in ref.reachable(game):
        check_search_from(game, s)


# --- outcome games -----------------------------------------------------------------------


@examples(400)
@given(outcome_dags())
def test_outcome_dags(game: ExplicitGame) -> None:
    expected = ref.minimax_outcomes(game)
    assert ref.solve_outcomes(game) == expected  # the two references agree
    event("extra turns" if isinstance(game, ExplicitTurnGame) else "plain turns")
    event(f"root {expected[0][0]}")
    for method in ("retrograde", "auto"):
        sol = solve(game, method)
        assert sol.method == "retrograde"
        check_agrees(sol, expected, game)
    check_rules(sol, game, expected)
    with pytest.raises(SolverChoiceError):
        solve(game, "negamax")
    check_search_everywhere(game)


@examples(500)
@given(outcome_graphs())
def test_outcome_graphs_with_cycles(game: ExplicitGame) -> None:
    expected = ref.solve_outcomes(game)
    cyclic = ref.has_cycle(game)
    event("cyclic" if cyclic else "acyclic")
    event(f"root {expected[0][0]}")
    if not cyclic:
        assert ref.minimax_outcomes(game) == expected
    for method in ("retrograde", "auto"):
        sol = solve(game, method)
        check_agrees(sol, expected, game)
    check_rules(sol, game, expected)
    for s, (value, _) in expected.items():
        # Search either meets a cycle and refuses, or proves the true value.
        start = game.with_root(s)
        try:
            result = search(start)
        except CycleError:
            event("search met a cycle")
            assert ref.has_cycle(start)
            continue
        assert value is not DRAW
        assert result.value is value


# --- scored games ------------------------------------------------------------------------


@examples(400)
@given(scored_dags())
def test_scored_dags(game: ExplicitGame) -> None:
    kind, expected = reference_for(game)
    event(kind)
    if kind == "outcome":
        # No reachable score: the game is a WIN/LOSS/TIE game after all.
        with pytest.raises(SolverChoiceError):
            solve(game, "negamax")
        sol = solve(game, "retrograde")
        check_agrees(sol, expected, game)
        check_rules(sol, game, expected)
    else:
        for method in ("negamax", "auto"):
            sol = solve(game, method)
            assert sol.method == "negamax" and sol.scored
            check_agrees(sol, expected, game)
        check_rules(sol, game, expected)
        for method in ("retrograde", "grundy"):
            with pytest.raises(SolverChoiceError):
                solve(game, method)
    check_search_everywhere(game)


@examples(250)
@given(scored_graphs())
def test_scored_graphs_negamax_refuses_cycles(game: ExplicitGame) -> None:
    if ref.kind(game) == "outcome":
        event("no score reachable")
        return
    if ref.has_cycle(game):
        event("cyclic")
        for method in ("negamax", "auto"):
            with pytest.raises(CycleError):
                solve(game, method)
    else:
        event("acyclic")
        check_agrees(solve(game, "negamax"), ref.negamax_scores(game), game)


@examples(200)
@given(st.data())
def test_search_refuses_forced_cycles(data: st.DataObject) -> None:
    scored = data.draw(st.booleans())
    base = data.draw(scored_graphs() if scored else outcome_graphs())
    game = data.draw(with_forced_cycle(base))
    with pytest.raises(CycleError):
        search(game)
    if ref.kind(game) == "outcome":
        assert solve(game, "retrograde").value() is DRAW
    else:
        with pytest.raises(CycleError):
            solve(game, "negamax")


# --- impartial games ---------------------------------------------------------------------


@examples(300)
@given(impartial_games())
def test_impartial_grundy(game: ExplicitGame) -> None:
    nimbers = ref.grundy_values(game)
    expected = ref.minimax_outcomes(game)
    assert ref.solve_outcomes(game) == expected
    for method in ("grundy", "auto"):
        sol = solve(game, method)
        assert sol.method == "grundy" and sol.has_grundy
        check_agrees(sol, expected, game)
        for s, g in nimbers.items():
            assert sol.grundy(s) == g
            assert (g == 0) == (sol.value(s) is LOSS)
    check_rules(sol, game, expected)
    retro = solve(game, "retrograde")
    check_agrees(retro, expected, game)
    with pytest.raises(SolverChoiceError):
        retro.grundy()
    check_search_everywhere(game)


@examples(200)
@given(impartial_games(acyclic=False))
def test_impartial_with_cycles(game: ExplicitGame) -> None:
    expected = ref.solve_outcomes(game)
    if ref.has_cycle(game):
        event("cyclic")
        with pytest.raises(CycleError):
            solve(game, "grundy")
        sol = solve(game, "auto")
        assert sol.method == "retrograde"
        check_agrees(sol, expected, game)
    else:
        event("acyclic")
        sol = solve(game, "grundy")
        check_agrees(sol, expected, game)
        for s, g in ref.grundy_values(game).items():
            assert sol.grundy(s) == g


@examples(150)
@given(st.lists(impartial_games(max_states=7), min_size=2, max_size=3))
def test_sprague_grundy(parts: list[ExplicitGame]) -> None:
    nimbers = [ref.grundy_values(p) for p in parts]
    total = reduce(xor, (n[p.initial()] for n, p in zip(nimbers, parts, strict=True)), 0)
    assert grundy_of_sum(parts) == total
    game = SumOfGames(parts)
    sol = solve(game, "grundy")
    assert sol.grundy() == total
    retro = solve(game, "retrograde")
    states = ref.reachable(game)
    assert sol.stats.states == retro.stats.states == len(states)
    for state in states:
        g = reduce(xor, (n[s] for n, s in zip(nimbers, state, strict=True)), 0)
        assert sol.grundy(state) == g
        assert sol.value(state) is (LOSS if g == 0 else WIN)
        assert retro.value(state) is sol.value(state)
        assert retro.remoteness(state) == sol.remoteness(state)
    value, remoteness = ref.minimax_outcomes(game)[game.initial()]
    assert sol.value() is value and sol.remoteness() == remoteness


# --- what solvers must refuse ------------------------------------------------------------


@examples(150)
@given(st.data())
def test_grundy_refuses_other_ends(data: st.DataObject) -> None:
    game = data.draw(impartial_games())
    where = data.draw(st.sampled_from(ref.reachable(game)))
    end = data.draw(st.sampled_from([WIN, TIE]))
    changed = game.with_changes(game.edges, {**game.terminal, where: end})
    with pytest.raises(SolverChoiceError):
        solve(changed, "grundy")
    sol = solve(changed, "auto")
    assert sol.method == "retrograde"
    check_agrees(sol, ref.minimax_outcomes(changed), changed)


@examples(150)
@given(st.data())
def test_grundy_refuses_extra_turns_and_scores(data: st.DataObject) -> None:
    game = data.draw(impartial_games())
    players = {s: data.draw(st.integers(0, 1)) for s in game.edges}
    turns = ExplicitTurnGame(game.edges, game.terminal, player=players, impartial=True)
    extra = any(same for s in ref.reachable(turns) for _, _, same in ref.successors(turns, s))
    event("extra turns reached" if extra else "no extra turn reached")
    if extra:
        with pytest.raises(SolverChoiceError):
            solve(turns, "grundy")
        assert solve(turns, "auto").method == "retrograde"
    else:
        assert solve(turns, "grundy").grundy() == ref.grundy_values(turns)[0]
    where = data.draw(st.sampled_from(ref.reachable(game)))
    scored = game.with_changes(game.edges, {where: data.draw(st.integers(-2, 2))})
    with pytest.raises(SolverChoiceError):
        solve(scored, "grundy")


def test_unknown_method_is_refused() -> None:
    with pytest.raises(SolverChoiceError):
        solve(ExplicitGame({0: []}), "minimax")


def test_forced_cycle_examples() -> None:
    loop = ExplicitGame({0: [0]})
    assert solve(loop, "retrograde").value() is DRAW
    with pytest.raises(CycleError):
        search(loop)
    scored_loop = ExplicitGame({0: [1], 1: [0, 2], 2: []}, {2: 3})
    with pytest.raises(CycleError):
        solve(scored_loop, "negamax")
    with pytest.raises(CycleError):
        solve(ExplicitGame({0: [1], 1: [0]}, impartial=True), "grundy")


# --- search(): regressions and a known engine bug ---------------------------------------

# Once a bug: when search() had not yet seen an end in its first depth pass, it kept +-inf
# bounds in its table; a later pass assumed an outcome game and narrowed the root window to
# [-1, 1], and the stale [1, inf] bounds satisfied the window test in enter() at once, so the
# root was left open with no horizon hit (GameError "... AssertionError: alpha-beta left
# the root open: [1.0, inf]").
NO_END_SEEN_EARLY = ExplicitGame({0: [1, 2], 1: [2], 2: []})


def test_search_closes_root_after_late_first_end() -> None:
    assert solve(NO_END_SEEN_EARLY).value() is WIN
    assert search(NO_END_SEEN_EARLY).value is WIN


# Regression: search() tells the kind of game (outcome or scored) from the ends it meets. In
# a scored game whose no-move states (worth -inf) settle the root before any scored end is
# reached, it must still learn that the game is scored and answer +inf, not WIN.
SCORE_SEEN_LATE = [
    ExplicitGame({0: [1, 2], 1: [], 2: [3], 3: []}, {3: 7}),
    ExplicitGame({0: [1, 2], 1: [], 2: [3], 3: [4], 4: []}, {4: 0}),
]


def test_search_bug_scored_game_valued_as_outcome() -> None:
    for game in SCORE_SEEN_LATE:
        assert solve(game).value() == math.inf
        assert search(game).value == math.inf


@examples(200, report_multiple_bugs=False)
@example(SCORE_SEEN_LATE[0])
@example(SCORE_SEEN_LATE[1])
@example(NO_END_SEEN_EARLY)
@given(st.one_of(outcome_dags(), scored_dags(), impartial_games()))
def test_search_agrees_everywhere(game: ExplicitGame) -> None:
    check_search_everywhere(game)


# --- every solver of the one table --------------------------------------------------------


@examples(150)
@given(st.one_of(outcome_dags(), scored_dags(), impartial_games()))
def test_every_solver_in_the_table_agrees_with_the_reference_or_refuses(
    game: ExplicitGame,
) -> None:
    """Every entry of ``solvers.registry.SOLVERS``, run by its name on random acyclic games
    of every kind: a graph solver answers every position as the reference does (Grundy
    values included) or refuses with SolverChoiceError; a search answers the root's value
    or refuses the game. Nothing but the table says which solvers there are; the solvers
    whose preconditions accept the game's kind must answer it."""
    from perfectplay.errors import GameError
    from perfectplay.solvers.registry import SOLVERS

    kind, expected = reference_for(game)
    answered = []
    for entry in SOLVERS:
        if entry.kind == "graph":
            try:
                sol = solve(game, entry.name)
            except SolverChoiceError:
                continue
            check_agrees(sol, expected, game)
            if sol.has_grundy:
                for state, nimber in ref.grundy_values(game).items():
                    assert sol.grundy(state) == nimber
        else:
            try:
                found = entry.function(game)
            except (SolverChoiceError, GameError):
                continue  # (the compiled search: these games have no compiled rules)
            value = getattr(found, "value", None)
            assert_same_value(value, expected[game.initial()][0])
        answered.append(entry.name)
    event(f"{kind}: {' '.join(answered)}")
    # what each kind of game must get from the table (the compiled search refuses these:
    # they have no compiled rules); a solver refusing what its precondition accepts fails
    required = {"retrograde", "alphabeta"} if kind == "outcome" else {"negamax", "alphabeta"}
    if getattr(game, "impartial", False):
        required.add("grundy")
    assert required <= set(answered), (kind, answered)
    with pytest.raises(SolverChoiceError):
        solve(game, "alphabeta")  # a search is not a method of solve()
