"""The explorer's home page over games given on the command line (``explore a.py:A b.py:B``).

Two games of the user's own, written to files: the home page lists exactly them (their
rules in a line, their parameters) and no built-in; each opens, from its file and with the
parameters set on the page, into an explorer whose every position has the value a reference
solver finds; games sharing a name are listed by their spec; the command line refuses
``-p``/``--db`` with several games, and a missing class, in one line, and serves the page.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from cli_script import SCRIPT, one_line_error, run_cli
from reference import solve_outcomes
from web_server import get, serving_app

from perfectplay.cli.loader import find_game_class
from perfectplay.errors import UsageProblem
from perfectplay.games import BUILTINS

RACE = '''
from perfectplay import LOSS


class RaceToTen:
    """Players add 1 or 2 to a running total in turn; whoever reaches the target wins."""

    def __init__(self, target: int = 10) -> None:
        self.target = target

    def initial(self):
        return 0

    def moves(self, total):
        return [1, 2]

    def play(self, total, step):
        return total + step

    def outcome(self, total):
        return LOSS if total >= self.target else None
'''

TAKEAWAY = '''
from perfectplay import LOSS


class Takeaway:
    """Take 1 to ``most`` tokens from a heap in turn; whoever takes the last one wins."""

    name = "takeaway"

    def __init__(self, tokens: int, most: int = 3) -> None:
        self.tokens, self.most = tokens, most

    def initial(self):
        return self.tokens

    def moves(self, left):
        return list(range(1, min(self.most, left) + 1))

    def play(self, left, taken):
        return left - taken

    def outcome(self, left):
        return LOSS if left == 0 else None
'''


@pytest.fixture
def specs(tmp_path: Path) -> list[str]:
    """The two games, each in a file of its own, as the command line names them."""
    (tmp_path / "race.py").write_text(RACE)
    (tmp_path / "takeaway.py").write_text(TAKEAWAY)
    return [f"{tmp_path / 'race.py'}:RaceToTen", f"{tmp_path / 'takeaway.py'}:Takeaway"]


def serving_user_home(specs: list[str]) -> Any:
    """The home page of ``specs``, served as ``perfectplay explore SPEC SPEC`` serves it."""
    from perfectplay.cli.web_command import home_games, home_opener, user_games
    from perfectplay.web.hub import create_hub

    games = user_games(specs)
    listed = {name: cls for name, (_, cls) in games.items()}
    by_name = {name: spec for name, (spec, _) in games.items()}
    stack = ExitStack()
    hub = create_hub(home_games(listed), home_opener(stack, None, None, by_name))
    return stack, serving_app(hub)


def open_url(base: str, game: str, *assignments: str) -> str:
    query = urllib.parse.urlencode([("game", game), *(("p", a) for a in assignments)])
    return f"{base}/api/open?{query}"


def every_position(game: Any) -> list[tuple[list[str], Any]]:
    """Each position reachable from the start, with a line of moves (as text) reaching it."""
    found = {game.initial(): []}
    queue = [game.initial()]
    while queue:
        state = queue.pop(0)
        if game.outcome(state) is not None:
            continue
        for move in game.moves(state):
            child = game.play(state, move)
            if child not in found:
                found[child] = [*found[state], str(move)]
                queue.append(child)
    return [(line, state) for state, line in found.items()]


def test_the_home_page_lists_the_games_given_and_opens_each_with_its_values(
    specs: list[str],
) -> None:
    stack, served = serving_user_home(specs)
    with stack, served as base:
        status, listing = get(base + "/api/games")
        assert status == 200
        games = {g["name"]: g for g in listing["games"]}
        assert set(games) == {"RaceToTen", "takeaway"}  # the class's name, or its own
        assert not set(games) & set(BUILTINS)
        assert games["RaceToTen"]["summary"].startswith("Players add 1 or 2")
        assert "Take 1 to most tokens" in games["takeaway"]["summary"]
        assert games["RaceToTen"]["parameters"] == [
            {"name": "target", "type": "int", "default": "10"}
        ]
        takeaway = {p["name"]: p for p in games["takeaway"]["parameters"]}
        assert takeaway["tokens"]["default"] is None and takeaway["most"]["default"] == "3"

        for name, spec, assignments, made in [
            ("RaceToTen", specs[0], ["target=10"], {"target": 10}),
            ("RaceToTen", specs[0], ["target=7"], {"target": 7}),
            ("takeaway", specs[1], ["tokens=9", "most=2"], {"tokens": 9, "most": 2}),
        ]:
            status, opened = get(open_url(base, name, *assignments))
            assert status == 200, opened
            _, about = get(base + opened["url"] + "api/game")
            assert about["game"] == name and about["home"] is True
            game = find_game_class(spec)(**made)
            truth = solve_outcomes(game)
            for line, state in every_position(game):
                moves = urllib.parse.quote(",".join(line))
                status, view = get(f"{base}{opened['url']}api/position?moves={moves}")
                assert status == 200, view
                value, remoteness = truth[state]
                assert (view["value"], view["remoteness"]) == (str(value), remoteness), line
        _, start = get(base + get(open_url(base, "RaceToTen"))[1]["url"] + "api/position")
        assert (start["value"], start["remoteness"], start["best"]) == ("win", 7, ["1"])

        for query, words in [
            (open_url(base, "takeaway"), "tokens"),  # required, and not given
            (open_url(base, "nim"), "no game called 'nim'"),  # a built-in not listed
            (open_url(base, "RaceToTen", "target=x"), "target"),
        ]:
            status, refused = get(query)
            assert status == 400 and words in refused["error"], refused
            assert "\n" not in refused["error"]


def test_games_sharing_a_name_are_listed_by_spec_and_one_game_twice_is_refused(
    tmp_path: Path,
) -> None:
    from perfectplay.cli.web_command import user_games

    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "game.py").write_text(RACE.replace("RaceToTen", "Game"))
    one, two = (f"{tmp_path / f / 'game.py'}:Game" for f in ("one", "two"))
    games = user_games([one, two, "nim"])
    assert list(games) == [one, two, "nim"]
    assert {spec for spec, _ in games.values()} == {one, two, "nim"}
    with pytest.raises(UsageProblem, match="same game"):
        user_games(["tictactoe", "ttt"])  # a built-in and its alias
    with pytest.raises(UsageProblem, match="same game"):
        user_games([one, one])
    with pytest.raises(UsageProblem, match="OpenSpiel"):
        user_games([one, "openspiel:tic_tac_toe"])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_explore_refuses_p_and_db_with_several_games_in_one_line(specs: list[str]) -> None:
    port = str(free_port())
    words = one_line_error(run_cli("explore", *specs, "-p", "target=5", "--port", port), "-p")
    assert "one GAME" in words
    one_line_error(run_cli("explore", *specs, "--db", "somewhere", "--port", port), "--db")
    missing = specs[0].replace("RaceToTen", "NoSuchClass")
    one_line_error(run_cli("explore", specs[1], missing, "--port", port), "NoSuchClass")


def test_explore_serves_the_home_page_of_the_games_given(specs: list[str]) -> None:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    server = subprocess.Popen(
        [SCRIPT, "explore", *specs, "--port", str(free_port()), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert address and "RaceToTen, takeaway" in line, line
        base = address.group(0)
        for _ in range(100):  # the address is printed just before the server listens
            try:
                status, listing = get(base + "/api/games")
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200
        assert [g["name"] for g in listing["games"]] == ["RaceToTen", "takeaway"]
        status, opened = get(open_url(base, "takeaway", "tokens=8"))
        assert status == 200, opened
        _, start = get(base + opened["url"] + "api/position?moves=")
        assert (start["value"], start["remoteness"]) == ("loss", 4)  # 8 = 2 x (3 + 1)
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert "Traceback" not in err
