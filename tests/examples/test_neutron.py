"""examples/neutron.py (GamesmanOne's Neutron) held to the reference solver, to what
GamesmanOne answered, and to the rules read from its source.

GamesmanOne cannot solve its 5 x 5 Neutron on this machine (23 GB: its solver allocates 2
bytes for each of some 24.7 billion hashed positions, the allocation fails and the solve
stops with code 21), so it has no start value to record; what is recorded is its rules:
the moves and the positions they lead to that its ``query`` lists without a database.
bench/formal_neutron.py compares those with the example's at random positions.
"""

from __future__ import annotations

import random

import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.values import LOSS, WIN

# `gamesman query neutron 0 POSITION` (GamesmanOne v1.3.0, commit 1969986, this machine,
# no database): each move's formal text and the formal position it leads to.
GAMESMANONE_MOVES = {
    "I": {  # the start: the first turn has no neutron slide
        "a1 U": "2_OOOOOX------N--------XXXX",
        "a1 UR": "2_OOOOO-------N---X----XXXX",
        "b1 UL": "2_OOOOO-------N--X----X-XXX",
        "b1 U": "2_OOOOO-X-----N-------X-XXX",
        "b1 UR": "2_OOOOO----X--N-------X-XXX",
        "c1 UL": "2_OOOOO-----X-N-------XX-XX",
        "c1 U": "2_OOOOO-------N----X--XX-XX",
        "c1 UR": "2_OOOOO-------N-X-----XX-XX",
        "d1 UL": "2_OOOOOX------N-------XXX-X",
        "d1 U": "2_OOOOO---X---N-------XXX-X",
        "d1 UR": "2_OOOOO-------N------XXXX-X",
        "e1 UL": "2_OOOOO-------N-----X-XXXX-",
        "e1 U": "2_OOOOO----X--N-------XXXX-",
    },
    "1_O--------N-----OOOO-XXXXX": {  # N D would leave X no slide; N U, N UL end the game
        "N UL": "2_O--N-----------OOOO-XXXXX",
        "N U": "2_O---N----------OOOO-XXXXX",
        "N L d1 UR": "2_O----N---------OOOOXXXX-X",
        "N L e1 U": "2_O---XN---------OOOO-XXXX-",
        "N DL d1 UR": "2_O------------N-OOOOXXXX-X",
        "N DL e1 U": "2_O---X--------N-OOOO-XXXX-",
    },
    "1_X--XO----OOO---NX---XX-O-": {},  # the neutron cannot move: the game is over
    "2_O-OOO-----XO---NX---X--XX": {"N DR": "1_O-OOO-----XO----X---XN-XX"},  # forced, onto
    # X's home row
}


def state_of(formal: str) -> int:
    """A 5 x 5 position from GamesmanOne's formal string (the example's encoding: X's cells
    from bit 0, O's from bit 25, the neutron's cell at bit 50, O to move bit 55, the first
    turn bit 56)."""
    if formal == "I":
        return load("neutron").Neutron().initial()
    cells = formal[2:]
    x = sum(1 << i for i, c in enumerate(cells) if c == "X")
    o = sum(1 << i for i, c in enumerate(cells) if c == "O")
    return x | o << 25 | cells.index("N") << 50 | (formal[0] == "2") << 55


def formal_of(state: int) -> str:
    if state >> 56 & 1:
        return "I"
    cells = ["X" if state >> i & 1 else "O" if state >> (25 + i) & 1 else "-" for i in range(25)]
    cells[state >> 50 & 31] = "N"
    return f"{1 + (state >> 55 & 1)}_{''.join(cells)}"


def test_3x3_agrees_with_the_reference_at_every_position() -> None:
    """Every reachable position of the 3 x 3 board: value and remoteness as the reference's
    rounds find them over the plain protocol (no key)."""
    game = load("neutron").Neutron(size=3)
    expected = reference.solve_outcomes(game)
    assert len(expected) == 2174
    solution = solve(game)
    for state, (value, plies) in expected.items():
        found = (solution.value(state), solution.remoteness(state))
        assert found == (value, plies), game.show(state)
    assert (solution.value(game.initial()), solution.remoteness(game.initial())) == (LOSS, 4)


def test_moves_and_children_as_gamesmanone_lists_them() -> None:
    game = load("neutron").Neutron()
    for formal, theirs in GAMESMANONE_MOVES.items():
        state = state_of(formal)
        assert formal_of(state) == formal
        moves = list(game.moves(state)) if game.outcome(state) is None else []
        ours = {game.format_move(m): formal_of(game.play(state, m)) for m in moves}
        assert ours == theirs, formal
        assert all(game.parse_move(game.format_move(m)) == m for m in moves)


def test_rules_read_from_the_source() -> None:
    game = load("neutron").Neutron()
    start = game.initial()
    # The first turn slides one of X's pieces as far as it goes, no neutron slide; the
    # next turn starts with the neutron's.
    assert all(game.format_move(m)[0] in "abcde" for m in game.moves(start))
    after = game.play(start, game.parse_move("a1 U"))  # stops under O's piece on a5
    assert formal_of(after) == "2_OOOOOX------N--------XXXX"
    assert all(game.format_move(m).startswith("N ") for m in game.moves(after))
    # The same board with X to move, past the first turn, is another position.
    again = state_of("1_OOOOO-------N-------XXXXX")
    assert again != start and all(game.format_move(m)[0] == "N" for m in game.moves(again))
    # The neutron on a home row wins for that row's owner, whoever slid it there.
    forced = state_of("2_O-OOO-----XO---NX---X--XX")
    assert game.outcome(game.play(forced, game.parse_move("N DR"))) == WIN  # X to move
    suicide = game.play(state_of("1_O--------N-----OOOO-XXXXX"), game.parse_move("N U"))
    assert game.outcome(suicide) == WIN  # O to move, the neutron on O's row
    # A player with no turn to make has lost.
    assert game.outcome(state_of("1_X--XO----OOO---NX---XX-O-")) == LOSS
    drawing = game.draw_svg(start)  # 11 pieces; X's five clickable with a first move
    assert drawing.startswith("<svg") and drawing.count("<circle") == 11
    assert drawing.count('data-move="') == 5


def test_key_folds_the_mirror_image_only() -> None:
    game = load("neutron").Neutron()
    rng = random.Random(1)
    state = game.initial()
    for _ in range(300):
        if game.outcome(state) is not None:
            state = game.initial()
        state = game.play(state, rng.choice(list(game.moves(state))))
        formal = formal_of(state)
        rows = [formal[2 + 5 * r : 7 + 5 * r][::-1] for r in range(5)]
        image = state_of(formal[:2] + "".join(rows))
        assert game.key(state) == game.key(image) == min(state, image)
