"""perfectplay explore: the web explorer of a game, served on this machine."""

from __future__ import annotations

import importlib.util
import socket
import webbrowser
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from ..errors import UsageProblem
from ..games import BUILTINS
from ..rules import Rules
from .common import db_option, full_solve, out, params_option, solve_options
from .list_command import show_default, summary
from .loader import build_game
from .params import parameters
from .search_analysis import answers_without_solving


@click.command("explore")
@params_option
@click.argument("game", required=False)
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
    game: str | None,
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
    parameters in fields; each is solved when opened from there. Ctrl-C stops the server.
    The JSON API is described in the README.

    \b
    Examples:
      perfectplay explore --open
      perfectplay explore tictactoe --open
      perfectplay explore connect-four -p width=6 --db c4-6x4 --port 8080
    """
    for package in ("starlette", "uvicorn"):
        if importlib.util.find_spec(package) is None:
            raise UsageProblem(f"the explorer needs {package}: pip install 'perfectplay[explorer]'")
    if not 0 < port < 65536:
        raise UsageProblem(f"--port must be between 1 and 65535, not {port}")
    _check_free(host, port)
    if game is None:
        if params or db is not None:
            raise UsageProblem("-p and --db name a game's parameters and tablebase: give GAME")
        _serve_home(host, port, open_browser, max_states, memory)
        return
    rules = Rules(build_game(game, list(params)))
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


def home_games() -> list[dict[str, Any]]:
    """The built-in games as the home page lists them: name, rules in a line, parameters
    (name, type, default as ``-p`` takes it, or None when required)."""
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
        for name, cls in BUILTINS.items()
    ]


def home_opener(
    stack: ExitStack, max_states: int | None, memory: int | None
) -> Callable[[str, list[str]], tuple[Rules[Any, Any], Any, str]]:
    """How the home page opens a game: built and checked as on the command line, answered
    from the book shipped for it or by search when it is far too large to solve, else
    solved (a game too large for memory is refused in one line, with the routes)."""

    def open_game(name: str, assignments: list[str]) -> tuple[Rules[Any, Any], Any, str]:
        rules = Rules(build_game(name, assignments))
        answers, source = stack.enter_context(
            answers_without_solving(rules, None, max_states, memory)
        )
        if answers is not None:
            return rules, answers, source
        return rules, full_solve(rules, "auto", max_states, True, memory), "solved when opened"

    return open_game


def _serve_home(
    host: str, port: int, open_browser: bool, max_states: int | None, memory: int | None
) -> None:
    """The home page of the built-in games, until Ctrl-C."""
    from ..web.hub import create_hub

    with ExitStack() as stack:  # the tablebases (books) of games opened stay open
        hub = create_hub(home_games(), home_opener(stack, max_states, memory))
        _run(hub, "the built-in games", host, port, open_browser)
