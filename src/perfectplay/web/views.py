"""What the explorer's page reads: a position, reached by moves from the start, as JSON.

``position_view(rules, answers, moves)`` plays ``moves`` (as the game formats them) from
the initial state and answers, from a solve or a tablebase (``perfectplay.answers``):

- ``value`` and ``remoteness`` of the position for the player to move (``win``, ``loss``,
  ``tie``, ``draw``; a number for scored games), its ``grundy`` value where kept;
- ``moves``: every legal move, best first, with its ``value`` and ``remoteness`` for the
  player making it and ``delta``, its remoteness minus the position's where the move keeps
  the position's value (how much it hurries or delays the end; None where the move changes
  the value: plies are then not comparable);
- ``best``: the moves of perfect play; ``mover``: ``first`` or ``second``, the player to
  move; ``last``: the move that led here (None at the start); ``history``: each position of
  the game so far with its value for its mover and for the player who moved first (the
  chart's curve);
- ``taken``: in games whose moves collect points (``reward``), the points each player
  (``first``, ``second``) collected so far; None in other games.

A move that is not legal, or text that is none, is a ``BadRequest`` naming the ply.
"""

from __future__ import annotations

import math
from typing import Any

from ..answers import Answers
from ..errors import GameError, PerfectplayError, UnexploredStateError
from ..rules import Rules
from ..values import GameValue, Value
from .drawing import draw


class BadRequest(PerfectplayError, ValueError):
    """A request the explorer cannot answer: the message says why, in one line."""


def shown(value: Any) -> Any:
    """A value as JSON: the word of an outcome, the number of a score, ``"+inf"`` or
    ``"-inf"`` for an infinite score (JSON has no infinity)."""
    if isinstance(value, Value):
        return str(value)
    if isinstance(value, float) and math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return value


def for_first(value: Any, flipped: bool) -> Any:
    """A mover's value seen by the player who moved first."""
    if not flipped:
        return value
    return value.flipped() if isinstance(value, Value) else -value


def replay(rules: Rules[Any, Any], start: Any, moves: list[str]) -> list[tuple[Any, str, Any]]:
    """The states along ``moves`` from ``start``: (state, the move that led there as the
    game formats it, the move itself; "" and None first)."""
    path: list[tuple[Any, str, Any]] = [(start, "", None)]
    state = start
    for ply, text in enumerate(moves, start=1):
        try:
            move = rules.parse_move(state, text)
        except GameError as exc:
            raise BadRequest(f"move {ply} ({text!r}): {exc}") from None
        state = rules.play(state, move)
        path.append((state, rules.format_move(move), move))
    return path


def position_view(
    rules: Rules[Any, Any], answers: Answers[Any, Any], moves: list[str]
) -> dict[str, Any]:
    """The JSON of the position after ``moves`` (see the module docstring)."""
    path = replay(rules, answers.initial, moves)
    state = path[-1][0]
    history, taken = _history(rules, answers, path)
    value, remoteness = answers.value(state), answers.remoteness(state)
    listed = _listed_moves(rules, answers, state, value, remoteness)
    return {
        "game": rules.name,
        "played": [move for _, move, _ in path[1:]],
        "last": path[-1][1] or None,
        "taken": None if taken is None else {k: shown(v) for k, v in taken.items()},
        "text": rules.show(state),
        "svg": draw(rules, state, path[-1][2]),
        "to_move": None if rules.to_move is None else str(rules.to_move(state)),
        "mover": history[-1]["mover"],
        "value": shown(value),
        "remoteness": remoteness,
        "grundy": answers.grundy(state) if answers.has_grundy else None,
        "over": not listed,
        "moves": listed,
        "best": [m["move"] for m in listed if m["best"]],
        "history": history,
    }


def _history(
    rules: Rules[Any, Any], answers: Answers[Any, Any], path: list[tuple[Any, str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, float] | None]:
    """Each position of the path with its value, for its mover and for the first player;
    and what each player has taken so far in a game with rewards (else None)."""
    history = []
    first_mover_flipped = False
    previous = path[0][0]
    taken = None if rules.reward is None else {"first": 0.0, "second": 0.0}
    for ply, (at, move, made) in enumerate(path):
        if ply and taken is not None and rules.reward is not None:
            taken["second" if first_mover_flipped else "first"] += rules.reward(previous, made)
        if ply and rules.mover_changes(previous, at):
            first_mover_flipped = not first_mover_flipped
        previous = at
        try:
            value, remoteness = answers.value(at), answers.remoteness(at)
        except UnexploredStateError:
            raise BadRequest(f"the position after move {ply} was never solved") from None
        history.append(
            {
                "ply": ply,
                "move": move or None,
                "value": shown(value),
                "remoteness": remoteness,
                "value_for_first": shown(for_first(value, first_mover_flipped)),
                "mover": "second" if first_mover_flipped else "first",
            }
        )
    return history, taken


def _listed_moves(
    rules: Rules[Any, Any],
    answers: Answers[Any, Any],
    state: Any,
    value: GameValue,
    remoteness: int | None,
) -> list[dict[str, Any]]:
    """Every move of ``state``, best first: its value, remoteness, delta (its remoteness
    minus the position's where it keeps the position's value) and whether it is best."""
    ranked = answers.move_values(state)
    legal = [rules.format_move(mv.move) for mv in ranked]
    best = {rules.format_move(m) for m in answers.best_moves(state)} if ranked else set()
    listed = []
    for text, mv in zip(legal, ranked, strict=True):
        delta = None
        if mv.remoteness is not None and remoteness is not None and mv.value == value:
            delta = mv.remoteness - remoteness
        listed.append(
            {
                "move": text,
                "value": shown(mv.value),
                "remoteness": mv.remoteness,
                "delta": delta,
                "best": text in best,
            }
        )
    return listed
