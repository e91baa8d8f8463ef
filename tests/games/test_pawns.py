"""The pawns game (ARC 002 D) decided by adding the values of its row segments.

On random small boards where no piece can race, the sum of the segments' values
(``PawnSegments``, through ``perfectplay.cgt``) must name the winner that an exhaustive
search of the real rules, written below, finds; the contest answer
(``perfectplay.contest.arc002d``) must agree too, and so must ``analyze pawns --cgt``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from perfectplay.cgt import Solver, game, integer, value
from perfectplay.cgt.canonical import ZERO, add
from perfectplay.cli import main
from perfectplay.cli.cgt_command import partizan_report
from perfectplay.contest.arc002d import random_board, tempo_winner
from perfectplay.games.pawns import Pawns, PawnSegments, no_sum
from perfectplay.rules import Rules

Board = tuple[str, ...]

# --------------------------------------------------------------------------- reference


def exhaustive_winner(rows: Board, o_to_move: bool) -> str:
    """ "o" or "x": who wins the real game under perfect play, by an iterative search.

    o steps right, x steps left, onto an empty cell or an enemy (captured); a side wins by
    reaching the far column or capturing every enemy piece.
    """
    width = len(rows[0])
    memo: dict[tuple[Board, bool], str] = {}

    def options(board: Board, o_moves: bool) -> list[tuple[Board, str | None]]:
        """Each move's board and the winner it makes at once (or None)."""
        me, enemy, step = ("o", "x", 1) if o_moves else ("x", "o", -1)
        found = []
        for r, row in enumerate(board):
            for c, cell in enumerate(row):
                target = c + step
                if cell != me or not 0 <= target < width or row[target] == me:
                    continue
                cells = list(row)
                cells[c], cells[target] = ".", me
                new = (*board[:r], "".join(cells), *board[r + 1 :])
                camp = target == (width - 1 if o_moves else 0)
                gone = not any(enemy in line for line in new)
                found.append((new, me if camp or gone else None))
        return found

    stack = [(rows, o_to_move)]
    while stack:
        board, o_moves = stack[-1]
        if (board, o_moves) in memo:
            stack.pop()
            continue
        me = "o" if o_moves else "x"
        other = "x" if o_moves else "o"
        pending = []
        result = None
        moves = options(board, o_moves)
        for new, won in moves:
            if won == me:
                result = me
                break
            got = memo.get((new, not o_moves))
            if got is None:
                pending.append((new, not o_moves))
            elif got == me:
                result = me
                break
        if result is None and pending:
            stack.extend(pending)
            continue
        # No move at all cannot happen in play (a side with pieces can step its front);
        # count it as a loss for the mover all the same.
        memo[(board, o_moves)] = result or other
        stack.pop()
    return memo[(rows, o_to_move)]


def winner_from_sum(board: str, o_to_move: bool) -> str:
    """The winner told by the sign of the sum of the segments' values."""
    view = PawnSegments(board)
    solver = Solver(view)
    total = ZERO
    for part in view.components(view.initial()):
        total = add(total, solver.value(part))
    cls = total.outcome
    mover, other = ("o", "x") if o_to_move else ("x", "o")
    return {"L": "o", "R": "x", "N": mover, "P": other}[cls]


def my_board(rng: random.Random) -> Board:
    """A random board no piece can race: rows of o...x segments, maybe empty rows."""
    height = rng.randint(1, 3)
    width = rng.randint(3, 10)
    while True:
        rows = []
        for _ in range(height):
            cells = ["."] * width
            segs = rng.randint(0, min(2, width // 2))
            spots = sorted(rng.sample(range(width), 2 * segs))
            for a, b in zip(spots[0::2], spots[1::2], strict=True):
                split = rng.randint(a, b - 1)
                for c in range(a, b + 1):
                    if rng.random() < 0.6 or c in (a, b):
                        cells[c] = "o" if c <= split else "x"
            rows.append("".join(cells))
        joined = "".join(rows)
        if "o" in joined and "x" in joined and no_sum(rows) is None:
            return tuple(rows)


def small(rows: Board) -> bool:
    """Few enough pieces and cells for the exhaustive search to be quick."""
    return sum(row.count("o") + row.count("x") for row in rows) <= 9


def boards(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        rows = (
            my_board(rng)
            if rng.random() < 0.5
            else tuple(random_board(rng, max_rows=3, max_cols=10, contested=True))
        )
        if small(rows) and no_sum(list(rows)) is None:
            found.append(rows)
    return found


# --------------------------------------------------------------------------- tests


def test_the_reference_search_knows_the_basics() -> None:
    # o.x: whoever must step into the gap is captured; o moves first and loses.
    assert exhaustive_winner(("o.x",), True) == "x"
    assert exhaustive_winner(("o.x",), False) == "o"
    # A free runner wins.
    assert exhaustive_winner(("o..", "..x"), True) == "o"


@pytest.mark.parametrize("seed", range(4))
def test_sum_of_values_decides_random_boards(seed: int) -> None:
    for rows in boards(100, seed):
        board = "/".join(rows)
        for o_first in (True, False):
            truth = exhaustive_winner(rows, o_first)
            assert winner_from_sum(board, o_first) == truth, (board, o_first)
        # The contest answer (o moves first) agrees with the sum.
        assert tempo_winner(list(rows)) == winner_from_sum(board, True), board


def test_positions_after_moves_with_either_side_to_move() -> None:
    # Play a few random moves of the real game, then compare the analyze --cgt report
    # (through the game's partizan hook) with the exhaustive search.
    rng = random.Random(5)
    checked = 0
    for rows in boards(150, 11):
        game = Pawns("/".join(rows))
        rules = Rules(game)
        state = game.initial()
        for _ in range(rng.randint(0, 3)):
            moves = list(game.moves(state))
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is not None:
            continue
        board, flipped = state
        real = (board[::-1].translate(bytes.maketrans(b"ox", b"xo")) if flipped else board).decode()
        real_rows = real.split("/")
        if no_sum(real_rows) is not None:
            continue
        report = partizan_report(rules, state)
        truth = exhaustive_winner(tuple(real_rows), not flipped)
        assert report["winner"].startswith(truth), real
        checked += 1
    assert checked >= 50


def test_segment_values_add_up_to_the_whole() -> None:
    # The split hook must not change values: the whole board valued with no split.
    class Whole(PawnSegments):
        components = None  # type: ignore[assignment]
        key = None  # type: ignore[assignment]
        swap = None  # type: ignore[assignment]

    for rows in boards(25, 23):
        board = "/".join(rows)
        if len(PawnSegments(board).initial()) < 2:
            continue
        split = PawnSegments(board)
        assert value(Whole(board)) is value(split), board


def spare_difference(cells: str, claims: int) -> int:
    """o's safe moves minus x's when each front advances ``claims`` cells into the gap
    between them and each side's pieces pack up behind its front."""
    o_cols = [c for c, v in enumerate(cells) if v == "o"]
    x_cols = [c for c, v in enumerate(cells) if v == "x"]
    o_front = o_cols[-1] + claims
    x_front = x_cols[0] - claims
    o_moves = sum(o_front - k - c for k, c in enumerate(reversed(o_cols)))
    x_moves = sum(c - (x_front + k) for k, c in enumerate(x_cols))
    return o_moves - x_moves


def test_segment_values_are_integers_or_switches() -> None:
    # A segment whose fronts leave an even gap is the integer of spare moves after an even
    # share; an odd gap leaves one cell to claim: {n + p - 1 | n - q + 1} (p o and q x).
    rng = random.Random(2)
    kinds = set()
    for _ in range(150):
        o_part = "o" + "".join(rng.choice("o.") for _ in range(rng.randint(0, 3)))
        x_part = "".join(rng.choice("x.") for _ in range(rng.randint(0, 3))) + "x"
        cells = o_part + "." * rng.randint(1, 6) + x_part
        p, q = cells.count("o"), cells.count("x")
        gap = cells.index("x") - cells.rindex("o") - 2
        got = value(PawnSegments(cells))
        if gap % 2 == 0:
            assert got is integer(spare_difference(cells, gap // 2)), cells
            kinds.add("integer")
        else:
            n = spare_difference(cells, gap // 2)
            assert got is game([n + p - 1], [n - q + 1]), cells
            kinds.add("star" if p == q == 1 else "switch")
    assert kinds == {"integer", "star", "switch"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = 0
    try:
        main(list(args))
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_analyze_cgt_json(capsys: pytest.CaptureFixture[str]) -> None:
    board = "o....x.../oo..x.o.x/.o.o....x"
    status, out, err = run(capsys, "analyze", "pawns", "-p", f"board={board}", "--cgt", "--json")
    assert status == 0, err
    report: dict[str, Any] = json.loads(out)
    cells = [c["component"].split(": ")[1] for c in report["components"]]
    assert cells == ["o....x", "oo..x", "o.x", "o.o....x"]
    truth = exhaustive_winner(tuple(board.split("/")), True)
    assert report["winner"].startswith(truth)
    assert tempo_winner(board.split("/")) == truth


def test_analyze_cgt_refuses_a_race(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze", "pawns", "-p", "board=o...x/.x...", "--cgt")
    assert status != 0 and "race" in err and err.count("\n") == 1
