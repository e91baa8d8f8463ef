"""The perfectplay command line: list the built-in games, solve one."""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from .errors import PerfectplayError
from .games import BUILTINS
from .loader import build_game
from .params import parameters
from .progress import progress_reporter
from .protocol import Rules
from .search import search
from .solve import METHODS, solve

out = Console(highlight=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Solve finite two-player games of perfect information exactly.

    Example: perfectplay solve tictactoe
    """


class UsageProblem(PerfectplayError):
    """Bad command-line input."""


def load_game(name: str, assignments: list[str]) -> Any:
    """Build a game from its name (built-in, file.py:Class or module:Class) and parameters."""
    return build_game(name, assignments)


@app.command("list")
def list_games() -> None:
    """List the built-in games and their parameters.

    Example: perfectplay list
    """
    table = Table(title="built-in games")
    table.add_column("game")
    table.add_column("what it is")
    table.add_column("parameters (--param NAME=VALUE)")
    for name, cls in BUILTINS.items():
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        params = "\n".join(
            f"{p.name}: {p.type_name}" + ("" if p.required else f" = {_show_default(p.default)}")
            for p in parameters(cls)
        )
        table.add_row(name, doc, params or "-")
    out.print(table)


@app.command("solve")
@click.argument("game")
@click.option(
    "--param",
    "-p",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game parameter; repeatable.",
)
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help=f"Solver: {', '.join(METHODS)}, or alphabeta (root value only).",
)
@click.option(
    "--max-states", type=int, default=None, help="Stop with an error past this many states."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def solve_command(
    game: str, params: tuple[str, ...], method: str, max_states: int | None, quiet: bool
) -> None:
    """Solve a game from its start: value, remoteness, best moves, size and time.

    Example: perfectplay solve nim --param piles=3,4,5
    """
    instance = load_game(game, list(params))
    rules = Rules(instance)
    if method == "alphabeta":
        with progress_reporter("searching", quiet=quiet) as report:
            result = search(rules, max_nodes=max_states, progress=report)
        rows = [
            ("game", rules.name),
            ("method", "alphabeta"),
            ("value", str(result.value)),
            (
                "best move",
                "-" if result.best_move is None else rules.format_move(result.best_move),
            ),
            ("nodes searched", f"{result.nodes:,}"),
            ("table entries", f"{result.table_size:,}"),
            ("seconds", f"{result.seconds:.3f}"),
        ]
    else:
        with progress_reporter("exploring", quiet=quiet) as report:
            solution = solve(rules, method, max_states=max_states, progress=report)
        stats = solution.stats
        remoteness = solution.remoteness()
        rows = [
            ("game", rules.name),
            ("method", solution.method),
            ("value", str(solution.value())),
            ("remoteness", "never ends" if remoteness is None else str(remoteness)),
        ]
        if solution.has_grundy:
            rows.append(("grundy value", str(solution.grundy())))
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
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        table.add_row(key, value)
    out.print(table)


@app.command("contest")
@click.argument("name", required=False)
@click.option("--list", "list_problems", is_flag=True, help="Name the judge problems.")
def contest_command(name: str | None, list_problems: bool) -> None:
    """Answer a judge problem: its input on stdin, exactly the judge's output on stdout.

    Example: perfectplay contest edpc_k < input.txt
    """
    from .contest import problems

    known = problems()
    if list_problems:
        for entry in known.values():
            out.print(f"{entry.name:<10} {entry.title}  (game: {entry.game})")
        return
    if name is None:
        raise UsageProblem(f"name a problem: {', '.join(known)} (or --list)")
    problem = known.get(name)
    if problem is None:
        raise UsageProblem(f"unknown problem {name!r}; problems: {', '.join(known)}")
    text = sys.stdin.read()
    result = problem.answer(text)
    sys.stdout.write(result)


@app.command("stress")
@click.argument("name")
@click.option(
    "--program",
    required=True,
    metavar="CMD",
    help="The command to test: reads one input on stdin, writes its answer on stdout.",
)
@click.option("--cases", default=200, show_default=True, help="How many random inputs.")
@click.option("--seed", default=None, type=int, help="Seed of the first case (default: random).")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds allowed per run.")
def stress_command(name: str, program: str, cases: int, seed: int | None, timeout: float) -> None:
    """Check your program against exact search on random small inputs of a judge problem.

    Prints the first input on which the outputs differ, both outputs and the seed that
    reproduces it, and exits 1; exits 0 when every case agrees.

    Example: perfectplay stress edpc_k --program "python3 my_solution.py" --cases 500
    """
    from .contest import problems
    from .stress import run_stress

    problem = problems().get(name)
    if problem is None:
        raise UsageProblem(f"unknown problem {name!r}; problems: {', '.join(problems())}")
    if cases < 1:
        raise UsageProblem("--cases must be at least 1")
    sys.exit(run_stress(problem, program, cases=cases, seed=seed, timeout=timeout))


def _show_default(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; any error is one line on stderr and exit status 2."""
    try:
        app.main(args=argv, prog_name="perfectplay", standalone_mode=False)
    except PerfectplayError as exc:
        _fail(str(exc))
    except click.exceptions.NoArgsIsHelpError as exc:
        print(exc.format_message(), file=sys.stderr)
        sys.exit(2)
    except click.UsageError as exc:
        _fail(exc.format_message())
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        _fail("interrupted")


def _fail(message: str) -> None:
    print(f"perfectplay: error: {message}", file=sys.stderr)
    sys.exit(2)
