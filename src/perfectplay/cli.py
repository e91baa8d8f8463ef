"""The perfectplay command line: list, solve, analyze, play, table, contest, stress."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from .errors import GameError, PerfectplayError
from .family import parse_range, solve_family
from .games import BUILTINS
from .loader import build_game
from .params import parameters
from .play import play_session
from .present import position_report, remoteness_text, value_json, value_text
from .progress import progress_reporter
from .protocol import Rules, StartingAt
from .search import search
from .solution import Solution
from .solve import METHODS, solve

out = Console(highlight=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Solve finite two-player games of perfect information exactly.

    Example: perfectplay solve tictactoe
    """


class UsageProblem(PerfectplayError):
    """Bad command-line input."""


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


@app.command("solve")
@game_options
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help=f"Solver: {', '.join(METHODS)}, or alphabeta (root value only).",
)
@solve_options
@click.option(
    "--deepening", is_flag=True, help="alphabeta: iterative deepening (depths 1, 2, 4, ...)."
)
@json_option
def solve_command(
    game: str,
    params: tuple[str, ...],
    method: str,
    max_states: int | None,
    quiet: bool,
    deepening: bool,
    as_json: bool,
) -> None:
    """Solve a game from its start: value, remoteness, best moves, size and time.

    GAME is a built-in name (see 'perfectplay list'), path/to/file.py:ClassName or
    module:ClassName.

    Example: perfectplay solve nim --param piles=3,4,5
    """
    rules = Rules(build_game(game, list(params)))
    if method == "alphabeta":
        with progress_reporter("searching", quiet=quiet) as report:
            result = search(rules, max_nodes=max_states, progress=report, deepening=deepening)
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
        return
    solution = full_solve(rules, method, max_states, quiet)
    if as_json:
        summary = position_report(solution, solution.initial, [])
        for key in ("moves_played", "position", "moves"):
            del summary[key]
        emit_json(summary)
        return
    stats = solution.stats
    rows = [
        ("game", rules.name),
        ("method", solution.method),
        ("value", value_text(solution.value())),
        ("remoteness", remoteness_text(solution.remoteness())),
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
    print_rows(rows)


@app.command("analyze")
@game_options
@click.option("--position", default=None, metavar="TEXT", help="Start from this position.")
@click.option("--moves", default=None, metavar="M1,M2,...", help="Play these moves first.")
@click.option("--method", default="auto", show_default=True, help="Full solver to use.")
@solve_options
@json_option
def analyze_command(
    game: str,
    params: tuple[str, ...],
    position: str | None,
    moves: str | None,
    method: str,
    max_states: int | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Show a position, its value and remoteness, and every move's value, best first.

    The position is the start, the game's parse_state(TEXT) with --position, or what the
    moves given with --moves lead to.

    Example: perfectplay analyze tictactoe --moves 5,1
    """
    instance = build_game(game, list(params))
    if position is not None and moves is not None:
        raise UsageProblem("give --position or --moves, not both")
    if position is not None:
        # Solve from the position itself: it need not be reachable from the start.
        instance = StartingAt(instance, read_position(Rules(instance), position))
    rules = Rules(instance)
    solution = full_solve(rules, method, max_states, quiet)
    state, history = start_position(rules, solution.initial, moves)
    report = position_report(solution, state, history)
    if as_json:
        emit_json(report)
        return
    out.print(report["position"], markup=False)
    out.print()
    rows = [
        ("game", rules.name),
        ("moves played", " ".join(history) or "-"),
        ("value", value_text(solution.value(state))),
        ("remoteness", remoteness_text(solution.remoteness(state))),
    ]
    if solution.has_grundy:
        rows.append(("grundy value", str(solution.grundy(state))))
    print_rows(rows)
    if not report["moves"]:
        out.print("\nthe game is over: no moves")
        return
    table = Table(title="moves, best first (for the player to move)")
    table.add_column("move")
    table.add_column("value")
    table.add_column("remoteness", justify="right")
    best = set(report["best_moves"])
    for entry in solution.move_values(state):
        text = rules.format_move(entry.move)
        table.add_row(
            f"[bold]{text}[/bold] *" if text in best else text,
            value_text(entry.value),
            remoteness_text(entry.remoteness),
        )
    out.print(table)


def read_position(rules: Rules[Any, Any], text: str) -> Any:
    """A state from the game's parse_state(text)."""
    parse_state = getattr(rules.game, "parse_state", None)
    if not callable(parse_state):
        raise UsageProblem(
            f"{rules.name} cannot read positions (it has no parse_state()); use --moves"
        )
    try:
        return parse_state(text)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise UsageProblem(f"cannot read position {text!r}: {exc}") from None


def start_position(
    rules: Rules[Any, Any], initial: Any, moves: str | None
) -> tuple[Any, list[str]]:
    """The state to analyse after the given moves from ``initial``, and those moves."""
    state = initial
    history: list[str] = []
    for text in [] if not moves else moves.split(","):
        try:
            move = rules.parse_move(state, text)
        except GameError as exc:
            shown = " ".join(history) or "the start"
            raise UsageProblem(f"after {shown}: {exc}") from None
        state = rules.play(state, move)
        history.append(rules.format_move(move))
    return state, history


@app.command("play")
@game_options
@click.option(
    "--as",
    "side",
    type=click.Choice(["first", "second"]),
    default="first",
    show_default=True,
    help="Which player you are.",
)
@click.option("--hint", is_flag=True, help="Show the best moves before each of your moves.")
@solve_options
def play_command(
    game: str,
    params: tuple[str, ...],
    side: str,
    hint: bool,
    max_states: int | None,
    quiet: bool,
) -> None:
    """Play against perfect play in the terminal.

    At your turn type a move, or undo, hint, quit. The opponent wins as fast as it can,
    loses as slowly as it can and prefers a tie to a loss.

    Example: perfectplay play tictactoe --as second
    """
    rules = Rules(build_game(game, list(params)))
    solution = full_solve(rules, "auto", max_states, quiet)
    sys.exit(play_session(solution, human_first=side == "first", always_hint=hint, console=out))


@app.command("table")
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
    quiet: bool,
    as_json: bool,
) -> None:
    """Solve a family of games over parameter ranges; find the period of a sequence.

    Each cell is the start position's Grundy value (impartial games), outcome or score.

    Example: perfectplay table subtraction --range stones=0..60 -p take=1,3,4
    """
    family = solve_family(
        game, list(params), [parse_range(text) for text in ranges], method, max_states, quiet
    )
    if as_json:
        emit_json(family.to_json())
        return
    family.print(out)


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
