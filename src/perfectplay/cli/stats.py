"""analyze --stats: the counts, records and histogram of a solved game, as text or JSON."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from ..answers import Answers
from ..statistics import ScoreStatistics, Statistics, score_statistics, statistics
from .common import out
from .present import counted, published_remoteness, signed_text
from .progress import progress_reporter

BAR = 40  # characters of the longest bar


def game_statistics(answers: Answers[Any, Any], quiet: bool) -> Statistics | ScoreStatistics:
    """The statistics (a scored game's: positions per score), with progress on a terminal."""
    with progress_reporter("statistics: positions expanded", quiet=quiet) as report:
        if answers.scored:
            return score_statistics(answers, progress=report)
        return statistics(answers, progress=report)


def statistics_json(
    stats: Statistics | ScoreStatistics, answers: Answers[Any, Any]
) -> dict[str, Any]:
    """The statistics as the JSON field ``statistics`` (see the README)."""
    rules = answers.rules
    if isinstance(stats, ScoreStatistics):
        return {
            "positions": stats.positions,
            "scores": {signed_text(s): n for s, n in stats.scores.items()},
            "longest": None
            if stats.longest is None
            else {"remoteness": stats.longest.measure, "position": rules.show(stats.longest.state)},
            "most_moves": None
            if stats.most_moves is None
            else {
                "moves": stats.most_moves.measure,
                "position": rules.show(stats.most_moves.state),
            },
        }
    return {
        "positions": stats.positions,
        "values": stats.values,
        "remoteness": {
            v: {str(r): n for r, n in sorted(c.items())} for v, c in stats.remoteness.items()
        },
        "longest": {
            name: {"remoteness": ex.measure, "position": rules.show(ex.state)}
            for name, ex in stats.longest.items()
        },
        "most_moves": None
        if stats.most_moves is None
        else {"moves": stats.most_moves.measure, "position": rules.show(stats.most_moves.state)},
        "published_remoteness": published_remoteness(answers),
    }


def print_score_statistics(stats: ScoreStatistics, answers: Answers[Any, Any]) -> None:
    """Positions per score for the player to move (a histogram), the longest game and the
    widest position."""
    rules = answers.rules
    out.print()
    out.print(f"{stats.positions:,} positions", markup=False)
    table = Table(title="positions per score (for the player to move)")
    table.add_column("score", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("histogram")
    top = max(stats.scores.values(), default=1)
    for score, n in stats.scores.items():
        table.add_row(signed_text(score), f"{n:,}", "#" * max(1, round(BAR * n / top)))
    out.print(table)
    for label, example, unit in (("longest game", stats.longest, "ply"),
                                 ("most moves", stats.most_moves, "move")):  # fmt: skip
        if example is not None:
            out.print(f"\n{label}: {counted(example.measure, unit)}, for example", markup=False)
            out.print(rules.show(example.state), markup=False)


def print_statistics(stats: Statistics | ScoreStatistics, answers: Answers[Any, Any]) -> None:
    """Counts per value, a histogram of remoteness, the longest games and the widest position."""
    if isinstance(stats, ScoreStatistics):
        print_score_statistics(stats, answers)
        return
    rules = answers.rules
    out.print()
    counts = ", ".join(f"{n:,} {name}" for name, n in sorted(stats.values.items()))
    out.print(f"{stats.positions:,} positions: {counts}", markup=False)
    table = Table(title="positions per remoteness (plies to the end)")
    table.add_column("remoteness", justify="right")
    names = [n for n in ("win", "loss", "tie") if n in stats.remoteness]
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("histogram (all values)")
    everything: dict[int, int] = {}
    for by_plies in stats.remoteness.values():
        for plies, n in by_plies.items():
            everything[plies] = everything.get(plies, 0) + n
    top = max(everything.values(), default=1)
    for plies in sorted(everything):
        cells = [f"{stats.remoteness[name].get(plies, 0):,}" for name in names]
        bar = "#" * max(1, round(BAR * everything[plies] / top))
        table.add_row(str(plies), *cells, bar)
    out.print(table)
    if stats.values.get("draw"):
        out.print(f"{stats.values['draw']:,} draws: play never ends (no remoteness)",
                  markup=False)  # fmt: skip
    for value, example in stats.longest.items():
        out.print(f"\nlongest {value}: {counted(example.measure, 'ply')}, for example",
                  markup=False)  # fmt: skip
        out.print(rules.show(example.state), markup=False)
    if stats.most_moves is not None:
        out.print(f"\nmost moves: {stats.most_moves.measure}, for example", markup=False)
        out.print(rules.show(stats.most_moves.state), markup=False)
    published = published_remoteness(answers)
    if published is not None and published != answers.remoteness():
        out.print(f"the start as published: {counted(published, 'ply')}", markup=False)
