"""Where the perfectplay console script of the Python running the tests lives."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def find_script() -> str:
    """The perfectplay console script installed next to the running Python."""
    here = Path(sys.executable).parent
    for name in ("perfectplay", "perfectplay.exe"):
        candidate = here / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which("perfectplay", path=str(here)) or shutil.which("perfectplay")
    if found is None:
        pytest.fail("the perfectplay console script is not installed next to " + sys.executable)
    return found


SCRIPT = find_script()


def run_cli(
    *args: str, input: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the console script as a user would: a wide terminal (so rich does not wrap), no
    colour, and stdin closed unless ``input`` is given, so nothing can wait for a person."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    return subprocess.run(
        [SCRIPT, *args],
        input=input,
        stdin=subprocess.DEVNULL if input is None else None,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
