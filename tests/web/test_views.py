"""The explorer's JSON API, served for real, against a reference solver written for tests.

Every position of random tic-tac-toe games: value, remoteness and each move's value and
remoteness as ``tests/reference.py`` finds them (it shares no code with the engine), the
change of remoteness, the history; Nim's Grundy values against the xor of the piles;
answers from a tablebase equal to those of a solve; bad requests get a 4xx JSON error and
the server goes on; the ``explore`` command starts, serves and stops on Ctrl-C.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import time
import urllib.parse
from functools import reduce
from operator import xor
from pathlib import Path

import pytest
from cli_script import SCRIPT, run_cli
from reference import seen_by_mover, solve_outcomes, successors
from web_server import get, serving, serving_home

from perfectplay import build_tablebase, open_tablebase, solve
from perfectplay.games import (
    ConnectFour,
    Dobutsu,
    Invisible,
    Nim,
    TicTacToe,
    WeightedTicTacToe,
)
from perfectplay.rules import Rules


def url(base: str, moves: list[str]) -> str:
    return f"{base}/api/position?moves=" + urllib.parse.quote(",".join(moves))


def test_tictactoe_positions_match_the_reference() -> None:
    game = TicTacToe()
    truth = solve_outcomes(game)
    rules = Rules(game)
    rng = random.Random(7)
    with serving(rules, solve(game)) as base:
        for _ in range(12):
            state, played, history = game.initial(), [], []
            while True:
                status, view = get(url(base, played))
                assert status == 200
                value, remoteness = truth[game.key(state)]
                assert (view["value"], view["remoteness"]) == (str(value), remoteness)
                history.append((str(value), remoteness))
                assert [(h["value"], h["remoteness"]) for h in view["history"]] == history
                assert view["played"] == played
                kids = successors(game, state)
                assert view["over"] == (not kids or game.outcome(state) is not None)
                if view["over"]:
                    break
                by_move = {m["move"]: m for m in view["moves"]}
                assert set(by_move) == {rules.format_move(m) for m, _, _ in kids}
                for move, child, same in kids:
                    child_value, child_remoteness = truth[game.key(child)]
                    shown = by_move[rules.format_move(move)]
                    assert shown["value"] == str(seen_by_mover(child_value, same))
                    assert shown["remoteness"] == child_remoteness + 1
                    keeps = shown["value"] == str(value)  # plies compare within one value
                    assert shown["delta"] == (child_remoteness + 1 - remoteness if keeps else None)
                best = [m for m in view["moves"] if m["best"]]
                assert best and best[0] == view["moves"][0]
                move, state, _ = rng.choice(kids)
                played.append(rules.format_move(move))


def test_the_last_move_is_named_and_marked_on_the_board() -> None:
    game = TicTacToe()
    with serving(Rules(game), solve(game)) as base:
        _, start = get(url(base, []))
        _, after = get(url(base, ["5", "1"]))
    assert start["last"] is None and "last" not in start["svg"]
    assert after["last"] == "1"
    cells = re.findall(r'<rect class="([^"]*)" x="(\d+)" y="(\d+)"', after["svg"])
    assert [(x, y) for kind, x, y in cells if "last" in kind.split()] == [("2", "2")]  # cell 1
    # empty cells show the numbers the move list uses; played ones their marks only
    numbers = re.findall(r'<text class="number"[^>]*>(\d)</text>', after["svg"])
    assert numbers == ["2", "3", "4", "6", "7", "8", "9"]


def test_connect_four_values_are_on_a_band_and_the_last_disc_is_ringed() -> None:
    game = ConnectFour(4, 3)
    solution = solve(game)
    rules = Rules(game)
    with serving(rules, solution) as base:
        _, view = get(url(base, ["2", "2"]))
    svg = view["svg"]
    bands = re.findall(r'<rect class="band"[^>]*data-move="(\d)"', svg)
    assert bands == [m["move"] for m in sorted(view["moves"], key=lambda m: m["move"])]
    ringed = re.findall(r'<circle class="(disc-[xo]) last" cx="([\d.]+)" cy="([\d.]+)"', svg)
    discs = re.findall(r'<circle class="(disc-[xo])[^"]*" cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert len(discs) == 2 and len(ringed) == 1
    kind, cx, cy = ringed[0]
    assert kind == "disc-o"  # the second disc in column 2 is O's, on top of X's
    assert float(cy) == min(float(y) for k, x, y in discs if x == cx)
    assert "X: red disc" in svg and "O: yellow disc" in svg


def test_points_taken_so_far_add_up_the_rewards_of_the_moves_played() -> None:
    game = Invisible((3, -1, 5), (2, 4))
    rules = Rules(game)
    solution = solve(game)
    rng = random.Random(3)
    with serving(rules, solution) as base:
        for _ in range(6):
            state, played = game.initial(), []
            taken = {"first": 0, "second": 0}
            mover = "first"
            while solution.move_values(state):
                _, view = get(url(base, played))
                assert view["taken"] == taken
                move = rng.choice(game.moves(state))
                child = game.play(state, move)
                taken[mover] += game.reward(state, move)
                if rules.mover_changes(state, child):
                    mover = "second" if mover == "first" else "first"
                state = child
                played.append(rules.format_move(move))
    _, tictactoe = get_view(TicTacToe(), [])
    assert tictactoe["taken"] is None  # no rewards, no points


def get_view(game: object, moves: list[str]) -> tuple[int, dict[str, object]]:
    with serving(Rules(game), solve(game)) as base:
        return get(url(base, moves))


def test_the_first_players_value_flips_with_the_mover() -> None:
    game = TicTacToe()
    with serving(Rules(game), solve(game)) as base:
        _, view = get(url(base, ["1", "2", "3"]))  # X wins from here on
    movers = [h["mover"] for h in view["history"]]
    assert movers == ["first", "second", "first", "second"]
    for entry in view["history"]:
        flipped = {"win": "loss", "loss": "win"}.get(entry["value"], entry["value"])
        expected = entry["value"] if entry["mover"] == "first" else flipped
        assert entry["value_for_first"] == expected


@pytest.mark.parametrize("piles", [(1, 2), (3, 4, 5), (2, 2, 7)])
def test_nim_grundy_values_are_the_xor_of_the_piles(piles: tuple[int, ...]) -> None:
    game = Nim(piles)
    with serving(Rules(game), solve(game)) as base:
        _, view = get(url(base, []))
        assert view["grundy"] == reduce(xor, piles)
        move = view["moves"][-1]["move"]  # the worst move is still a legal one
        _, after = get(url(base, [move]))
        pile, take = (int(n) for n in move.split(":"))
        left = list(piles)
        left[pile - 1] -= take
        assert after["grundy"] == reduce(xor, left)
        assert f'data-move="{move}"' in view["svg"]  # a token of the pile takes it


def test_a_tablebase_answers_as_the_solve(tmp_path: Path) -> None:
    game = ConnectFour(4, 4)
    build_tablebase(game, tmp_path / "c4")
    rng = random.Random(3)
    lines = []
    for _ in range(5):
        line: list[str] = []
        state = game.initial()
        for _ in range(rng.randrange(12)):
            moves = game.moves(state)
            if game.outcome(state) is not None or not moves:
                break
            move = rng.choice(moves)
            line.append(game.format_move(move))
            state = game.play(state, move)
        lines.append(line)
    rules = Rules(game)
    with serving(rules, solve(game)) as solved:
        expected = [get(url(solved, line)) for line in lines]
    with open_tablebase(tmp_path / "c4", game) as base, serving(rules, base) as saved:
        assert [get(url(saved, line)) for line in lines] == expected


def test_bad_requests_get_a_json_error_and_the_server_goes_on() -> None:
    game = TicTacToe()
    with serving(Rules(game), solve(game)) as base:
        status, body = get(url(base, ["5", "5"]))
        assert status == 400 and "move 2" in body["error"] and "not a legal move" in body["error"]
        status, body = get(url(base, ["nonsense"]))
        assert status == 400 and "move 1" in body["error"]
        status, body = get(url(base, ["1", "2", "3", "4", "5", "6", "7", "8"]))
        assert status == 400 and "game is over" in body["error"]
        status, body = get(f"{base}/no/such/page")
        assert status == 404 and "error" in body
        status, body = get(url(base, ["5"]))
        assert status == 200 and body["played"] == ["5"]
        status, body = get(f"{base}/api/game")
        assert status == 200 and body["game"] == "tictactoe"


def test_a_scored_game_with_infinite_scores_is_valid_json() -> None:
    game = WeightedTicTacToe()
    solution = solve(game)
    rules = Rules(game)
    with serving(rules, solution) as base:
        status, view = get(url(base, ["5"]))
    assert status == 200
    state = rules.play(game.initial(), rules.parse_move(game.initial(), "5"))
    for shown, truth in zip(view["moves"], solution.move_values(state), strict=True):
        value = truth.value
        if value in (float("inf"), float("-inf")):
            assert shown["value"] == ("+inf" if value > 0 else "-inf")
        else:
            assert shown["value"] == value


class Tokens:
    """A game of its own that draws itself: take 1 or 2 tokens; who cannot move loses."""

    name = "tokens"

    def initial(self) -> int:
        return 4

    def moves(self, n: int) -> list[int]:
        return [t for t in (1, 2) if t <= n]

    def play(self, n: int, t: int) -> int:
        return n - t

    def outcome(self, n: int) -> None:
        return None

    def draw_svg(self, n: int) -> str:
        marks = "".join(
            f'<rect data-move="{t}" x="{t * 10}" width="8" height="8"/>' for t in (1, 2)
        )
        return f'<svg id="own" data-tokens="{n}">{marks}</svg>'


def test_a_game_draws_itself_with_its_hook() -> None:
    game = Tokens()
    with serving(Rules(game), solve(game)) as base:
        _, view = get(url(base, []))
    assert view["svg"].startswith('<svg id="own" data-tokens="4">')
    # a multiple of 3 left loses for the mover: from 4, take 1
    assert {m["move"]: m["value"] for m in view["moves"]} == {"1": "win", "2": "loss"}


class MarkedTokens(Tokens):
    """Tokens whose drawing names the move that led to the position."""

    def draw_svg(self, n: int, last: int | None = None) -> str:
        return f'<svg id="own" data-tokens="{n}" data-last="{last}"></svg>'


def test_a_hook_that_takes_last_is_given_the_move_itself() -> None:
    game = MarkedTokens()
    with serving(Rules(game), solve(game)) as base:
        _, start = get(url(base, []))
        _, after = get(url(base, ["2", "1"]))
    assert 'data-last="None"' in start["svg"]
    assert 'data-tokens="1" data-last="1"' in after["svg"]  # an int, as moves() gave it


def test_the_explorer_knows_no_game_by_name() -> None:
    """Every built-in draws itself: no game's name or alias is written in the web package."""
    from perfectplay import games

    web = Path(games.__file__).parent.parent / "web"
    text = "\n".join(p.read_text() for p in web.rglob("*.py"))
    names = {n for cls in games.GAMES for n in (cls.name, *getattr(cls, "aliases", ()))}
    assert names and not [n for n in names if f'"{n}"' in text or f"'{n}'" in text]


def test_dobutsu_draws_its_pieces_hands_and_last_move() -> None:
    rules = Rules(Dobutsu())
    state = rules.initial()
    move = rules.parse_move(state, "B3-B2")
    after = rules.play(state, move)
    svg = rules.presentation.draw_svg(after, move) if rules.presentation.draw_svg else ""
    pieces = re.findall(r'<g class="piece (sente|gote)"[^>]*>.*?<text[^>]*>(\w)</text>', svg)
    # the chick took gote's: gote keeps three pieces on the board, sente holds a chick
    assert sorted(pieces) == sorted([("gote", c) for c in "GLE"] + [("sente", c) for c in "GLEC"])
    assert re.findall(r'<rect class="square last" x="(\d+)" y="(\d+)"', svg) == [
        (str(48 + 20), str(48 + 4))  # B2: column B, row 2
    ]
    assert "sente holds C" in svg and "gote to move" in svg


def test_explore_refuses_bad_input_in_one_line() -> None:
    run = run_cli("explore", "no-such-game")
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    run = run_cli("explore", "tictactoe", "--port", "70000")
    assert run.returncode == 2 and "--port" in run.stderr and "Traceback" not in run.stderr


def test_explore_serves_until_ctrl_c(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [SCRIPT, "explore", "tictactoe", "--port", str(port), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert address, line
        for _ in range(100):  # the address is printed just before the server listens
            try:
                status, body = get(address.group(0) + "api/game")
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200 and body["game"] == "tictactoe"
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert "Traceback" not in err
    # a taken port is one line too
    with __import__("socket").socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        run = run_cli("explore", "tictactoe", "--port", str(busy.getsockname()[1]))
    assert run.returncode == 2 and "cannot serve" in run.stderr


def test_the_home_page_lists_every_built_in_game_and_opens_one_as_explore_would() -> None:
    from perfectplay.games import BUILTINS

    with serving_home() as base:
        status, listing = get(base + "/api/games")
        assert status == 200
        games = {g["name"]: g for g in listing["games"]}
        assert set(games) == set(BUILTINS)
        nim = {p["name"]: p for p in games["nim"]["parameters"]}
        assert nim["piles"]["default"] == "3,4,5" and nim["misere"]["default"] == "false"
        assert "Nim" in games["nim"]["summary"]
        status, opened = get(base + "/api/open?game=nim&p=piles%3D1%2C2")
        assert status == 200 and opened["url"].startswith("/g/")
        again = get(base + "/api/open?game=nim&p=piles%3D1%2C2")[1]
        assert again == opened  # one explorer per game and parameters
        _, view = get(base + opened["url"] + "api/position?moves=")
        solution = solve(Nim((1, 2)))
        assert view["value"] == str(solution.value()) and view["grundy"] == 1 ^ 2
        assert len(view["moves"]) == 3
        _, about = get(base + opened["url"] + "api/game")
        assert about["home"] is True and about["game"] == "nim"
        for query, words in [
            ("game=chess", "no game called 'chess'"),
            ("game=nim&p=piles%3Dx", "piles"),
            ("game=connect-four&p=width%3D6&p=height%3D5", "--save DIR"),
        ]:
            status, refused = get(base + "/api/open?" + query)
            assert status == 400 and words in refused["error"], refused
            assert "\n" not in refused["error"]
        status, c4 = get(base + "/api/open?game=connect-four&p=width%3D7&p=height%3D6")
        assert status == 200  # far too large to solve: the book shipped for it answers
        _, start = get(base + c4["url"] + "api/position?moves=")
        assert start["value"] == "win" and start["best"] == ["4"]  # Allis 1988: the centre
