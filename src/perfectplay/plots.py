"""A solved game's positions by remoteness, as a stacked bar chart (matplotlib, an optional
extra: ``pip install 'perfectplay[plot]'``), for a notebook or a file.

One bar a remoteness (plies to the end under perfect play), stacked by value (win, loss,
tie for the player to move); draws, which never end, are said in the title. The counts
are ``perfectplay.statistics``' (a Solution or a Tablebase alike).
"""

from __future__ import annotations

from typing import Any

from .answers import Answers
from .errors import UsageProblem
from .statistics import statistics

COLOURS = {"win": "#2e9e44", "loss": "#d0353a", "tie": "#e3b81f"}
"""The explorer's colours: green wins, red loses, yellow ties."""


def plot_remoteness(answers: Answers[Any, Any], ax: Any = None) -> Any:
    """The chart on ``ax`` (a new figure's when None); returns the axes."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageProblem(
            "plots need matplotlib, an optional extra: pip install 'perfectplay[plot]'"
        ) from None
    stats = statistics(answers)
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.5))
    longest = max((max(by) for by in stats.remoteness.values()), default=0)
    plies = list(range(longest + 1))
    below = [0] * len(plies)
    for name in ("win", "loss", "tie"):
        by_plies = stats.remoteness.get(name)
        if not by_plies:
            continue
        heights = [by_plies.get(p, 0) for p in plies]
        ax.bar(plies, heights, bottom=below, label=name, color=COLOURS[name])
        below = [b + h for b, h in zip(below, heights, strict=True)]
    draws = stats.values.get("draw", 0)
    title = f"{answers.rules.name}: {stats.positions:,} positions"
    ax.set_title(title + (f" ({draws:,} draws, which never end)" if draws else ""))
    ax.set_xlabel("remoteness (plies to the end)")
    ax.set_ylabel("positions")
    ax.legend()
    return ax
