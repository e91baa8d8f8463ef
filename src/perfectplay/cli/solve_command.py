"""perfectplay solve: a game from its start, by a full solver or alpha-beta search."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import UsageProblem
from ..rules import Rules
from ..solution import Solution
from ..solvers.alphabeta import search_for
from ..solvers.grundy import grundy_problem
from ..solvers.registry import methods_help
from ..tiers.methods import method_names
from .common import emit_json, full_solve, game_options, json_option, print_rows, solve_options
from .loader import build_game
from .present import position_report, remoteness_row, value_json, value_text
from .progress import progress_reporter
from .save import (
    save_command,
    save_option,
    scheduler_option,
    solve_in_passing,
    solved_in_passing,
    workers_option,
)


@click.command("solve")
@game_options
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help=f"Solver ({methods_help()})",
)
@solve_options
@click.option(
    "--deepening", is_flag=True, help="alphabeta: iterative deepening (depths 1, 2, 4, ...)."
)
@save_option
@workers_option
@scheduler_option
@click.option(
    "--tier-method",
    type=click.Choice(method_names()),
    default=None,
    help="With --save, a tier game: solve every tier of its kind (loopy or not) by this "
    "method of the table of tier methods, not the one chosen tier by tier (for comparing "
    "them; the header names the method that solved each tier).",
)
@click.option(
    "--pack",
    is_flag=True,
    help="With --save, a game with tiers: keep each finished tier in one byte a position "
    "where its records allow (every move passes the turn, no ties, at most 252 plies; "
    "else that tier keeps 2 bytes), half the disk of 2-byte records.",
)
@json_option
def solve_command(
    game: str,
    params: tuple[str, ...],
    method: str,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    deepening: bool,
    save: Path | None,
    workers: int | None,
    scheduler: str | None,
    tier_method: str | None,
    pack: bool,
    as_json: bool,
) -> None:
    """Solve a game from its start: value, remoteness, best moves, size and time.

    GAME is a built-in name (see 'perfectplay list'), path/to/file.py:ClassName or
    module:ClassName.

    \b
    Examples:
      perfectplay solve nim --param piles=3,4,5
      perfectplay solve connect-four -p width=5 --save c4-5x4
      perfectplay solve connect-four -p width=5 --save c4-5x4 --workers 2
    """
    rules = Rules(build_game(game, list(params)))
    if method == "alphabeta":
        if save is not None or memory is not None:
            raise UsageProblem("--method alphabeta searches the root only: no --save, no --memory")
        _alphabeta(rules, max_states, quiet, deepening, as_json)
        return
    if deepening:
        raise UsageProblem("--deepening goes with --method alphabeta")
    if (workers is not None or scheduler is not None) and save is None:
        raise UsageProblem("--workers and --scheduler build a tablebase: give --save DIR")
    if workers is not None and scheduler is not None:
        raise UsageProblem("give --workers (a cluster here) or --scheduler (a running one)")
    if tier_method is not None and (save is None or rules.tiers is None):
        raise UsageProblem("--tier-method goes with --save DIR and a game with tiers")
    if pack and save is None:
        raise UsageProblem("--pack goes with --save DIR")
    if save is not None:
        save_command(rules, save, (method, max_states, memory), quiet, as_json,
                     (workers, scheduler), tier_method, pack)  # fmt: skip
        return
    if solved_in_passing(rules, method, max_states):
        solve_in_passing(rules, memory, quiet, as_json)
        return
    solution = full_solve(rules, method, max_states, quiet, memory)
    if as_json:
        summary = position_report(solution, solution.initial, [])
        for key in ("moves_played", "position", "moves"):
            del summary[key]
        emit_json(summary)
        return
    print_rows(_solution_rows(rules, solution))


def _alphabeta(
    rules: Rules[Any, Any], max_states: int | None, quiet: bool, deepening: bool, as_json: bool
) -> None:
    """The root value and one best move by alpha-beta search, as text or JSON."""
    with progress_reporter("searching", quiet=quiet) as report:
        result = search_for(rules, max_nodes=max_states, progress=report, deepening=deepening)
    best = None if result.best_move is None else rules.format_move(result.best_move)
    if as_json:
        emit_json(
            {
                "game": rules.name,
                "method": "alphabeta",
                "value": value_json(result.value),
                "best_move": best,
                "stats": {
                    "nodes": result.nodes,
                    "table_size": result.table_size,
                    "seconds": round(result.seconds, 6),
                },
            }
        )
        return
    print_rows(
        [
            ("game", rules.name),
            ("method", "alphabeta"),
            ("value", value_text(result.value)),
            ("best move", best or "-"),
            ("nodes searched", f"{result.nodes:,}"),
            ("table entries", f"{result.table_size:,}"),
            ("seconds", f"{result.seconds:.3f}"),
        ]
    )


def _solution_rows(rules: Rules[Any, Any], solution: Solution[Any, Any]) -> list[tuple[str, str]]:
    """The summary of a full solve, one named row each."""
    stats = solution.stats
    rows = [
        ("game", rules.name),
        ("method", solution.method),
        ("value", value_text(solution.value())),
        ("remoteness", remoteness_row(solution)),
    ]
    if solution.has_grundy:
        rows.append(("grundy value", str(solution.grundy())))
    elif rules.kind.impartial:  # declared impartial, yet no Grundy values: say why
        problem = grundy_problem(solution.graph) or f"solved by {solution.method}"
        rows.append(("grundy value", f"none: {problem}"))
    rows += [
        ("best moves", " ".join(rules.format_move(m) for m in solution.best_moves()) or "-"),
        (
            "perfect play",
            " ".join(rules.format_move(m) for m in solution.principal_variation(max_plies=40))
            or "-",
        ),
        ("states", f"{stats.states:,}"),
        ("edges", f"{stats.edges:,}"),
        (
            "seconds",
            f"{stats.seconds:.3f} (explore {stats.explore_seconds:.3f}, "
            f"solve {stats.solve_seconds:.3f})",
        ),
    ]
    return rows
