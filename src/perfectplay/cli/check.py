"""perfectplay check: a game's self-test across every protocol it speaks."""

from __future__ import annotations

import sys

import click

from ..protocol import hook_summary
from ..rules import Rules
from ..selftest import check_game
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
@json_option
def check_command(
    game: str, params: tuple[str, ...], samples: int, seed: int, quiet: bool, as_json: bool
) -> None:
    """Self-test a game on positions random play reaches: the batch hooks agree with the
    plain rules, and the tier hooks rank and unrank back and move into declared tiers.
    Exit status 0 with no problems, 1 with the problems found.

    Example: perfectplay check connect-four -p width=5 --samples 5000
    """
    instance = build_game(game, list(params))
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
