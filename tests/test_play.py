"""`perfectplay play` end to end, driven through a pseudo-terminal like a person would."""

from __future__ import annotations

import re

import pexpect
from cli_script import SCRIPT as CLI

PROMPT = r"your move \(([^;]*); undo, hint, quit\)> "


def start(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(CLI, ["play", *args], encoding="utf-8", timeout=60)
    child.setwinsize(50, 200)
    return child


def play_out(child: pexpect.spawn) -> tuple[str, int]:
    """Answer every prompt with the first legal move until the game ends."""
    moves = 0
    while True:
        which = child.expect([PROMPT, r"game over: ([^\r\n]*)"])
        if which == 1:
            return child.match.group(1), moves
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
