"""All Queens Chess (examples/mall_queens_chess.py, GamesmanOne's mallqueenschess): the
3 x 3 board solved against the independent reference at every reachable position, and the
rules (moves, lines, the start, the sixteen symmetries) against definitions written here
from the rules alone, on positions of random 5 x 5 games.

No figure of GamesmanOne's is kept: GamesmanOne v1.3.0 (commit 1969986) answers nothing
for this game on this machine. Its mallqueenschess defines no UWAPI, so ``gamesman query``
and ``gamesman getstart`` refuse it ("missing UWAPI function definition"), and its solve
keeps a 16-bit record for each of its 9,610,154,400 hash positions: 19.2 GB in memory, of
the 23 GB this machine shares with other work (bench/formal_mall_queens_chess.py compares
position by position where GamesmanOne can answer, and says why not where it cannot).
"""

from __future__ import annotations

import random
from itertools import combinations

import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.values import DRAW, LOSS, WIN

GAME = load("mall_queens_chess").MallQueensChess
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def cells(n: int, s: int) -> tuple[list[str], str]:
    """The board, cell r*n + c as "W", "B" or "-", and who is to move ("W" or "B")."""
    area = n * n
    board = ["W" if s >> i & 1 else "B" if s >> (area + i) & 1 else "-" for i in range(area)]
    return board, "B" if s >> (2 * area) & 1 else "W"


def state(n: int, board: list[str], mover: str) -> int:
    area = n * n
    s = sum(1 << i for i in range(area) if board[i] == "W")
    s |= sum(1 << (area + i) for i in range(area) if board[i] == "B")
    return s | (1 << (2 * area) if mover == "B" else 0)


def slides(n: int, board: list[str], mover: str) -> set[tuple[int, int]]:
    """(source, target) of every queen move: any number of blank cells in one of eight
    directions, stopping before the first piece or the edge."""
    found = set()
    for i in range(n * n):
        if board[i] != mover:
            continue
        for dr, dc in STEPS:
            r, c = i // n + dr, i % n + dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == "-":
                found.add((i, r * n + c))
                r, c = r + dr, c + dc
    return found


def has_four(n: int, board: list[str], colour: str) -> bool:
    """min(4, n) cells of ``colour`` one after another along a row, column or diagonal."""
    k = min(4, n)
    for r in range(n):
        for c in range(n):
            for dr, dc in STEPS:
                run = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < n and 0 <= b < n and board[a * n + b] == colour for a, b in run):
                    return True
    return False


def symmetric(r: int, c: int, t: int) -> int:
    """Cell (r, c) of a 5 x 5 board transposed (t & 4), then rows (t & 1) and columns
    (t & 2) reversed: the square's eight symmetries."""
    r, c = (c, r) if t & 4 else (r, c)
    return (4 - r if t & 1 else r) * 5 + (4 - c if t & 2 else c)


def random_positions(game, count: int, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        s = game.initial()
        while game.outcome(s) is None and len(found) < count:
            s = game.play(s, rng.choice(list(game.moves(s))))
            found.append(s)
    return found


def test_3x3_agrees_with_the_reference_at_every_position() -> None:
    game = GAME(size=3)
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    for s, (value, plies) in expected.items():
        assert (solution.value(s), solution.remoteness(s)) == (value, plies), game.show(s)
    assert len(expected) == 3040
    assert (solution.value(game.initial()), solution.remoteness(game.initial())) == (DRAW, None)
    assert {value for value, _ in expected.values()} == {WIN, LOSS, DRAW}


def test_the_start_is_gamesmanones() -> None:
    """GamesmanOne's initial board string, W (its player 1) to move, and W's 34 moves."""
    game = GAME()
    assert game.show(game.initial()) == "WBWBW/-----/B---W/-----/BWBWB W to move"
    assert cells(5, game.initial()) == (list("WBWBW-----B---W-----BWBWB"), "W")
    assert len(list(game.moves(game.initial()))) == 34
    assert game.format_move(0 * 32 + 18) == "1a4d"  # a1 to d4 on the diagonal


def test_moves_and_ends_follow_the_rules_in_random_5x5_games() -> None:
    game = GAME()
    ended = 0
    for s in random_positions(game, 1500):
        board, mover = cells(5, s)
        other = "B" if mover == "W" else "W"
        assert not has_four(5, board, mover)  # only the player who just moved makes a line
        if has_four(5, board, other):
            assert game.outcome(s) is LOSS
            ended += 1
            continue
        assert game.outcome(s) is None
        made = {(m // 32, m % 32) for m in game.moves(s)}
        assert made == slides(5, board, mover), game.show(s)
        for source, target in sorted(made)[:3]:
            after = board.copy()
            after[source], after[target] = "-", mover
            assert game.play(s, source * 32 + target) == state(5, after, other)
    assert ended >= 10  # (19 games ended among these positions)


def test_lines_of_four_anywhere_end_the_game() -> None:
    """Four in a row of either colour, along a row or a short diagonal, end the game (the
    player to move has lost); three in a row, or four with a gap, do not."""
    game = GAME()
    boards = {
        "-W---/--W--/---W-/----W/B-BBB": LOSS,  # W: b1 c2 d3 e4
        "-W---/--W--/---W-/-----/BBBB-": LOSS,  # B: a5 b5 c5 d5
        "-W---/--W--/-----/---WW/B-BBB": None,  # three on the diagonal, B's row broken
        "WW-WW/-----/-----/-----/BBB-B": None,  # four with a gap
    }
    for rows, end in boards.items():
        for mover in "WB":
            assert game.outcome(state(5, list(rows.replace("/", "")), mover)) is end, rows


def test_no_board_leaves_a_player_without_a_move() -> None:
    """GamesmanOne's solver would call a position without moves a draw and perfectplay a
    loss: no board without a line blocks every queen of a side, so they never differ."""
    for n, queens in ((3, 3), (4, 4), (5, 6)):
        around = [sum(1 << (r * n + c) for r, c in ((i // n + a, i % n + b) for a, b in STEPS)
                      if 0 <= r < n and 0 <= c < n) for i in range(n * n)]  # fmt: skip
        for mine in combinations(range(n * n), queens):
            board = ["W" if i in mine else "-" for i in range(n * n)]
            walls = 0
            for i in mine:
                walls |= around[i]
            walls = [i for i in range(n * n) if walls >> i & 1 and board[i] == "-"]
            if len(walls) > queens or has_four(n, board, "W"):
                continue
            rest = [i for i in range(n * n) if board[i] == "-" and i not in walls]
            for more in combinations(rest, queens - len(walls)):
                boxed = [("B" if i in walls or i in more else x) for i, x in enumerate(board)]
                assert has_four(n, boxed, "B"), (n, "".join(boxed))


def test_the_key_folds_the_eight_symmetries_and_the_colours() -> None:
    game = GAME()
    maps = [[symmetric(i // 5, i % 5, t) for i in range(25)] for t in range(8)]
    for s in random_positions(game, 300, seed=2):
        board, mover = cells(5, s)
        orbit = set()
        for where in maps:
            for swap in (False, True):
                image = ["-"] * 25
                for i, piece in enumerate(board):
                    image[where[i]] = {"W": "B", "B": "W"}.get(piece, "-") if swap else piece
                orbit.add(state(5, image, {"W": "B", "B": "W"}[mover] if swap else mover))
        assert {game.key(t) for t in orbit} == {game.key(s)}
        assert game.key(s) in orbit
