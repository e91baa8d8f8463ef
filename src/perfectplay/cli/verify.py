"""perfectplay verify: a tablebase's checksums, counts and a sample of its positions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..errors import TablebaseError, TablebaseMismatch
from ..tablebase.reader import open_tablebase
from ..tablebase.verify import verify
from .common import emit_json, json_option, out, params_option, print_rows
from .present import counted
from .progress import working
from .tablebases import game_of


@click.command("verify")
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.argument("game", required=False)
@params_option
@click.option(
    "--samples",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="Positions whose record is derived again from their children.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sample.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@json_option
def verify_command(
    directory: Path,
    game: str | None,
    params: tuple[str, ...],
    samples: int,
    seed: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Check a tablebase: every file's checksum, every tier's counts, and a random sample
    of positions against their moves. Exit status 0 when sound, 1 with the problems found.

    GAME defaults to the built-in game named in the tablebase's header (with its
    parameters); give it (and -p) for a game of your own.

    Example: perfectplay verify c4-4x4 --samples 5000
    """
    try:
        rules_game = game_of(directory, game, list(params))
        base = open_tablebase(directory, rules_game)
    except TablebaseError as exc:
        if isinstance(exc, TablebaseMismatch) or not (directory / "header.json").is_file():
            raise  # not a tablebase at all: a usage error
        # A tablebase that cannot even be opened (a file missing or cut short, a header
        # that does not read): its problem, reported as any other.
        report = {"directory": str(directory), "sound": False, "problems": [str(exc)]}
        if as_json:
            emit_json(report)
        else:
            print_rows([("tablebase", str(directory))])
            out.print(f"problem: {exc}", markup=False)
            out.print("damaged: rebuild it (solve --save DIR keeps the sound tiers)")
        sys.exit(1)
    with base:
        with working(f"verifying {directory}", quiet=quiet):
            problems = verify(base, samples=samples, seed=seed)
        report = {
            "directory": str(directory),
            "game": base.rules.name,
            "tiers": len(base.header.tiers),
            "positions": base.header.counts()["positions"],
            "samples": samples,
            "seed": seed,
            "sound": not problems,
            "problems": problems,
            "book": base.header.book,
        }
    if as_json:
        emit_json(report)
    else:
        _print_report(report)
    sys.exit(1 if problems else 0)


def _print_report(report: dict[str, Any]) -> None:
    """What was checked, each problem on a line of its own, and the verdict."""
    print_rows(
        [
            ("game", report["game"]),
            ("tablebase", report["directory"]),
            ("checksums and counts", counted(report["tiers"], "tier")),
            ("positions", f"{report['positions']:,}"),
            (
                "samples",
                f"{report['samples']:,} positions against their moves (seed {report['seed']})",
            ),
        ]
    )
    for problem in report["problems"]:
        out.print(f"problem: {problem}", markup=False, highlight=False, soft_wrap=True)
    if report.get("book"):
        out.print(
            f"an opening book (plies 0..{report['book']['depth']}, lines of play to ply "
            f"{report['book']['play_depth']}): only the sampled positions whose children it "
            "holds were derived again",
            markup=False,
        )
    problems = len(report["problems"])
    out.print("sound" if not problems else f"not sound: {problems} problem(s) found")
