"""perfectplay cache: what the compiled code kept on disk holds, and clearing it.

Every compiled game and parameter set, and every game the compiled search serves, leaves a
copy of the engine's loops and numba's machine code for them in the cache directory
(``PERFECTPLAY_CACHE``, else ``~/.cache/perfectplay``): a second start loads it in
milliseconds instead of compiling for seconds. It grows with every new parameter value; a
copy whose game or perfectplay has changed is never read again. Clearing it costs only
the next start of each game its compile.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import click

from ..core.specialised import cache_directory
from .common import emit_json, json_option, out, print_rows

FOLDERS = {"games": "compiled games' loops", "search": "compiled searches"}
"""The cache's folders of compiled code (its solves.json, remembered solve times, stays)."""
_COPY = re.compile(r"^(?:perfectplay_game_|perfectplay_search_)?(.+)_[0-9a-f]{20}$")


@click.command("cache")
@click.option("--clear", is_flag=True, help="Remove every compiled copy kept (each game "
              "compiles again at its next start).")  # fmt: skip
@json_option
def cache_command(clear: bool, as_json: bool) -> None:
    """List the compiled code perfectplay keeps on disk, by game, and its size; --clear
    removes it.

    \b
    Examples:
      perfectplay cache
      perfectplay cache --clear
    """
    root = cache_directory()
    folders: dict[str, dict[str, Any]] = {}
    report = {"directory": str(root), "folders": folders, "cleared": clear}
    for folder, what in FOLDERS.items():
        path = root / folder
        games: dict[str, int] = {}
        for copy in path.glob("*.py") if path.is_dir() else []:
            match = _COPY.match(copy.stem)
            name = match.group(1) if match else copy.stem
            games[name] = games.get(name, 0) + 1
        folders[folder] = {"what": what, "bytes": _bytes(path), "copies": games}
        if clear and path.is_dir():
            shutil.rmtree(path)
    if as_json:
        emit_json(report)
        return
    rows = [("cache", str(root))]
    for folder, found in folders.items():
        copies = found["copies"]
        listed = ", ".join(f"{name} ({n})" for name, n in sorted(copies.items())) or "none"
        rows.append((folder, f"{found['bytes']:,} bytes, {sum(copies.values())} copies: "
                             f"{listed}"))  # fmt: skip
    if clear:
        rows.append(("cleared", "every compiled copy (each game compiles again at its next "
                                "start)"))  # fmt: skip
    print_rows(rows)
    out.print()


def _bytes(path: Path) -> int:
    """Bytes of the files under ``path`` (0 when it does not exist)."""
    if not path.is_dir():
        return 0
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
