"""The ``perfectplay`` command's entry point, kept outside the package on purpose.

Loading perfectplay's command line (numpy, click, rich and the package) takes a few tenths
of a second; a Ctrl-C in that time would stop Python inside an import and print its
traceback. This module imports nothing heavy itself, loads the command line inside a
``try``, and turns such an interrupt into the command's own one line and exit status 2,
as a Ctrl-C at any later time is.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Load the command line, then run it (``perfectplay.cli.main``)."""
    try:
        from perfectplay.cli import main as run
    except KeyboardInterrupt:
        print("perfectplay: error: interrupted", file=sys.stderr)
        sys.exit(2)
    run()
