"""What broke, when a game failed while being explored: the state replayed hook by hook.

Exploration runs the game's methods in a tight loop without bookkeeping; when one raises,
``diagnose`` replays that state's key, outcome, moves, plays, rewards and movers one at a
time and names the first that fails, as a one-line ``GameError``.
"""

from __future__ import annotations

from typing import Any

from .errors import GameError, describe
from .rules import Rules


def diagnose(rules: Rules[Any, Any], state: Any, error: BaseException) -> GameError:
    """Turn an exception raised while expanding ``state`` into a GameError naming its cause.

    Exploration runs a tight loop without bookkeeping; when it fails, this replays the
    state step by step to find which method broke.
    """
    try:
        hash(rules.key_of(state))
    except Exception as exc:
        return GameError(f"{rules.name}: state {describe(state)}, {rules.unhashable(exc)}")
    try:
        rules.outcome(state)
    except Exception as exc:
        return _raised(rules, "outcome", state, None, exc)
    try:
        moves = list(rules.moves(state))
    except Exception as exc:
        return _raised(rules, "moves", state, None, exc)
    for move in moves:
        problem = _replay_move(rules, state, move)
        if problem is not None:
            return problem
    if rules.to_move is not None:
        try:
            rules.to_move(state)
        except Exception as exc:
            return _raised(rules, "to_move", state, None, exc)
    return GameError(
        f"{rules.name}: expanding state {describe(state)} failed ({type(error).__name__}: {error})"
    )


def _replay_move(rules: Rules[Any, Any], state: Any, move: Any) -> GameError | None:
    """The error one move of ``state`` raises, or None when it plays cleanly."""
    try:
        child = rules.play(state, move)
    except Exception as exc:
        return _raised(rules, "play", state, move, exc)
    try:
        hash(rules.key_of(child))
    except Exception as exc:
        return GameError(
            f"{rules.name}: play(state, {describe(move)}) from {describe(state)} returned "
            f"{describe(child)}, {rules.unhashable(exc)}"
        )
    if rules.reward is not None:
        try:
            rules.reward(state, move)
        except Exception as exc:
            return _raised(rules, "reward", state, move, exc)
    if rules.to_move is not None:
        try:
            rules.to_move(child)
        except Exception as exc:
            return _raised(rules, "to_move", child, None, exc)
    return None


def _raised(
    rules: Rules[Any, Any], method: str, state: object, move: object, exc: BaseException
) -> GameError:
    if isinstance(exc, GameError):  # the game's own words already name the rule and state
        return exc
    args = "state" if move is None else f"state, {describe(move)}"
    return GameError(
        f"{rules.name}.{method}({args}) raised {type(exc).__name__}: {exc} "
        f"(state {describe(state)})"
    )
