"""Golden playthroughs: for each built-in game, a seeded random game as text (the board, the
value of every move, the move played, the end), compared with the file in ``golden/``.

A change to a game's rules or to a solver shows here as a diff a reviewer reads without
reading bitboards. After a deliberate change, write the files again with
``PERFECTPLAY_GOLDEN=write pytest tests/games/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from perfectplay import solve
from perfectplay.games import BUILTINS
from perfectplay.rules import Rules

GOLDEN = Path(__file__).resolve().parent / "golden"
SMALL: dict[str, dict[str, Any]] = {
    "connect-four": {"width": 4, "height": 3},
    "dobutsu": {"height": 3, "pieces": "c"},
}
"""Parameters that keep a built-in small enough to solve here; the others use defaults."""


def playthrough(name: str, seed: int = 7) -> str:
    """The text of one seeded random game of built-in ``name``, solved first."""
    game = BUILTINS[name](**SMALL.get(name, {}))
    rules = Rules(game)
    solution = solve(game)
    pick = random.Random(seed)
    state = rules.initial_state()
    shown = ", ".join(f"{k}={v}" for k, v in SMALL.get(name, {}).items())
    lines = [f"{name}{f' ({shown})' if shown else ''}: {solution.method}, "
             f"{solution.stats.states} positions"]  # fmt: skip
    for ply in range(200):
        lines.append("")
        lines.extend(rules.show(state).splitlines())
        value, remoteness = solution.value(state), solution.remoteness(state)
        lines.append(f"ply {ply}: {value} in {remoteness} for the player to move")
        options = solution.move_values(state)
        if not options:
            lines.append(f"the end: {rules.outcome(state)} for the player to move")
            break
        lines.append(
            "moves: "
            + "; ".join(f"{rules.format_move(o.move)} {o.value} in {o.remoteness}" for o in options)
        )
        move = options[pick.randrange(len(options))].move
        lines.append(f"played: {rules.format_move(move)}")
        state = rules.play(state, move)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_playthrough_is_the_golden_one(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(name)
    if os.environ.get("PERFECTPLAY_GOLDEN") == "write":
        path.write_text(text)
    assert path.is_file(), f"no golden playthrough for {name}: write it (see the docstring)"
    assert text == path.read_text()


def test_a_changed_rule_shows_in_the_playthrough(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison catches a rule change: Nim where the last stone loses differs."""
    before = playthrough("nim")
    original = BUILTINS["nim"]
    monkeypatch.setitem(BUILTINS, "nim", lambda: original(misere=True))
    assert playthrough("nim") != before
