"""The perfectplay command line: list, solve, analyze, play, table, contest, stress, and
for tablebases and games of one's own verify, compress and check."""

from __future__ import annotations

import os
import sys

import click

from ..errors import InterruptedSolve, PerfectplayError
from ..progress import listen
from .analyze import analyze_command
from .book_command import book_command
from .cache_command import cache_command
from .cgt_command import cgt_command
from .check import check_command
from .compress import compress_command
from .contest import contest_command
from .grade_command import grade_command
from .list_command import list_games
from .octal_command import octal_command
from .play import play_command
from .solve_command import solve_command
from .stress import stress_command
from .table import table_command
from .verify import verify_command
from .web_command import explore_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Solve finite two-player games of perfect information exactly.

    Example: perfectplay solve tictactoe
    """


for _command in (
    list_games,
    solve_command,
    analyze_command,
    play_command,
    table_command,
    contest_command,
    stress_command,
    verify_command,
    compress_command,
    check_command,
    grade_command,
    octal_command,
    cgt_command,
    explore_command,
    book_command,
    cache_command,
):
    app.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; any error is one line on stderr and exit status 2 (130
    after a Ctrl-C)."""
    if sys.stderr.isatty():  # a person waits: say what takes seconds before any progress
        listen(lambda text: print(f"perfectplay: {text}", file=sys.stderr, flush=True))
    try:
        # Not app.main(): on Ctrl-C it writes a blank line to stderr before the one line
        # below. The group is run as app.main runs it, minus that and shell completion.
        args = sys.argv[1:] if argv is None else list(argv)
        with app.make_context("perfectplay", args) as ctx:
            app.invoke(ctx)
    except InterruptedSolve as exc:  # a Ctrl-C, said with how far the work got
        _fail(str(exc), INTERRUPTED)
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
        _fail("interrupted", INTERRUPTED)
    except Exception as exc:  # the last resort: never a traceback
        if os.environ.get("PERFECTPLAY_TRACEBACK"):
            raise
        _fail(
            f"{type(exc).__name__}: {exc} (unexpected: PERFECTPLAY_TRACEBACK=1 shows where; "
            "please report it)"
        )


INTERRUPTED = 130
"""The exit status after a Ctrl-C, as shells give it (128 + SIGINT); 2 is bad usage."""


def _fail(message: str, status: int = 2) -> None:
    print(f"perfectplay: error: {message}", file=sys.stderr)
    sys.exit(status)


__all__ = ["app", "main"]
