"""Dobutsu shogi in the compiled form (examples/dobutsu.py) against the hand-ranked built-in
(perfectplay.games.Dobutsu, its rules written apart): the same ends, moves and children at
every step of seeded random playouts, positions read across through the text of ``show``;
keys that fold what the built-in's fold; the self-check; and on the small variants the
value and remoteness of every position as the reference solver (every state apart, no key)
and the built-in's solve find them. The whole game (246.8 million positions up to
symmetry) is not solved here."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference
from examples_loader import load

from perfectplay import build_tablebase, open_tablebase, solve
from perfectplay.checking import check_game
from perfectplay.games import Dobutsu as BuiltIn
from perfectplay.statistics import statistics
from perfectplay.tablebase.header import read_header
from perfectplay.values import DRAW, LOSS, WIN

dobutsu = load("dobutsu")
VARIANTS = [(4, "gec"), (3, "gec"), (4, "c"), (3, "gc"), (3, "ge"), (3, "")]
"""(rows, the kinds beside the lions), as the built-in names its variants."""


def compiled(height: int, pieces: str) -> Any:
    return dobutsu.Dobutsu(
        height=height, giraffes="g" in pieces, elephants="e" in pieces, chicks="c" in pieces
    )


def builtin_move(move: int) -> tuple[int, int]:
    """A move of the example (16 * source + target; source 12-14 a drop of a giraffe,
    elephant, chick) as the built-in's: (from, to), or (-kind, to) for a drop."""
    source, target = divmod(move, 16)
    return (10 - source, target) if source >= 12 else (source, target)


def as_builtin(game: Any, builtin: BuiltIn, state: int) -> int:
    """The example's position as the built-in reads its text: rows, hands, s or g."""
    rows, hands, side = game.show(state).split()[:3]
    return builtin.parse_state(f"{rows} {hands} {side[0]}")


def played(game: Any, state: int, text: str) -> int:
    """The position after the legal move ``text`` (as format_move writes it)."""
    legal = {game.format_move(m): m for m in game.moves(state)}
    return int(game.play(state, legal[text]))


def playouts(game: Any, seed: int, positions: int) -> list[int]:
    """Positions of seeded random playouts from the start (each at most 60 plies): a try
    that stands half the times there is one, else mostly a move that leaves no lion to
    take, if there is one (so that play goes on, and tries occur)."""
    rng, found = random.Random(seed), list[int]()
    while len(found) < positions:
        state = game.initial()
        for _ in range(60):
            found.append(state)
            moves = game.moves(state) if game.outcome(state) is None else []
            if not moves:
                break
            children = [game.play(state, m) for m in moves]
            ends = [game.outcome(c) for c in children]
            tries = [c for c, end in zip(children, ends, strict=True) if end == LOSS]
            careful = [c for c, end in zip(children, ends, strict=True) if end != WIN]
            if tries and rng.random() < 0.5:
                children = tries
            elif careful and rng.random() < 0.8:
                children = careful
            state = rng.choice(children)
    return found


def images(state: int, height: int) -> list[int]:
    """The position, its mirror image (columns A and C swapped), the copy turned half round
    (each piece the other side's, the hands swapped, the other player to move), and that
    copy's mirror image: one position under the rules, from the layout alone."""
    board = [(state >> (4 * q)) & 15 for q in range(3 * height)]
    hands = [(state >> (48 + 2 * j)) & 3 for j in range(6)]
    gote = (state >> 60) & 1

    def code(cells: list[int], held: list[int], side: int) -> int:
        return (
            sum(piece << (4 * q) for q, piece in enumerate(cells))
            | sum(n << (48 + 2 * j) for j, n in enumerate(held))
            | side << 60
        )

    def mirror(cells: list[int]) -> list[int]:
        return [cells[q - q % 3 + 2 - q % 3] for q in range(len(cells))]

    turned = [piece ^ 8 if piece else 0 for piece in reversed(board)]
    swapped = hands[3:] + hands[:3]
    return [code(board, hands, gote), code(mirror(board), hands, gote),
            code(turned, swapped, 1 - gote), code(mirror(turned), swapped, 1 - gote)]  # fmt: skip


@pytest.mark.parametrize(("height", "pieces"), VARIANTS)
def test_ends_moves_and_children_are_the_builtins_along_random_playouts(
    height: int, pieces: str
) -> None:
    game, builtin = compiled(height, pieces), BuiltIn(height, pieces)
    assert as_builtin(game, builtin, game.initial()) == builtin.initial()
    ends, moves_seen = {None: 0, WIN: 0, LOSS: 0}, 0
    states = playouts(game, seed=49 + height, positions=600 if pieces == "gec" else 250)
    for state in states:
        theirs = as_builtin(game, builtin, state)
        assert theirs == state  # the built-in's layout, as the docstring says
        end = game.outcome(state)
        assert end == builtin.outcome(theirs), game.show(state)
        ends[end] += 1
        if end is not None:
            continue
        moves = game.moves(state)
        assert sorted(builtin_move(m) for m in moves) == sorted(builtin.moves(theirs))
        for move in moves:
            child = game.play(state, move)
            assert as_builtin(game, builtin, child) == builtin.play(theirs, builtin_move(move))
            assert game.format_move(move) == builtin.format_move(builtin_move(move))
        moves_seen += len(moves)
    assert min(ends.values()) > 0 and moves_seen > 2 * len(states), ends  # wins, tries, play on


@pytest.mark.parametrize(("height", "pieces"), VARIANTS)
def test_unmoves_undo_exactly_the_moves(height: int, pieces: str) -> None:
    """Along random playouts (no key): a position is among the un-moves of each of its
    children once per move leading there; every un-move of a child goes on and has a move
    to it; un-captures (a hen put back for a chick in hand) and promotions undone occur."""

    game = compiled(height, pieces)
    unmoves = game.rule_functions["unmoves"]
    buffer = np.empty(game.max_moves, dtype=np.int64)
    rng, checked, taken_back = random.Random(5), 0, 0
    for state in playouts(game, seed=height, positions=300):
        if game.outcome(state) is not None:
            continue
        children = [game.play(state, m) for m in game.moves(state)]
        for child in set(children):
            found = [int(x) for x in buffer[: unmoves(game.params, child, buffer)]]
            assert found.count(state) == children.count(child), game.show(state)
            for parent in rng.sample(found, min(6, len(found))):
                assert game.outcome(parent) is None, game.show(parent)
                assert child in {game.play(parent, m) for m in game.moves(parent)}
                taken_back += pieces_on_board(parent) > pieces_on_board(child)
            checked += 1
    assert checked > 1000 and (taken_back > 50 or not pieces), (checked, taken_back)


def pieces_on_board(state: int) -> int:
    return sum(1 for q in range(12) if state >> (4 * q) & 15)


def test_a_position_shows_its_pieces_and_hands_and_draws_its_moves() -> None:
    game = compiled(4, "gec")
    assert game.show(game.initial()) == "gle/.c./.C./ELG - sente to move"
    taken = played(game, game.initial(), "B3-B2")  # sente's chick takes gote's
    assert game.show(taken) == "gle/.C./.../ELG C gote to move"
    drawing = game.draw_svg(taken, last=7 * 16 + 4)
    assert drawing.startswith("<svg") and drawing.count("<rect") == 12
    assert drawing.count(" last") == 1 and drawing.count("rotate(180") == 3  # gote's g l e
    assert drawing.count("data-move=") == len({m & 15 for m in game.moves(taken)})


def test_a_chick_becomes_a_hen_and_a_hen_taken_a_chick_in_hand() -> None:
    game, builtin = compiled(4, "c"), BuiltIn(4, "c")
    promoted = played(game, builtin.parse_state("..l/C../c../.L. - s"), "A2-A1")
    assert game.show(promoted) == "H.l/.../c../.L. - gote to move"
    taken = played(game, builtin.parse_state("l../.H./.../.L. C g"), "A1-B2")
    assert game.show(taken) == ".../.l./.../.L. Cc sente to move"
    assert "C*A1" in map(game.format_move, game.moves(taken))  # a drop on the far rank
    chick = builtin.parse_state("Cl./.../.../.L. c g")
    assert not [m for m in game.moves(played(game, chick, "C*C4")) if m >> 4 == 0]


def test_a_try_and_a_lion_in_reach_end_the_game_as_tanaka_counts() -> None:
    game, builtin = compiled(4, "g"), BuiltIn(4, "g")
    safe = played(game, builtin.parse_state("..l/L../.../... Gg s"), "A2-A1")
    assert game.outcome(safe) == LOSS  # gote cannot take the lion on A1: its try stood
    unsafe = played(game, builtin.parse_state(".gl/L../.../... G s"), "A2-A1")
    assert game.outcome(unsafe) == WIN  # gote's giraffe on B1 takes it
    assert game.published_plies(unsafe) == 1 and game.published_plies(safe) == 0
    in_reach = builtin.parse_state(".l./.G./.../.L. g s")
    assert game.outcome(in_reach) == WIN and game.outcome(in_reach | 1 << 60) is None


def test_the_key_folds_the_mirror_and_the_half_turn_as_the_builtins_does() -> None:
    """Each position and its three images share a key, a state of its own with sente to
    move; and two sampled positions share a key exactly when the built-in's keys agree."""
    game, builtin = compiled(4, "gec"), BuiltIn()
    ours_of: dict[int, int] = {}
    theirs_of: dict[int, int] = {}
    pairs = 0
    for state in playouts(game, seed=7, positions=500):
        keys = {game.key(image) for image in images(state, 4)}
        assert len(keys) == 1, game.show(state)
        key = keys.pop()
        assert key >> 60 == 0 and game.key(key) == key
        theirs = builtin.key(state)
        assert (
            ours_of.setdefault(theirs, key) == key and theirs_of.setdefault(key, theirs) == theirs
        )
        pairs += images(state, 4)[1] != state
    assert len(ours_of) > 300 and pairs > 300, (len(ours_of), pairs)


@pytest.mark.parametrize(("height", "pieces"), [(3, ""), (3, "c"), (3, "g"), (3, "e"), (4, "e")])
def test_small_variants_solve_as_the_reference_and_the_builtin_at_every_state(
    height: int, pieces: str
) -> None:
    """Every state play reaches (no key: a position, its mirror image and its half-turned
    copy apart), by the reference's rounds over the example's plain rules: the example's
    solve (keyed, one tier) and the built-in's give each its value and remoteness; and a
    state and an image of it that both occur have one value."""
    game, builtin = compiled(height, pieces), BuiltIn(height, pieces)
    expected = reference.solve_outcomes(game)
    ours, theirs = solve(game), solve(builtin)
    assert ours.stats.states == theirs.stats.states  # one position for each of the built-in's
    for state, found in expected.items():
        assert (ours.value(state), ours.remoteness(state)) == found, game.show(state)
        assert (theirs.value(state), theirs.remoteness(state)) == found, game.show(state)
    images_met = 0
    for state, found in expected.items():
        for image in images(int(state), height)[1:]:  # type: ignore[call-overload]
            if image in expected and image != state:
                assert expected[image][0] == found[0], game.show(state)
                images_met += 1
    assert images_met > len(expected) // 4
    start = {"": (LOSS, 4), "c": (WIN, 5), "g": (DRAW, None), "e": (LOSS, 6)}[pieces]
    assert expected[game.initial()] == (start if height == 3 else (DRAW, None))


def test_the_four_row_chick_game_solves_as_the_builtin() -> None:
    """Chicks on four rows (24,789 positions up to symmetry): each position the built-in's
    solve reaches has the same value and remoteness in the example's; a win in 14."""
    game, builtin = compiled(4, "c"), BuiltIn(4, "c")
    ours, theirs = solve(game), solve(builtin)
    assert ours.stats.states == theirs.stats.states == 24_789
    for state in theirs.graph.states:
        assert (ours.value(state), ours.remoteness(state)) == (
            theirs.value(state), theirs.remoteness(state)), game.show(state)  # fmt: skip
    assert (ours.value(game.initial()), ours.remoteness(game.initial())) == (WIN, 14)


@pytest.mark.parametrize("pieces", ["gc", "ge"])
def test_three_row_games_count_as_the_builtins(pieces: str) -> None:
    """Every kind but one on three rows (221,184 and 84,129 positions up to symmetry): the
    positions by value and remoteness, as the built-in's solve counts them."""
    ours = statistics(solve(compiled(3, pieces)))
    theirs = statistics(solve(BuiltIn(3, pieces)))
    assert (ours.values, ours.remoteness) == (theirs.values, theirs.remoteness)
    assert sum(ours.values.values()) == {"gc": 221_184, "ge": 84_129}[pieces]


@pytest.mark.parametrize("method", [None, "by-edges", "by-unmoves", "in-records"])
def test_the_tablebase_by_each_loopy_method_answers_as_the_builtin(
    tmp_path: Path, method: str | None
) -> None:
    """Three rows with giraffes and chicks, out of core: the one tier solved by the method
    the table chooses (in its records, through the game's un-moves), its moves laid out,
    and by each method through the un-moves (the header names the method that ran), every
    position sampled from the built-in's solve with the same value and remoteness."""
    game, builtin = compiled(3, "gc"), BuiltIn(3, "gc")
    build_tablebase(game, tmp_path / "tb", tier_method=method)
    methods = {entry.method for entry in read_header(tmp_path / "tb").tiers.values()}
    assert methods == {method or "in-records"}
    theirs = solve(builtin)
    with open_tablebase(tmp_path / "tb", compiled(3, "gc")) as base:
        states = list(theirs.graph.states.tolist())
        assert len(states) == 221_184
        for state in random.Random(3).sample(states, 4000):
            assert (base.value(state), base.remoteness(state)) == (
                theirs.value(state), theirs.remoteness(state)), game.show(state)  # fmt: skip


class Untiered(dobutsu.Dobutsu):  # type: ignore[misc,name-defined]
    """The whole game without its one tier: check then samples it without finding every
    position (its un-moves, the tier's moves turned around, would need them all)."""

    tier = None


class Unplaced(dobutsu.Dobutsu):  # type: ignore[misc,name-defined]
    """Un-moves that give the turned image of each parent: the same positions by their keys,
    but codes the ranking (sorted keys) does not hold, which a solver would drop."""

    def _unmoves(self, tier: int, codes: Any) -> Any:
        back = super()._unmoves(tier, codes)
        turned = [images(int(c), self.height)[2] for c in back.children]
        return type(back)(back.parents, np.array(turned, dtype=np.int64))


def test_check_finds_un_moves_the_ranking_cannot_place() -> None:
    found = check_game(Unplaced(height=3, elephants=False), samples=300)
    assert found and all("batch_parents" in p for p in found), found[:3]
    assert "batch_rank places at -1" in found[0]


def test_check_finds_no_problem() -> None:
    """The self-check: the key a symmetry of the rules, the batch and compiled loops the
    plain rules' (the whole game), and the tier's loops and un-moves (a small variant)."""
    assert check_game(Untiered(), samples=1000) == []
    assert check_game(compiled(3, "gc"), samples=500) == []
