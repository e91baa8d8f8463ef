"""perfectplay table: a family of games solved over parameter ranges, and its period."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..errors import RangeError, UsageProblem
from ..periods import find_period
from ..rules import Rules
from ..solve import solve
from .common import emit_json, game_options, json_option, out, refuse_hopeless, solve_options
from .loader import build_game
from .present import value_json, value_text
from .progress import progress_reporter
from .search_analysis import answers_without_solving, too_large_to_solve

MAX_CELLS = 100_000


@click.command("table")
@game_options
@click.option(
    "--range",
    "ranges",
    multiple=True,
    required=True,
    metavar="NAME=A..B",
    help="A parameter and the whole numbers it runs over; one or two of them.",
)
@click.option("--method", default="auto", show_default=True, help="Full solver to use.")
@solve_options
@json_option
def table_command(
    game: str,
    params: tuple[str, ...],
    ranges: tuple[str, ...],
    method: str,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Solve a family of games over parameter ranges; find the period of a sequence.

    Each cell is the start position's Grundy value (impartial games), outcome or score.
    A member too large to solve takes the routes analyze takes: the opening book shipped
    for it and the compiled search (7x6 Connect Four), or one line saying which member
    cannot be solved in memory, and what can.

    Example: perfectplay table subtraction --range stones=0..60 -p take=1,3,4
    """
    family = solve_family(
        game,
        list(params),
        [parse_range(text) for text in ranges],
        method,
        max_states,
        quiet,
        memory,
    )
    if as_json:
        emit_json(family.to_json())
        return
    family.print(out)


def parse_range(text: str) -> tuple[str, list[int]]:
    """'stones=0..60' -> ('stones', [0, 1, ..., 60])."""
    match = re.fullmatch(r"\s*([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if not match:
        raise RangeError(f"--range wants NAME=A..B with whole numbers A <= B, got {text!r}")
    name, low, high = match.group(1), int(match.group(2)), int(match.group(3))
    if low > high:
        raise RangeError(f"--range {text!r}: {low} is larger than {high}")
    return name.replace("-", "_"), list(range(low, high + 1))


@dataclass
class Family:
    """Results of a family of solves: one cell per combination of parameter values."""

    game: str
    what: str
    names: list[str]
    axes: list[list[int]]
    cells: dict[tuple[int, ...], Any]

    def sequence(self) -> list[Any]:
        """The cells of a one-parameter family, in order."""
        return [self.cells[(v,)] for v in self.axes[0]]

    def to_json(self) -> dict[str, Any]:
        """The family as a JSON-ready dict."""
        data: dict[str, Any] = {
            "game": self.game,
            "cell": self.what,
            "parameters": self.names,
            "ranges": [[axis[0], axis[-1]] for axis in self.axes],
            "cells": [
                {**dict(zip(self.names, key, strict=True)), "value": value}
                for key, value in self.cells.items()
            ],
        }
        if len(self.axes) == 1:
            data["period"] = _period_json(self.sequence(), self.axes[0])
        return data

    def print(self, console: Console) -> None:
        """A compact table, and for one parameter the period found."""
        console.print(f"{self.game}: {self.what} of the start position", markup=False)
        if len(self.axes) == 1:
            values = self.axes[0]
            width = max(len(_cell(c)) for c in self.cells.values())
            per_row = max(1, 60 // (width + 1))
            for i in range(0, len(values), per_row):
                chunk = values[i : i + per_row]
                cells = " ".join(_cell(self.cells[(v,)]).rjust(width) for v in chunk)
                console.print(f"{self.names[0]}={chunk[0]:>5}..  {cells}", markup=False)
            console.print(_period_text(self.sequence(), values), markup=False)
            return
        rows, cols = self.axes
        table = Table(title=f"rows: {self.names[0]}, columns: {self.names[1]}")
        table.add_column(self.names[0], justify="right")
        for c in cols:
            table.add_column(str(c), justify="right")
        for r in rows:
            table.add_row(str(r), *(_cell(self.cells[(r, c)]) for c in cols))
        console.print(table)


def solve_family(
    game: str,
    params: list[str],
    ranges: list[tuple[str, list[int]]],
    method: str,
    max_states: int | None,
    quiet: bool,
    memory: int | None = None,
) -> Family:
    """Solve the game once for every combination of the ranged parameters."""
    if not 1 <= len(ranges) <= 2:
        raise RangeError("give one or two --range options")
    names = [name for name, _ in ranges]
    if len(set(names)) != len(names):
        raise RangeError("each --range needs a different parameter")
    fixed = [p for p in params if p.partition("=")[0].strip().replace("-", "_") not in names]
    axes = [values for _, values in ranges]
    combos = list(itertools.product(*axes))
    if len(combos) > MAX_CELLS:
        raise RangeError(f"{len(combos):,} combinations is too many (at most {MAX_CELLS:,})")
    cells: dict[tuple[int, ...], Any] = {}
    what = "value"
    with progress_reporter("solving the family", quiet=quiet) as report:
        for done, combo in enumerate(combos, start=1):
            assignments = fixed + [f"{n}={v}" for n, v in zip(names, combo, strict=True)]
            rules = Rules(build_game(game, assignments))
            if method == "auto" and too_large_to_solve(rules):  # the book, or the search
                with answers_without_solving(rules, None, None, None) as (answers, _):
                    assert answers is not None
                    cells[combo] = value_json(answers.value(answers.initial))
                    what = "outcome"
                if report is not None:
                    report(done, len(combos))
                continue
            try:
                refuse_hopeless(rules, memory)
            except UsageProblem as exc:
                member = " ".join(f"-p {a}" for a in assignments)
                raise UsageProblem(f"{game} {member}: {exc}") from None
            solution = solve(rules.game, method, max_states=max_states, memory=memory)
            if solution.has_grundy:
                cells[combo] = solution.grundy()
                what = "Grundy value"
            else:
                cells[combo] = value_json(solution.value())
                what = "value" if solution.scored else "outcome"
            if report is not None:
                report(done, len(combos))
    return Family(game, what, names, axes, cells)


def _period_text(sequence: list[Any], values: list[int]) -> str:
    found = find_period(sequence)
    if found is None:
        return f"no period found among {values[0]}..{values[-1]}"
    start, period = found
    return (
        f"apparent period {period} from {values[start]} on (pre-period {start}), "
        f"checked to {values[-1]}, not proven (perfectplay octal proves periods of octal games)"
    )


def _period_json(sequence: list[Any], values: list[int]) -> dict[str, Any] | None:
    found = find_period(sequence)
    if found is None:
        return None
    start, period = found
    return {
        "period": period,
        "preperiod": start,
        "from": values[start],
        "checked_to": values[-1],
        "proven": False,
    }


def _cell(value: Any) -> str:
    if isinstance(value, str) and value in ("win", "loss", "tie", "draw"):
        return value[0].upper()
    return value_text(value) if not isinstance(value, str) else value
