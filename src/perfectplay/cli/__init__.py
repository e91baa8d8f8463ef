"""The perfectplay command line: list, solve, analyze, play, table, contest, stress, and
for tablebases and games of one's own verify, compress and check."""

from __future__ import annotations

import importlib
import os
import sys

import click

from ..errors import InterruptedSolve, PerfectplayError
from ..progress import listen

COMMANDS = {
    "list": ("list_command", "list_games"),
    "solve": ("solve_command", "solve_command"),
    "analyze": ("analyze", "analyze_command"),
    "play": ("play", "play_command"),
    "table": ("table", "table_command"),
    "contest": ("contest", "contest_command"),
    "stress": ("stress", "stress_command"),
    "verify": ("verify", "verify_command"),
    "verify-proof": ("proof_command", "verify_proof_command"),
    "compress": ("compress", "compress_command"),
    "check": ("check", "check_command"),
    "grade": ("grade_command", "grade_command"),
    "octal": ("octal_command", "octal_command"),
    "cgt": ("cgt_command", "cgt_command"),
    "explore": ("web_command", "explore_command"),
    "book": ("book_command", "book_command"),
    "cache": ("cache_command", "cache_command"),
}
"""Each command's module and function, in the order --help lists them. A command's module
is imported only when the command runs (or --help lists it): a judge's `contest` does not
pay for the explorer's, the tablebases' and the CGT's imports."""


class _Commands(click.Group):
    """A group that imports a command's module when the command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = COMMANDS.get(cmd_name)
        if found is None:
            return self.commands.get(cmd_name)
        module = importlib.import_module(f"{__name__}.{found[0]}")
        command: click.Command = getattr(module, found[1])
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Solve finite two-player games of perfect information exactly.

    Example: perfectplay solve tictactoe
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; any error is one line on stderr and exit status 2 (130
    after a Ctrl-C)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if sys.stderr.isatty() and not {"-q", "--quiet"} & set(args):
        _listen_once()  # a person waits: say what takes seconds before any progress
    try:
        # Not app.main(): on Ctrl-C it writes a blank line to stderr before the one line
        # below. The group is run as app.main runs it, minus that and shell completion.
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


_listening: list[bool] = []


def _listen_once() -> None:
    """Print what the library announces (a first compile), once however often main runs."""
    if not _listening:
        _listening.append(True)
        listen(lambda text: print(f"perfectplay: {text}", file=sys.stderr, flush=True))


INTERRUPTED = 130
"""The exit status after a Ctrl-C, as shells give it (128 + SIGINT); 2 is bad usage."""


def _fail(message: str, status: int = 2) -> None:
    print(f"perfectplay: error: {message}", file=sys.stderr)
    sys.exit(status)


__all__ = ["app", "main"]
