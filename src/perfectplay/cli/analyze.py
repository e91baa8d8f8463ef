"""perfectplay analyze: one position, its value and every move's value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..answers import Answers
from ..errors import GameError, UsageProblem
from ..rules import Rules
from ..solvers.registry import methods_help
from ..tablebase.header import Header, read_header
from ..tablebase.probes import ProbedSearch, can_probe, holds_tier, open_for_probing
from ..tablebase.reader import Tablebase, open_tablebase_for
from .common import (
    db_option,
    emit_json,
    full_solve,
    game_options,
    json_option,
    no_solve_options,
    out,
    print_rows,
    solve_options,
)
from .loader import build_game
from .present import Answered, position_report, remoteness_text, value_text
from .save import scratch_tablebase, solved_in_passing
from .stats import game_statistics, print_statistics, statistics_json
from .tablebases import held


@click.command("analyze")
@game_options
@click.option(
    "--position",
    default=None,
    metavar="TEXT",
    help="This position (the game solved from the start must reach it).",
)
@click.option(
    "--from-position",
    "from_position",
    is_flag=True,
    help="With --position: solve the game from that position itself, whether or not play "
    "from the start reaches it (and without solving the rest).",
)
@click.option("--moves", default=None, metavar="M1,M2,...", help="Play these moves first.")
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help=f"Solver ({methods_help()} auto picks search for games with compiled rules too "
    "large to solve, e.g. 7x6 Connect Four).",
)
@click.option(
    "--stats",
    is_flag=True,
    help="Also the game's statistics: positions per value and remoteness, longest games, "
    "the position with the most moves.",
)
@click.option(
    "--cgt",
    "cgt",
    is_flag=True,
    help="Combinatorial values instead of solving: the position split into independent "
    "parts (games with a partizan hook, e.g. pawns), each part's value and their sum.",
)
@click.option(
    "--proof",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="With a search: also write the proof of the score (a tree of moves that "
    "'perfectplay verify-proof' checks against the rules alone).",
)
@click.option(
    "--proof-leaves",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="NODES",
    help="With --proof: a claim the checker's own search (plain alpha-beta, no table) "
    "proves in at most this many nodes is a leaf it searches, not a subtree written out "
    "(0: the whole tree written; 1000 for a proof too large for memory).",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="With a search: threads searching on one table (each window on all of them, the "
    "first to finish answering).",
)
@solve_options
@db_option
@json_option
def analyze_command(
    game: str,
    params: tuple[str, ...],
    position: str | None,
    moves: str | None,
    method: str,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    stats: bool,
    cgt: bool,
    db: Path | None,
    as_json: bool,
    from_position: bool = False,
    proof: Path | None = None,
    proof_leaves: int = 0,
    threads: int = 1,
) -> None:
    """Show a position, its value and remoteness, and every move's value, best first.

    The position is the start, the game's parse_state(TEXT) with --position, or what the
    moves given with --moves lead to. With --db DIR it is answered from a tablebase made by
    'solve --save DIR', without solving.

    \b
    Examples:
      perfectplay analyze tictactoe --moves 5,1
      perfectplay analyze connect-four --db c4-4x4 --moves 1,2,2
      perfectplay analyze connect-four --db c4-4x4 --stats
    """
    rules = Rules(build_game(game, list(params)))
    if position is not None and moves is not None:
        raise UsageProblem("give --position or --moves, not both")
    if cgt:
        _analyze_combinatorial(rules, position, moves, max_states, as_json)
        return
    from .search_analysis import too_large_to_solve

    searched = method == "search" or (method == "auto" and too_large_to_solve(rules))
    header = None if db is None else read_header(db)
    if db is not None and _searched_over(rules, header, method, proof):
        _analyze_probing(rules, position, moves, db, as_json, stats, quiet, memory, threads)
        return
    if searched or (header is not None and header.book is not None):
        proving = None if proof is None else (proof, proof_leaves)
        _analyze_searched(rules, position, moves, db, as_json, memory, quiet, proving, threads)
        return
    for given, option in ((threads != 1, "--threads"), (proof is not None, "--proof")):
        if given:
            raise UsageProblem(f"{option} goes with a search (--method search)")
    if db is not None:
        no_solve_options(method, max_states, memory)
        _analyze_from_tablebase(rules, position, moves, db, as_json, stats, quiet)
        return
    _analyze_solved(
        rules, position, moves, from_position, method, max_states, memory, quiet, as_json, stats
    )


def _searched_over(
    rules: Rules[Any, Any], header: Header | None, method: str, proof: Path | None
) -> bool:
    """Whether the tablebase of ``header`` is read at the leaves of a search (a compiled
    game ranked by stones, not asked for another method); --proof refused with it."""
    if header is None or method not in ("auto", "search") or not can_probe(rules, header):
        return False
    if proof is not None:
        raise UsageProblem(
            "--proof: a search that reads a tablebase at its leaves writes no proof "
            "(its leaves would need the tablebase to check)"
        )
    return True


def _analyze_combinatorial(
    rules: Rules[Any, Any],
    position: str | None,
    moves: str | None,
    max_states: int | None,
    as_json: bool,
) -> None:
    """The --cgt report: the position's parts, each part's value and their sum."""
    from .cgt_command import partizan_report, print_partizan_report

    state, history = _asked(rules, position, moves)
    report = partizan_report(rules, state, max_states)
    report["moves_played"] = history
    if as_json:
        emit_json(report)
    else:
        print_partizan_report(report)


def _asked(
    rules: Rules[Any, Any], position: str | None, moves: str | None
) -> tuple[Any, list[str]]:
    """(state, moves played) of the position asked: --position, or the start, then --moves."""
    start = rules.read_position(position) if position is not None else rules.initial()
    return start_position(rules, start, moves)


def _analyze_searched(
    rules: Rules[Any, Any],
    position: str | None,
    moves: str | None,
    db: Path | None,
    as_json: bool,
    memory: int | None = None,
    quiet: bool = False,
    proof: tuple[Path, int] | None = None,
    threads: int = 1,
) -> None:
    """The position answered by compiled search, from an opening book where one holds it;
    ``memory`` bounds the search's table; ``proof``: where to write the score's proof, and
    its leaves' budget of nodes; ``threads``: the search's."""
    from ..book import shipped_book
    from .search_analysis import Proving, analyze_by_search, search_log_size

    # Compiled search: exact scores at one position, no strong solve (7 x 6 Connect Four);
    # an opening book ('perfectplay book', given with --db or shipped for 7 x 6) answers
    # the positions it holds, the search those beyond its plies.
    state, history = _asked(rules, position, moves)
    db = db if db is not None else shipped_book(rules)  # 7x6: the book in the package
    log_size = search_log_size(rules, memory, threads)
    proving = None if proof is None else Proving(proof[0], position, proof[1], memory)
    if db is None:
        analyze_by_search(
            rules, state, history, as_json, quiet=quiet, log_size=log_size, proving=proving,
            threads=threads,
        )  # fmt: skip
    else:
        with open_tablebase_for(db, rules) as book:
            analyze_by_search(
                rules, state, history, as_json, book, quiet=quiet, log_size=log_size,
                proving=proving, threads=threads,
            )  # fmt: skip


def _analyze_probing(
    rules: Rules[Any, Any],
    position: str | None,
    moves: str | None,
    db: Path,
    as_json: bool,
    stats: bool,
    quiet: bool,
    memory: int | None = None,
    threads: int = 1,
) -> None:
    """The position read from the tablebase where its tier is there, else searched from
    it with the tablebase probed at the leaves (``tablebase.probes``; ``memory`` bounds
    its table; ``threads`` search it); the tablebase may have been made from another start
    of the same rules (a midgame database)."""
    from .search_analysis import DEFAULT_LOG_SIZE, PROCESS_BYTES, analyze_by_search

    with open_for_probing(db, rules) as base:
        state, history = _asked(rules, position, moves)
        if holds_tier(base, state):
            held(base, state, db, position)
            _show(base, state, history, as_json, stats, quiet)
            return
        table_bytes = None if memory is None else memory - PROCESS_BYTES
        probed = ProbedSearch(rules, base, state, DEFAULT_LOG_SIZE, threads=threads,
                              table_bytes=table_bytes)  # fmt: skip
        analyze_by_search(
            rules, state, history, as_json, search=probed.search, zero=probed.zero,
            method=f"compiled search, tablebase {db} at the leaves", quiet=quiet,
        )  # fmt: skip


def _analyze_from_tablebase(
    rules: Rules[Any, Any],
    position: str | None,
    moves: str | None,
    db: Path,
    as_json: bool,
    stats: bool,
    quiet: bool,
    scratch: bool = False,
) -> None:
    """The position answered from the tablebase in ``db``, without solving (``scratch``: a
    tablebase just solved into a temporary directory, see ``save.solve_in_passing``, that
    the user never named)."""
    with open_tablebase_for(db, rules) as base:
        state, history = start_position(rules, base.initial, moves)
        if position is not None:
            state = rules.read_position(position)
        if not scratch:
            held(base, state, db, position)
        elif base.lookup(state) is None:
            raise _unreached(rules, position)
        _show(base, state, history, as_json, stats, quiet, scratch)


def _analyze_solved(
    rules: Rules[Any, Any],
    position: str | None,
    moves: str | None,
    from_position: bool,
    method: str,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    as_json: bool,
    stats: bool,
) -> None:
    """The position answered by solving the game, from the start or from the position:
    through a tablebase in a scratch directory where the solve writes one, else from the
    solution in memory."""
    if from_position and position is None:
        raise UsageProblem("--from-position goes with --position")
    if not from_position and solved_in_passing(rules, method, max_states):
        with scratch_tablebase(rules, memory, quiet) as (directory, _):
            _analyze_from_tablebase(rules, position, moves, directory, as_json, stats, quiet,
                                    scratch=True)  # fmt: skip
        return
    if position is not None and from_position:
        # Solve from the position itself: it need not be reachable from the start.
        rules = rules.starting_at(rules.read_position(position))
    target = None if position is None or from_position else rules.read_position(position)
    solution = full_solve(rules, method, max_states, quiet, memory)
    state, history = start_position(rules, solution.initial, moves)
    if target is not None:
        if solution.lookup(target) is None:
            raise _unreached(rules, position)
        state = target
    _show(solution, state, history, as_json, stats, quiet)


def _unreached(rules: Rules[Any, Any], position: str | None) -> UsageProblem:
    """The error for a --position that play from the start never reaches."""
    return UsageProblem(
        f"position {position} cannot arise in {rules.name}: play from the start never "
        "reaches it (add --from-position to solve it from there)"
    )


def _show(
    solution: Answered,
    state: Any,
    history: list[str],
    as_json: bool,
    stats: bool,
    quiet: bool,
    scratch: bool = False,
) -> None:
    """The report on one position, as JSON or as text with the table of moves; with
    ``stats``, the game's statistics too. ``scratch``: a tablebase built in passing, its
    directory not shown (it is removed) and its method said as ``tiers``."""
    rules = solution.rules
    report = position_report(solution, state, history)
    if scratch:
        report["method"] = "tiers"
    figures = game_statistics(solution, quiet) if stats else None
    if as_json:
        if figures is not None:
            report["statistics"] = statistics_json(figures, solution)
        emit_json(report)
        return
    out.print(report["position"], markup=False)
    out.print()
    rows = [
        ("game", rules.name),
        *(
            [("tablebase", str(solution.directory))]
            if isinstance(solution, Tablebase) and not scratch
            else []
        ),
        ("moves played", " ".join(history) or "-"),
        ("value", value_text(solution.value(state))),
        ("remoteness", remoteness_text(solution.remoteness(state))),
    ]
    if solution.has_grundy:
        rows.append(("grundy value", str(solution.grundy(state))))
    print_rows(rows)
    if not report["moves"]:
        out.print("\nthe game is over: no moves")
    else:
        _print_moves(solution, state, set(report["best_moves"]))
    if figures is not None:
        print_statistics(figures, solution)


def _print_moves(solution: Answers[Any, Any], state: Any, best: set[str]) -> None:
    """Every move of ``state`` with its value, best first; the best ones marked."""
    rules = solution.rules
    table = Table(title="moves, best first (for the player to move)")
    table.add_column("move")
    table.add_column("value")
    table.add_column("remoteness", justify="right")
    for entry in solution.move_values(state):
        text = rules.format_move(entry.move)
        table.add_row(
            f"[bold]{text}[/bold] *" if text in best else text,
            value_text(entry.value),
            remoteness_text(entry.remoteness),
        )
    out.print(table)


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
