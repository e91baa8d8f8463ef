"""perfectplay explore: the web explorer of a game, served on this machine."""

from __future__ import annotations

import importlib.util
import socket
import webbrowser
from pathlib import Path
from typing import Any

import click

from ..errors import UsageProblem
from ..rules import Rules
from .common import db_option, full_solve, game_options, out, solve_options
from .loader import build_game
from .search_analysis import answers_without_solving


@click.command("explore")
@game_options
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
    game: str,
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
    Ctrl-C stops the server. The JSON API is described in the README.

    \b
    Examples:
      perfectplay explore tictactoe --open
      perfectplay explore connect-four -p width=6 --db c4-6x4 --port 8080
    """
    for package in ("starlette", "uvicorn"):
        if importlib.util.find_spec(package) is None:
            raise UsageProblem(f"the explorer needs {package}: pip install 'perfectplay[explorer]'")
    if not 0 < port < 65536:
        raise UsageProblem(f"--port must be between 1 and 65535, not {port}")
    _check_free(host, port)
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
    import uvicorn

    from ..web.app import create_app

    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    out.print(f"perfectplay explorer: {rules.name} at {address}  (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(address)
    app = create_app(rules, answers, source)
    uvicorn.run(app, host=host, port=port, log_level="warning")
