"""Winkers (examples/winkers.py, GamesmanOne's winkers): a small board solved against the
independent reference at every position, positions of the game itself against what
GamesmanOne answered (bench/formal_winkers.py compares them by the thousand), and rules
written from GamesmanOne's board: cells 1 to 19 in rows of 3, 4, 5, 4 and 3."""

from __future__ import annotations

import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.values import LOSS, TIE, WIN

winkers = load("winkers")


class From(winkers.Winkers):
    """Winkers from the position ``at`` on (GamesmanOne answers positions near the end)."""

    at: int = 0

    def start(p):
        return p[3]


BY_GAMESMANONE = {
    # GamesmanOne v1.3.0 (commit 1969986) on this machine: `gamesman query winkers 0 POSITION`
    # after `gamesman solve winkers 0` had run for an hour on one thread and been stopped. The
    # whole game (915 tiers, 255,779,610,746 positions) would take it about a week here; it
    # had finished 48 tiers (1,682,111,002 positions, mostly 32 to 38 moves in), whose
    # positions it answers, and says "unsolved" of the start. One position of each value and
    # remoteness met in random playouts there. Its formal positions: the 19 cells (X, O
    # winks, C a neutral checker, - empty), then the checkers X and O have left.
    "OXOXOX--OXOXOCXOOCO_0_3": ("loss", 0),
    "OOXXCOOXOOCXXXO-OO-_0_3": ("loss", 2),
    "XO-XOXXOXOOXXO-O-XO_2_2": ("loss", 4),
    "COXXCOCOX-XOCOOXXXO_1_1": ("loss", 6),
    "XXOXOOXOOXXOXOOXOXX_1_0": ("tie", 0),
    "XXOXOOXCOXXOXOOXOXX_1_0": ("tie", 1),
    "COXOXOXCOOXOXXOXOXX_1_0": ("tie", 2),
    "OOXXXOOXOOXXXXOCOO-_0_2": ("tie", 3),
    "OOXXCOOXOOXXXXOCOO-_0_2": ("tie", 4),
    "OXXXO-XCOX-OXOOXXXO_2_1": ("tie", 5),
    "O-XXXOOCOO-OXXOXCOX_1_2": ("tie", 6),
    "OOXXXOOXOO--OXXOXOO_0_3": ("win", 0),  # no move: X has no checker and none to wink
    "XXOXOOXCOCXOXOOC-XC_1_1": ("win", 1),
    "OOXCXOOXCO--OXXOXOO_0_3": ("win", 3),
    "OOXCXCOXOO-OOXOXCXC_0_2": ("win", 5),
}


def test_a_small_board_agrees_with_the_reference_at_every_position() -> None:
    game = winkers.Winkers(side=2, checkers=3, winks=3)  # 7 cells: the lines cross the centre
    solution = solve(game)
    expected = reference.solve_outcomes(game)
    assert len(expected) == 9136
    assert expected[game.initial()] == (WIN, 12)
    for state, (value, plies) in expected.items():
        found = (solution.value(state), solution.remoteness(state))
        assert found == (value, plies), game.show(state)


def test_positions_solve_as_gamesmanone_answered() -> None:
    game = winkers.Winkers()
    for formal, (value, plies) in BY_GAMESMANONE.items():
        state = game.parse_state(formal)
        solution = solve(From(at=state))
        assert (str(solution.value(state)), solution.remoteness(state)) == (value, plies), formal


def test_checkers_go_down_then_turn_into_the_movers_winks() -> None:
    game = winkers.Winkers()
    start = game.initial()
    assert game.moves(start) == list(range(19))
    x_put = game.play(start, 9)  # X puts a checker on the centre
    assert game.show(x_put) == "---/----/--C--/----/--- O to move; left X 9C 10W, O 10C 10W"
    o_winks = game.play(x_put, 9)  # O winks X's checker: the centre is O's
    assert game.show(o_winks) == "---/----/--O--/----/--- X to move; left X 9C 10W, O 10C 9W"
    assert 9 not in game.moves(o_winks) and len(game.moves(o_winks)) == 18
    # X has put down ten checkers: only the neutral ones can be played (winked), any of them.
    no_checkers = game.parse_state("CCC/CCCC/CCCCC/CCOO/CC-")
    assert game.show(no_checkers) == "CCC/CCCC/CCCCC/CCOO/CC- X to move; left X 0C 10W, O 2C 8W"
    assert game.moves(no_checkers) == [*range(14), 16, 17]
    assert game.show(game.play(no_checkers, 17)).startswith("CCC/CCCC/CCCCC/CCOO/CX- O")
    # One wink each (side 2): X has set it, so the neutral checkers 1 and 5 are not X's to play.
    small = winkers.Winkers(side=2, winks=1)
    no_winks = small.parse_state("C-/-XC/--")
    assert small.show(no_winks) == "C-/-XC/-- X to move; left X 9C 0W, O 8C 1W"
    assert small.moves(no_winks) == [1, 2, 5, 6]


def test_three_winks_in_a_line_win_and_a_full_board_ties() -> None:
    game = winkers.Winkers()
    # X has winked 1, 5 and 10 (a diagonal to the centre) and 4 (off it); O to move.
    line = game.parse_state("XOC/XXOC/C-X--/O---/---")
    assert game.outcome(line) == LOSS
    assert game.outcome(game.parse_state("XOC/XXOC/C-C--/O---/---")) is None  # 10 neutral
    bent = game.parse_state("XXO/OXOC/--C--/----/---")  # 1, 2, 5: no line
    assert game.outcome(bent) is None
    full = game.parse_state("OXX/XOOX/OXXOO/OOXX/XXO")  # every cell winked, no line
    assert game.outcome(full) == TIE and game.moves(full) == []


def test_a_player_with_no_move_wins_as_gamesmanone_says() -> None:
    game = winkers.Winkers()
    # X has put down all ten checkers and no neutral checker is left to wink.
    stuck = game.parse_state("OXO/X--O/OXOOX/OOXO/XXO")
    assert game.show(stuck).endswith("X to move; left X 0C 3W, O 3C 0W")
    assert game.moves(stuck) == [] and game.outcome(stuck) == WIN
    drawing = game.draw_svg(game.parse_state("XOC/X-OC/C-C--/O---/---"), last=9)
    assert drawing.startswith("<svg") and drawing.count("<polygon") == 19
    assert drawing.count("data-move=") == 14 and drawing.count(" last") == 1
