"""Dobutsu shogi: its rules, its ranking, and its tiered solve against the explored graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import LOSS, WIN, build_tablebase, open_tablebase, solve
from perfectplay.checking import check_game
from perfectplay.games import Dobutsu
from perfectplay.games.dobutsu import ends, moves, ranking

VARIANTS = [(3, ""), (3, "c"), (3, "g"), (4, "c"), (3, "ge"), (4, "g")]


def _mirrored(codes: np.ndarray) -> np.ndarray:
    """Codes reflected left to right (columns A and C swapped), written apart from the
    game's kernels: each row's 4-bit cells 0 and 2 exchanged."""
    out = codes.copy()
    for row in range(4):
        a, c = 12 * row, 12 * row + 8
        left, right = (codes >> a) & 15, (codes >> c) & 15
        out &= ~((15 << a) | (15 << c))
        out |= (right << a) | (left << c)
    return out


@pytest.mark.parametrize(("height", "pieces"), VARIANTS)
def test_every_index_is_a_position_up_to_the_mirror_or_a_hole(height: int, pieces: str) -> None:
    """Every index unranks to a distinct position that is its own key and ranks back, or
    to -1 (a hole, in a block where both lions stand in column B); the positions cover
    every arrangement of the pieces once up to the mirror (written apart from the game)."""
    game = Dobutsu(height, pieces)
    indices = np.arange(game.size, dtype=np.int64)
    codes = game.batch_unrank(0, indices)
    kept = codes >= 0
    codes, holes = codes[kept], indices[~kept]
    assert np.unique(codes).shape[0] == codes.shape[0]
    assert np.array_equal(game.batch_key(codes), codes)
    assert np.array_equal(game.batch_rank(0, codes), indices[kept])
    block = int(game.shares[0, game.squares - 2])
    for pair in game.pairs[np.unique(holes // block)].tolist():
        mine, other = divmod(pair, game.squares - 1)
        theirs = other if other < mine else other + 1
        assert mine % 3 == theirs % 3 == 1  # both lions in column B
    images = _mirrored(codes)
    assert np.array_equal(game.batch_rank(0, images), indices[kept])
    own = images == codes
    arrangements = game.squares * (game.squares - 1) * block
    assert 2 * int((~own).sum()) + int(own.sum()) == arrangements
    for code in codes[:: max(1, codes.shape[0] // 200)].tolist():
        game._check(int(code))  # one lion each, two of each kind of the variant


def test_the_full_game_ranks_tanakas_arrangements_up_to_the_mirror() -> None:
    """Tanaka (2009) bounds the game by 1,567,925,964 positions: every arrangement of the
    pieces with the mover's side down. Up to the mirror, the ranking has 72 of the 132
    pairs of lion squares' blocks of arrangements."""
    game = Dobutsu()
    block = int(game.shares[0, game.squares - 2])
    assert 132 * block == 1_567_925_964
    assert game.size == 72 * block == 855_232_344
    rng = np.random.default_rng(7)
    indices = rng.integers(0, game.size, 20_000)
    codes = game.batch_unrank(0, indices)
    kept = codes >= 0
    assert kept.mean() > 0.9 and np.array_equal(game.batch_key(codes[kept]), codes[kept])
    assert np.array_equal(game.batch_rank(0, codes[kept]), indices[kept])
    assert (game.batch_unrank(0, np.array([-1, game.size])) == -1).all()


def test_a_position_and_its_half_turned_copy_share_an_index() -> None:
    game = Dobutsu()
    state = game.parse_state("gl./.c./.CE/.LG E s")
    turned = game.parse_state("gl./ec./.C./.LG e g")  # the same position seen from gote
    assert game.key(state) == game.key(turned)
    assert game.tier_index(state) == game.tier_index(turned)


@pytest.mark.parametrize(("height", "pieces"), [(4, "gec"), (3, "gc"), (3, ""), (4, "g")])
def test_the_kernels_on_a_codes_bits_run_alike_interpreted(height: int, pieces: str) -> None:
    """The kernels that work on a code's bits (ranking both ways, moves, un-moves, ends)
    give the same answers run by the interpreter (Python integers) as compiled (64-bit
    words), for positions with either player to move and their mirror images; an image
    ranks where its position does."""
    game = Dobutsu(height, pieces)
    rng = np.random.default_rng(11)
    indices = rng.integers(-2, game.size + 2, 1500)
    tables = (height, game.kinds, game.shares, game.offsets, game.pairs, game.places)
    codes = ranking.batch_unrank.compiled(indices, *tables)
    assert np.array_equal(ranking.batch_unrank.interpreted(indices, *tables), codes)
    codes = codes[codes >= 0]
    children = np.asarray(game.batch_expand(codes[game.batch_outcome(codes) == 0]).children)
    assert children.size and (children >> 60 & 1).all()  # the other player to move
    children = children[:1500]
    mixed = np.concatenate([codes, children, _mirrored(children)])
    tables = (height, game.kinds, game.shares, game.offsets, game.lions, game.bits, game.rows)
    compiled = ranking.batch_rank.compiled(mixed, *tables)
    assert np.array_equal(ranking.batch_rank.interpreted(mixed, *tables), compiled)
    n = children.shape[0]
    assert np.array_equal(compiled[-n:], compiled[-2 * n : -n])
    assert np.array_equal(ends.batch_end.interpreted(mixed, height), game.batch_outcome(mixed))
    open_codes = mixed[game.batch_outcome(mixed) == 0]
    for run, compiled_run in zip(
        moves.batch_moves.interpreted(open_codes, height),
        moves.batch_moves.compiled(open_codes, height),
        strict=True,
    ):
        assert np.array_equal(run, compiled_run)
    for run, compiled_run in zip(
        moves.batch_unmoves.interpreted(mixed[:400], height),
        moves.batch_unmoves.compiled(mixed[:400], height),
        strict=True,
    ):
        assert np.array_equal(run, compiled_run)


@pytest.mark.parametrize(("height", "pieces"), [(4, "gec"), (3, "gc"), (3, "")])
@pytest.mark.parametrize("how", ["interpreted", "compiled"])
def test_each_moves_end_is_read_from_its_parent_as_the_child_would_say(
    height: int, pieces: str, how: str
) -> None:
    """The ends ``batch_moves`` gives with the children (read from the parent: what
    strikes the lion's square after the move) are ``batch_end`` of the children, for
    positions with either player to move; every kind of end is met."""
    game = Dobutsu(height, pieces)
    rng = np.random.default_rng(5)
    codes = game.batch_unrank(0, rng.integers(0, game.size, 3000))
    codes = codes[codes >= 0]
    codes = codes[game.batch_outcome(codes) == 0]
    turned = game.batch_expand(codes).children  # gote to move
    mixed = np.concatenate([codes, turned[game.batch_outcome(turned) == 0][:3000]])
    kernel = getattr(moves.batch_moves, how)
    _, children, found = kernel(mixed, height)
    assert np.array_equal(found, ends.batch_end.compiled(children, height))
    assert set(np.unique(found).tolist()) == {0, 1, 2}


class _WrongEnds(Dobutsu):
    """Ranked children whose ends say every child goes on."""

    def batch_ranked_children(self, tier: int, codes: Any) -> Any:
        parents, indices, found = super().batch_ranked_children(tier, codes)
        return parents, indices, np.zeros_like(found)


def test_check_finds_ranked_children_with_wrong_ends() -> None:
    problems = check_game(_WrongEnds(3, "gc"), samples=400)
    assert any("batch_ranked_children" in p and "end" in p for p in problems), problems


@pytest.mark.parametrize(("height", "pieces"), [(4, "gec"), (3, "gc"), (4, "c")])
def test_check_finds_no_problem(height: int, pieces: str) -> None:
    """Kernels against the plain rules (written apart), ranks, un-moves against moves."""
    assert check_game(Dobutsu(height, pieces), samples=400) == []


@pytest.mark.parametrize(
    ("height", "pieces", "plain"),
    [(3, "c", True), (3, "g", True), (4, "c", True), (3, "ge", False)],
)
def test_tiered_solve_equals_explored_solve_position_by_position(
    tmp_path: Path, height: int, pieces: str, plain: bool
) -> None:
    """Against the explored graph: through the plain rules (written apart from the kernels)
    on the small variants, through the batch rules on the one with two kinds of pieces."""
    game = Dobutsu(height, pieces)
    build_tablebase(game, tmp_path / "tb")
    solution = solve(game, batch=not plain)
    with open_tablebase(tmp_path / "tb", game) as base:
        for state in solution.graph.states:
            assert base.lookup(state) == (solution.value(state), solution.remoteness(state))
        assert base.header.counts()["positions"] == solution.stats.states


def test_a_lion_that_can_be_taken_is_taken() -> None:
    game = Dobutsu(pieces="g")
    # Sente's giraffe on B2 attacks gote's lion on B1.
    state = game.parse_state(".l./.G./.../.L. g s")
    assert game.outcome(state) == WIN
    assert game.outcome(game.parse_state(".l./.G./.../.L. g g")) is None


def test_a_try_wins_only_where_the_lion_cannot_be_taken() -> None:
    game = Dobutsu(pieces="g")
    safe = game.play(game.parse_state("..l/L../.../... Gg s"), game.parse_move("A2-A1"))
    assert game.outcome(safe) == LOSS  # gote cannot take the lion on A1: the try stands
    unsafe = game.play(game.parse_state(".gl/L../.../... G s"), game.parse_move("A2-A1"))
    assert game.outcome(unsafe) == WIN  # gote's giraffe on B1 takes it


def test_chick_promotes_and_a_taken_hen_goes_back_to_hand_as_a_chick() -> None:
    game = Dobutsu(pieces="c")
    state = game.parse_state("..l/C../c../.L. - s")
    promoted = game.play(state, game.parse_move("A2-A1"))
    assert "H" in game.show(promoted).splitlines()[1]
    taken = game.play(game.parse_state("l../.H./.../.L. C g"), game.parse_move("A1-B2"))
    assert "gote holds C" in game.show(taken)


def test_drops_go_on_every_empty_square_even_the_far_rank() -> None:
    game = Dobutsu(pieces="c")
    state = game.parse_state(".l./.../.../.L. Cc s")
    drops = [m for m in game.moves(state) if m[0] < 0]
    assert len(drops) == 10
    assert game.parse_move("C*A1") in drops
    on_far_rank = game.play(state, game.parse_move("C*A1"))
    chick = game.parse_state("Cl./.../.../.L. c g")
    assert on_far_rank == chick
    assert not [m for m in game.moves(game.play(chick, game.parse_move("C*C4"))) if m[0] == 0]


@pytest.mark.parametrize(
    "text",
    ["", "gle/.c./.C.", "gle/.c./.C./ELX", "gle/.c./.C./EL. - s", "gle/.c./.C./ELG - x"],
)
def test_bad_positions_are_refused_in_one_line(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        Dobutsu().parse_state(text)
    assert "\n" not in str(caught.value)


def test_moves_read_back_as_written() -> None:
    game = Dobutsu()
    state = game.parse_state("gle/.c./.../ELG C s")
    for move in game.moves(state):
        assert game.parse_move(game.format_move(move)) == move
    for bad in ("B5-B4", "Z1-A1", "L*B2", "B3"):
        with pytest.raises(ValueError):
            game.parse_move(bad)


class _Plain:
    """Dobutsu through its plain rules with no key at all: a position, its half-turned copy
    and their mirror images are four states here."""

    def __init__(self, game: Dobutsu) -> None:
        self.game = game

    def initial(self) -> int:
        return self.game.initial()

    def moves(self, state: int) -> list[object]:
        return list(self.game.moves(state))

    def play(self, state: int, move: object) -> int:
        return self.game.play(state, move)  # type: ignore[arg-type]

    def outcome(self, state: int) -> object:
        return self.game.outcome(state)


@pytest.mark.parametrize(("height", "pieces"), [(3, "c"), (3, "g"), (4, "c")])
def test_the_tier_of_positions_up_to_the_mirror_answers_every_state_alike(
    tmp_path: Path, height: int, pieces: str
) -> None:
    """The tablebase, one record for a position and its mirror image (and their half-turned
    copies), against a solve of every state apart through the plain rules: each state's
    value and remoteness; and four states (two where a position is its own mirror image)
    to a record."""
    game = Dobutsu(height, pieces)
    build_tablebase(game, tmp_path / "tb")
    every = solve(_Plain(game))
    own = 0
    with open_tablebase(tmp_path / "tb", game) as base:
        for state in every.graph.states:
            assert base.lookup(state) == (every.value(state), every.remoteness(state))
            image = int(_mirrored(np.array([state], dtype=np.int64))[0])
            own += image == state
        positions = base.header.counts()["positions"]
    assert own > 0
    assert 3 * positions < every.stats.states  # about 4 states a record, not 2


class _CaptureAsAPly:
    """Dobutsu with the lion's capture played as a move of its own (the published count of
    plies): where the mover can take the lion, its one move takes it and the other player
    has lost. Written on the plain protocol over the game's plain rules."""

    def __init__(self, game: Dobutsu) -> None:
        self.game = game

    def initial(self) -> tuple[bool, int]:
        return False, self.game.initial()

    def moves(self, state: tuple[bool, int]) -> list[object]:
        taken, code = state
        if taken:
            return []
        return ["take"] if self.game.outcome(code) == WIN else list(self.game.moves(code))

    def play(self, state: tuple[bool, int], move: object) -> tuple[bool, int]:
        code = state[1]
        return (True, code) if move == "take" else (False, self.game.play(code, move))  # type: ignore[arg-type]

    def outcome(self, state: tuple[bool, int]) -> object:
        taken, code = state
        if taken:
            return LOSS
        ends = self.game.outcome(code)
        return None if ends == WIN else ends

    def key(self, state: tuple[bool, int]) -> tuple[bool, int]:
        return state[0], self.game.key(state[1])


def test_solve_reports_the_published_distance(tmp_path: Path) -> None:
    """solve --save gives, beside its own remoteness, the start's distance with the capture
    of the lion counted as a ply (the game's published_plies), as an independent solve of
    the game with the capture played as a move finds it; so do solve --json and analyze
    --stats."""
    import json

    from cli_script import run_cli

    game = Dobutsu(4, "c")
    result = run_cli("solve", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--save",
                     str(tmp_path / "tb"), "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    published = json.loads(result.stdout)["published_remoteness"]
    with open_tablebase(tmp_path / "tb", game) as base:
        own = base.remoteness()
    truth = solve(_CaptureAsAPly(game)).remoteness()
    assert published == truth != own
    text = run_cli("solve", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--save",
                   str(tmp_path / "tb"))  # fmt: skip
    assert f"{own} ({truth} as published)" in text.stdout
    stats = run_cli("analyze", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--db",
                    str(tmp_path / "tb"), "--stats")  # fmt: skip
    assert f"the start as published: {truth} plies" in stats.stdout
