"""perfectplay check: a game's self-test across every protocol it speaks; with --profile, where
a compiled game's time goes instead (``compiled_games.profile``)."""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.table import Table

from ..checking import check_game
from ..compiled_games import CompiledGame
from ..compiled_games.profile import RulesProfile, profile_rules
from ..errors import UsageProblem
from ..protocol import hook_summary, name_of
from ..rules import Rules
from .common import emit_json, game_options, json_option, out, print_rows
from .loader import build_game
from .progress import working


def _epilog() -> str:
    """The hooks a game may define, by protocol and group, from the one table."""
    lines = [
        "\b",
        "Hooks perfectplay reads (perfectplay.HOOKS; the documentation's hook reference):",
    ]
    return "\n".join(lines + hook_summary().splitlines())


@click.command("check", epilog=_epilog())
@game_options
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Positions to sample by random playouts from the start.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the playouts.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option(
    "--profile",
    is_flag=True,
    help="Instead of the self-test, time each rule of a compiled game per call, compiled, "
    "on --samples positions, and say where a solve's time goes, with hints.",
)
@json_option
def check_command(
    game: str,
    params: tuple[str, ...],
    samples: int,
    seed: int,
    quiet: bool,
    profile: bool,
    as_json: bool,
) -> None:
    """Self-test a game on positions random play reaches: the batch hooks agree with the
    plain rules, and the tier hooks rank and unrank back and move into declared tiers.
    Exit status 0 with no problems, 1 with the problems found.

    With --profile, a compiled game's rules are timed instead of self-tested: a few
    seconds, where the self-test compiles the engine's loops anew after each edit.

    Example: perfectplay check connect-four -p width=5 --samples 5000
    """
    instance = build_game(game, list(params))
    if profile:
        profile_command(instance, game, samples, seed, quiet, as_json)
        return
    rules = Rules(instance)
    protocols = ["plain"]
    protocols += ["batch"] if rules.batch is not None else []
    protocols += ["tiers"] if rules.tiers is not None else []
    with working(f"checking {rules.name}", quiet=quiet):
        problems = check_game(instance, samples=samples, seed=seed)
    if as_json:
        emit_json(
            {
                "game": rules.name,
                "protocols": protocols,
                "samples": samples,
                "seed": seed,
                "problems": problems,
            }
        )
    else:
        print_rows(
            [
                ("game", rules.name),
                ("protocols", ", ".join(protocols)),
                ("samples", f"{samples:,} positions from random playouts (seed {seed})"),
            ]
        )
        for problem in problems:
            out.print(f"problem: {problem}", markup=False, highlight=False, soft_wrap=True)
        out.print("no problems" if not problems else f"{len(problems)} problem(s) found")
    sys.exit(1 if problems else 0)


def profile_command(
    instance: Any, game: str, samples: int, seed: int, quiet: bool, as_json: bool
) -> None:
    """check --profile: a compiled game's rules timed (``compiled_games.profile``)."""
    if not isinstance(instance, CompiledGame):
        raise UsageProblem(
            f"{game} is not a compiled game: --profile times the rule functions of a "
            "perfectplay.compiled_games.CompiledGame"
        )
    name = name_of(instance)
    with working(f"timing {name}'s rules", quiet=quiet):
        found = profile_rules(instance, samples=samples, seed=seed)
    if as_json:
        emit_json({"game": name, "samples": samples, "seed": seed, "profile": found.as_dict()})
    else:
        print_profile(found, seed)


def print_profile(found: RulesProfile, seed: int) -> None:
    """The rules' times as a table, what they were timed on, then the hints."""
    print_rows([("game", found.game)])
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("rule", style="bold")
    table.add_column("ns a call", justify="right")
    table.add_column("calls a position", justify="right")
    table.add_column("share", justify="right")
    for timed in found.rules:
        table.add_row(
            timed.rule,
            f"{timed.ns_per_call:,.1f}",
            f"{timed.calls_per_position:.2f}" if timed.calls_per_position else "-",
            f"{timed.share:.0%}",
        )
    out.print(table)
    where = (
        "every position of the game"
        if found.every_position
        else f"from random playouts (seed {seed})"
    )
    out.print(
        f"timed compiled on {found.positions:,} positions, {where}; a position that goes "
        f"on has {found.mean_moves:.2f} moves; a share is of the rules' time per position",
        soft_wrap=True,
    )
    for hint in found.hints:
        out.print(f"hint: {hint.text}", markup=False, highlight=False, soft_wrap=True)
