"""The ``perfectplay`` command's entry point, kept outside the package on purpose.

Loading perfectplay's command line (numpy, click, rich and the package) takes a few tenths
of a second; a Ctrl-C in that time would stop Python inside an import and print its
traceback. This module imports nothing heavy itself, loads the command line inside a
``try``, and turns such an interrupt into the command's own one line and exit status 130
(128 + SIGINT, as shells expect), as a Ctrl-C at any later time is. A Ctrl-C inside an
extension module's initialisation (numpy's) reaches Python as an ImportError caused by
the KeyboardInterrupt: the same.
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn


def main() -> None:
    """Load the command line, then run it (``perfectplay.cli.main``).

    While the command line loads, a Ctrl-C is only noted, and acted on once the imports
    are over: an extension module's C code can swallow the KeyboardInterrupt and raise an
    unrelated ImportError in its place (numpy's "could not import module datetime"), which
    no chain of causes would then explain. Everything from the first line on is inside the
    ``try``: a Ctrl-C may land on any of them.
    """
    try:
        _defer_interrupts()
        from perfectplay.cli import main as run
    except KeyboardInterrupt:
        _interrupted()
    except ImportError as exc:  # an extension module (numpy's) stopped by the Ctrl-C
        if not (_NOTED or _caused_by_interrupt(exc)):
            raise
        _interrupted()
    finally:
        _stop_deferring()
    if _NOTED:
        _interrupted()
    try:
        run()
    finally:
        # The command has finished and said so. Python's shutdown puts back the default
        # Ctrl-C handler, under which a late Ctrl-C would kill the process by the signal
        # (no line, status -2); an ignored one is left ignored.
        signal.signal(signal.SIGINT, signal.SIG_IGN)


_NOTED: list[int] = []
"""The Ctrl-Cs noted while the command line loaded."""
_DEFERRING: list[bool] = []
"""True once the noting handler is in place (and the default was there before it)."""


def _defer_interrupts() -> None:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, lambda number, _frame: _NOTED.append(number))
        _DEFERRING.append(True)


def _stop_deferring() -> None:
    if _DEFERRING:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _DEFERRING.clear()


def _interrupted() -> NoReturn:
    print("perfectplay: error: interrupted", file=sys.stderr)
    sys.exit(130)


def _caused_by_interrupt(error: BaseException) -> bool:
    """Whether a Ctrl-C stands in the chain of causes and contexts of ``error``."""
    seen: set[int] = set()
    chain: list[BaseException] = [error]
    while chain:
        found = chain.pop()
        if id(found) in seen:
            continue
        seen.add(id(found))
        if isinstance(found, KeyboardInterrupt):
            return True
        chain.extend(e for e in (found.__cause__, found.__context__) if e is not None)
    return False
