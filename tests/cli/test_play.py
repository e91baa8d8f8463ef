"""`perfectplay play` end to end, driven through a pseudo-terminal like a person would."""

from __future__ import annotations

import io
import re
from typing import Any

import pexpect
from cli_script import SCRIPT as CLI
from rich.console import Console

from perfectplay import solve
from perfectplay.cli.play import play_games
from perfectplay.games import Invisible, Subtraction, TicTacToe
from perfectplay.rules import Rules

PROMPT = r"your move \(([^;]*); undo, hint, quit\)> "


def start(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(CLI, ["play", *args], encoding="utf-8", timeout=60)
    child.setwinsize(50, 200)
    return child


def play_out(child: pexpect.spawn) -> tuple[str, int]:
    """Answer every prompt with the first legal move until the game ends, then decline
    another game."""
    moves = 0
    while True:
        which = child.expect([PROMPT, r"game over: ([^\r\n]*)"])
        if which == 1:
            result = child.match.group(1)
            child.expect(r"another game\? \(y/n\)> ")
            child.sendline("n")
            return result, moves
        legal = child.match.group(1).split()
        child.sendline(legal[0])
        moves += 1


def test_whole_game_of_tictactoe_perfect_play_never_loses() -> None:
    child = start("tictactoe")
    result, moves = play_out(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert result in ("a tie", "perfectplay wins")
    assert 3 <= moves <= 5


def test_subtraction_game_as_second_perfect_play_wins_from_a_winning_start() -> None:
    # 10 stones, take 1 or 2: 10 is not a multiple of 3, so the first player wins.
    child = start("subtraction", "-p", "stones=10", "-p", "take=1,2", "--as", "second")
    result, _ = play_out(child)
    child.expect(pexpect.EOF)
    assert result == "perfectplay wins"


def test_subtraction_game_as_first_from_a_winning_start_a_person_can_win() -> None:
    child = start("subtraction", "-p", "stones=10", "-p", "take=1,2", "--hint")
    while True:
        which = child.expect([r"best: ([^\r\n]*)", r"game over: ([^\r\n]*)"])
        if which == 1:
            break
        best = child.match.group(1).split(",")[0].strip()
        child.expect(PROMPT)
        child.sendline(best)
    assert child.match.group(1) == "you win"


def test_bad_input_undo_hint_and_quit() -> None:
    child = start("tictactoe")
    child.expect(PROMPT)
    child.sendline("banana")
    child.expect("cannot read move 'banana'")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect(r"perfectplay plays (\d)")
    reply = child.match.group(1)
    child.expect(PROMPT)
    legal = child.match.group(1).split()
    assert "5" not in legal and reply not in legal
    child.sendline("5")
    child.expect("not a legal move")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect(r"hint: this position is a (\w+)")
    assert child.match.group(1) == "tie"
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(PROMPT)
    assert child.match.group(1).split() == [str(i) for i in range(1, 10)]
    child.sendline("undo")
    child.expect("nothing to undo")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_end_of_input_ends_the_session_cleanly() -> None:
    child = start("nim", "-p", "piles=2,3")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_prompt_lists_exactly_the_legal_moves() -> None:
    child = start("nim", "-p", "piles=1,2")
    child.expect(PROMPT)
    assert sorted(child.match.group(1).split()) == sorted(["1:1", "2:1", "2:2"])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert re.search("bye", child.before or "")


def session(game: object, typed: list[str], **options: object) -> str:
    """What ``play`` prints for a game whose person types ``typed`` (then end of input)."""
    lines = iter(typed)

    def read(prompt: str) -> str:
        console.print(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    console = Console(file=io.StringIO(), width=200, color_system=None)
    defaults = {"human_first": True, "always_hint": False}
    play_games(solve(game), console=console, read=read, **{**defaults, **options})  # type: ignore[arg-type]
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def test_a_move_that_throws_away_a_win_is_named_and_the_last_move_is_shown() -> None:
    # 10 stones, take 1 or 2: taking 1 leaves 9 (a multiple of 3) and wins; taking 2 loses.
    game = Subtraction(10, (1, 2))
    thrown = session(game, ["2"])
    assert "2 throws away your win: it is now a loss for you" in thrown
    assert "last move: 2 (you)" in thrown and "(perfectplay)" in thrown
    kept = session(game, ["1"])
    assert "throws away" not in kept and "last move: 1 (you)" in kept


def test_a_tie_thrown_away_is_named_and_a_tie_kept_is_not() -> None:
    game = TicTacToe()
    solution = solve(game)
    rules = Rules(game)
    opening = solution.best_move(game.initial())  # perfectplay's, as the first player
    after = game.play(game.initial(), opening)
    values = {rules.format_move(mv.move): str(mv.value) for mv in solution.move_values(after)}
    losing = next(m for m, v in values.items() if v == "loss")
    tying = next(m for m, v in values.items() if v == "tie")
    assert f"{losing} throws away your tie: it is now a loss for you" in session(
        game, [losing], human_first=False
    )
    assert "throws away" not in session(game, [tying], human_first=False)
    assert "throws away" not in session(game, ["5"])  # every opening keeps the tie


def test_another_game_is_offered_and_played() -> None:
    game = Subtraction(4, (1, 2))  # take 1 (3 left), then what is left after the reply
    once = session(game, ["1", "2", "n"])
    assert once.count("game over") == 1 and once.count("another game? (y/n)>") == 1
    twice = session(game, ["1", "2", "y", "1", "2", "n"])
    assert twice.count("game over: you win") == 2 and twice.count("another game?") == 2


def test_a_scored_game_shows_the_score_the_plies_left_and_the_points_so_far() -> None:
    game = Invisible((3, -1, 5), (2, 4))
    solution = solve(game)
    rules = Rules(game)
    state = game.initial()
    shown = session(game, ["hint"])
    value, remoteness = solution.value(state), solution.remoteness(state)
    sign = "+" if value > 0 else ""
    plies = f"{remoteness} {'ply' if remoteness == 1 else 'plies'} left"
    assert f"hint: this position is score {sign}{value:g} for you, {plies}" in shown
    assert "points so far: you 0, perfectplay 0" in shown
    # a pass scores the cards played above their jams: the points follow the rewards
    move = next(m for m in game.moves(state) if game.reward(state, m) == 0)
    after = game.play(state, move)
    played = session(game, [rules.format_move(move)])
    reply = solution.best_move(after)
    mine, theirs = 0, game.reward(after, reply)
    assert f"points so far: you {mine}, perfectplay {theirs:g}" in played


def test_the_final_score_is_signed_as_every_other_score() -> None:
    """Issue 46, item 15: "+4" and "-8", as the hints say them, not "-8.0"."""
    from types import SimpleNamespace

    from perfectplay.cli.play import _final_words, _Turn

    for points, end, human_turn, said in ((-10.0, 2.0, True, "-8"), (1.0, -3.0, False, "+4"),
                                          (0.5, 0.0, True, "+0.5")):  # fmt: skip
        solution: Any = SimpleNamespace(rules=SimpleNamespace(outcome=lambda state, e=end: e))
        words = _final_words(solution, _Turn(state=0, human_turn=human_turn, human_points=points))
        assert words == f"game over: your score minus perfectplay's is {said}"
