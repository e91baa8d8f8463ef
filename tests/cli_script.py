"""Where the perfectplay console script of the Python running the tests lives."""

from __future__ import annotations

import shutil
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
