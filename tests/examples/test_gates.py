"""Gates (examples/gates.py, GamesmanOne's gates) in perfectplay's compiled form: small
variants (the ring of six cells around the centre) and endgames of the real board solved
against the independent reference at every position; the rules held to what GamesmanOne
v1.3.0 (commit 1969986) printed on this machine and to its board's drawing.

GamesmanOne gives no value of Gates to record. Its game has no UWAPI, so ``gamesman query
gates`` and ``getstart`` answer "missing UWAPI function definition"; and its solve here
(``OMP_NUM_THREADS=1 gamesman -M 3 solve gates 0``, stopped after ten minutes) began "all
75609 tiers ... of total size 1977526345897 (positions)", finished 5,663 small end tiers
(663,764,640 positions) and estimated 20 days for the rest; no command reads those tiers
back. What it does answer is its text interface: the board and every legal move of each
position of a game typed into it, and the winner where its ``Primitive`` ends the game.
golden/gates-gamesmanone.txt holds those answers along one playout (placement, black's last
piece and move, captures, both gate phases, a win), written by ``bench/formal_gates.py
--record``; the bench compares them on 1,000 playout positions and every move of each.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reference
from examples_loader import load

from perfectplay import solve
from perfectplay.compiled_games import form
from perfectplay.values import DRAW, LOSS, WIN

gates = load("gates")
GOLDEN = Path(__file__).resolve().parent / "golden" / "gates-gamesmanone.txt"
DRAWING = """
        1     2     3
     4     5     6     7
  8     9          10    11
    12    13    14    15
       16    17    18
"""
"""GamesmanOne's legend of the cells (gates.c prints it beside every board)."""


class From(gates.Gates):
    """Gates from the position ``at`` on (the real board's endgames)."""

    at: int = 0

    def start(p):
        return p[4]


def state_of(cells: str, player: int = 1, phase: str = "m") -> int:
    """A state of the real board from its 18 cells as GamesmanOne prints them (G g A a Z z,
    - empty), the player to move (1 white) and GamesmanOne's phase (p pieces going down, m
    moves, g1 or g2 the scorer's lower or higher gate to move first), by the encoding the
    example's docstring gives: 19-bit masks (cell 9 of the 19, the centre, skipped) of the
    black pieces and of the shape's two bits (gate 1, triangle 2, trapezoid 3), then the
    bits for black to move, every piece down, and the gate."""
    state = 0
    for name, letter in enumerate(cells, start=1):
        if letter != "-":
            cell = name - 1 if name <= 9 else name
            shape = "GAZ".index(letter.upper()) + 1
            state |= letter.islower() << cell | (shape & 1) << (19 + cell)
            state |= (shape >> 1) << (38 + cell)
    gate = {"g1": 1, "g2": 2}.get(phase, 0)
    return state | (player - 1) << 57 | (phase != "p") << 58 | gate << 59


def texts(game: object, state: int) -> set[str]:
    return {game.format_move(m) for m in game.moves(state)}


def played(game: object, state: int, text: str) -> int:
    """The position after the legal move written ``text`` (as GamesmanOne writes it)."""
    (move,) = [m for m in game.moves(state) if game.format_move(m) == text]
    return game.play(state, move)


def drawn_board() -> tuple[dict[int, set[int]], dict[int, dict[int, set[int]]]]:
    """From the legend alone (a number's place: its last digit): each cell's neighbours
    (beside it on its line, 6 characters apart, or on the next line 3 characters to either
    side), and the cells two steps away, not next to it, with the cells between."""
    where = {}
    for row, line in enumerate(DRAWING.splitlines()):
        for column, text in enumerate(line):
            if text.isdigit() and not line[column + 1 : column + 2].isdigit():
                where[int(line[: column + 1].split()[-1])] = (row, column)
    near = {a: {b for b, (r, c) in where.items() if (abs(r - where[a][0]), abs(c - where[a][1]))
                in ((0, 6), (1, 3))} for a in where}  # fmt: skip
    two = {a: {b: near[a] & near[b] for b in where
               if b != a and b not in near[a] and near[a] & near[b]} for a in where}  # fmt: skip
    return near, two


@pytest.mark.parametrize(
    ("pieces", "positions", "start"),
    [((1, 1, 0), 1333, (LOSS, 4)), ((1, 0, 1), 1537, (LOSS, 4)), ((1, 2, 0), 4657, (LOSS, 8))],
)  # fmt: skip
def test_the_ring_agrees_with_the_reference_at_every_position(
    pieces: tuple[int, int, int], positions: int, start: tuple[object, int]
) -> None:
    """Side 2: six cells in a ring, each next to two (a two-step goes through the one
    between); (gates, triangles, trapezoids) a player. Trapezoids alone shuffle for ever
    (draws); with two triangles the board is full, a score frees one cell for the gate."""
    game = gates.Gates(side=2, gates=pieces[0], triangles=pieces[1], trapezoids=pieces[2])
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    assert len(expected) == positions
    assert expected[game.initial()] == start
    for state, (value, plies) in expected.items():
        found = (solution.value(state), solution.remoteness(state))
        assert found == (value, plies), game.show(state)


@pytest.mark.parametrize(
    ("phase", "player", "positions", "start"),
    [("m", 1, 420, (WIN, 1)), ("g2", 2, 5449, (LOSS, 2)), ("g1", 2, 5449, (WIN, 3))],
)
def test_endgames_of_the_real_board_agree_with_the_reference(
    monkeypatch: pytest.MonkeyPatch, phase: str, player: int, positions: int, start: object
) -> None:
    """White's gates on 1 and 18, black's on 4 and 15, a white triangle on 6, a black
    trapezoid on 12: white to move, or black after white's score, moving white's gate on 18
    (g2: a loss) or on 1 (g1: a win) first."""
    monkeypatch.setattr(form, "_MODE", "interpreted")  # a few thousand positions: no compile
    at = state_of("G--g-A-----z--g--G", player, phase)
    game = From(at=at)
    expected = reference.solve_outcomes(game)
    solution = solve(game)
    assert len(expected) == positions and expected[at] == start
    assert DRAW in {value for value, _ in expected.values()} or phase == "m"
    for state, (value, plies) in expected.items():
        found = (solution.value(state), solution.remoteness(state))
        assert found == (value, plies), game.show(state)


def test_a_playout_goes_as_gamesmanone_printed_it() -> None:
    """Every position of the recorded playout: the cells, the player to move and every move
    (GamesmanOne's move text), or the end and its winner."""
    game = gates.Gates()
    state = game.initial()
    blocks = GOLDEN.read_text().split("\n\n")[1:]
    assert len(blocks) > 30
    for block in blocks:
        typed, cells, said = block.strip().split("\n")
        if typed != "-":
            state = played(game, state, typed)
        assert game.letters(state) == cells, typed
        player = 1 + (state >> 57 & 1)
        if said.endswith("wins"):
            assert game.outcome(state) == LOSS and said == f"{3 - player} wins", typed
        else:
            assert said.startswith(f"{player}: "), typed
            assert texts(game, state) == set(said[3:].split(" / ")), typed
            assert len(texts(game, state)) == len(game.moves(state))  # one text a move
    assert said == "2 wins"  # black scored its last spike


def test_the_board_is_gamesmanones_drawing() -> None:
    """A lone white triangle reaches its neighbours and the cells two steps away; a two-step
    is blocked only when every cell between is taken (by any piece, a gate too)."""
    game = gates.Gates()
    near, two = drawn_board()
    assert sorted(len(n) for n in near.values()) == [3] * 6 + [4] * 6 + [5] * 6
    for cell in near:
        alone = ["-"] * 18
        alone[cell - 1] = "A"
        found = {int(t.split()[2]) for t in texts(game, state_of("".join(alone)))}
        assert found == near[cell] | set(two[cell]), cell
        for target, between in two[cell].items():
            blocked = alone.copy()
            for b in between:
                blocked[b - 1] = "g"
            assert f"m {cell} {target}" not in texts(game, state_of("".join(blocked))), cell
            if len(between) == 2:  # one way left open
                blocked[min(between) - 1] = "-"
                assert f"m {cell} {target}" in texts(game, state_of("".join(blocked))), cell


def test_pieces_go_down_then_black_moves_at_once() -> None:
    game = gates.Gates()
    start = game.initial()
    assert texts(game, start) == {f"p {k} {c}" for k in "GgAaZz" for c in range(1, 19)}
    put = played(game, start, "p a 1")  # white may put down black's pieces
    assert game.show(put) == "a--/----/----/----/--- black to place"
    assert texts(game, put) == {f"p {k} {c}" for k in "GgAaZz" for c in range(2, 19)}
    assert "p a 2" not in texts(game, played(game, put, "p a 3"))  # two a side
    eleven = state_of("GGAAZZgg-aaz------", 2, "p")  # black's last piece is a trapezoid
    moves = texts(game, eleven)
    assert all(t.startswith("p z ") and " m " in t for t in moves)
    assert "p z 18 m 10 14" in moves and "p z 15 m 15 14" in moves  # the piece just put down
    after = played(game, eleven, "p z 15 m 15 14")
    assert game.show(after) == "GGA/AZZg/g-aa/z-z-/--- white to move"
    assert state_of("GGAAZZgg-aaz-z----", 1, "m") == after


def test_a_trapezoid_sends_the_spike_it_takes() -> None:
    game = gates.Gates()
    state = state_of("Z---a---------G-gg", 1, "m")  # white's trapezoid on 1, black's triangle 5
    takes = {t for t in texts(game, state) if t.startswith("m 1 5")}
    empty = {c for c in range(1, 19) if c not in (1, 5, 15, 17, 18)}
    assert takes == {f"m 1 5 t {c}" for c in empty | {1}}  # any empty cell, or the one left
    swapped = played(game, state, "m 1 5 t 1")
    assert game.letters(swapped) == "a---Z---------G-gg"
    assert "m 5 1" not in texts(game, swapped)  # a triangle takes nothing


def cells(**pieces: str) -> str:
    """18 cells from the pieces by cell (c1="G": a white gate on cell 1)."""
    return "".join(pieces.get(f"c{c}", "-") for c in range(1, 19))


def test_a_score_moves_the_gate_first_and_the_last_spike_wins() -> None:
    game = gates.Gates()
    # White: gates on 1 and 17, a triangle on 2, a trapezoid on 16; black: gates on 7 and
    # 13, a triangle on 15. White to move.
    board = {"c1": "G", "c17": "G", "c2": "A", "c16": "Z", "c7": "g", "c13": "g", "c15": "a"}
    state = state_of(cells(**board))
    lower = played(game, state, "m 2 1")  # onto the lower-numbered gate
    assert lower == state_of(cells(**{**board, "c2": "-"}), 2, "g1")
    assert game.show(lower) == "G--/---g/----/-g-a/ZG- black to move white's first gate"
    moves = texts(game, lower)  # the gate on 1 put on any empty cell or left, then a move
    assert {t.split(" m ")[0] for t in moves} == {
        f"g 1 {c}" for c in range(1, 19) if c not in (7, 13, 15, 16, 17)}  # fmt: skip
    assert "g 1 9 m 15 17" not in moves and "g 1 14 m 15 17" not in moves  # not their gate
    higher = played(game, state, "m 16 17")
    assert higher == state_of(cells(**{**board, "c16": "-"}), 2, "g2")
    assert {t.split(" m ")[0] for t in texts(game, higher)} == {
        f"g 17 {c}" for c in range(1, 19) if c not in (1, 2, 7, 13, 15)}  # fmt: skip
    assert game.outcome(higher) is None
    last = state_of(cells(c1="G", c17="G", c16="Z", c7="g", c13="g", c15="a"))
    won = played(game, last, "m 16 17")  # white's last spike scores
    assert won == state_of(cells(c1="G", c17="G", c7="g", c13="g", c15="a"), 2, "g2")
    assert game.outcome(won) == LOSS
    drawing = game.draw_svg(lower, last=0)
    assert drawing.startswith("<svg") and drawing.count('class="cell') == 18
    targets = {t.split(" m ")[1].split()[1] for t in moves}  # a cell: a move ending there
    assert drawing.count('class="piece"') == 6
    assert drawing.count("data-move=") == len(targets) == 7


def test_a_player_with_no_move_loses() -> None:
    """Black's triangle in corner 1, its neighbours 2, 4 and 5 taken (the cells two steps
    away are reached only through them): no move, a loss, as GamesmanOne's Primitive says."""
    stuck = state_of(cells(c1="a", c2="G", c4="G", c5="Z", c9="A", c10="g", c11="g"), 2)
    game = gates.Gates()
    assert game.moves(stuck) == [] and game.outcome(stuck) is None
    assert solve(From(at=stuck)).value(stuck) == LOSS
    freed = state_of(cells(c1="a", c2="G", c4="G", c7="Z", c9="g", c10="A", c11="g"), 2)
    assert texts(game, freed) == {"m 1 5", "m 1 6", "m 1 9"}  # 6 and 9 through 5; 9 a score
