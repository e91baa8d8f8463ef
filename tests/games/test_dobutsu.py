"""Dobutsu shogi: its rules, its ranking, and its tiered solve against the explored graph."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from perfectplay import LOSS, WIN, build_tablebase, open_tablebase, solve
from perfectplay.games import Dobutsu
from perfectplay.selftest import check_game

VARIANTS = [(3, ""), (3, "c"), (3, "g"), (4, "c"), (3, "ge"), (4, "g")]


@pytest.mark.parametrize(("height", "pieces"), VARIANTS)
def test_every_index_unranks_to_a_position_that_ranks_back(height: int, pieces: str) -> None:
    game = Dobutsu(height, pieces)
    indices = np.arange(game.size, dtype=np.int64)
    codes = game.batch_unrank(0, indices)
    assert (codes >= 0).all()
    assert np.array_equal(game.batch_rank(0, codes), indices)
    assert np.unique(codes).shape[0] == game.size  # a bijection onto distinct positions
    for code in codes[:: max(1, game.size // 200)].tolist():
        game._check(int(code))  # one lion each, two of each kind of the variant


def test_the_full_game_has_the_published_number_of_indices() -> None:
    """Tanaka (2009) bounds the game by 1,567,925,964 positions: the count of every
    arrangement of the pieces with the mover's side down; the ranking is exactly that."""
    game = Dobutsu()
    assert game.size == 1_567_925_964
    rng = np.random.default_rng(7)
    indices = rng.integers(0, game.size, 20_000)
    assert np.array_equal(game.batch_rank(0, game.batch_unrank(0, indices)), indices)
    assert (game.batch_unrank(0, np.array([-1, game.size])) == -1).all()


def test_a_position_and_its_half_turned_copy_share_an_index() -> None:
    game = Dobutsu()
    state = game.parse_state("gl./.c./.CE/.LG E s")
    turned = game.parse_state("gl./ec./.C./.LG e g")  # the same position seen from gote
    assert game.key(state) == game.key(turned)
    assert game.tier_index(state) == game.tier_index(turned)


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


def _mirrored_text(shown: str) -> str:
    """A position's text reflected left to right (each board row's cells reversed): written
    apart from the game's kernels."""
    lines = []
    for line in shown.splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            line = f"{parts[0]}  {' '.join(reversed(parts[1:]))}"
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize(("height", "pieces"), [(3, "c"), (3, "g")])
def test_statistics_count_a_position_and_its_mirror_image_once(
    tmp_path: Path, height: int, pieces: str
) -> None:
    """The published convention (Tanaka counts a position and its mirror image once), from
    the tablebase's batch_mirror, against the explored positions' texts reflected by hand."""
    from perfectplay.statistics import statistics

    game = Dobutsu(height, pieces)
    build_tablebase(game, tmp_path / "tb")
    solution = solve(game)
    classes: dict[str, set[str]] = {}
    own = 0
    for state in solution.graph.states:
        shown = game.show(state)
        image = _mirrored_text(shown)
        own += image == shown
        classes.setdefault(str(solution.value(state)), set()).add(min(shown, image))
    with open_tablebase(tmp_path / "tb", game) as base:
        folded = statistics(base).mirrored
    assert folded is not None
    assert folded["own_image"] == own > 0
    assert {k: v for k, v in folded.items() if k not in ("positions", "own_image")} == {
        name: len(texts) for name, texts in classes.items()
    }
    assert folded["positions"] == sum(len(texts) for texts in classes.values())
    assert folded["positions"] < base.header.counts()["positions"]


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


def test_solve_reports_the_published_counts_and_distance(tmp_path: Path) -> None:
    """solve --save gives, beside its own figures, the counts with a position and its mirror
    image once (kept in the header, so analyze --stats reads them from there) and the start's
    distance with the capture counted as a ply, as an independent solve of that game does."""
    import dataclasses
    import json

    from cli_script import run_cli

    from perfectplay.statistics import mirrored_counts
    from perfectplay.tablebase.header import read_header

    game = Dobutsu(4, "c")
    result = run_cli("solve", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--save",
                     str(tmp_path / "tb"), "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    published = json.loads(result.stdout)["published"]
    assert read_header(tmp_path / "tb").mirrored == published["counts"]
    with open_tablebase(tmp_path / "tb", game) as base:
        base.header = dataclasses.replace(base.header, mirrored=None)
        assert mirrored_counts(base) == published["counts"]  # counted again, from records
        own = base.remoteness()
    truth = solve(_CaptureAsAPly(game)).remoteness()
    assert published["remoteness"] == truth != own
    text = run_cli("solve", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--save",
                   str(tmp_path / "tb"))  # fmt: skip
    assert f"{own} ({truth} as published)" in text.stdout
    assert f"{published['counts']['positions']:,} positions, a position and its" in text.stdout
    stats = run_cli("analyze", "dobutsu", "-p", "height=4", "-p", "pieces=c", "--db",
                    str(tmp_path / "tb"), "--stats")  # fmt: skip
    assert f"the start as published: {truth} plies" in stats.stdout
    assert f"{published['counts']['draw']:,} draw" in stats.stdout
