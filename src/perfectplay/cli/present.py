"""Values, moves and solutions as people and scripts read them (text and JSON)."""

from __future__ import annotations

import math
from typing import Any

from ..answers import Answers
from ..rules import Rules
from ..solution import Solution
from ..tablebase.reader import Tablebase
from ..values import GameValue, Value

JsonValue = str | int | float
Answered = Solution[Any, Any] | Tablebase[Any, Any]
"""What answers the questions about positions: a solve in memory or a tablebase on disk."""


def value_text(value: GameValue) -> str:
    """WIN -> 'win'; scores as numbers, with inf spelled out."""
    if isinstance(value, Value):
        return str(value)
    if isinstance(value, float) and math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return str(value)


def points_text(points: float) -> str:
    """Points as a whole number where they are one: 4, 2.5."""
    return str(int(points)) if float(points).is_integer() else str(points)


def signed_text(value: Any) -> str:
    """A score with its sign: +2, -1, 0, 2.5 as +2.5, +inf."""
    if isinstance(value, Value) or math.isinf(value):
        return value_text(value)
    return ("+" if value > 0 else "") + points_text(value)


def published_remoteness(answers: Answers[Any, Any]) -> int | None:
    """The start's distance as a published count of the game gives it (the game's
    ``published_plies`` added at the end of perfect play), or None without that hook."""
    rules = answers.rules
    plies = answers.remoteness()
    if rules.presentation.published_plies is None or plies is None:
        return None
    state = answers.initial
    for move in answers.principal_variation(max_plies=plies):
        state = rules.play(state, move)
    return plies + rules.presentation.published_plies(state)


def remoteness_row(answers: Answers[Any, Any]) -> str:
    """The start's remoteness, and beside it the published distance where it differs."""
    text = remoteness_text(answers.remoteness())
    published = published_remoteness(answers)
    if published is not None and published != answers.remoteness():
        text += f" ({published} as published)"
    return text


def value_json(value: GameValue) -> JsonValue:
    """Outcomes as lowercase words, scores as numbers, infinite scores as '+inf'/'-inf'."""
    if isinstance(value, Value) or (isinstance(value, float) and math.isinf(value)):
        return value_text(value)
    return value


def remoteness_text(remoteness: int | None) -> str:
    """Plies to the end, or 'never ends' for a draw."""
    return "never ends" if remoteness is None else str(remoteness)


def counted(n: int, word: str) -> str:
    """ "1 ply", "3 plies", "1 tier", "2 tiers": a count and its noun, plural when it is."""
    if n == 1:
        return f"1 {word}"
    plural = word[:-1] + "ies" if word.endswith("y") and word[-2] not in "aeiou" else word + "s"
    return f"{n:,} {plural}"


def plies_text(remoteness: int | None) -> str:
    """ "in 3 plies", "in 1 ply", or "never ends" for a draw."""
    return "never ends" if remoteness is None else f"in {counted(remoteness, 'ply')}"


def method_of(answers: Answered) -> str:
    """The solver behind a solution, or "tablebase" for answers read from one."""
    return answers.method if isinstance(answers, Solution) else "tablebase"


def position_report(solution: Answered, state: Any, history: list[str]) -> dict[str, Any]:
    """Everything known about one position, from a solution or a tablebase, as a JSON-ready
    dict (see the README)."""
    rules: Rules[Any, Any] = solution.rules
    moves = [
        {
            "move": rules.format_move(mv.move),
            "value": value_json(mv.value),
            "remoteness": mv.remoteness,
        }
        for mv in solution.move_values(state)
    ]
    report: dict[str, Any] = {
        "game": rules.name,
        "method": method_of(solution),
        "moves_played": history,
        "position": rules.show(state),
        "value": value_json(solution.value(state)),
        "remoteness": solution.remoteness(state),
    }
    if solution.has_grundy:
        report["grundy"] = solution.grundy(state)
    report["best_moves"] = [rules.format_move(m) for m in solution.best_moves(state)]
    report["principal_variation"] = [
        rules.format_move(m) for m in solution.principal_variation(state, max_plies=200)
    ]
    report["moves"] = moves
    report["stats"] = stats_json(solution)
    return report


def stats_json(answers: Answered) -> dict[str, Any]:
    """Size and cost of a solve; a tablebase's size (its positions)."""
    if isinstance(answers, Tablebase):
        return {"positions": answers.header.counts()["positions"]}
    stats = answers.stats
    return {
        "states": stats.states,
        "edges": stats.edges,
        "seconds": round(stats.seconds, 6),
        "explore_seconds": round(stats.explore_seconds, 6),
        "solve_seconds": round(stats.solve_seconds, 6),
    }
