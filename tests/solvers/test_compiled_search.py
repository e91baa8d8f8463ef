"""The compiled search against references that share no code with it: a plain negamax
written here on lists of columns, and perfectplay's strong solvers (value + remoteness,
mapped to Connect Four scores by the rule in ``games.connect_four.search``)."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
import reference
from compiled_random import (
    RandomGame,
    RewardGame,
    RewardTurnsGame,
    ScoredGame,
    TierGame,
    TierKeyGame,
    TierTurnsGame,
)

from perfectplay import solve
from perfectplay.errors import SolverChoiceError
from perfectplay.games import ConnectFour, TicTacToe
from perfectplay.protocol import SearchRules
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import (
    CompiledSearch,
    compiled_rules_of,
    prime_at_least,
    score_moves,
    solve_position,
)
from perfectplay.values import LOSS, TIE, WIN

Columns = tuple[tuple[int, ...], ...]
"""A board as the reference sees it: per column, the players (0 first, 1 second) bottom up."""


def four(columns: Columns, width: int, height: int, player: int) -> bool:
    """Whether ``player`` holds four in a row, by looking at every cell and direction."""

    def at(c: int, r: int) -> int | None:
        if 0 <= c < width and 0 <= r < len(columns[c]):
            return columns[c][r]
        return None

    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + i * dc, r + i * dr) == player for i in range(4)):
                    return True
    return False


def wins_with(columns: Columns, width: int, height: int, c: int) -> bool:
    """Whether the disc on top of column ``c`` is in a line of four, by walking each line."""
    r = len(columns[c]) - 1
    player = columns[c][r]

    def at(cc: int, rr: int) -> int | None:
        if 0 <= cc < width and 0 <= rr < len(columns[cc]):
            return columns[cc][rr]
        return None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            i = 1
            while at(c + sign * i * dc, r + sign * i * dr) == player:
                run += 1
                i += 1
        if run >= 4:
            return True
    return False


@cache
def reference_score(columns: Columns, width: int, height: int) -> int:
    """Plain negamax over every move: the score by its definition (0 for a draw; a win is
    worth 1 + the discs the winner has left after his winning one; a loss the opposite)."""
    cells = width * height
    m = sum(len(c) for c in columns)
    me = m % 2
    if m and four(columns, width, height, 1 - me):
        return -((cells + 2 - m) // 2)  # already lost: the winner's disc was number m
    best = None
    for c in range(width):
        if len(columns[c]) == height:
            continue
        child = (*columns[:c], (*columns[c], me), *columns[c + 1 :])
        if wins_with(child, width, height, c):
            value = (cells + 1 - m) // 2
        else:
            value = -child_score(child, width, height)
        best = value if best is None else max(best, value)
    return 0 if best is None else best


@cache
def child_score(columns: Columns, width: int, height: int) -> int:
    """A child's score: nobody has a line there yet (its parent's move did not make one)."""
    cells = width * height
    m = sum(len(c) for c in columns)
    me = m % 2
    best = None
    for c in range(width):
        if len(columns[c]) == height:
            continue
        child = (*columns[:c], (*columns[c], me), *columns[c + 1 :])
        if wins_with(child, width, height, c):
            value = (cells + 1 - m) // 2
        else:
            value = -child_score(child, width, height)
        best = value if best is None else max(best, value)
    return 0 if best is None else best


def random_game(width: int, height: int, stones: int, rng: random.Random) -> list[int]:
    """Random legal columns for ``stones`` discs, stopping early if a line appears."""
    columns: list[list[int]] = [[] for _ in range(width)]
    played: list[int] = []
    for m in range(stones):
        free = [c for c in range(width) if len(columns[c]) < height]
        if not free:
            break
        c = rng.choice(free)
        columns[c].append(m % 2)
        played.append(c)
        if four(tuple(map(tuple, columns)), width, height, m % 2):
            break
    return played


def after(game: ConnectFour, played: list[int]) -> Any:
    state = game.initial()
    for c in played:
        state = game.play(state, c)
    return state


def as_columns(played: list[int], width: int) -> Columns:
    columns: list[list[int]] = [[] for _ in range(width)]
    for m, c in enumerate(played):
        columns[c].append(m % 2)
    return tuple(map(tuple, columns))


def mapped(value: Any, remoteness: int, stones: int, cells: int) -> int:
    """perfectplay's value and remoteness as a score (the rule in games.connect_four.search)."""
    if value == TIE:
        return 0
    magnitude = (cells + 2 - stones - remoteness) // 2
    assert value in (WIN, LOSS)
    return magnitude if value == WIN else -magnitude


@pytest.mark.parametrize(("width", "height", "fewest"), [(4, 3, 0), (5, 4, 10)])
def test_scores_equal_plain_negamax_on_small_boards(width: int, height: int, fewest: int) -> None:
    """Every position of 4 x 3 is in reach of the reference; 5 x 4 from 10 discs on."""
    rng = random.Random(width * 10 + height)
    game = ConnectFour(width, height)
    search = CompiledSearch(game.compiled_rules(), log_size=12)
    for _ in range(60):
        played = random_game(width, height, rng.randrange(fewest, width * height + 1), rng)
        expected = reference_score(as_columns(played, width), width, height)
        search.clear()
        assert search.score(search.rules.encode(after(game, played))) == expected, played


def test_scores_equal_plain_negamax_near_the_end_of_7x6() -> None:
    rng = random.Random(76)
    game = ConnectFour(7, 6)
    search = CompiledSearch(game.compiled_rules(), log_size=16)
    checked = 0
    while checked < 40:
        played = random_game(7, 6, rng.randrange(32, 43), rng)
        expected = reference_score(as_columns(played, 7), 7, 6)
        search.clear()
        assert search.score(search.rules.encode(after(game, played))) == expected, played
        checked += 1


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4)])
def test_scores_equal_the_strong_solution(width: int, height: int) -> None:
    """Random positions (some over already) against perfectplay's strong solver."""
    game = ConnectFour(width, height)
    solution = solve(game)
    rules = Rules(game)
    search = CompiledSearch(game.compiled_rules(), log_size=16)
    rng = random.Random(width * height)
    for i in range(150):
        played = random_game(width, height, rng.randrange(width * height + 1), rng)
        state = after(game, played)
        expected = mapped(
            solution.value(state), solution.remoteness(state) or 0, len(played), width * height
        )
        if i % 2:
            search.clear()  # half with an empty table, half with a warm one
        assert search.score(search.rules.encode(state)) == expected, played
        if i % 10 == 0:
            moves = score_moves(rules.game, state, search=search)
            for entry in moves:
                child = game.play(state, entry.move)
                child_value = mapped(
                    solution.value(child),
                    solution.remoteness(child) or 0,
                    len(played) + 1,
                    width * height,
                )
                assert entry.score == -child_value
            if moves:
                assert moves[0].score == expected


def test_best_move_achieves_the_score() -> None:
    game = ConnectFour(5, 4)
    solution = solve(game)
    rules = Rules(game)
    rng = random.Random(5)
    for _ in range(30):
        played = random_game(5, 4, rng.randrange(14), rng)
        state = after(game, played)
        result = solve_position(rules.game, state, log_size=14)
        value = solution.value(state)
        assert result.score == mapped(value, solution.remoteness(state) or 0, len(played), 20)
        if result.best_move is None:
            assert not rules.legal_moves(state)
            continue
        child = game.play(state, result.best_move)
        remoteness = solution.remoteness(child) or 0
        assert -mapped(solution.value(child), remoteness, len(played) + 1, 20) == result.score
        assert result.nodes > 0


def test_empty_boards_match_published_results() -> None:
    # bench/c4ref.py's published counts: 4x4 and 5x4 tie, 6x4 a loss in 24 plies, i.e.
    # the second player's 12th and last disc wins: score -((24 + 2 - 0 - 24) // 2) = -1.
    for width, expected in ((4, 0), (5, 0), (6, -1)):
        result = solve_position(ConnectFour(width, 4), log_size=18)
        assert result.score == expected


def test_table_sizes_are_prime() -> None:
    for n in (2, 1 << 12, 1 << 16):
        p = prime_at_least(n)
        assert p >= n and all(p % d for d in range(2, int(p**0.5) + 1))


def test_games_without_compiled_rules_are_refused() -> None:
    with pytest.raises(SolverChoiceError):
        solve_position(TicTacToe())


def test_analyze_by_search_gives_every_moves_exact_score() -> None:
    from click.testing import CliRunner

    from perfectplay.cli import app

    argv = ["analyze", "connect-four", "-p", "width=5", "-p", "height=4"]
    result = CliRunner().invoke(app, [*argv, "--moves", "3,3,2", "--method", "search", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    game = ConnectFour(5, 4)
    solution = solve(game)
    state = after(game, [2, 2, 1])
    assert report["score"] == mapped(solution.value(state), solution.remoteness(state) or 0, 3, 20)
    # The fields every analyze report has, from the search's scores: as the full solve.
    assert report["value"] == solution.value(state).name.lower()
    assert report["remoteness"] == solution.remoteness(state)
    for entry in report["moves"]:
        child = game.play(state, int(entry["move"]) - 1)
        remoteness = solution.remoteness(child) or 0
        assert entry["score"] == -mapped(solution.value(child), remoteness, 4, 20)
        assert entry["value"] == solution.value(child).flipped().name.lower()
        assert entry["remoteness"] == remoteness + 1
    assert len(report["moves"]) == 5


# --- a second game through the same hook: tic-tac-toe on 9-bit boards --------------------

LINES = (0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)


@cache
def tictactoe_rules() -> Any:
    """Compiled rules of tic-tac-toe (scores 1 / 0 / -1), written to the hook's contract."""
    import numba
    import numpy as np

    lines = np.array(LINES, dtype=np.int64)

    @numba.njit
    def end(s: Any, p: int) -> int:
        mover, other = s[p, 0], s[p, 1]
        for line in lines:
            if other & line == line:
                return -1
        return 0 if mover | other == 0o777 else -(1 << 62)

    @numba.njit
    def bounds(s: Any, p: int) -> tuple[int, int]:
        return -1, 1

    @numba.njit
    def moves(s: Any, p: int, out: Any) -> int:
        n = 0
        for cell in (4, 0, 2, 6, 8, 1, 3, 5, 7):  # centre, corners, edges
            if not (s[p, 0] | s[p, 1]) >> cell & 1:
                out[p, n] = cell
                n += 1
        return n

    @numba.njit
    def play(s: Any, p: int, move: int) -> None:
        s[p + 1, 0] = s[p, 1]
        s[p + 1, 1] = s[p, 0] | (1 << move)

    @numba.njit
    def key(s: Any, p: int) -> int:
        k: int = s[p, 0] | s[p, 1] << 9
        return k

    return SearchRules(2, 9, 10, -1, 1, 18, end, bounds, moves, play, key, lambda st: st)


class BitTicTacToe:
    """Tic-tac-toe as (mover's cells, other's cells), with compiled rules."""

    name = "bit-tictactoe"

    def initial(self) -> tuple[int, int]:
        return (0, 0)

    def moves(self, state: tuple[int, int]) -> list[int]:
        return [c for c in range(9) if not (state[0] | state[1]) >> c & 1]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        return (state[1], state[0] | 1 << move)

    def outcome(self, state: tuple[int, int]) -> Any:
        if any(state[1] & line == line for line in LINES):
            return LOSS
        return TIE if state[0] | state[1] == 0o777 else None

    def compiled_rules(self) -> Any:
        return tictactoe_rules()


def test_a_second_game_through_the_hook_matches_its_strong_solution() -> None:
    game = BitTicTacToe()
    solution = solve(game)
    rules = Rules(game)
    number = {WIN: 1, TIE: 0, LOSS: -1}
    search = CompiledSearch(tictactoe_rules(), log_size=10)
    rng = random.Random(9)
    for _ in range(120):
        state = game.initial()
        for _ in range(rng.randrange(9)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))
        expected = number[solution.value(state)]
        result = solve_position(rules.game, state, search=search)
        assert result.score == expected
        if result.best_move is not None:
            assert number[solution.value(game.play(state, result.best_move))] == -expected


def test_an_opening_book_holds_the_strong_solutions_values(tmp_path: Any) -> None:
    from perfectplay.book import book_score, build_book, positions_up_to
    from perfectplay.tablebase.reader import open_tablebase

    game = ConnectFour(4, 4)
    rules = Rules(game)
    solution = solve(game)
    summary = build_book(rules, tmp_path / "book", 3, log_size=14)
    levels = positions_up_to(rules, 3)
    assert summary.positions == sum(len(level) for level in levels)
    search = CompiledSearch(game.compiled_rules(), log_size=14)
    with open_tablebase(tmp_path / "book", rules.game) as book:
        for level in levels:
            for state in level:
                assert book.lookup(state) == (solution.value(state), solution.remoteness(state))
                score = book_score(book, search.rules, state)
                assert score == search.score(search.rules.encode(state))
        assert book.lookup(after(game, [0, 0, 0, 0])) is None  # ply 4: not in the book


def test_search_answers_equal_the_strong_solution(tmp_path: Any) -> None:
    from perfectplay.book import SearchAnswers, build_book
    from perfectplay.tablebase.reader import open_tablebase

    game = ConnectFour(4, 4)
    rules = Rules(game)
    solution = solve(game)
    build_book(rules, tmp_path / "book", 2, log_size=12)
    rng = random.Random(44)
    with open_tablebase(tmp_path / "book", rules.game) as book:
        for answers in (SearchAnswers(rules), SearchAnswers(rules, book)):
            for _ in range(40):
                state = after(game, random_game(4, 4, rng.randrange(12), rng))
                assert answers.value(state) == solution.value(state)
                assert answers.remoteness(state) == solution.remoteness(state)
                assert answers.best_moves(state) == solution.best_moves(state)


class _SearchedTiers(TierKeyGame):
    """Random acyclic tiers (each move goes one or two tiers up) that say how long a game
    lasts, so the compiled search takes them; states come in pairs merged by a key."""

    mode: int = 2

    def max_plies(self) -> int:
        return self.n // self.block + 1


class _SearchedTabled(_SearchedTiers):
    """As ``_SearchedTiers``, the search's table keeping two states in three (``tabled``)."""

    def tabled(p, s):
        return s % 3 != 1


class _SearchedPlain(TierGame):
    """Random tiers, each move one tier up; no key."""

    mode: int = 3

    def max_plies(self) -> int:
        return self.n // self.block + 1


SEARCH_SCORE = {WIN: 1, TIE: 0, LOSS: -1}


@pytest.mark.parametrize("cls", [_SearchedTiers, _SearchedPlain, _SearchedTabled])
def test_a_compiled_games_search_agrees_with_the_reference_on_random_games(cls: Any) -> None:
    """The search that a compiled game's own rules feed (no rules written for it) gives
    every reachable state's value as an independent solver does, dead ends included, and
    where the game's ``tabled`` rule keeps some states out of the table."""
    checked = 0
    for seed in range(12):
        game = cls(seed=seed, n=240, block=12)
        expected = reference.solve_outcomes(game)
        rules = compiled_rules_of(Rules(game))
        assert (rules.tabled is not None) == (cls is _SearchedTabled)
        search = CompiledSearch(rules, log_size=10)
        for state, (value, _) in expected.items():
            assert search.score((state,)) == SEARCH_SCORE[value], (seed, state)
            checked += 1
    assert checked > 300


def test_both_table_schemes_agree_with_the_reference_and_pairs_keep_the_costly_bounds() -> None:
    """A table far too small (2**6 entries): in pairs (the default) and one entry an index
    (``table_pairs=False``), every reachable state's value as the independent solver gives
    it; the pairs, keeping the bounds of the larger subtrees, search fewer nodes for the
    same questions."""
    nodes = {True: 0, False: 0}
    for seed in range(6):
        game = _SearchedPlain(seed=seed, n=240, block=12)
        expected = reference.solve_outcomes(game)
        rules = compiled_rules_of(Rules(game))
        for pairs in (True, False):
            search = CompiledSearch(rules._replace(table_pairs=pairs), log_size=6)
            for state, (value, _) in expected.items():
                assert search.score((state,)) == SEARCH_SCORE[value], (seed, state, pairs)
            nodes[pairs] += search.nodes
    assert nodes[True] < nodes[False]


def test_two_threads_on_one_table_agree_with_the_reference_on_random_games() -> None:
    """``threads=2`` on keys kept in 32 bits (a table of 2**10 entries): every reachable
    state's value as the independent solver gives it, whichever lane answers."""
    checked = 0
    for seed in range(6):
        game = _SearchedTiers(seed=seed, n=240, block=12)
        expected = reference.solve_outcomes(game)
        search = CompiledSearch(compiled_rules_of(Rules(game)), log_size=10, threads=2)
        for state, (value, _) in expected.items():
            assert search.score((state,)) == SEARCH_SCORE[value], (seed, state)
            checked += 1
    assert checked > 150


def test_a_compiled_game_without_max_plies_offers_no_search() -> None:
    with pytest.raises(SolverChoiceError):
        compiled_rules_of(Rules(TierGame(mode=3)))


def test_a_game_longer_than_its_max_plies_stops_the_search() -> None:
    class Short(_SearchedPlain):
        def max_plies(self) -> int:
            return 2

    search = CompiledSearch(compiled_rules_of(Rules(Short(seed=1, n=240, block=12))), 10)
    with pytest.raises(SolverChoiceError, match="longer than max_plies"):
        search.score((0,))


class _SearchedScored(ScoredGame):
    def max_plies(self) -> int:
        return self.n + 1


class _SearchedRewards(RewardGame):
    def max_plies(self) -> int:
        return self.n + 1


class _SearchedRewardTurns(RewardTurnsGame):
    def max_plies(self) -> int:
        return self.n + 1


class _SearchedTurns(TierTurnsGame):
    mode: int = 3

    def max_plies(self) -> int:
        return self.n // self.block + 1


def _as_search_score(value: Any, wide: int = 1 << 20) -> int:
    """A reference score as the search gives it: -inf and +inf at the range's ends."""
    if value in (float("inf"), float("-inf")):
        return wide if value > 0 else -wide
    return int(value)


@pytest.mark.parametrize("cls", [_SearchedScored, _SearchedRewards, _SearchedRewardTurns])
def test_the_search_gives_the_exact_score_of_scored_games_rewards_and_extra_turns(
    cls: Any,
) -> None:
    """Issue 48: scored games (the exact score, not its sign), moves that earn points and
    moves that keep the turn: every reachable state's score equals an independent
    exhaustive search's (``reference.upward_scores``), a mover with no move at -inf."""
    checked = 0
    for seed in range(10):
        game = cls(seed=seed, n=60)
        expected = reference.upward_scores(game)
        search = CompiledSearch(compiled_rules_of(Rules(game)), log_size=10)
        for state, (score, _) in expected.items():
            assert search.score((state,)) == _as_search_score(score), (seed, state)
            checked += 1
    assert checked > 300


def test_the_search_gives_the_value_of_win_loss_games_with_extra_turns() -> None:
    checked = 0
    for seed in range(10):
        game = _SearchedTurns(seed=seed, n=240, block=12)
        expected = reference.solve_outcomes(game)
        search = CompiledSearch(compiled_rules_of(Rules(game)), log_size=10)
        for state, (value, _) in expected.items():
            assert search.score((state,)) == SEARCH_SCORE[value], (seed, state)
            checked += 1
    assert checked > 300


def test_analyze_searches_a_users_scored_game_with_extra_turns_as_its_solve_says(
    tmp_path: Any,
) -> None:
    """Issue 48: a user's Kalah (scored, a last seed in the store moves again) with
    max_plies added is searched, and every first move's score is the strong solve's."""
    from pathlib import Path

    from cli_script import run_cli

    examples = Path(__file__).resolve().parents[2] / "examples"
    game_file = tmp_path / "searched_kalah.py"
    game_file.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(examples)!r})\n"
        "from kalah import Kalah\n\n\n"
        "class SearchedKalah(Kalah):\n"
        "    def max_plies(self):\n"
        "        return 400\n"
    )
    game = [f"{game_file}:SearchedKalah", "-p", "houses=3", "-p", "seeds=3", "--json"]
    reports = []
    for method in ("search", "auto"):
        done = run_cli("analyze", *game, "--method", method)
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    searched, solved = reports
    assert searched["method"] == "compiled search"
    assert searched["value"] == solved["value"]
    assert {m["move"]: m["value"] for m in searched["moves"]} == {
        m["move"]: m["value"] for m in solved["moves"]
    }


class _LoopySearched(RandomGame):
    """Random moves anywhere (positions repeat), with a max_plies that is no bound."""

    def max_plies(self) -> int:
        return 24


def test_a_loopy_game_is_searched_right_or_refused_in_one_line() -> None:
    """Issue 48: where positions repeat, the search gives the strong solve's value (a draw
    is 0) or says in one line that it cannot; never another value."""
    answered = refused = 0
    for seed in range(8):
        game = _LoopySearched(seed=seed, n=40, degree=3)
        solved = solve(game)
        search = CompiledSearch(compiled_rules_of(Rules(game)), log_size=10)
        for state in range(40):
            found = solved.lookup(state)
            if found is None:
                continue
            expected = {WIN: 1, LOSS: -1}.get(found[0], 0)
            try:
                got = search.score((state,))
            except SolverChoiceError as exc:
                assert "\n" not in str(exc) and "repeat" in str(exc)
                refused += 1
                continue
            assert got == expected, (seed, state)
            answered += 1
    assert answered > 20 and refused > 20
