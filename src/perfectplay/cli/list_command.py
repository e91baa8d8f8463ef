"""perfectplay list: the built-in games and their parameters."""

from __future__ import annotations

import re
from typing import Any

import click
from rich.table import Table

from ..games import BUILTINS, aliases_of
from ..rules import Rules
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
        doc = summary(cls.__doc__ or "")
        params = "\n".join(
            f"{p.name}: {p.type_name}" + ("" if p.required else f" = {show_default(p.default)}")
            for p in parameters(cls)
        )
        aliases = aliases_of(cls)
        shown = name + (f"\n(or {', '.join(aliases)})" if aliases else "")
        table.add_row(shown, doc, params or "-")
    out.print(table)
    tiered = [name for name, cls in BUILTINS.items() if _has_tiers(cls)]
    out.print(
        f"With tiers (solve --save DIR builds their tablebase tier by tier, on disk): "
        f"{', '.join(tiered) or 'none'}",
        markup=False,
        soft_wrap=True,
    )


def summary(doc: str) -> str:
    """A docstring's first paragraph as plain words: one line, no reStructuredText marks
    (``height`` reads as height, :class:`X` as X)."""
    paragraph = doc.strip().split("\n\n")[0]
    text = " ".join(paragraph.split())
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)
    return re.sub(r"``([^`]+)``|`([^`]+)`", lambda m: m.group(1) or m.group(2), text)


def _has_tiers(cls: type) -> bool:
    """Whether a built-in game, with its default parameters, has a tiered tablebase."""
    try:
        rules = Rules(cls())
        return rules.tiers is not None
    except Exception:  # a game with required parameters: it cannot say with none given
        return False


def show_default(value: Any) -> str:
    """A default value as ``-p NAME=VALUE`` takes it: 3,4,5 for a tuple, true for True."""
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)
