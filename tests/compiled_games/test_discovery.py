"""The engine's discovery of a compiled game's positions: a small game never loads numba."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tictactoe.py"


def test_a_small_compiled_game_is_solved_by_the_command_without_numba() -> None:
    """Tic-tac-toe's 765 positions up to symmetry: every loop runs as plain Python (the
    bucket table of the discovery, 65,536 cells whatever the tier, once made the sorting
    kernel load numba and the game's compiled loops: a second of start-up for nothing)."""
    code = (
        "import sys\n"
        "from perfectplay_entry import main\n"
        f"sys.argv = ['perfectplay', 'solve', {str(EXAMPLE) + ':TicTacToe'!r}, '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "print('numba' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PERFECTPLAY_KERNELS"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "False"
    assert '"value": "tie"' in out.stdout and '"positions": 765' in out.stdout
