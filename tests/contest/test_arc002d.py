"""ARC 002 D (Board game) and the pawns game behind it.

The spare-move count of ``perfectplay.contest.arc002d`` answers boards far too large to
search; here it must agree with the engine's exhaustive solution of ``Pawns`` on random
small boards, both boards of any kind and boards where no piece can race (the ones the
count itself decides). The judge samples run through ``answer`` and through the console
script.
"""

from __future__ import annotations

import random
from math import prod
from pathlib import Path

import numpy as np
import pytest
from cli_script import run_cli

from perfectplay import LOSS, WIN, Rules, StateBudgetExceeded, explore, solve
from perfectplay.contest.arc002d import (
    answer,
    generate,
    parse,
    problem_with,
    race_winner,
    random_board,
    spare_moves,
    tempo_winner,
)
from perfectplay.contest.reader import InputError
from perfectplay.games.pawns import Pawns

DATA = Path(__file__).resolve().parents[1] / "data" / "arc002d"
SAMPLES = sorted(DATA.glob("*.in"))

# Boards whose game may have more states than this are drawn again (up to one in eight):
# first by a cheap bound (each row's own reachable contents, multiplied), then by exploring.
STATE_BOUND = 300_000
STATE_BUDGET = 100_000
BOARDS = 1500


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_samples(sample: Path) -> None:
    assert answer(sample.read_text()) == sample.with_suffix(".out").read_text()


def test_there_are_samples() -> None:
    assert len(SAMPLES) >= 2


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_samples_through_the_cli(sample: Path) -> None:
    result = run_cli("contest", "arc002d", input=sample.read_text())
    assert result.returncode == 0, result.stderr
    assert result.stdout == sample.with_suffix(".out").read_text()


def test_bad_input_through_the_cli() -> None:
    result = run_cli("contest", "arc002d", input="1 5\n.ox..\n")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("perfectplay: error: line 2:")


# --------------------------------------------------------------------------- exhaustive


def row_contents(row: str) -> int:
    """How many contents a row can reach by its own moves (whoever makes them)."""
    seen = {row}
    todo = [row]
    while todo:
        now = todo.pop()
        if now[0] == "x" or now[-1] == "o":
            continue
        for i, cell in enumerate(now):
            if cell == "o" and now[i + 1] != "o":
                after = now[:i] + ".o" + now[i + 2 :]
            elif cell == "x" and now[i - 1] != "x":
                after = now[: i - 1] + "x." + now[i + 1 :]
            else:
                continue
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return len(seen)


def exhaustive_winner(rows: list[str]) -> str | None:
    """The winner by retrograde analysis of Pawns, or None when the game is too large."""
    if prod(row_contents(row) for row in rows) > STATE_BOUND:
        return None
    try:
        graph = explore(Pawns("/".join(rows)), max_states=STATE_BUDGET)
    except StateBudgetExceeded:
        return None
    # No position in play leaves the mover without a move (see games/pawns/game.py).
    stuck = (np.diff(graph.offsets) == 0) & ~graph.terminal
    assert not stuck.any(), rows
    value = solve(graph, "retrograde").value()
    assert value in (WIN, LOSS), rows
    return "o" if value is WIN else "x"


@pytest.mark.parametrize("contested", [False, True], ids=["any-board", "no-racer"])
def test_tempo_method_agrees_with_exhaustive_search(contested: bool) -> None:
    rng = random.Random(2002 + contested)
    checked = decided_by_count = 0
    winners = {"o": 0, "x": 0}
    while checked < BOARDS:
        rows = random_board(rng, 4, 9, contested=contested)
        truth = exhaustive_winner(rows)
        if truth is None:
            continue
        assert tempo_winner(rows) == truth, rows
        checked += 1
        winners[truth] += 1
        decided_by_count += race_winner(rows) is None
    assert decided_by_count == BOARDS if contested else decided_by_count > 100
    assert min(winners.values()) > 100


@pytest.mark.parametrize(
    ("rows", "spare", "winner"),
    [
        # o races 2 steps, x 2: o moves first and wins the tie.
        (["..o..", "..x.."], None, "o"),
        # o.x: whoever steps into the gap is captured, and o must move first.
        (["o.x"], (0, 0), "x"),
        # o..x: o claims the one free front step; then x must step into the gap.
        (["o..x"], (1, 0), "o"),
        # One spare move each: o, moving first, runs out first.
        (["o.o.x.x"], (1, 1), "x"),
        (["o...xx"], (1, 2), "x"),
        # Two leftover front steps: o claims the one worth 2 + 2, x the one worth 1 + 1.
        (["o..x..", "oo..xx"], (2, 1), "o"),
        (["o..x..", "o..x.."], (1, 1), "x"),
    ],
)
def test_known_small_boards(rows: list[str], spare: tuple[int, int] | None, winner: str) -> None:
    assert exhaustive_winner(rows) == winner
    assert tempo_winner(rows) == winner
    if spare is None:
        assert race_winner(rows) == winner
    else:
        assert race_winner(rows) is None
        assert spare_moves(rows) == spare


def test_random_boards_meet_the_guarantees() -> None:
    rng = random.Random(7)
    for _ in range(300):
        for contested in (False, True):
            rows = random_board(rng, 3, 7, contested=contested)
            assert 1 <= len(rows) <= 3
            assert 3 <= len(rows[0]) <= 7
            assert all(len(row) == len(rows[0]) for row in rows)
            assert problem_with(rows) is None
            if contested:
                assert race_winner(rows) is None
        text = generate(rng)
        assert answer(text) in ("o\n", "x\n")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "H"),
        ("0 5\n", 1, "H"),
        ("2001 5\n", 1, "H"),
        ("1 2\n..\n", 1, "W"),
        ("1 2001\n", 1, "W"),
        ("1 a\n", 1, "integer"),
        ("1 5 7\n..o.x\n", 1, "'7'"),
        ("2 5\n..o.x\n", 3, "ends early"),
        ("1 5\n..o.x.\n", 2, "6 cells"),
        ("1 5\n..o.\n", 2, "4 cells"),
        ("1 5\n..o.y\n", 2, "'y'"),
        ("1 5\n..o x\n", 2, "' '"),
        ("2 5\n..o.x\n....o\n", 3, "rightmost"),
        ("1 5\nx.o.x\n", 2, "leftmost"),
        ("1 5\n.ox..\n", 2, "capture"),
        ("2 5\n..o..\n.....\n", 3, "no 'x'"),
        ("1 5\n....x\n", 2, "no 'o'"),
        ("1 5\n..o.x\n\nmore\n", 4, "unexpected"),
        ("1 5\n..o.x\n1\n", 3, "unexpected"),
    ],
)
def test_bad_input(text: str, line: int, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(text)
    message = str(caught.value)
    assert message.startswith(f"line {line}:") or message.startswith(f"lines 2-{line}:"), message
    assert words in message
    assert "\n" not in message


def test_parse_reads_the_board() -> None:
    assert parse("2 4\n.o.x\no..x\n") == [".o.x", "o..x"]
    assert parse("1 3\r\no.x\r\n\n") == ["o.x"]


# --------------------------------------------------------------------------- the game


@pytest.mark.parametrize(
    ("board", "words"),
    [
        ("", "empty"),
        ("o.x/", "empty"),
        ("o.x/o..x", "row 2 has 4 cells"),
        ("o.y", "'y'"),
        ("o/x", "2 columns"),
        ("..o..", "each side"),
        ("..x.o", "rightmost"),
        ("x.o..", "leftmost"),
    ],
)
def test_bad_boards(board: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Pawns(board)


def test_moves_show_and_parse_in_real_coordinates() -> None:
    game = Pawns("..o.x/o...x")
    rules = Rules(game)
    start = game.initial()
    assert sorted(game.moves(start)) == [(0, 2), (1, 0)]
    assert game.outcome(start) is None
    after = game.play(start, rules.parse_move(start, "1,3"))
    assert game.show(after).splitlines() == ["...ox", "o...x", "x (moving left) to move"]
    # x captures the o that stepped next to it; o still has a piece, so the game goes on.
    assert sorted(game.moves(after)) == [(0, 4), (1, 4)]
    captured = game.play(after, rules.parse_move(after, "1 5"))
    assert game.show(captured).splitlines()[:2] == ["...x.", "o...x"]
    assert game.outcome(captured) is None
    assert [game.format_move(m) for m in game.moves(captured)] == ["a2"]  # column a, row 2
    assert game.parse_move("a2") == game.parse_move("2,1") == (1, 0)


def test_ends() -> None:
    game = Pawns("o.x")
    start = game.initial()
    assert game.show(start).splitlines() == ["o.x", "o (moving right) to move"]
    # o steps into the gap, x captures the last o: o has lost.
    end = game.play(game.play(start, (0, 0)), (0, 2))
    assert game.show(end).splitlines()[0] == ".x."
    assert game.outcome(end) is LOSS
    race = Pawns(".o./..x")
    # o steps into the rightmost column: x, to move, has lost.
    assert race.outcome(race.play(race.initial(), (0, 1))) is LOSS
    assert solve(Pawns(".x./.o.")).value() is WIN
    assert solve(Pawns("..o.x/o...x")).value() is LOSS


def test_the_cli_lists_arc002d_and_solves_pawns() -> None:
    listing = run_cli("contest", "--list")
    assert listing.returncode == 0, listing.stderr
    assert ["arc002d"] in [line.split()[:1] for line in listing.stdout.splitlines()]
    result = run_cli("solve", "pawns", "--param", "board=o..x/.o.x")
    assert result.returncode == 0, result.stderr
    expected = "win" if tempo_winner(["o..x", ".o.x"]) == "o" else "loss"
    assert ["value", expected] in [line.split() for line in result.stdout.splitlines()]
