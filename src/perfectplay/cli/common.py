"""What the commands share: the console, option decorators, a full solve and printing."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..solution import Solution
from ..solve import solve
from .progress import progress_reporter

out = Console(highlight=False)


def game_options(command: Any) -> Any:
    """The GAME argument and --param option every game command takes."""
    command = click.option(
        "--param",
        "-p",
        "params",
        multiple=True,
        metavar="NAME=VALUE",
        help="A parameter of the game's constructor; repeatable.",
    )(command)
    return click.argument("game")(command)


def solve_options(command: Any) -> Any:
    """Options that control a full solve."""
    command = click.option("--quiet", "-q", is_flag=True, help="No progress display.")(command)
    return click.option(
        "--max-states",
        type=click.IntRange(min=1),
        default=None,
        help="Stop with an error past this many states (nodes, for alphabeta).",
    )(command)


json_option = click.option(
    "--json", "as_json", is_flag=True, help="One JSON object on stdout, for scripts."
)


def full_solve(game: Any, method: str, max_states: int | None, quiet: bool) -> Solution[Any, Any]:
    """Solve with a progress display on stderr (terminals only)."""
    with progress_reporter("exploring", quiet=quiet) as report:
        return solve(game, method, max_states=max_states, progress=report)


def emit_json(data: dict[str, Any]) -> None:
    """One JSON object and a newline on stdout."""
    sys.stdout.write(json.dumps(data) + "\n")


def print_rows(rows: list[tuple[str, str]]) -> None:
    """A two-column listing: names in bold, values as they are."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        table.add_row(key, value)
    out.print(table)
