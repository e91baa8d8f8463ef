"""Gobblet Gobblers (examples/gobblet.py), GamesmanOne's gobbletg in perfectplay's compiled
form: solved on the 2 x 2 board against the independent reference at every position, the
rules checked by hand on the real board, and the moves held to what GamesmanOne v1.3.0
(commit 1969986) answered to ``gamesman query gobbletg 0`` on this machine.

GamesmanOne could not solve gobbletg here (its first tier, every piece down, 864,162,432
positions, ran out of memory at once: see bench/formal_gobblet.py), so it gave no value or
remoteness to record; its query still lists each position's moves, and none where the game
has ended, which bench/formal_gobblet.py compares on 1,000 positions of random playouts.
"""

from __future__ import annotations

import pytest
import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.values import LOSS, WIN

# From GamesmanOne v1.3.0, commit 1969986, `gamesman query gobbletg 0 "<position>"` on this
# machine: the formal moves it lists (A_<size>_<cell>: put a piece down; M_<from>_<to>;
# cells 0-8 there, 1-9 in the example's moves).
START = "1_---------------------------"
START_MOVES = [f"A_{size}_{cell}" for size in "SML" for cell in range(9)]
THREAT = "1_---O-OX------O--X-----X----"  # X's large on 4 hides O's line 3-4-5 (0-8)
THREAT_MOVES = (  # (split at spaces)
    "A_S_0 A_S_1 A_S_2 A_S_8 A_M_0 A_M_1 A_M_2 A_M_3 A_M_5 A_M_6 A_M_8 A_L_0 A_L_1 A_L_2 "
    "A_L_3 A_L_5 A_L_6 A_L_7 A_L_8 M_4_0 M_4_1 M_4_2 M_4_3 M_4_5 M_4_6 M_4_7 M_4_8 M_6_0 "
    "M_6_1 M_6_2 M_6_8 M_7_0 M_7_1 M_7_2 M_7_3 M_7_5 M_7_6 M_7_8"
)
THREAT_CHILDREN_WITHOUT_MOVES = {"5-9", "5-3", "l9"}  # (of 5-9, 5-3, 5-4, l9, 5-6)


def gobblet() -> object:
    return load("gobblet").Gobblet


def played(game: object, moves: str) -> int:
    """The position after ``moves`` (as format_move writes them), each checked legal."""
    state = game.initial()
    for text in moves.split():
        move = game.parse_move(text)
        assert move in list(game.moves(state)), (game.show(state), text)
        state = game.play(state, move)
    return state


def formal(state: int) -> str:
    """GamesmanOne's formal position: the player to move, _, the small, medium and large
    pieces' boards (X, O or - by cell)."""
    boards = [
        "X" if state >> (2 * z * 9 + c) & 1 else "O" if state >> ((2 * z + 1) * 9 + c) & 1 else "-"
        for z in range(3)
        for c in range(9)
    ]
    return f"{1 + (state >> 54 & 1)}_{''.join(boards)}"


def formal_move(text: str) -> int:
    """GamesmanOne's formal move as the example's move (3 x 3)."""
    kind, a, b = text.split("_")
    return "SML".index(a) * 9 + int(b) if kind == "A" else 27 + int(a) * 9 + int(b)


@pytest.mark.parametrize("pieces", [1, 2])
def test_two_by_two_agrees_with_the_reference_at_every_position(pieces: int) -> None:
    """On a 2 x 2 board (any two cells a line) every reachable position's value and
    remoteness as the reference's rounds find them from the plain rules."""
    game = gobblet()(side=2, pieces=pieces)
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    assert len(expected) > 5_000
    for state, (value, plies) in expected.items():
        assert solution.value(state) == value, game.show(state)
        assert solution.remoteness(state) == plies, game.show(state)
    assert (solution.value(game.initial()), solution.remoteness(game.initial())) == (WIN, 3)


def test_moves_are_gamesmanones() -> None:
    game = gobblet()()
    assert formal(game.initial()) == START
    assert sorted(game.moves(game.initial())) == sorted(map(formal_move, START_MOVES))
    threat = played(game, "s7 s4 m8 m5 l5 s6")
    assert formal(threat) == THREAT
    assert game.show(threat) == "--- --- ---/O-- -OX O--/X-- -X- --- X to move"
    assert sorted(game.moves(threat)) == sorted(map(formal_move, THREAT_MOVES.split()))
    for text in ("5-9", "5-3", "5-4", "l9", "5-6"):  # GamesmanOne's Primitive ends these
        ended = game.outcome(game.play(threat, game.parse_move(text))) is not None
        assert ended == (text in THREAT_CHILDREN_WITHOUT_MOVES), text


def test_a_gobble_hides_a_piece_and_a_lift_shows_it_again() -> None:
    game = gobblet()()
    state = played(game, "s1 m1 l1")  # X's small under O's medium under X's large
    assert game.show(state).startswith("XOX --- ---/")
    moves = {game.format_move(m) for m in game.moves(state)}
    assert not any(m.startswith("1-") for m in moves)  # O's medium is hidden
    assert {"m2", "l2", "s2"} <= moves and "l1" not in moves and "m1" not in moves
    state = played(game, "s1 m1 l1 l2 1-3")  # X lifts the large again
    assert "1-4" in {game.format_move(m) for m in game.moves(state)}  # O's medium shows
    assert "m1" not in {game.format_move(m) for m in game.moves(played(game, "s1 m1 m2"))}
    assert "s2" not in {game.format_move(m) for m in game.moves(played(game, "s1 s2 s3"))}


def test_an_uncovered_line_wins_for_its_owner_even_beside_the_movers() -> None:
    game = gobblet()()
    threat = played(game, "s7 s4 m8 m5 l5 s6")  # O's 4-5-6 hidden by X's large on 5
    assert game.outcome(threat) is None
    after = {t: game.play(threat, game.parse_move(t)) for t in ("5-3", "5-9", "5-4", "l9")}
    assert game.outcome(after["5-3"]) == WIN  # O to move: its line shows
    assert game.outcome(after["5-9"]) == WIN  # X's 7-8-9 too, but O is to move
    assert game.outcome(after["5-4"]) is None  # the large lands on the line: still broken
    assert game.outcome(after["l9"]) == LOSS  # X's 7-8-9, O's line still hidden
