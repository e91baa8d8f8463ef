"""Broken games and bad calls: each gives the right PerfectplayError, with a message that says
which method misbehaved and on which state.

The games here are a chain of states ("s", 0) -> ("s", 1) -> ... -> ("s", 3); each test breaks
one method at one state, so the message can be checked for that state's repr.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from perfectplay import (
    DRAW,
    LOSS,
    WIN,
    CycleError,
    GameError,
    PerfectplayError,
    SolverChoiceError,
    StateBudgetExceeded,
    UnexploredStateError,
    search,
    solve,
)

LAST = 3
BAD = ("s", 2)  # the state each broken method trips on


class Chain:
    """A correct game: ("s", n) moves to ("s", n + 1) until ("s", 3), which has no moves."""

    def initial(self) -> Any:
        return ("s", 0)

    def moves(self, state: Any) -> Any:
        return [1] if state[1] < LAST else []

    def play(self, state: Any, move: Any) -> Any:
        return ("s", state[1] + move)

    def outcome(self, state: Any) -> Any:
        return None


def broken(**methods: Callable[..., Any]) -> Chain:
    """A Chain with some methods replaced."""
    game: Chain = type("Broken", (Chain,), methods)()
    return game


def fail(exc: BaseException) -> Any:
    raise exc


Runner = Callable[[Any], Any]
RUNNERS: dict[str, Runner] = {"solve": solve, "search": search}


def error_of(runner: Runner, game: Any, kind: type[Exception] = GameError) -> str:
    with pytest.raises(kind) as info:
        runner(game)
    assert isinstance(info.value, PerfectplayError)
    return str(info.value)


def test_the_chain_itself_is_fine() -> None:
    solution = solve(Chain())
    # Three moves to a dead end: the first player makes the last move and wins.
    assert solution.value() is WIN
    assert solution.remoteness() == 3
    assert search(Chain()).value is WIN


# --------------------------------------------------------------------------- unhashable states

UNHASHABLE_INITIAL = broken(initial=lambda self: ["s", 0])
UNHASHABLE_CHILD = broken(play=lambda self, s, m: ["s", s[1] + m] if s == BAD else ("s", s[1] + m))


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_unhashable_initial_state(runner: Runner) -> None:
    message = error_of(runner, UNHASHABLE_INITIAL)
    assert "Broken" in message
    assert "not hashable" in message
    assert "['s', 0]" in message
    assert "tuple" in message  # it says what to use instead


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_unhashable_initial_state_names_initial(runner: Runner) -> None:
    assert "initial()" in error_of(runner, UNHASHABLE_INITIAL)


def test_unhashable_child_by_solve() -> None:
    message = error_of(solve, UNHASHABLE_CHILD)
    assert "Broken" in message
    assert "play(state, 1)" in message
    assert repr(BAD) in message
    assert "not hashable" in message


def test_unhashable_child_by_search() -> None:
    message = error_of(search, UNHASHABLE_CHILD)
    assert "not hashable" in message
    assert "['s', 3]" in message


def test_unhashable_child_by_search_names_play() -> None:
    message = error_of(search, UNHASHABLE_CHILD)
    assert "play(state, 1)" in message
    assert repr(BAD) in message


def test_unhashable_key() -> None:
    game = broken(key=lambda self, s: list(s))
    message = error_of(solve, game)
    assert "key(state)" in message
    assert "not hashable" in message
    assert "('s', 0)" in message


# --------------------------------------------------------------------------- methods that raise


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_play_raises(runner: Runner) -> None:
    game = broken(
        play=lambda self, s, m: fail(ZeroDivisionError("no room")) if s == BAD else ("s", s[1] + m)
    )
    message = error_of(runner, game)
    assert "Broken.play(state, 1) raised ZeroDivisionError: no room" in message
    assert repr(BAD) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_moves_raises(runner: Runner) -> None:
    def moves(self: Any, state: Any) -> Any:
        if state == BAD:
            yield from ()
            raise ValueError("bad board")
        yield from Chain.moves(self, state)

    message = error_of(runner, broken(moves=moves))
    assert "Broken.moves(state) raised ValueError: bad board" in message
    assert repr(BAD) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_moves_not_iterable(runner: Runner) -> None:
    game = broken(moves=lambda self, s: None if s == BAD else Chain.moves(self, s))
    message = error_of(runner, game)
    assert "moves(state) raised TypeError" in message
    assert repr(BAD) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_outcome_raises(runner: Runner) -> None:
    game = broken(outcome=lambda self, s: fail(KeyError("who")) if s == BAD else None)
    message = error_of(runner, game)
    assert "Broken.outcome(state) raised KeyError" in message
    assert repr(BAD) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_initial_raises(runner: Runner) -> None:
    message = error_of(runner, broken(initial=lambda self: fail(RuntimeError("no board"))))
    assert "Broken.initial() raised RuntimeError: no board" in message


def test_original_exception_is_kept_as_cause() -> None:
    game = broken(play=lambda self, s, m: fail(ZeroDivisionError("x")))
    with pytest.raises(GameError) as info:
        solve(game)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


# --------------------------------------------------------------------------- bad outcomes


def ending_with(value: object) -> Chain:
    return broken(outcome=lambda self, s: value if s == ("s", LAST) else None)


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
@pytest.mark.parametrize(
    ("value", "shown"),
    [("lost", "'lost'"), (True, "True"), (False, "False"), ([1], "[1]"), (1 + 2j, "(1+2j)")],
    ids=["str", "True", "False", "list", "complex"],
)
def test_outcome_of_wrong_type(runner: Runner, value: object, shown: str) -> None:
    message = error_of(runner, ending_with(value))
    assert "Broken.outcome(state) returned " + shown in message
    assert repr(("s", LAST)) in message
    assert "expected None, WIN, LOSS, TIE or a number" in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_outcome_draw(runner: Runner) -> None:
    message = error_of(runner, ending_with(DRAW))
    assert "outcome(state)" in message
    assert "DRAW" in message
    assert repr(("s", LAST)) in message


def test_outcome_draw_explained_by_solve() -> None:
    message = error_of(solve, ending_with(DRAW))
    assert "WIN, LOSS or TIE" in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
@pytest.mark.parametrize("nan", [math.nan, float("-nan")], ids=["nan", "-nan"])
def test_outcome_nan(runner: Runner, nan: float) -> None:
    message = error_of(runner, ending_with(nan))
    assert "outcome(state)" in message
    assert "NaN" in message
    assert repr(("s", LAST)) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_outcome_integer_too_large_to_be_exact(runner: Runner) -> None:
    message = error_of(runner, ending_with(2**60))
    assert "outcome(state)" in message
    assert "2**53" in message
    assert repr(("s", LAST)) in message


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
@pytest.mark.parametrize("score", [math.inf, -math.inf, 2**53, -(2**53), 0.5, 7])
def test_good_scores_are_accepted(runner: Runner, score: float) -> None:
    # The player at ("s", 3) is the second player: the first one gets -score.
    result = runner(ending_with(score))
    value = result.value() if runner is solve else result.value
    assert value == -score


class Mixed(Chain):
    """Two ends: one returns WIN, the other a number."""

    def moves(self, state: Any) -> Any:
        return [1, 2] if state[1] < LAST else []

    def outcome(self, state: Any) -> Any:
        if state == ("s", LAST):
            return WIN
        if state == ("s", LAST + 1):
            return 5
        return None


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_outcomes_mixed_with_scores(runner: Runner) -> None:
    message = error_of(runner, Mixed())
    assert "Mixed.outcome(state) mixes outcomes and scores" in message
    assert repr(("s", LAST)) in message or repr(("s", LAST + 1)) in message


def test_mixed_message_of_solve_names_both_ends() -> None:
    message = error_of(solve, Mixed())
    assert "WIN for ('s', 3)" in message
    assert "5 for ('s', 4)" in message


# --------------------------------------------------------------------------- budgets


def test_max_states_exceeded() -> None:
    with pytest.raises(StateBudgetExceeded) as info:
        solve(Chain(), max_states=3)
    assert not isinstance(info.value, GameError)
    assert isinstance(info.value, PerfectplayError)
    message = str(info.value)
    assert "Chain" in message
    assert "max_states=3" in message


def test_max_states_is_inclusive() -> None:
    # The chain has exactly four states.
    assert solve(Chain(), max_states=4).stats.states == 4
    with pytest.raises(StateBudgetExceeded):
        solve(Chain(), max_states=3)


def test_max_states_large_game() -> None:
    from perfectplay.games import TicTacToe

    assert solve(TicTacToe(), max_states=5478).stats.states == 5478
    with pytest.raises(StateBudgetExceeded, match="max_states=5,477"):
        solve(TicTacToe(), max_states=5477)


def test_max_nodes_exceeded_by_search() -> None:
    with pytest.raises(StateBudgetExceeded, match="max_nodes=2"):
        search(Chain(), max_nodes=2)


# --------------------------------------------------------------------------- cycles


class ScoredCycle(Chain):
    """("s", 0) -> ("s", 1) -> ("s", 2) -> ("s", 0), and each can also end the game with 1."""

    def moves(self, state: Any) -> Any:
        return ["next", "stop"] if state[0] == "s" else []

    def play(self, state: Any, move: Any) -> Any:
        return ("s", (state[1] + 1) % 3) if move == "next" else ("end", 0)

    def outcome(self, state: Any) -> Any:
        return 1 if state[0] == "end" else None


CYCLE_STATES = [("s", 0), ("s", 1), ("s", 2)]


def test_scored_cycle_under_solve() -> None:
    message = error_of(solve, ScoredCycle(), CycleError)
    assert "negamax" in message
    assert "cycle" in message
    assert "retrograde" in message
    assert any(repr(s) in message for s in CYCLE_STATES)


def test_scored_cycle_under_search() -> None:
    message = error_of(search, ScoredCycle(), CycleError)
    assert "cycle" in message
    assert "retrograde" in message
    assert any(repr(s) in message for s in CYCLE_STATES)


def test_scored_cycle_cannot_use_retrograde() -> None:
    with pytest.raises(SolverChoiceError, match="scored"):
        solve(ScoredCycle(), "retrograde")


class OutcomeCycle(ScoredCycle):
    """The same cycle, but stopping is a loss for the one who stops: nobody wants to stop."""

    impartial = True

    def outcome(self, state: Any) -> Any:
        return WIN if state[0] == "end" else None


def test_outcome_cycle_is_a_draw_under_retrograde() -> None:
    solution = solve(OutcomeCycle())
    assert solution.method == "retrograde"  # auto does not pick grundy for a cycle
    for state in CYCLE_STATES:
        assert solution.value(state) is DRAW
        assert solution.remoteness(state) is None
    assert solution.best_moves() == ["next"]


def test_outcome_cycle_under_grundy() -> None:
    message = error_of(lambda g: solve(g, "grundy"), OutcomeCycle(), SolverChoiceError)
    assert "ends in a win" in message  # the end is WIN for the mover, not normal play


class NormalPlayCycle(ScoredCycle):
    """The cycle in normal play: whoever stops leaves the other player without a move."""

    impartial = True

    def outcome(self, state: Any) -> Any:
        return None


def test_normal_play_cycle() -> None:
    solution = solve(NormalPlayCycle())
    assert solution.method == "retrograde"
    assert all(solution.value(state) is WIN for state in CYCLE_STATES)
    assert solution.best_moves() == ["stop"]
    message = error_of(lambda g: solve(g, "grundy"), NormalPlayCycle(), CycleError)
    assert "grundy" in message
    assert "retrograde" in message
    assert any(repr(s) in message for s in CYCLE_STATES)


# --------------------------------------------------------------------------- bad questions


@pytest.fixture(scope="module")
def chain_solution() -> Any:
    return solve(Chain())


@pytest.mark.parametrize(
    "question",
    ["value", "remoteness", "move_values", "best_moves", "principal_variation"],
)
@pytest.mark.parametrize("state", [("s", 99), ("t", 0), ["s", 0], 7], ids=repr)
def test_unreached_state(chain_solution: Any, question: str, state: object) -> None:
    with pytest.raises(UnexploredStateError) as info:
        getattr(chain_solution, question)(state)
    message = str(info.value)
    assert repr(state) in message
    assert "never reached" in message
    assert "Chain" in message


def test_reached_states_are_answered(chain_solution: Any) -> None:
    values = [chain_solution.value(("s", n)) for n in range(LAST + 1)]
    assert values == [WIN, LOSS, WIN, LOSS]
    assert [chain_solution.remoteness(("s", n)) for n in range(LAST + 1)] == [3, 2, 1, 0]


def test_grundy_without_grundy_solve(chain_solution: Any) -> None:
    with pytest.raises(SolverChoiceError, match="grundy"):
        chain_solution.grundy()


def test_pass_the_class() -> None:
    for runner in RUNNERS.values():
        with pytest.raises(GameError) as info:
            runner(Chain)
        assert "Chain is a class" in str(info.value)
        assert "Chain()" in str(info.value)


class Half:
    def initial(self) -> int:
        return 0

    def moves(self, state: int) -> list[int]:
        return []

    play = None  # not callable


@pytest.mark.parametrize("runner", RUNNERS.values(), ids=RUNNERS.keys())
def test_object_lacking_methods(runner: Runner) -> None:
    message = error_of(runner, Half())
    assert "Half is not a game" in message
    assert "lacks play(), outcome()" in message
    message = error_of(runner, object())
    assert "lacks initial(), moves(), play(), outcome()" in message


def test_unknown_method() -> None:
    with pytest.raises(SolverChoiceError) as info:
        solve(Chain(), "minimax")
    message = str(info.value)
    assert "'minimax'" in message
    for name in ("auto", "retrograde", "negamax", "grundy", "alphabeta"):
        assert name in message


def test_unknown_method_is_refused_before_exploring() -> None:
    never = broken(initial=lambda self: fail(AssertionError("explored")))
    with pytest.raises(SolverChoiceError):
        solve(never, "bogus")


def test_method_that_does_not_fit() -> None:
    with pytest.raises(SolverChoiceError, match="negamax solves scored games"):
        solve(Chain(), "negamax")
    with pytest.raises(SolverChoiceError, match="retrograde"):
        solve(ending_with(3), "retrograde")


def test_unexplored_state_is_a_key_error_with_a_plain_message(chain_solution: Any) -> None:
    with pytest.raises(KeyError) as info:
        chain_solution.value(("s", 99))
    assert isinstance(info.value, UnexploredStateError)
    assert str(info.value).startswith("state ('s', 99) was never reached")  # not quoted


def test_get_value_gives_a_default_for_unexplored_states(chain_solution: Any) -> None:
    assert chain_solution.get_value(("s", 99)) is None
    assert chain_solution.get_value(("s", 99), default=LOSS) is LOSS
    assert chain_solution.get_value(("s", 1)) is LOSS
    assert chain_solution.get_value(("s", 0), default=LOSS) is WIN


def test_bad_method_is_also_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        solve(Chain(), "minimax")


class Endless(Chain):
    """A counter that only grows, each state carrying a kilobyte: it never ends."""

    def initial(self) -> Any:
        return (0, "x" * 1000)

    def moves(self, state: Any) -> Any:
        return [1]

    def play(self, state: Any, move: Any) -> Any:
        return (state[0] + 1, "x" * 1000)


def test_memory_budget_stops_a_game_without_end() -> None:
    from perfectplay.core.memory import MemoryBudgetExceeded, resident_bytes

    budget = resident_bytes() + (60 << 20)
    with pytest.raises(MemoryBudgetExceeded) as info:
        solve(Endless(), memory=budget)
    message = str(info.value)
    assert "memory budget" in message
    assert "positions" in message
    assert "tier" in message  # the advice
    assert resident_bytes() < budget + (200 << 20)  # it stopped near the budget
