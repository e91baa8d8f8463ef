"""A compiled game's own mistakes are named as the game's, never as perfectplay's: the
rule, the state and the remedy, in one line, interpreted and compiled (issue 46, items 3
and 4), and a Ctrl-C inside a compiled loop is a Ctrl-C (item 5)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_script import one_line_error, run_cli

from perfectplay import WIN, GameError, solve
from perfectplay.compiled_games import form

FILE = Path(__file__).resolve().parents[1] / "data" / "compiled_mistakes" / "mistakes.py"
sys.path.insert(0, str(FILE.parent))
import mistakes  # noqa: E402

NAMED = {
    "DivZero": ("DivZero.play(p, 5, 1) raised ZeroDivisionError", {}),
    "Deep": ("Deep.play(p, 777, 1) raised ZeroDivisionError", {"n": 2000}),
    "NoReturn": ("NoReturn.outcome(p, 0) returned None; a compiled rule returns ONGOING", {}),
    "TooMany": ("TooMany.moves() of state 0 writes past max_moves (2): raise max_moves", {}),
    "Huge": (
        "Huge.play(p, 4, 1) returned 2**63 + 5; a compiled rule returns a state as an "
        "int from 0 to 2**63 - 1",
        {},
    ),
    "Negative": ("Negative.play(p, 4, 1) returned -95; a compiled rule returns a state", {}),
    "FloatPlay": ("FloatPlay.play(p, 0, 1) returned 1.5", {}),
}


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("name", ["DivZero", "Deep", "Huge"])
def test_a_rule_that_fails_mid_solve_is_named_with_its_state(
    name: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's loops, however they run, name the rule and the state (numba's own
    exception says neither)."""
    monkeypatch.setattr(form, "_MODE", mode)
    words, params = NAMED[name]
    if name == "Huge" and mode == "compiled":  # numba types 1 << 63 as unsigned, the sum float
        line = mistakes.Huge.rule_functions["play"].__code__.co_firstlineno
        words = f"Huge.play() at mistakes.py:{line} returns float64; it must return a state"
    game = getattr(mistakes, name)(**params)
    with pytest.raises(GameError) as failed:
        solve(game)
    assert words in str(failed.value)


@pytest.mark.parametrize("name", list(NAMED))
def test_the_command_line_names_the_rule_and_the_state(name: str) -> None:
    words, params = NAMED[name]
    extra = [arg for k, v in params.items() for arg in ("-p", f"{k}={v}")]
    for command in ("solve", "check"):
        result = run_cli(command, f"{FILE}:{name}", *extra)
        if command == "check" and name != "Deep":  # a report, exit 1
            assert result.returncode == 1 and words in result.stdout, result.stdout
        elif command == "solve":
            line = one_line_error(result)
            assert words in line and "please report" not in line


@pytest.mark.parametrize(
    ("name", "rule", "words"),
    [
        ("FloatPlay", "play", "returns float64; it must return a state (an int) on every path "
                              "(see docs/tutorial/compiled-games.md)"),
        ("NoReturn", "outcome", "returns None on some path"),
    ],
)  # fmt: skip
def test_a_rule_numba_types_wrong_is_named_with_its_line(name: str, rule: str, words: str) -> None:
    cls = getattr(mistakes, name)
    line = cls.rule_functions[rule].__code__.co_firstlineno
    with pytest.raises(GameError) as failed:
        cls().engine_loops(True)
    said = str(failed.value)
    assert f"{name}.{rule}() at mistakes.py:{line} {words}" in said and "\x1b" not in said


def test_ctrl_c_inside_a_compiled_loop_is_a_ctrl_c() -> None:
    """numba reports a Ctrl-C raised while its code runs as a SystemError with the
    KeyboardInterrupt as its context: the guard raises the KeyboardInterrupt itself."""
    game = mistakes.Base()
    loops = game.engine_loops(False)

    def stopped(*args: Any) -> Any:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemError("returned a result with an exception set") from None

    from perfectplay.compiled_games.guarded import guarded

    stopping = guarded(__import__("dataclasses").replace(loops, expand=stopped), game)
    with pytest.raises(KeyboardInterrupt):
        stopping.expand(np.zeros(3, dtype=np.int64), True)


HELPER = "def step_of(m):\n    return m + 1\n"
RACE = """
from helpers import step_of
from perfectplay.compiled_games import ONGOING, CompiledGame


class Race(CompiledGame):
    n: int = 10
    max_moves = 2

    def start(p):
        return 0

    def moves(p, s, out):
        out[0] = 0
        out[1] = 1
        return 2

    def play(p, s, m):
        return s + step_of(m)

    def outcome(p, s):
        return 2 if s >= p[0] else ONGOING
"""


def test_a_game_file_imports_the_modules_beside_it_compiled_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``python race.py`` would: the folder is importable, and a helper from a file
    beside the game is compiled with the rules (issue 46, item 13)."""
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "race.py").write_text(RACE)
    monkeypatch.setenv("PERFECTPLAY_KERNELS", "compiled")
    done = run_cli("solve", str(tmp_path / "race.py") + ":Race", "-p", "n=30", "--json")
    assert done.returncode == 0, done.stderr
    assert '"value": "loss"' in done.stdout  # 30 is a multiple of 3


def test_the_search_says_why_it_cannot_serve_a_game() -> None:
    """Item 12: not an internal hook's name, but the reason and what to do."""
    name, words = "Unsearched", "add a method max_plies(self) -> int"
    line = one_line_error(run_cli("analyze", f"{FILE}:{name}", "--method", "search"))
    assert f"{name} cannot be searched: {words}" in line and "compiled_rules" not in line
    fine = run_cli("analyze", f"{FILE}:Searched", "-p", "n=5", "--method", "search", "--json")
    assert fine.returncode == 0 and '"value": "win"' in fine.stdout, fine.stderr


@pytest.mark.parametrize("name", ["ScoredSearched", "TurnsSearched"])
def test_scored_games_and_extra_turns_are_searched_as_solved(name: str) -> None:
    """Issue 48: once refused (scores, extra turns), now searched; every move's value the
    strong solve's."""
    reports = []
    for method in ("search", "auto"):
        done = run_cli("analyze", f"{FILE}:{name}", "--method", method, "--json")
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    searched, solved = reports
    assert searched["method"] == "compiled search"
    assert searched["value"] == solved["value"]
    assert [(m["move"], m["value"]) for m in searched["moves"]] == [
        (m["move"], m["value"]) for m in solved["moves"]
    ]


PARAMETERS = """
from perfectplay.compiled_games import ONGOING, CompiledGame


class Race(CompiledGame):
    n: int{default}
{extra}
    def start(p):
        return 0

    def moves(p, s, out):
        out[0] = 1
        return 1

    def play(p, s, m):
        return s + m

    def outcome(p, s):
        return 2 if s >= p[0] else ONGOING
"""


@pytest.mark.parametrize(
    ("default", "extra", "words"),
    [
        ("", "", "Race.n has no default: a compiled game's parameters are annotated class "
                 "attributes with one (n: int = ...)"),
        (" = 3", "    rate: float = 0.5\n", "Race.rate: a compiled game's parameters are ints "
                                            "or bools"),
    ],
)  # fmt: skip
def test_a_parameter_the_compiled_form_cannot_take_is_one_line(
    default: str, extra: str, words: str, tmp_path: Path
) -> None:
    """Item 15: not an AttributeError from inside the class machinery, not a float
    silently dropped."""
    path = tmp_path / "race.py"
    path.write_text(PARAMETERS.format(default=default, extra=extra))
    assert words in one_line_error(run_cli("solve", f"{path}:Race"))
    listed = one_line_error(run_cli("solve", str(path)))  # no class named
    assert "name the game's class after a colon" in listed or words in listed


def test_a_file_without_a_class_named_lists_its_games() -> None:
    line = one_line_error(run_cli("solve", str(FILE)))
    assert "name the game's class after a colon; its games: " in line
    assert f"{FILE}:Base" in line and f"{FILE}:FloatPlay" in line


def test_a_subclass_drops_an_inherited_rule_by_setting_it_to_none() -> None:
    """Issue 46, item 15: ``key = None`` in a subclass: the game has no key then."""
    from compiled_keyed import SwappedCounters

    class Unkeyed(SwappedCounters):
        key = None

    assert "key" in SwappedCounters.rule_functions and "key" not in Unkeyed.rule_functions
    assert not hasattr(Unkeyed(), "key")
    assert solve(Unkeyed()).value() == solve(SwappedCounters()).value()


def test_a_budget_too_small_to_compile_in_is_refused_before_compiling() -> None:
    """Issue 46, item 15: --memory 50M ran the compile (seconds) before refusing."""
    example = Path(__file__).resolve().parents[2] / "examples" / "connect_four.py"
    size = ["-p", "width=5", "-p", "height=4"]
    line = one_line_error(run_cli("solve", f"{example}:ConnectFour", *size, "--memory", "50M"))
    assert "is less than compiling ConnectFour's rules takes" in line
    assert "on disk" not in line


@pytest.mark.filterwarnings("error::RuntimeWarning")  # (numpy's, which numba does not give)
@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_bool_tier_and_a_float_that_numba_lets_be_solve_alike(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tier that returns a comparison was an int to numba before the rules were checked,
    and stays one; log(0) in a score is -inf interpreted as compiled (the interpreted loops
    raise on a division by zero only where the rules' own replay fails)."""
    from perfectplay import build_tablebase, open_tablebase

    monkeypatch.setattr(form, "_MODE", mode)
    build_tablebase(mistakes.BoolTier(n=6), tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", mistakes.BoolTier(n=6)) as base:
        assert base.value() == solve(mistakes.Base(n=6)).value()
    race = solve(mistakes.Base(n=3)).value()  # the same race, its end worth -inf
    assert solve(mistakes.LogScore(n=3)).value() == float("inf" if race == WIN else "-inf")


def test_a_loop_that_does_not_compile_names_the_rule_at_numbas_line() -> None:
    """The rule whose lines hold the line numba names, not the first rule of the file."""
    from perfectplay.compiled_games.building import _loop_problem

    functions = mistakes.FloatPlay.rule_functions
    play = functions["play"].__code__
    text = (
        f"Failed in nopython mode\\nNo implementation of function rshift\\n"
        f'File "{play.co_filename}", line {play.co_firstlineno + 1}:\\n'
    )
    said = _loop_problem(mistakes.FloatPlay, dict(functions), Exception(text))
    assert said.startswith(f"FloatPlay.play() at mistakes.py:{play.co_firstlineno + 1}")
    elsewhere = _loop_problem(mistakes.FloatPlay, dict(functions), Exception("no line"))
    assert elsewhere.startswith("the engine's loops over FloatPlay's rules")
