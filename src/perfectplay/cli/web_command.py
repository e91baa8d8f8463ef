"""perfectplay explore: the web explorer of a game, served on this machine."""

from __future__ import annotations

import importlib.util
import socket
import webbrowser
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from ..errors import UsageProblem
from ..games import BUILTINS
from ..protocol import name_of
from ..rules import Rules
from .common import db_option, full_solve, out, params_option, solve_options
from .list_command import show_default, summary
from .loader import OPENSPIEL, build_game, find_game_class
from .params import parameters
from .search_analysis import answers_without_solving


@click.command("explore")
@params_option
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to serve on.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (127.0.0.1: this machine only).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@solve_options
@db_option
def explore_command(
    games: tuple[str, ...],
    params: tuple[str, ...],
    port: int,
    host: str,
    open_browser: bool,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    db: Path | None,
) -> None:
    """Explore a game in a web page: every move coloured by its value (green wins, yellow
    ties or draws, red loses, for the player making it), remoteness, the value history of
    the game, undo and redo, a URL per position, perfect play for either side.

    Answers come from a tablebase (--db DIR, instant) or a solve when the server starts.
    Without GAME, a home page lists the built-in games, their rules in a line and their
    parameters in fields; each is solved when opened from there. With several GAMEs (your
    own, path/to/file.py:ClassName or module:ClassName, and built-ins), the home page lists
    those instead; their parameters are set there, not with -p. Ctrl-C stops the server.
    The JSON API is described in the README.

    \b
    Examples:
      perfectplay explore --open
      perfectplay explore tictactoe --open
      perfectplay explore connect-four -p width=6 --db c4-6x4 --port 8080
      perfectplay explore race.py:RaceToTen nim --open
    """
    for package in ("starlette", "uvicorn"):
        if importlib.util.find_spec(package) is None:
            raise UsageProblem(f"the explorer needs {package}: pip install 'perfectplay[explorer]'")
    if not 0 < port < 65536:
        raise UsageProblem(f"--port must be between 1 and 65535, not {port}")
    _check_free(host, port)
    if not games:
        if params or db is not None:
            raise UsageProblem("-p and --db name a game's parameters and tablebase: give GAME")
        _serve_home(host, port, open_browser, max_states, memory)
        return
    if len(games) > 1:
        if params or db is not None:
            raise UsageProblem(
                "-p and --db name one game's parameters and tablebase: give one GAME "
                "(with several, each game's parameters are set on the home page)"
            )
        _serve_home(host, port, open_browser, max_states, memory, user_games(games))
        return
    rules = Rules(build_game(games[0], list(params)))
    with answers_without_solving(rules, db, max_states, memory) as (answers, source):
        if answers is not None:
            _serve(rules, answers, source, host, port, open_browser)
            return
    solution = full_solve(rules, "auto", max_states, quiet, memory)
    _serve(rules, solution, "solved when the server started", host, port, open_browser)


def _check_free(host: str, port: int) -> None:
    """A one-line error, before any solving, when the address is taken or wrong."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise UsageProblem(f"cannot serve on {host}:{port}: {exc.strerror}") from None


def _serve(rules: Rules[Any, Any], answers: Any, source: str, host: str, port: int,
           open_browser: bool) -> None:  # fmt: skip
    """Serve until Ctrl-C (uvicorn stops cleanly on it)."""
    from ..web.app import create_app

    _run(create_app(rules, answers, source), rules.name, host, port, open_browser)


def _run(app: Any, what: str, host: str, port: int, open_browser: bool) -> None:
    import uvicorn

    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    out.print(f"perfectplay explorer: {what} at {address}  (Ctrl-C stops it)", markup=False)
    if open_browser:
        webbrowser.open(address)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def user_games(specs: Sequence[str]) -> dict[str, tuple[str, type]]:
    """The games given on the command line, by the name the home page lists each under,
    with the spec it was given as (to build it as ``explore GAME`` would) and its class (to
    list its rules and parameters). The name is the game's own (a built-in's, a class's
    ``name``, else its class name), or the spec as given where two games would share one.
    Each class is found now, so that a wrong file or class is one line before serving."""
    found: list[tuple[str, type]] = []
    seen: dict[tuple[str, str], str] = {}
    for spec in specs:
        if spec.startswith(OPENSPIEL):  # its parameters are OpenSpiel's, not a constructor's
            raise UsageProblem(f"{spec}: an OpenSpiel game is explored alone, not on a home page")
        cls = find_game_class(spec)
        # A file loaded twice gives two classes, both in the module named after its path.
        same = (cls.__module__, cls.__qualname__)
        if same in seen:
            raise UsageProblem(f"{seen[same]} and {spec} are the same game: give it once")
        seen[same] = spec
        found.append((spec, cls))
    names = [name_of(cls) for _, cls in found]
    shared = {name for name in names if names.count(name) > 1}
    listed: dict[str, tuple[str, type]] = {}
    for name, (spec, cls) in zip(names, found, strict=True):
        listed[spec if name in shared else name] = (spec, cls)
    return listed


def home_games(games: Mapping[str, type] | None = None) -> list[dict[str, Any]]:
    """The games as the home page lists them (``games``, name to class; the built-ins
    without it): name, rules in a line, parameters (name, type, default as ``-p`` takes
    it, or None when required)."""
    return [
        {
            "name": name,
            "summary": summary(cls.__doc__ or ""),
            "parameters": [
                {
                    "name": p.name,
                    "type": p.type_name,
                    "default": None if p.required else show_default(p.default),
                }
                for p in parameters(cls)
            ],
        }
        for name, cls in (BUILTINS if games is None else games).items()
    ]


def home_opener(
    stack: ExitStack,
    max_states: int | None,
    memory: int | None,
    specs: Mapping[str, str] | None = None,
) -> Callable[[str, list[str]], tuple[Rules[Any, Any], Any, str]]:
    """How the home page opens a game: built and checked as on the command line (from its
    spec in ``specs``, by listed name; a built-in's name is its spec), answered from the
    book shipped for it or by search when it is far too large to solve, else solved (a
    game too large for memory is refused in one line, with the routes)."""

    def open_game(name: str, assignments: list[str]) -> tuple[Rules[Any, Any], Any, str]:
        spec = name if specs is None else specs[name]
        rules = Rules(build_game(spec, assignments))
        answers, source = stack.enter_context(
            answers_without_solving(rules, None, max_states, memory)
        )
        if answers is not None:
            return rules, answers, source
        return rules, full_solve(rules, "auto", max_states, True, memory), "solved when opened"

    return open_game


def _serve_home(
    host: str,
    port: int,
    open_browser: bool,
    max_states: int | None,
    memory: int | None,
    games: Mapping[str, tuple[str, type]] | None = None,
) -> None:
    """The home page of ``games`` (as ``user_games`` gives them; the built-ins without),
    until Ctrl-C."""
    from ..web.hub import create_hub

    listed = None if games is None else {name: cls for name, (_, cls) in games.items()}
    specs = None if games is None else {name: spec for name, (spec, _) in games.items()}
    what = "the built-in games" if games is None else "the games " + ", ".join(games)
    with ExitStack() as stack:  # the tablebases (books) of games opened stay open
        hub = create_hub(home_games(listed), home_opener(stack, max_states, memory, specs))
        _run(hub, what, host, port, open_browser)
