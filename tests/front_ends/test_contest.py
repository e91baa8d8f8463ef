"""Judge problems: published samples through the CLI, random instances against plain search."""

from __future__ import annotations

import functools
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cli_script import SCRIPT as CLI
from cli_script import run_cli

from perfectplay.contest import InputError, abc349e, aoj2741, edpc_k, problems

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLES = sorted(DATA.glob("*/*.in"))


def run_contest(name: str, text: str) -> subprocess.CompletedProcess[str]:
    return run_cli("contest", name, input=text, timeout=60)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_published_sample_through_the_cli(sample: Path) -> None:
    run = run_contest(sample.parent.name, sample.read_text())
    assert run.returncode == 0, run.stderr
    assert run.stdout == sample.with_suffix(".out").read_text()


def test_every_engine_problem_has_samples() -> None:
    with_samples = {s.parent.name for s in SAMPLES}
    assert {"abc349e", "aoj2741", "edpc_k"} <= with_samples <= set(problems())


def test_contest_list_names_the_problems() -> None:
    run = subprocess.run([CLI, "contest", "--list"], capture_output=True, text=True, check=False)
    assert run.returncode == 0
    for name in problems():
        assert name in run.stdout


# --- plain exhaustive references, written independently of the engine ---

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def weighted_reference(weights: tuple[int, ...]) -> str:
    """Minimax on explicit boards: Takahashi's sum minus Aoki's, a line counting infinite."""

    @functools.cache
    def best(board: tuple[int, ...]) -> float:
        turn = 1 if board.count(1) == board.count(2) else 2
        results = []
        for cell in range(9):
            if board[cell]:
                continue
            after = (*board[:cell], turn, *board[cell + 1 :])
            if any(all(after[i] == turn for i in line) for line in LINES):
                results.append(float("inf") if turn == 1 else float("-inf"))
            elif all(after):
                results.append(
                    sum(w for w, b in zip(weights, after, strict=True) if b == 1)
                    - sum(w for w, b in zip(weights, after, strict=True) if b == 2)
                )
            else:
                results.append(best(after))
        return max(results) if turn == 1 else min(results)

    return "Takahashi\n" if best((0,) * 9) > 0 else "Aoki\n"


def invisible_reference(deck1: tuple[int, ...], deck2: tuple[int, ...]) -> str:
    """Search over the literal stack of (owner, card); scores counted by scanning it."""
    decks = (deck1, deck2)

    def collect(stack: tuple[tuple[int, int], ...], player: int) -> int:
        total = 0
        for owner, card in reversed(stack):  # from the top down
            if owner != player and card == -1:
                break
            if owner == player and card != -1:
                total += card
        return total

    @functools.cache
    def value(tops: tuple[int, int], stack: tuple[tuple[int, int], ...], turn: int, passes: int):
        # Player 1's score minus player 2's from here on, player ``turn`` to move.
        options = []
        if passes == 1 and not stack:
            options.append(0)  # the second pass in a row on an empty stack ends the game
        elif not stack:
            options.append(value(tops, stack, 1 - turn, 1))
        else:
            gained = collect(stack, 0) - collect(stack, 1)
            options.append(gained + value(tops, (), 1 - turn, 0))
        if tops[turn] < len(decks[turn]):
            card = decks[turn][tops[turn]]
            after = (tops[0] + 1, tops[1]) if turn == 0 else (tops[0], tops[1] + 1)
            options.append(value(after, (*stack, (turn, card)), 1 - turn, 0))
        return max(options) if turn == 0 else min(options)

    return f"{value((0, 0), (), 0, 0)}\n"


def stones_reference(k: int, a: tuple[int, ...]) -> str:
    wins = [False] * (k + 1)
    for pile in range(k + 1):
        wins[pile] = any(x <= pile and not wins[pile - x] for x in a)
    return "First\n" if wins[k] else "Second\n"


@pytest.mark.parametrize(
    ("module", "reference", "cases"),
    [
        (abc349e, lambda text: weighted_reference(abc349e.parse(text)), 150),
        (aoj2741, lambda text: invisible_reference(*aoj2741.parse(text)), 300),
        (edpc_k, lambda text: stones_reference(*edpc_k.parse(text)), 300),
    ],
    ids=["abc349e", "aoj2741", "edpc_k"],
)
def test_engine_agrees_with_plain_search_on_random_instances(module, reference, cases) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(2741)
    answers = set()
    for _ in range(cases):
        text = module.generate(rng)
        expected = reference(text)
        assert module.PROBLEM.answer(text) == expected, text
        answers.add(expected)
    assert len(answers) > 1, "the generator never produced both kinds of answer"


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("edpc_k", "2 4\n2\n", "ends early"),
        ("edpc_k", "2 4\n2 x\n", "integer"),
        ("edpc_k", "2 4\n3 2\n", "increase"),
        ("edpc_k", "1 100001\n1\n", "between"),
        ("edpc_k", "1 4\n5\n", "between"),
        ("edpc_k", "1 4\n1 2\n", "unexpected"),
        ("abc349e", "0 0 0\n0 1 0\n0 0\n", "ends early"),
        ("abc349e", "0 0 0\n0 2 0\n0 0 0\n", "odd"),
        ("abc349e", "0 0 0\n0 1 0\n0 0 10000000000\n", "between"),
        ("aoj2741", "2 2\n100 -1\n200 0\n", "card 2 is 0"),
        ("aoj2741", "51 1\n", "between"),
        ("aoj2741", "1 1\n-2\n3\n", "between"),
        ("aoj2741", "", "ends early"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(name: str, text: str, words: str) -> None:
    run = run_contest(name, text)
    assert run.returncode == 2
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.stderr


def test_parse_names_the_line() -> None:
    with pytest.raises(InputError, match="line 2"):
        edpc_k.parse("2 10\n1 1\n")


@pytest.mark.parametrize(
    ("parse", "text", "where"),
    [
        (edpc_k.parse, "2 4 0\n2 3\n", "line 1: unexpected '0' at the end of the line"),
        (aoj2741.parse, "2 2\n100 -1 5\n200 300\n", "line 2: unexpected '5'"),
        (abc349e.parse, "0 0 0 0\n1 0\n0 0 0\n", "line 1: unexpected '0'"),
    ],
)
def test_a_value_too_many_is_named_on_its_own_line(parse: Any, text: str, where: str) -> None:
    with pytest.raises(InputError, match=where):
        parse(text)
