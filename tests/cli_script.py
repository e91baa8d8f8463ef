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
    *args: str, input: str | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run the console script as a user would: a wide terminal (so rich does not wrap), no
    colour, and stdin closed unless ``input`` is given, so nothing can wait for a person.
    The timeout only stops a hang: a first compile of a user's search takes a minute on a
    loaded machine (the tests run on every core at once)."""
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


def one_line_error(
    result: subprocess.CompletedProcess[str], words: str = "", *, quiet_stdout: bool = True
) -> str:
    """The single stderr line of a refused command: exit 2, one line starting "perfectplay:
    error: " that holds ``words``, never a traceback; nothing on stdout unless told that
    the command may have shown something first (``play`` shows the board)."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert not quiet_stdout or result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("perfectplay: error: ") and words in lines[0], lines[0]
    assert "Traceback" not in result.stderr
    return lines[0]
