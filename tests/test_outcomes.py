"""Outcome classes (L, R, N, P and draws) of any partizan position, loopy ones included.

``perfectplay.outcomes.outcome_class`` runs the engine's retrograde solver; here it must
agree with an iterative retrograde analysis written below (sharing no code with the
engine) on random loopy games and their sums, with canonical values on short games, and
in misère play with Bouton's rule for Nim and the misère Grundy values of Kayles.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable
from typing import Any, ClassVar

import pytest

from perfectplay.cgt import PartizanSum, value
from perfectplay.cgt.octal import misere
from perfectplay.errors import GameError
from perfectplay.outcomes import Outcome, outcome_class

# --------------------------------------------------------------------------- reference


def reference_winners(game: Any, root: Hashable, misere_play: bool = False) -> tuple[str, str]:
    """Who wins ``root`` with Left first and with Right first: "L", "R" or "D" (draw).

    Explores (position, Left to move) breadth first, then settles ends and propagates:
    a state is won once one child is lost for the opponent, lost once all are won for
    them; what is never settled is a draw.
    """
    index: dict[tuple[Hashable, bool], int] = {}
    children: list[list[int]] = []
    queue: deque[tuple[Hashable, bool]] = deque()
    for start in ((root, True), (root, False)):
        if start not in index:
            index[start] = len(children)
            children.append([])
            queue.append(start)
    while queue:
        pos, left = queue.popleft()
        me = index[(pos, left)]
        moves = game.left_moves(pos) if left else game.right_moves(pos)
        for m in moves:
            nxt = (game.play(pos, m), not left)
            if nxt not in index:
                index[nxt] = len(children)
                children.append([])
                queue.append(nxt)
            children[me].append(index[nxt])
    n = len(children)
    parents: list[list[int]] = [[] for _ in range(n)]
    for s, kids in enumerate(children):
        for k in kids:
            parents[k].append(s)
    result: list[str | None] = [None] * n  # "W" or "L" for the mover
    left_undecided = [len(kids) for kids in children]
    work = deque(s for s in range(n) if not children[s])
    for s in work:
        result[s] = "W" if misere_play else "L"
    while work:
        s = work.popleft()
        for p in parents[s]:
            if result[p] is not None:
                continue
            if result[s] == "L":
                result[p] = "W"
                work.append(p)
            else:
                left_undecided[p] -= 1
                if left_undecided[p] == 0:
                    result[p] = "L"
                    work.append(p)

    def winner(left: bool) -> str:
        r = result[index[(root, left)]]
        if r is None:
            return "D"
        return "L" if (r == "W") == left else "R"

    return winner(True), winner(False)


# --------------------------------------------------------------------------- random games


class GraphGame:
    """A partizan game on a random directed graph (cycles allowed): positions are nodes."""

    def __init__(self, rng: random.Random, nodes: int, acyclic: bool = False) -> None:
        self.left: list[list[int]] = []
        self.right: list[list[int]] = []
        for v in range(nodes):
            targets = list(range(v)) if acyclic else list(range(nodes))
            self.left.append(rng.sample(targets, rng.randint(0, min(2, len(targets)))))
            self.right.append(rng.sample(targets, rng.randint(0, min(2, len(targets)))))

    def left_moves(self, v: int) -> list[int]:
        return self.left[v]

    def right_moves(self, v: int) -> list[int]:
        return self.right[v]

    def play(self, v: int, move: int) -> int:
        return move


def as_pair(o: Outcome) -> tuple[str, str]:
    return (o.left_first, o.right_first)


def test_reference_on_hand_made_games() -> None:
    # The reference itself, on positions whose classes are plain: 0 is P, * is N, 1 is L.
    class Hand:
        moves: ClassVar[dict[str, tuple[list[str], list[str]]]] = {
            "0": ([], []),
            "*": (["0"], ["0"]),
            "1": (["0"], []),
            "a": (["b"], []),
            "b": ([], ["a"]),
        }

        def left_moves(self, s: str) -> list[str]:
            return self.moves[s][0]

        def right_moves(self, s: str) -> list[str]:
            return self.moves[s][1]

        def play(self, s: str, m: str) -> str:
            return m

    assert reference_winners(Hand(), "0") == ("R", "L")
    assert reference_winners(Hand(), "*") == ("L", "R")
    assert reference_winners(Hand(), "1") == ("L", "L")
    assert reference_winners(Hand(), "a") == ("D", "L")
    assert outcome_class(Hand(), "a").describe() == "Left first: draw; Right first: Left wins"
    assert outcome_class(Hand(), "*").label == "N"


def test_loopy_games_and_their_sums_agree_with_the_reference() -> None:
    rng = random.Random(19)
    labels: set[str] = set()
    for trial in range(150):
        parts = [GraphGame(rng, rng.randint(1, 5)) for _ in range(rng.randint(1, 3))]
        game = PartizanSum(*parts)
        root = tuple(rng.randrange(len(p.left)) for p in parts)
        got = outcome_class(game, root)
        assert as_pair(got) == reference_winners(game, root), trial
        labels.add(got.label)
    # Every kind of answer came up: the four classes and draws on either side.
    assert {"L", "R", "N", "P", "D"} <= labels
    assert any("/" in label for label in labels)


def test_short_games_classes_match_canonical_values() -> None:
    rng = random.Random(7)
    for _ in range(120):
        a = GraphGame(rng, rng.randint(1, 6), acyclic=True)
        b = GraphGame(rng, rng.randint(1, 6), acyclic=True)
        x, y = rng.randrange(len(a.left)), rng.randrange(len(b.left))
        got = outcome_class(PartizanSum(a, b), (x, y))
        assert not got.has_draw
        assert got.label == (value(a, x) + value(b, y)).outcome
        assert as_pair(got) == reference_winners(PartizanSum(a, b), (x, y))


def test_misere_random_games_agree_with_the_reference() -> None:
    rng = random.Random(3)
    for _ in range(100):
        g = GraphGame(rng, rng.randint(1, 6), acyclic=rng.random() < 0.5)
        v = rng.randrange(len(g.left))
        assert as_pair(outcome_class(g, v, misere=True)) == reference_winners(g, v, True)


class Nim:
    """Impartial Nim with only ``moves`` and ``play``: a state is a sorted tuple of piles."""

    def moves(self, piles: tuple[int, ...]) -> list[tuple[int, int]]:
        return [(i, k) for i, p in enumerate(piles) for k in range(p)]

    def play(self, piles: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...]:
        i, k = move
        return tuple(sorted((*piles[:i], k, *piles[i + 1 :])))


@pytest.mark.parametrize("piles", [(1,), (1, 1), (1, 1, 1), (2,), (2, 2), (1, 2, 3), (2, 3, 3)])
def test_misere_nim_follows_boutons_rule(piles: tuple[int, ...]) -> None:
    # Misère Nim: with every pile at most 1 the mover loses on an odd count of piles of 1;
    # otherwise the mover loses exactly when the xor is 0, as in normal play.
    xor = 0
    for p in piles:
        xor ^= p
    loses = len(piles) % 2 == 1 if max(piles) <= 1 else xor == 0
    got = outcome_class(Nim(), piles, misere=True)
    assert got.label == ("P" if loses else "N")
    normal = outcome_class(Nim(), piles)
    assert normal.label == ("P" if xor == 0 else "N")


class Kayles:
    """Kayles written here: knock down one pin or two adjacent ones from a row."""

    def moves(self, rows: tuple[int, ...]) -> list[tuple[int, int, int]]:
        return [
            (i, take, left)
            for i, n in enumerate(rows)
            for take in (1, 2)
            for left in range(n - take + 1)
        ]

    def play(self, rows: tuple[int, ...], move: tuple[int, int, int]) -> tuple[int, ...]:
        i, take, left = move
        right = rows[i] - take - left
        rest = (*rows[:i], *rows[i + 1 :], left, right)
        return tuple(sorted(r for r in rest if r))


def test_misere_kayles_heaps_match_misere_grundy_values() -> None:
    report = misere("0.77", 14)
    gamma0 = report.misere_values()
    for heap in range(report.last + 1):
        got = outcome_class(Kayles(), (heap,) if heap else (), misere=True)
        assert got.label == ("P" if gamma0[heap] == 0 else "N"), heap


def test_errors_are_one_line() -> None:
    with pytest.raises(GameError) as info:
        outcome_class(object(), 0)
    assert "\n" not in str(info.value)
    with pytest.raises(GameError):
        outcome_class(Nim(), [1, 2])


# --------------------------------------------------------------------------- command line

SHUTTLE = '''
class Shuttle:
    """A token on 0..3 in a ring: Left steps it up, Right steps it down, but Right never
    moves from 0 and Left never from 3; Left may also jump from 2 to 0."""

    name = "shuttle"

    def initial(self):
        return 0

    def left_moves(self, s):
        return [] if s == 3 else [(s + 1) % 4] + ([0] if s == 2 else [])

    def right_moves(self, s):
        return [] if s == 0 else [s - 1]

    def play(self, s, m):
        return m

    def parse_position(self, text):
        return int(text)
'''


def run_cgt(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from perfectplay.cli import main

    status = 0
    try:
        main(["cgt", *args])
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("misere_play", [False, True])
def test_cgt_command_reports_loopy_classes(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], misere_play: bool
) -> None:
    import importlib.util
    import json

    path = tmp_path / "shuttle.py"
    path.write_text(SHUTTLE)
    spec = importlib.util.spec_from_file_location("shuttle", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = {"L": "Left wins", "R": "Right wins", "D": "draw"}
    for start in range(4):
        extra = ["--misere"] if misere_play else []
        status, out, err = run_cgt(
            capsys, f"{path}:Shuttle", "--position", str(start), "--json", *extra
        )
        assert status == 0, err
        report = json.loads(out)
        lf, rf = reference_winners(module.Shuttle(), start, misere_play)
        assert (report["left_first"], report["right_first"]) == (names[lf], names[rf])
        status, out, err = run_cgt(capsys, f"{path}:Shuttle", "--position", str(start), *extra)
        assert status == 0, err
        assert names[lf] in out and names[rf] in out
        assert ("loopy" in out) is not misere_play  # the value is tried in normal play only


def test_cgt_outcome_flag_on_a_short_game(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    status, out, err = run_cgt(capsys, "toads", "--position", "TT..FF", "--outcome", "--json")
    assert status == 0, err
    from perfectplay.cgt import ToadsAndFrogs

    toads = ToadsAndFrogs()
    state = toads.parse_position("TT..FF")
    assert json.loads(out)["outcome"] == value(toads, state).outcome
