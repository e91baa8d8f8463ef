"""perfectplay list: the built-in games and their parameters."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from ..games import BUILTINS
from .common import out
from .params import parameters


@click.command("list")
def list_games() -> None:
    """List the built-in games and their parameters.

    Example: perfectplay list
    """
    table = Table(title="built-in games")
    table.add_column("game")
    table.add_column("what it is")
    table.add_column("parameters (--param NAME=VALUE)")
    for name, cls in BUILTINS.items():
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        params = "\n".join(
            f"{p.name}: {p.type_name}" + ("" if p.required else f" = {_show_default(p.default)}")
            for p in parameters(cls)
        )
        table.add_row(name, doc, params or "-")
    out.print(table)


def _show_default(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)
