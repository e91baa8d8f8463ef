"""Rough edges a new user met (issue 28): a game's own hooks failing, parameters typed and
given once, impartial games that are not, and counts in words; each is one line, exit 2,
or the right word."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_script import one_line_error, run_cli

from perfectplay.cli import main
from perfectplay.cli.params import parameters, parse_assignments
from perfectplay.cli.present import counted, plies_text

GAMES = '''
from perfectplay import TIE


class Counting:
    """Take 1 or 2 from a pile; the player who cannot take loses."""

    def __init__(self, n: int = 4):
        self.n = n

    def initial(self):
        return self.n

    def moves(self, s):
        return [m for m in (1, 2) if m <= s]

    def play(self, s, m):
        return s - m

    def outcome(self, s):
        return None


class Boom(Counting):
    def __init__(self, n: int = 4):
        raise RuntimeError("no pile today")


class BadShow(Counting):
    def show(self, s):
        raise KeyError("oops")


class BadMove(Counting):
    def format_move(self, m):
        return 3


class Piles(Counting):
    def __init__(self, piles=(1, 2), name_it=False):
        self.n = sum(piles)
        self.piles = piles


class TieTake(Counting):
    impartial = True

    def outcome(self, s):
        return TIE if s == 0 else None
'''


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.py"
    path.write_text(GAMES)
    return path


@pytest.mark.parametrize(
    ("cls", "command", "words"),
    [
        ("Boom", "solve", "the constructor raised RuntimeError: no pile today"),
        ("BadShow", "analyze", "BadShow.show(4) raised KeyError"),
        ("BadMove", "analyze", "BadMove.format_move(1) returned int 3, not a string"),
        ("BadMove", "solve", "not a string"),
    ],
)
def test_a_failing_hook_is_one_line(games: Path, cls: str, command: str, words: str) -> None:
    one_line_error(run_cli(command, f"{games}:{cls}"), words)


def test_a_parameter_is_given_once(games: Path) -> None:
    one_line_error(run_cli("solve", f"{games}:Counting", "-p", "n=3", "-p", "n=5"), "given twice")


def test_a_parameter_without_a_hint_is_typed_by_its_default() -> None:
    namespace: dict[str, object] = {}
    exec(GAMES, namespace)
    piles = namespace["Piles"]
    assert isinstance(piles, type)
    kinds = {p.name: p.type_name for p in parameters(piles)}
    assert kinds == {"piles": "list of int (comma-separated)", "name_it": "bool"}
    assert parse_assignments(piles, ["piles=3,4", "name_it=yes"]) == {
        "piles": (3, 4),
        "name_it": True,
    }


def test_an_impartial_game_that_ties_says_why_it_has_no_grundy_values(games: Path) -> None:
    done = run_cli("solve", f"{games}:TieTake")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("grundy value"))
    assert "none: TieTake ends in a tie" in row


def test_counts_take_the_right_number() -> None:
    assert [counted(n, "ply") for n in (0, 1, 2)] == ["0 plies", "1 ply", "2 plies"]
    assert [counted(n, "tier") for n in (1, 12_000)] == ["1 tier", "12,000 tiers"]
    assert plies_text(1) == "in 1 ply" and plies_text(None) == "never ends"


def test_an_unexpected_failure_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug of ours")

    module = importlib.import_module("perfectplay.cli.solve_command")  # (loaded when it runs)
    monkeypatch.setattr(module, "full_solve", broken)
    monkeypatch.delenv("PERFECTPLAY_TRACEBACK", raising=False)
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "tictactoe"])
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "RuntimeError: a bug of ours" in lines[0]


def test_a_position_play_never_reaches_is_named_unless_asked_for() -> None:
    one_line_error(
        run_cli("analyze", "tictactoe", "--position", "XXX/OOO/..."),
        "play from the start never reaches it (add --from-position",
    )
    asked = run_cli("analyze", "tictactoe", "--position", "XXX/OOO/...", "--from-position")
    assert asked.returncode == 0 and "value" in asked.stdout
    reached = run_cli("analyze", "tictactoe", "--position", "XX./OO./...", "--json")
    assert reached.returncode == 0 and '"value": "win"' in reached.stdout


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "connect_four.py"


@pytest.mark.parametrize(
    "game",
    [
        ["tictactoe"],  # hand-ranked tiers: what play reaches is marked again
        [f"{EXAMPLE}:ConnectFour", "-p", "width=4", "-p", "height=3"],  # an engine's ranking
        ["subtraction", "-p", "stones=30"],  # explored in memory: saved again whole
    ],
)
def test_a_damaged_tablebase_is_repaired_by_the_same_solve(tmp_path: Path, game: list[str]) -> None:
    fresh, damaged = tmp_path / "fresh", tmp_path / "damaged"
    for target in (fresh, damaged):
        assert run_cli("solve", *game, "--save", str(target), "-q").returncode == 0
    tiers = sorted(damaged.glob("tier-*.rec"), key=lambda p: p.stat().st_size)
    hurt = tiers[-1]
    data = bytearray(hurt.read_bytes())
    data[len(data) // 2] ^= 0x3F
    hurt.write_bytes(bytes(data))
    checked = run_cli("verify", str(damaged), *game[:1], *game[1:])
    assert checked.returncode == 1 and hurt.name in checked.stdout
    again = run_cli("solve", *game, "--save", str(damaged), "-q")
    assert again.returncode == 0, again.stderr
    assert f"{hurt.name} failed their checksums" in again.stderr
    made = sorted(p.name for p in fresh.iterdir() if p.name != "progress.json")
    assert sorted(p.name for p in damaged.iterdir() if p.name != "progress.json") == made
    for name in made:
        assert (damaged / name).read_bytes() == (fresh / name).read_bytes(), name


def test_verify_reports_a_cut_tier_as_a_problem_of_the_tablebase(tmp_path: Path) -> None:
    target = tmp_path / "tb"
    assert run_cli("solve", "tictactoe", "--save", str(target), "-q").returncode == 0
    (target / "tier-000005.rec").write_bytes(b"\0" * 10)
    checked = run_cli("verify", str(target))
    assert checked.returncode == 1, checked.stderr
    assert "tier-000005.rec holds 10 bytes" in checked.stdout
    assert run_cli("verify", str(tmp_path / "nothing")).returncode == 2


def test_an_unreachable_scheduler_is_one_line_soon(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    target = tmp_path / "tb"
    result = run_cli("solve", "tictactoe", "--save", str(target), "--scheduler",
                     "tcp://127.0.0.1:9", timeout=60)  # fmt: skip
    one_line_error(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 10 s")
    assert not target.exists()


COMMON = {"game", "method", "moves_played", "position", "value", "remoteness", "best_moves",
          "principal_variation", "moves", "stats"}  # fmt: skip


def test_analyze_json_has_one_schema_whichever_engine_answers(tmp_path: Path) -> None:
    """A full solve, a tablebase and the compiled search give the same fields."""
    import json

    assert run_cli("solve", "tictactoe", "--save", str(tmp_path / "tb"), "-q").returncode == 0
    reports = [
        json.loads(run_cli("analyze", *args, "--json").stdout)
        for args in (
            ["tictactoe", "--moves", "5"],
            ["tictactoe", "--db", str(tmp_path / "tb"), "--moves", "5"],
            ["connect-four", "-p", "width=7", "-p", "height=6", "--moves",
             "4,4,4,4,4,4,3,3,3,3,3,2,1,1,2,2,6,6"],
        )
    ]  # fmt: skip
    for report in reports:
        assert set(report) >= COMMON, COMMON - set(report)
        assert report["value"] in ("win", "loss", "tie", "draw")
        for move in report["moves"]:
            assert {"move", "value", "remoteness"} <= set(move)
    searched = reports[2]
    assert searched["method"] == "compiled search" and searched["value"] == "win"
    assert searched["remoteness"] == 1 and searched["best_moves"] == ["5"]


def test_long_work_off_a_terminal_says_how_it_goes_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERFECTPLAY_PROGRESS_EVERY", "0")
    target = tmp_path / "tb"
    done = run_cli("solve", "connect-four", "-p", "width=5", "-p", "height=4", "--save",
                   str(target))  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert any("tier" in line and line.endswith(" s)") for line in lines), done.stderr
    phases = ["marking" if "marking" in line else "solving" for line in lines if "tier" in line]
    assert "solving" in phases and "marking" not in phases[phases.index("solving") :], phases
    assert "tier" not in done.stdout.splitlines()[0]  # the results alone on stdout
    octal = run_cli("octal", "0.8", "--n", "1500")  # (a second or more of work)
    assert octal.returncode == 0, octal.stderr
    assert "Grundy values of 0.8, heaps 0..1,500: still working" in octal.stderr


def test_moves_and_positions_read_in_the_games_own_words() -> None:
    from perfectplay import LOSS
    from perfectplay.errors import describe
    from perfectplay.games import Nim, Pawns
    from perfectplay.rules import Rules

    pawns = Rules(Pawns())
    state = pawns.initial_state()
    for move in pawns.legal_moves(state):
        text = pawns.format_move(move)
        assert "," not in text  # --moves splits on commas
        assert pawns.parse_move(state, text) == move
    assert describe((LOSS, 3)) == "(loss, 3)"
    nim = Rules(Nim(piles=(1, 2)))
    with pytest.raises(Exception, match="PILE:TAKEN, as 2:3"):
        nim.parse_move(nim.initial_state(), "2-1")
    one_line_error(
        run_cli("analyze", "nim", "--position", "1,x"), "whole numbers separated by commas"
    )


WRONG_BATCH = (
    GAMES
    + '''
import numpy as np
from perfectplay.protocol import BatchRules, Expansion


class Take(Counting):
    """Counting from 12, with batch hooks: batch_expand forgets the move that takes 2."""

    def __init__(self, n: int = 12, honest: bool = False):
        self.n, self.honest = n, honest

    def batch_outcome(self, codes):
        return np.zeros(len(codes), dtype=np.int8)

    def batch_expand(self, codes):
        parents, children = [], []
        for i, s in enumerate(codes.tolist()):
            for m in ((1, 2) if self.honest else (1,)):
                if m <= s:
                    parents.append(i)
                    children.append(s - m)
        return Expansion(np.array(parents, dtype=np.int64), np.array(children, dtype=np.int64))

    def speed(self):
        return BatchRules(self.batch_outcome, self.batch_expand)
'''
)


def test_speed_hooks_that_disagree_with_the_rules_are_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "take.py"
    path.write_text(WRONG_BATCH)
    for extra in ([], ["--save", str(tmp_path / "tb")]):
        one_line_error(run_cli("solve", f"{path}:Take", *extra), "disagree with its plain ones")
    honest = run_cli("solve", f"{path}:Take", "-p", "honest=true")
    assert honest.returncode == 0 and "loss" in honest.stdout  # 12 is a multiple of 3


def test_list_shows_each_games_summary_in_plain_words() -> None:
    from perfectplay.cli.list_command import summary

    assert summary("Take ``n``\n  from :class:`Pile`.\n\nMore text.") == "Take n from Pile."
    listed = run_cli("list")
    assert listed.returncode == 0 and "``" not in listed.stdout


def test_an_opening_book_answers_and_verifies_like_a_tablebase(tmp_path: Path) -> None:
    """Any board's book (not only the shipped 7x6 one): analyze and verify read it, the
    search answering beyond its plies; its values agree with the full solve."""
    import json

    board = ["connect-four", "-p", "width=5", "-p", "height=4"]
    book = tmp_path / "book"
    made = run_cli("book", *board, "--depth", "2", "--out", str(book), "--quiet")
    assert made.returncode == 0, made.stderr
    for moves in ("1", "3,3"):
        from_book = run_cli("analyze", *board, "--db", str(book), "--moves", moves, "--json")
        solved = run_cli("analyze", *board, "--moves", moves, "--json")
        assert from_book.returncode == 0, from_book.stderr
        mine, theirs = json.loads(from_book.stdout), json.loads(solved.stdout)
        assert mine["value"] == theirs["value"] and mine["remoteness"] == theirs["remoteness"]
        assert {m["move"]: m["value"] for m in mine["moves"]} == {
            m["move"]: m["value"] for m in theirs["moves"]
        }
    checked = run_cli("verify", str(book), *board)
    assert checked.returncode == 0 and "sound" in checked.stdout, checked.stdout
    import perfectplay

    shipped_book = Path(perfectplay.__file__).parent / "books" / "connect-four-7x6"
    shipped = run_cli("verify", str(shipped_book), "connect-four", "-p", "width=7", "-p",
                      "height=6")  # fmt: skip
    assert shipped.returncode == 0, shipped.stdout


def test_the_explorer_answers_7x6_from_the_book_and_the_search() -> None:
    """explore takes play's route on a board too large to solve: the shipped book, then
    the search (the JSON API, as the page asks it)."""
    pytest.importorskip("starlette")
    from web_server import get, serving

    from perfectplay.book import SearchAnswers, shipped_book
    from perfectplay.games import ConnectFour
    from perfectplay.rules import Rules
    from perfectplay.tablebase.reader import open_tablebase

    rules = Rules(ConnectFour(7, 6))
    book = shipped_book(rules)
    assert book is not None
    with open_tablebase(book, rules.game) as base, serving(rules, SearchAnswers(rules, base)) as at:
        status, start = get(f"{at}/api/position?moves=")
        assert status == 200 and start["value"] == "win" and start["best"] == ["4"]
        status, later = get(f"{at}/api/position?moves=4,4,4,4,4,4,3,3,3,3,3,2,1,1")
        assert status == 200 and later["value"] in ("win", "loss", "tie")


@pytest.mark.parametrize(
    ("args", "routes"),
    [
        (["solve", "connect-four", "-p", "width=7", "-p", "height=6"], "--method search"),
        (["analyze", "dobutsu"], "--save DIR"),
        (["explore", "dobutsu", "--port", "18767"], "--save DIR"),
    ],
)
def test_a_game_far_too_large_for_memory_says_so_at_once(args: list[str], routes: str) -> None:
    """Its tiers' slots are known before any solving: one line with the routes that work,
    not minutes of exploring until the memory runs out."""

    started = time.perf_counter()
    one_line_error(run_cli(*args, "--memory", "2G"), routes)
    assert time.perf_counter() - started < 30


def test_table_takes_the_book_for_a_member_too_large_and_refuses_one_by_name() -> None:
    """7x6 Connect Four, a member far too large to solve, is read from the book shipped for
    it (the first player wins: Allis 1988, Allen 1988); 6x5 within a small budget is
    refused at once, in one line naming the member and the routes that work."""
    done = run_cli("table", "connect-four", "-p", "height=6", "--range", "width=7..7", "--json")
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    assert table["cell"] == "outcome" and table["cells"] == [{"width": 7, "value": "win"}]
    refused = one_line_error(
        run_cli(
            "table", "connect-four", "-p", "height=5", "--range", "width=6..6", "--memory", "1G"
        )
    )
    assert "-p height=5 -p width=6" in refused and "--save DIR" in refused


RACE = '''
class Race:
    """A scored race: each move adds 1 to 3 to the mover's counter; a counter at the goal
    ends the game, scored by the difference for the player to move."""

    name = "race"

    def __init__(self, goal: int = 46) -> None:
        self.goal = goal

    def initial(self):
        return (0, 0, 0)

    def moves(self, s):
        return [1, 2, 3]

    def play(self, s, m):
        a, b, p = s
        return (min(a + m, self.goal), b, 1) if p == 0 else (a, min(b + m, self.goal), 0)

    def outcome(self, s):
        a, b, p = s
        if a >= self.goal or b >= self.goal:
            return float(a - b if p == 0 else b - a)
        return None
'''


def test_a_small_scored_game_of_ones_own_is_solved_without_loading_numba(tmp_path: Path) -> None:
    """The README's promise for small solves, on a scored game of more than 4,000 states (an
    issue saw a 4,209-state scored game load numba; this one, solved
    by the command line, does not)."""
    (tmp_path / "race.py").write_text(RACE)
    code = (
        "import sys\n"
        "from perfectplay.cli import main\n"
        "try:\n"
        f"    main(['solve', {str(tmp_path / 'race.py')!r} + ':Race', '-p', 'goal=56', '--json'])\n"
        "finally:\n"
        "    print('numba' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stats"]["states"] > 4000
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_a_move_the_games_parser_cannot_read_says_what_a_move_looks_like() -> None:
    """Issue 46, item 7: not Python's "invalid literal for int()", but the legal moves; a
    game's own words (a raise of its parser) are kept before them."""
    from perfectplay import LOSS
    from perfectplay.errors import GameError
    from perfectplay.rules import Rules

    class Ints:
        def initial(self) -> int:
            return 5

        def moves(self, s: int) -> list[int]:
            return [1, 2]

        def play(self, s: int, m: int) -> int:
            return s - m

        def outcome(self, s: int) -> Any:
            return None if s > 0 else LOSS

        def parse_move(self, text: str) -> int:
            return int(text)

    class Worded(Ints):
        def parse_move(self, text: str) -> int:
            if not text.isdigit():
                raise ValueError("a move is how many to take, 1 or 2")
            return int(text)

    with pytest.raises(GameError) as plain:
        Rules(Ints()).parse_move(5, "abc")
    said = str(plain.value)
    assert "invalid literal" not in said and said.endswith("legal moves here: 1, 2")
    with pytest.raises(GameError) as worded:
        Rules(Worded()).parse_move(5, "abc")
    assert str(worded.value) == (
        "cannot read move 'abc': a move is how many to take, 1 or 2; legal moves here: 1, 2"
    )
