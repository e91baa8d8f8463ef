"""perfectplay grade: an OpenSpiel agent's every decision checked against perfect play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from ..errors import UsageProblem
from ..rules import Rules
from .common import emit_json, full_solve, game_options, json_option, out, print_rows, solve_options
from .loader import build_game
from .present import counted
from .progress import progress_reporter

if TYPE_CHECKING:
    from ..openspiel.grade import Grade

SHOWN_BLUNDERS = 10
"""Blunders listed in the text report (--json has them all)."""


@click.command("grade")
@game_options
@click.option(
    "--bot",
    "bot",
    required=True,
    metavar="mcts:SIMULATIONS|random",
    help="The agent: OpenSpiel's MCTS bot with this many simulations, or its random bot.",
)
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds every game.")
@solve_options
@json_option
def grade_command(
    game: str,
    params: tuple[str, ...],
    bot: str,
    games: int,
    seed: int,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Grade an OpenSpiel agent against perfect play, decision by decision.

    Plays GAMES games between the agent and perfect play, the agent moving first in half
    of them, and checks each of its moves against the solved values: moves that keep the
    value, best moves, blunders (a win thrown to a tie or loss, a tie thrown to a loss)
    and remoteness wasted, per ply.

    GAME is openspiel:SPEC (its parameters with -p), or any perfectplay game, made an
    OpenSpiel game for the occasion.

    \b
    Examples:
      perfectplay grade openspiel:tic_tac_toe --bot random
      perfectplay grade openspiel:connect_four -p rows=4 -p columns=5 --bot mcts:1000 --games 100
    """
    try:
        from ..openspiel.adapter import OpenSpielGame
        from ..openspiel.grade import grade
        from ..openspiel.register import register_for
    except ImportError:
        raise UsageProblem(
            "grade plays OpenSpiel's bots, and OpenSpiel is not installed: "
            "pip install perfectplay[openspiel]"
        ) from None

    kind, simulations = parse_bot(bot)
    instance = build_game(game, list(params))
    solution = full_solve(Rules(instance), "auto", max_states, quiet, memory)
    target: Any = instance if isinstance(instance, OpenSpielGame) else register_for(solution.rules)
    agent = make_agent(
        kind, simulations, target.openspiel if isinstance(target, OpenSpielGame) else target
    )
    with progress_reporter("playing", quiet=quiet) as report:
        result = grade(
            target, agent, games=games, seed=seed, answers=solution, name=bot, progress=report
        )
    if as_json:
        emit_json(result.as_json())
        return
    _print_summary(result)
    _print_by_ply(result)
    _print_blunders(result)


def _print_summary(result: Grade) -> None:
    """The grade in rows: the games, the decisions kept and best, blunders, results."""
    print_rows(
        [
            ("game", result.game),
            ("agent", result.agent),
            ("games", f"{result.games} (seed {result.seed})"),
            ("decisions", f"{result.decisions:,}"),
            ("value kept", f"{result.kept_share:.1%}"),
            ("best moves", f"{result.best_share:.1%}"),
            ("blunders", f"{len(result.blunders):,}"),
            ("remoteness wasted", counted(result.wasted, "ply")),
            ("as first", _results(result.results["first"], result.perfect_results["first"])),
            ("as second", _results(result.results["second"], result.perfect_results["second"])),
        ]
    )


def _print_by_ply(result: Grade) -> None:
    """The table of the agent's decisions, ply by ply."""
    table = Table(title="the agent's decisions by ply")
    for name in ("ply", "decisions", "value kept", "best move", "blunders", "wasted"):
        table.add_column(name, justify="right")
    for row in result.by_ply:
        table.add_row(
            str(row.ply),
            str(row.decisions),
            f"{row.kept / row.decisions:.0%}",
            f"{row.best / row.decisions:.0%}",
            str(row.blunders),
            str(row.wasted),
        )
    out.print()
    out.print(table)


def _print_blunders(result: Grade) -> None:
    """The first SHOWN_BLUNDERS blunders, each with its position."""
    if result.blunders:
        out.print(f"\nblunders (first {min(SHOWN_BLUNDERS, len(result.blunders))}):")
        for blunder in result.blunders[:SHOWN_BLUNDERS]:
            out.print(
                f"\ngame {blunder.game + 1}, ply {blunder.ply} ({blunder.side}): played "
                f"{blunder.played}, {blunder.value} -> {blunder.after}; best "
                f"{blunder.best_move} (remoteness {blunder.best_remoteness})",
                markup=False,
            )
            out.print(blunder.position, markup=False, highlight=False)


def _results(counts: dict[str, int], perfect: object) -> str:
    return (
        f"{counts['win']} won, {counts['tie']} tied, {counts['loss']} lost "
        f"(perfect play: {perfect})"
    )


def parse_bot(spec: str) -> tuple[str, int]:
    """A --bot value as (kind, simulations): ("random", 0) or ("mcts", N)."""
    kind, _, argument = spec.partition(":")
    if kind == "random" and not argument:
        return kind, 0
    if kind == "mcts":
        try:
            simulations = int(argument)
        except ValueError:
            simulations = 0
        if simulations < 1:
            raise UsageProblem(f"--bot mcts:SIMULATIONS wants a positive number, got {spec!r}")
        return kind, simulations
    raise UsageProblem(f"--bot takes mcts:SIMULATIONS or random, not {spec!r}")


def make_agent(kind: str, simulations: int, game: Any) -> Any:
    """The agent of a parsed --bot, as grade() takes it: a bot factory (player, seed).

    OpenSpiel's C++ MCTS bot searches its C++ games; a game written in Python (a
    registered perfectplay game) gets OpenSpiel's Python MCTS, as the C++ one crashes on
    those. Both use one random rollout per leaf and exploration constant 2, as
    OpenSpiel's examples do, with MCTS-Solver on.
    """
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    if kind == "random":
        return lambda player, seed: pyspiel.make_uniform_random_bot(player, seed)
    if not type(game).__module__.startswith("pyspiel"):
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            mcts,
        )

        def python_mcts(player: int, seed: int) -> Any:
            rng = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(1, rng)
            return mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=True, random_state=rng)

        return python_mcts

    def cpp_mcts(player: int, seed: int) -> Any:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)

    return cpp_mcts
