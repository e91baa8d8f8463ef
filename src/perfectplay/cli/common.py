"""What the commands share: the console, option decorators, a full solve and printing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..checking import presolve_problem
from ..core.memory import default_budget, parse_size, resident_bytes, show_size
from ..errors import GameError, UsageProblem
from ..games import BUILTINS
from ..rules import Rules
from ..solution import Solution
from ..solve import solve_for
from .estimates import announce_last_solve, remember_solve
from .progress import progress_reporter

out = Console(highlight=False)


params_option = click.option(
    "--param",
    "-p",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A parameter of the game's constructor; repeatable.",
)
"""The --param option of every command that names a game."""


def game_options(command: Any) -> Any:
    """The GAME argument and --param option every game command takes."""
    return click.argument("game")(params_option(command))


def _memory(ctx: click.Context, param: click.Parameter, text: str | None) -> int | None:
    """--memory as bytes; a size that does not read is a usage error."""
    if text is None:
        return None
    try:
        size = parse_size(text)
    except UsageProblem as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    held = resident_bytes()
    if size <= held:
        raise click.BadParameter(
            f"{text} is less than this process holds before any work ({show_size(held)}: "
            "Python and its libraries); the budget counts the whole process, so give more",
            ctx=ctx,
            param=param,
        )
    return size


def solve_options(command: Any) -> Any:
    """Options that control a full solve."""
    command = click.option("--quiet", "-q", is_flag=True, help="No progress display.")(command)
    command = click.option(
        "--memory",
        metavar="SIZE",
        callback=_memory,
        help="Stop with an error past this much memory (512M, 4G; default: 80% of what is "
        "available). It counts the whole process: Python, numpy and numba's code (about "
        "100-250 MB) included. A search (--method search) sizes its table to fit instead.",
    )(command)
    return click.option(
        "--max-states",
        type=click.IntRange(min=1),
        default=None,
        help="Stop with an error past this many states (nodes, for alphabeta).",
    )(command)


json_option = click.option(
    "--json", "as_json", is_flag=True, help="One JSON object on stdout, for scripts."
)


db_option = click.option(
    "--db",
    "db",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Answer from the tablebase in DIR (made by 'solve --save DIR') instead of solving.",
)


def no_solve_options(method: str, max_states: int | None, memory: int | None) -> None:
    """Refuse the options of a solve when answers come from a tablebase (--db)."""
    given = {"--method": method != "auto", "--max-states": max_states, "--memory": memory}
    named = [name for name, value in given.items() if value]
    if named:
        raise UsageProblem(f"--db answers from a tablebase without solving: no {', '.join(named)}")


def full_solve(
    rules: Rules[Any, Any],
    method: str,
    max_states: int | None,
    quiet: bool,
    memory: int | None = None,
) -> Solution[Any, Any]:
    """Solve with a progress display on stderr, a game's own speed hooks checked first."""
    trust_speed_hooks(rules)
    refuse_hopeless(rules, memory)
    return explored_solve(rules, method, max_states, quiet, memory)


def explored_solve(
    rules: Rules[Any, Any], method: str, max_states: int | None, quiet: bool, memory: int | None
) -> Solution[Any, Any]:
    """The solve in memory itself, with its progress on stderr, said up front from the last
    solve of the same game here, and remembered for the next (the game's hooks trusted)."""
    expected = announce_last_solve(rules, "memory", quiet)
    with progress_reporter("exploring", quiet=quiet, expected=expected) as report:
        solution = solve_for(rules, method, max_states=max_states, progress=report, memory=memory)
    remember_solve(rules, "memory", solution.stats.states, solution.stats.seconds)
    return solution


STATE_BYTES = 40
"""About what exploring in memory holds per state (its code, its edges, its records)."""
HOPELESS = 3
"""A solve in memory is refused at once when the index space would need this many times
the budget (the index space may overcount what play reaches: --memory lets one try)."""


def index_space(rules: Rules[Any, Any], cap: int) -> tuple[int, bool] | None:
    """The slots of every tier a game's tiers say play can reach, summed until past
    ``cap``, and whether that is all of them; known before any solving. None without
    tiers, or for an engine-ranked game (it learns its tiers' sizes only by finding them)."""
    tiers = rules.tiers
    if tiers is None or tiers.ranked_by_engine:
        return None
    seen = {tiers.initial_tier}
    todo = [tiers.initial_tier]
    total = 0
    while todo and total <= cap:
        tier = todo.pop()
        total += tiers.tier_size(tier)
        for child in tiers.child_tiers(tier):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return total, not todo


def refuse_hopeless(rules: Rules[Any, Any], memory: int | None) -> None:
    """One line at once, instead of exploring until the memory runs out, for a game whose
    tiers show it far too large to solve in memory: the routes that work."""
    budget = memory if memory is not None else default_budget()
    if budget is None:
        return
    found = index_space(rules, HOPELESS * budget // STATE_BYTES)
    if found is None or found[0] * STATE_BYTES <= HOPELESS * budget:
        return
    total, complete = found
    bound = "up to" if complete else "more than"
    routes = "solve it tier by tier on disk with --save DIR"
    if rules.may_search():
        routes += ", or search one position with analyze --method search"
    raise UsageProblem(
        f"{rules.name} has {bound} {total:,} positions (its tiers' slots): solving it in "
        f"memory would need {bound} {show_size(total * STATE_BYTES)}, beyond the memory "
        f"budget of {show_size(budget)}; {routes} (or give --memory to try all the same)"
    )


def trust_speed_hooks(rules: Rules[Any, Any]) -> None:
    """Refuse, in one line, a game of the user's whose key is no symmetry, or whose batch
    hooks or compiled loops disagree with its plain rules, on a short sample (built-in
    games are tested elsewhere)."""
    if type(rules.game) in BUILTINS.values():
        return
    problem = presolve_problem(rules)
    if problem is not None and problem.rules_fail:
        raise GameError(problem.line)
    if problem is not None:
        raise GameError(
            f"{rules.name}'s optional rules disagree with its plain ones, so a solve "
            f"through them would be wrong: {problem.line} (perfectplay check {rules.name} "
            "tells more)"
        )


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
