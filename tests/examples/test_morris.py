"""examples/morris.py (issue 47, item 1) held to an independent reading of the rules.

The reference below lists the lines of the board (the sides of each square, and the lines
across the midpoints) and derives from them both the adjacencies (consecutive points of a
line) and the mills (lines of three points), where the example computes them ring by ring
into bit masks; it moves and takes stones by sets, where the example moves bits. Its
positions are tuples of "X" (the mover's), "O" and "." with the stones in hand. On random
playouts of several variants, every position's moves, their results and its end must be
what the compiled game's rules give, decoded; and the small variant's solve must agree
between the solve in memory and the tier-by-tier tablebase.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import examples_loader
import pytest
from morris_positions import placed_out

from perfectplay import Value, build_tablebase, open_tablebase, solve
from perfectplay.compiled_games import form

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "morris.py"
Position = tuple[tuple[str, ...], int, int]  # (points, mover's hand, opponent's hand)


def load() -> Any:
    return examples_loader.load("morris")


class Board:
    """The board's lines: each square's points clockwise from its top-left corner,
    outermost square first."""

    def __init__(self, points: int) -> None:
        rings = points // 8
        lines: list[tuple[int, ...]] = []
        for r in range(rings):
            ring = list(range(8 * r, 8 * r + 8))
            for corner in (0, 2, 4, 6):
                lines.append((ring[corner], ring[corner + 1], ring[(corner + 2) % 8]))
        for k in (1, 3, 5, 7):  # across the midpoints, outermost first
            lines.append(tuple(8 * r + k for r in range(rings)))
        self.mills = [set(line) for line in lines if len(line) == 3]
        self.adjacent: dict[int, set[int]] = {i: set() for i in range(points)}
        for line in lines:
            for a, b in itertools.pairwise(line):
                self.adjacent[a].add(b)
                self.adjacent[b].add(a)
        self.points = points


def reference_moves(board: Board, position: Position, jumps: bool) -> dict[Any, Position]:
    """(source, target, taken) -> the position after it, from the next mover's side."""
    cells, hand, their_hand = position
    mine = {i for i, c in enumerate(cells) if c == "X"}
    theirs = {i for i, c in enumerate(cells) if c == "O"}
    empty = [i for i, c in enumerate(cells) if c == "."]
    steps: list[tuple[Any, int]] = []
    if hand > 0:
        steps = [("hand", t) for t in empty]
    elif jumps and len(mine) == 3:
        steps = [(s, t) for s in mine for t in empty]
    else:
        steps = [(s, t) for s in mine for t in board.adjacent[s] if cells[t] == "."]
    found: dict[Any, Position] = {}
    for source, target in steps:
        after = (mine - {source}) | {target}
        closes = any(target in mill and mill <= after for mill in board.mills)
        victims: list[Any] = [None]
        if closes:
            free = [v for v in theirs if not any(v in m and m <= theirs for m in board.mills)]
            victims = list(free or theirs)
        for victim in victims:
            left = theirs - {victim}
            new = tuple("X" if i in left else "O" if i in after else "." for i in range(len(cells)))
            found[(source, target, victim)] = (new, their_hand, hand - (source == "hand"))
    return found


def reference_lost(position: Position) -> bool:
    cells, hand, _ = position
    return cells.count("X") + hand < 3


def encode(position: Position) -> int:
    cells, hand, their_hand = position
    code = hand << 48 | their_hand << 52
    for i, c in enumerate(cells):
        code |= (1 << i) if c == "X" else (1 << (24 + i)) if c == "O" else 0
    return code


def decode_move(m: int) -> tuple[Any, int, Any]:
    taken, target, source = m % 25, (m // 25) % 25, m // 625
    return ("hand" if source == 24 else source, target, None if taken == 24 else taken)


@pytest.mark.parametrize(
    "params", [{"points": 24, "stones": 9}, {"points": 16, "stones": 6},
               {"points": 24, "stones": 4, "jumps": False}, {"points": 16, "stones": 3}],
)  # fmt: skip
def test_the_rules_match_the_reference_on_random_playouts(params: dict[str, Any]) -> None:
    game = load().Morris(**params)
    board = Board(params["points"])
    jumps = params.get("jumps", True)
    rng = random.Random(7)
    checked = mills = 0
    for _ in range(40):
        position: Position = ((".",) * board.points, params["stones"], params["stones"])
        for _ply in range(120):
            code = encode(position)
            lost = reference_lost(position)
            assert (game.outcome(code) is Value.LOSS) == lost, position
            if lost:
                break
            expected = reference_moves(board, position, jumps)
            found = {decode_move(m): game.play(code, m) for m in game.moves(code)}
            assert set(found) == set(expected), position
            for move, child in found.items():
                assert child == encode(expected[move]), (position, move)
            checked += 1
            mills += any(victim is not None for _, _, victim in expected)
            if not expected:
                break
            position = expected[rng.choice(sorted(expected, key=str))]
    assert checked > 1000 and mills > 50  # long games, with mills closed on the way


@pytest.mark.parametrize(
    "params", [{"points": 24, "stones": 9}, {"points": 16, "stones": 4},
               {"points": 24, "stones": 4, "jumps": False}],
)  # fmt: skip
def test_unmoves_undo_exactly_the_moves_inside_a_tier(params: dict[str, Any]) -> None:
    """On random playouts: a position is among the un-moves of each of its children in its
    own tier, once per move leading there, and of none in another; every un-move of a
    child is a position of the child's tier that goes on and has a move to it."""
    import numpy as np

    game = load().Morris(**params)
    unmoves, tier = game.rule_functions["unmoves"], game.rule_functions["tier"]
    buffer = np.empty(game.max_moves, dtype=np.int64)

    def parents(code: int) -> list[int]:
        return [int(x) for x in buffer[: unmoves(game.params, code, buffer)]]

    rng = random.Random(11)
    checked = inside = 0
    for _ in range(25):
        code = game.initial()
        while game.outcome(code) is None and game.moves(code):
            children = [game.play(code, m) for m in game.moves(code)]
            for child in set(children):
                found = parents(child)
                same = tier(game.params, child) == tier(game.params, code)
                assert found.count(code) == (children.count(child) if same else 0)
                inside += same
                for parent in rng.sample(found, min(5, len(found))):
                    assert game.outcome(parent) is None, game.show(parent)
                    assert tier(game.params, parent) == tier(game.params, child)
                    assert child in {game.play(parent, m) for m in game.moves(parent)}
                checked += 1
            code = rng.choice(children)
    assert checked > 2000 and inside > 200


def test_the_small_variant_solves_the_same_in_memory_and_by_tiers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(form, "_MODE", "compiled")
    module = load()
    game = module.Morris(points=16, stones=3)
    memory = solve(game)
    build_tablebase(game, tmp_path / "tb")
    rng = random.Random(1)
    states = list(memory.graph.states.tolist()) if hasattr(memory, "graph") else []
    assert len(states) > 100_000
    with open_tablebase(tmp_path / "tb", module.Morris(points=16, stones=3)) as base:
        assert base.value() == memory.value() == Value.DRAW
        for state in rng.sample(states, 3000):
            assert base.value(state) == memory.value(state), state
            assert base.remoteness(state) == memory.remoteness(state), state


def test_the_midgame_database_solves_every_placed_out_position_as_the_game_does(
    tmp_path: Path,
) -> None:
    """MorrisMidgame (every position with all stones placed, reached or not, solved as a
    database) against the whole game solved from the start: the same value and remoteness
    on the placed-out positions of random playouts, and more positions in all."""
    module = load()
    params = {"points": 16, "stones": 4}
    build_tablebase(module.Morris(**params), tmp_path / "game")
    build_tablebase(module.MorrisMidgame(**params), tmp_path / "midgame")
    game = module.Morris(**params)
    compared = 0
    with (
        open_tablebase(tmp_path / "game", game) as whole,
        open_tablebase(tmp_path / "midgame", module.MorrisMidgame(**params)) as database,
    ):
        for state in placed_out(game, 5, 200):
            assert database.lookup(state) == whole.lookup(state), game.show(state)
            compared += 1
    assert compared > 2000
    every = 2 * params["stones"]
    solved = {}  # positions solved in the tiers of placed-out positions, by tablebase
    for name in ("game", "midgame"):
        tiers = json.loads((tmp_path / name / "header.json").read_text())["tiers"]
        # (a tier is stage * 16 + the smaller count; a stage, taken * (every + 1) + placed)
        solved[name] = sum(
            t["positions"] for t in tiers if (t["tier"] // 16) % (every + 1) == every
        )
    assert solved["midgame"] > solved["game"] > 0  # what play never reaches too


def test_show_and_the_drawing() -> None:
    game = load().Morris(points=16, stones=6)
    start = game.initial()
    assert game.show(start) == "......../........ X to move, in hand X 6 O 6"
    drawing = game.draw_svg(start)
    assert drawing.startswith("<svg") and drawing.count("<circle") == 16
    assert drawing.count("data-move=") == 16  # every empty point is a placement


KILLED_BUILD = """
import importlib.util, sys
from perfectplay import build_tablebase
from perfectplay.tiers import files
files.NOTE_EVERY = 0  # progress noted after every tier: the kills land between notes
spec = importlib.util.spec_from_file_location("perfectplay_example_morris", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module  # (numba reloads the rules it compiled by module name)
spec.loader.exec_module(module)
build_tablebase(module.MorrisMidgame(points=16, stones=5), sys.argv[2])
"""


def test_a_database_killed_three_times_resumes_to_the_same_bytes(tmp_path: Path) -> None:
    """kill -9 while the first tier is solved (its working file made), after it is noted
    solved, and after the third: the build taken up again writes every tier byte for byte
    as one uninterrupted."""
    import signal
    import subprocess
    import sys
    import time

    target = tmp_path / "killed"
    progress = target / "progress.json"

    def noted(key: str) -> int:
        try:
            return len(json.loads(progress.read_text() or "{}").get(key, []))
        except (OSError, ValueError):
            return 0

    def working() -> int:
        return len(list(target.glob("tier-*.partial")))

    for what, count in ((working, 1), (lambda: noted("solved"), 1), (lambda: noted("solved"), 3)):
        child = subprocess.Popen([sys.executable, "-c", KILLED_BUILD, str(EXAMPLE), str(target)])
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and child.poll() is None and what() < count:
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert what() >= count and not (target / "header.json").exists(), count
    module = load()
    resumed, _ = build_tablebase(module.MorrisMidgame(points=16, stones=5), target)
    whole, _ = build_tablebase(module.MorrisMidgame(points=16, stones=5), tmp_path / "whole")
    assert len(whole.tiers) == 9  # the pairs of counts 3-3 to 5-5, and 2-3, 2-4, 2-5 (lost)
    assert {t: e.sha256 for t, e in resumed.tiers.items()} == {
        t: e.sha256 for t, e in whole.tiers.items()
    }
