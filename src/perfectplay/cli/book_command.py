"""perfectplay book: an opening book, the first plies solved by compiled search."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..book import BookSummary, build_book, journal_path
from ..rules import Rules
from .common import game_options, out
from .loader import build_game
from .search_analysis import interruptible


@click.command("book")
@game_options
@click.option(
    "--depth",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="Solve every position with at most this many plies played.",
)
@click.option(
    "--play-depth",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="Beyond --depth, up to this ply: the positions play meets when perfectplay, "
    "playing either side, follows its best moves and the opponent plays anything, each "
    "with the child of its best move (play then answers at once up to this ply).",
)
@click.option(
    "--out",
    "directory",
    type=click.Path(path_type=Path),
    required=True,
    help="The tablebase directory to write.",
)
@click.option(
    "--log-size",
    type=click.IntRange(10, 30),
    default=24,
    show_default=True,
    help="The search's table: 2**N entries.",
)
@click.option("--quiet", is_flag=True, help="No progress lines.")
def book_command(
    game: str,
    params: tuple[str, ...],
    depth: int,
    play_depth: int,
    directory: Path,
    log_size: int,
    quiet: bool,
) -> None:
    """Build an opening book: a tablebase of the first plies, read by analyze --db.

    A long job near the start of a large game (7 x 6 Connect Four: about 10 minutes a
    position at depth 0 or 1); run it once. Stopped (Ctrl-C, kill), it goes on when run
    again with the same --out: each position's score is kept as soon as it is known.

    \b
    Example:
      perfectplay book connect-four -p width=7 -p height=6 --depth 1 --out c4-book
      perfectplay book connect-four -p width=7 -p height=6 --depth 2 --play-depth 8 \
          --out c4-play-book
      perfectplay analyze connect-four -p width=7 -p height=6 --db c4-book
    """
    rules = Rules(build_game(game, list(params)))
    # Progress goes to stderr, never among the results (stdout may be piped).
    report = None if quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    built: list[BookSummary] = []
    interruptible(
        lambda: built.append(
            build_book(
                rules, directory, depth, play_depth=play_depth, log_size=log_size, report=report
            )
        ),
        lambda: (
            f"interrupted; the positions solved so far are kept in "
            f"{journal_path(directory)}: run the same command again to go on"
        ),
    )
    summary = built[0]
    out.print(
        f"book of {summary.positions:,} positions ({summary.nodes:,} nodes, "
        f"{summary.seconds:,.0f} s) written to {directory}",
        markup=False,
    )
