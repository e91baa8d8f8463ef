"""The OpenSpiel bridge: games in (values equal the built-ins and an independent negamax
over pyspiel), perfect play as an OpenSpiel bot, grading agents, and games out."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install perfectplay[openspiel])"
)

import pexpect  # noqa: E402
from cli_script import SCRIPT, run_cli  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from perfectplay import LOSS, TIE, WIN, Solution, open_tablebase, save_solution, solve  # noqa: E402
from perfectplay.cli.grade_command import grade_command  # noqa: E402
from perfectplay.games import ConnectFour, Invisible, TicTacToe, WeightedTicTacToe  # noqa: E402
from perfectplay.openspiel import Move, UnsupportedGame, from_openspiel  # noqa: E402
from perfectplay.openspiel.bot import PerfectBot  # noqa: E402
from perfectplay.openspiel.grade import grade  # noqa: E402
from perfectplay.openspiel.register import register  # noqa: E402

C4 = "connect_four(rows=4,columns=4)"


@pytest.fixture(scope="module")
def tictactoe() -> Solution[Any, Any]:
    return solve(from_openspiel("tic_tac_toe"))


@pytest.fixture(scope="module")
def connect_four() -> Solution[Any, Any]:
    return solve(from_openspiel(C4))


def board_text(state: Any) -> str:
    """An OpenSpiel board (rows top first, x and o) as the built-ins' parse_state reads it."""
    return str(state).strip().replace("\n", "/").upper()


def assert_same_as_builtin(bridged: Solution[Any, Any], builtin: Any) -> None:
    """Every position of the bridge has the built-in's value and remoteness."""
    reference = solve(builtin)
    assert (bridged.stats.states, bridged.stats.edges) == (
        reference.stats.states,
        reference.stats.edges,
    )
    graph = bridged.graph
    for sid in range(graph.n_states):
        theirs = builtin.parse_state(board_text(graph.state(sid)))
        assert (bridged.value_of_id(sid), bridged.remoteness_of_id(sid)) == (
            reference.value(theirs),
            reference.remoteness(theirs),
        )


def test_tictactoe_equals_the_builtin_position_by_position(tictactoe: Solution[Any, Any]) -> None:
    assert tictactoe.value() is TIE and tictactoe.remoteness() == 9
    assert_same_as_builtin(tictactoe, TicTacToe())


def test_connect_four_4x4_equals_the_builtin_position_by_position(
    connect_four: Solution[Any, Any],
) -> None:
    assert connect_four.stats.states == 161_029
    assert_same_as_builtin(connect_four, ConnectFour(width=4, height=4))


# ------------------------------------------------------------- an independent negamax


def reference_values(
    game: Any, scored: bool
) -> tuple[dict[tuple[str, int], tuple[float, int]], int]:
    """Every position's value for player 0 and remoteness, by exhaustive minimax over
    pyspiel states (positions keyed by string and player; the player at an end is the
    opponent of the last mover), children first without recursion; and the move count.

    Remoteness: a win takes the fastest winning move, a loss the slowest move, a tie the
    fastest tying move; in a scored game the fastest best move.
    """
    found: dict[tuple[str, int], tuple[float, int]] = {}
    moves = 0

    def key(state: Any) -> tuple[str, int]:
        player = state.current_player()
        if player < 0:
            player = 1 - state.full_history()[-1].player
        return str(state), player

    stack = [(game.new_initial_state(), False)]
    while stack:
        state, ready = stack.pop()
        here = key(state)
        if here in found:
            continue
        if state.is_terminal():
            returns = state.returns()
            found[here] = ((returns[0] - returns[1]) / 2, 0)
            continue
        children = [state.child(a) for a in state.legal_actions()]
        if not ready:
            stack.append((state, True))
            stack.extend((c, False) for c in children if key(c) not in found)
            continue
        moves += len(children)
        sign = 1 if state.current_player() == 0 else -1
        mine = [(sign * found[key(c)][0], found[key(c)][1]) for c in children]
        best = max(v for v, _ in mine)
        if best > 0 and not scored:
            rem = min(r for v, r in mine if v > 0)
        elif best < 0 and not scored:
            rem = max(r for _, r in mine)
        else:
            rem = min(r for v, r in mine if v == best)
        found[here] = (sign * best, rem + 1)
    return found, moves


SMALL_GAMES = [
    "nim(pile_sizes=1;2;3)",  # impartial, misere by default
    "nim(pile_sizes=2;3;4,is_misere=false)",
    "dots_and_boxes(num_rows=1,num_cols=3)",  # completing a box moves again
    "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)",  # scored, extra turns
    "hex(num_rows=3,num_cols=3)",  # no ties
    "clobber(rows=3,columns=4)",  # no move loses
    "breakthrough(rows=4,columns=3)",
    "y(board_size=3)",  # connect three sides, hexagonal cells
    "havannah(board_size=2)",  # rings, bridges and forks
    "connect_four(rows=3,columns=4,x_in_row=3)",
    "misere(game=tic_tac_toe())",  # a game transform
]


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_bridge_equals_an_independent_negamax(spec: str) -> None:
    game = from_openspiel(spec)
    solution = solve(game)
    scored = "utility_margin=true" in spec
    reference, moves = reference_values(game.openspiel, scored)
    assert (solution.stats.states, solution.stats.edges) == (len(reference), moves)
    graph = solution.graph
    for sid in range(graph.n_states):
        state = graph.state(sid)
        player = game.to_move(state)
        value0, remoteness = reference[(str(state), player)]
        mine = value0 if player == 0 else -value0
        ours = solution.value_of_id(sid)
        if solution.scored:
            assert ours == mine, state
        else:
            assert ours is (WIN if mine > 0 else LOSS if mine < 0 else TIE), state
        assert solution.remoteness_of_id(sid) == remoteness, state
    assert solution.scored == scored


def test_a_game_with_cycles_is_solved_consistently() -> None:
    """Oware positions repeat (merged by string): every value is the best of its moves'."""
    game = from_openspiel("oware(num_houses_per_player=2,num_seeds_per_house=2)")
    solution = solve(game)
    assert solution.graph.children_first.shape[0] < solution.stats.states  # cycles
    for sid in range(solution.graph.n_states):
        state = solution.graph.state(sid)
        ranked = solution.move_values(state)
        if ranked:
            best = ranked[0]
            assert (solution.value(state), solution.remoteness(state)) == (
                best.value,
                best.remoteness,
            )


def test_keep_histories_walks_the_tree_and_finds_the_same_value() -> None:
    merged = solve(from_openspiel("nim(pile_sizes=1;2;2)"))
    tree = solve(from_openspiel("nim(pile_sizes=1;2;2)", keep_histories=True))
    assert tree.stats.states > merged.stats.states
    assert (tree.value(), tree.remoteness()) == (merged.value(), merged.remoteness())


def test_answers_take_pyspiel_states_and_moves_read_as_strings_or_numbers(
    tictactoe: Solution[Any, Any],
) -> None:
    game = tictactoe.rules.game
    state = game.openspiel.new_initial_state()
    state.apply_action(4)
    assert tictactoe.value(state) is TIE
    best = tictactoe.best_moves(state)
    assert {m.text for m in best} == {"o(0,0)", "o(0,2)", "o(2,0)", "o(2,2)"}
    assert tictactoe.rules.parse_move(state, "o(0,0)") == Move(0, "o(0,0)")
    assert tictactoe.rules.parse_move(state, "2").action == 2


def test_a_saved_tablebase_answers_for_a_fresh_bridge(
    tictactoe: Solution[Any, Any], tmp_path: Path
) -> None:
    save_solution(tictactoe, tmp_path / "ttt")
    fresh = from_openspiel("tic_tac_toe")
    with open_tablebase(tmp_path / "ttt", fresh) as base:
        assert (base.value(), base.remoteness()) == (TIE, 9)
        state = fresh.initial()
        for action in (0, 4, 8):
            state.apply_action(action)
        assert (base.value(state), base.remoteness(state)) == (
            tictactoe.value(state),
            tictactoe.remoteness(state),
        )
        bot = PerfectBot(base, seed=1)
        rng = np.random.RandomState(0)
        for side in (0, 1):
            bots = [bot, bot]
            bots[1 - side] = pyspiel.make_uniform_random_bot(1 - side, side)
            returns = evaluate_bots.evaluate_bots(fresh.openspiel.new_initial_state(), bots, rng)
            assert returns[side] >= 0


# ---------------------------------------------------------------- refusals, the CLI


def test_kuhn_poker_is_refused_in_one_line_with_status_2() -> None:
    with pytest.raises(UnsupportedGame, match=r"^openspiel:kuhn_poker: chance and imperfect"):
        from_openspiel("kuhn_poker")
    result = run_cli("solve", "openspiel:kuhn_poker")
    assert result.returncode == 2
    assert (
        result.stderr
        == "perfectplay: error: openspiel:kuhn_poker: chance and imperfect information\n"
    )
    assert result.stdout == ""


def test_other_refusals_name_what_fails() -> None:
    with pytest.raises(UnsupportedGame, match=r"^openspiel:goofspiel: simultaneous moves"):
        from_openspiel("goofspiel")
    with pytest.raises(UnsupportedGame, match="3 players"):
        from_openspiel("kuhn_poker", players=3)


def test_cli_solves_openspiel_games_with_parameters() -> None:
    result = run_cli("solve", "openspiel:connect_four", "-p", "rows=4", "-p", "columns=4", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == "tie" and data["stats"]["states"] == 161_029
    wrong = run_cli("solve", "openspiel:connect_four", "-p", "rowz=4")
    assert wrong.returncode == 2
    assert wrong.stderr.count("\n") == 1 and "unknown parameter 'rowz'" in wrong.stderr
    moved = run_cli("analyze", "openspiel:tic_tac_toe", "--moves", "4,0", "--json")
    assert moved.returncode == 0, moved.stderr
    assert json.loads(moved.stdout)["value"] == "tie"


def test_play_against_perfect_play_typing_action_strings() -> None:
    child = pexpect.spawn(SCRIPT, ["play", "openspiel:tic_tac_toe"], encoding="utf-8", timeout=60)
    child.setwinsize(50, 200)
    while (
        child.expect([r"your move \(([^;]*); undo, hint, quit\)> ", r"game over: ([^\r\n]*)"]) == 0
    ):
        child.sendline(child.match.group(1).split()[0])  # the first legal move, as shown
    assert child.match.group(1) in ("a tie", "perfectplay wins")
    child.sendline("n")  # no other game
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_without_openspiel_the_cli_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import perfectplay\n"
        "from perfectplay.cli import main\n"
        "main(['solve', 'openspiel:tic_tac_toe'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == (
        "perfectplay: error: openspiel:tic_tac_toe needs OpenSpiel, which is not installed: "
        "pip install perfectplay[openspiel]\n"
    )


def test_import_perfectplay_never_imports_pyspiel() -> None:
    code = (
        "import sys, perfectplay, perfectplay.cli, perfectplay.cli.grade_command; "
        "print('pyspiel' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False"


# ------------------------------------------------------------------------ PerfectBot


def opponents(game: Any) -> Iterator[tuple[str, Any]]:
    """OpenSpiel's MCTS bot (two seeds) and its random bot, each for both sides."""
    for seed in (1, 2):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 300, 100, True, seed, False)
        yield "mcts", lambda player, bot=bot: bot
        yield "random", lambda player, seed=seed: pyspiel.make_uniform_random_bot(player, seed)


@pytest.mark.parametrize("which", ["tictactoe", "connect_four"])
def test_perfect_bot_never_loses_to_mcts_or_random(which: str, request: Any) -> None:
    solution: Solution[Any, Any] = request.getfixturevalue(which)
    game = solution.rules.game.openspiel
    perfect = PerfectBot(solution, seed=7)
    rng = np.random.RandomState(0)
    for _, make in opponents(game):
        for side in (0, 1):
            bots: list[Any] = [perfect, perfect]
            bots[1 - side] = make(1 - side)
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
            assert returns[side] >= returns[1 - side]


# --------------------------------------------------------------------------- grading


def test_grading_finds_the_blunders_of_a_random_bot(tictactoe: Solution[Any, Any]) -> None:
    game = tictactoe.rules.game

    def random_bot(player: int, seed: int) -> Any:
        return pyspiel.make_uniform_random_bot(player, seed)

    result = grade(game, random_bot, games=12, seed=3, answers=tictactoe, name="random")
    assert result.blunders and result.kept_share < 1
    assert result.decisions == sum(row.decisions for row in result.by_ply)
    assert len(result.blunders) == sum(row.blunders for row in result.by_ply)
    first = result.blunders[0]
    assert (first.value, first.after) in {("tie", "loss"), ("win", "tie"), ("win", "loss")}
    assert first.best_move != first.played and first.position.count("\n") == 2
    assert sum(result.results["first"].values()) + sum(result.results["second"].values()) == 12
    assert json.loads(json.dumps(result.as_json()))["agent"] == "random"


@pytest.mark.parametrize("which", ["tictactoe", "connect_four"])
def test_grading_perfect_play_finds_no_blunder(which: str, request: Any) -> None:
    solution: Solution[Any, Any] = request.getfixturevalue(which)
    result = grade(solution.rules.game, PerfectBot(solution, seed=5), games=4, answers=solution)
    assert result.blunders == [] and result.wasted == 0
    assert result.kept_share == result.best_share == 1.0
    assert result.results["first"]["loss"] == result.results["second"]["loss"] == 0


def test_grading_a_policy_gives_its_exact_share(tictactoe: Solution[Any, Any]) -> None:
    from open_spiel.python import policy

    game = tictactoe.rules.game
    result = grade(game, policy.UniformRandomPolicy(game.openspiel), games=2, answers=tictactoe)
    assert result.policy_share is not None
    assert result.policy_share["positions"] == 4520  # every position that goes on
    assert 0 < result.policy_share["best_share"] < result.policy_share["kept_share"] < 1


def test_the_grade_command_prints_by_ply_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(grade_command, ["openspiel:tic_tac_toe", "--bot", "random", "-q"])
    assert text.exit_code == 0, text.output
    assert "the agent's decisions by ply" in text.output and "blunders" in text.output
    data = runner.invoke(
        grade_command,
        ["openspiel:tic_tac_toe", "--bot", "mcts:50", "--games", "2", "--json", "-q"],
    )
    assert data.exit_code == 0, data.output
    assert json.loads(data.output)["games"] == 2


# ---------------------------------------------------------------------- games out


def test_openspiel_mcts_plays_a_registered_perfectplay_game() -> None:
    game = register(TicTacToe())
    assert register(game.perfectplay_rules.game) is not None  # registering again is harmless
    assert game.num_distinct_actions() == 9 and game.max_game_length() == 9
    solution = solve(TicTacToe())
    perfect = PerfectBot(solution, seed=2)
    rng = np.random.RandomState(0)
    searcher = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for side in (0, 1):
        bots: list[Any] = [perfect, perfect]
        bots[1 - side] = searcher
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert returns[side] >= returns[1 - side]
    result = grade(game, searcher, games=2, answers=solution)
    assert result.decisions > 0


@pytest.mark.parametrize("builtin", [WeightedTicTacToe(), Invisible()])
def test_perfect_self_play_on_a_registered_scored_game_returns_the_solved_value(
    builtin: Any,
) -> None:
    game = register(builtin)
    solution = solve(builtin)
    bots = [PerfectBot(solution, seed=1), PerfectBot(solution, seed=2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    value = max(-game.max_utility(), min(game.max_utility(), solution.value()))
    assert returns[0] == value == -returns[1]
