"""The engine's loops over a compiled game, guarded: a rule that fails inside them is named.

A loop that runs the rules over many positions (compiled by numba, or as plain Python)
stops at the first rule that raises, with the rule's bare exception (numba's carries
neither the rule's name nor the state). The guard catches it, replays the loop's
positions one by one through the game's plain methods (which name the rule, the state
and the move) and raises that as a GameError; a Ctrl-C that numba reports as "returned a
result with an exception set" is raised again as the Ctrl-C it was.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import GameError
from .building import Loops

RUNS_RULES = ("outcomes", "keys", "tiers", "expand", "expand_tiers", "moves_out", "unmoves",
              "expand_ranked", "solve_sweep", "reverse_edges", "tier_moves", "start")  # fmt: skip
"""The loops that call the rules (the others search code sets)."""
REPLAY_SECONDS = 20.0
"""How long the replay looks for the failing position before it gives up naming it."""


def guarded(loops: Loops, game: Any) -> Loops:
    """``loops`` with every loop that runs the rules guarded (see the module docstring)."""
    wrapped: dict[str, Any] = {
        name: _guard(getattr(loops, name), name, game, loops.compiled) for name in RUNS_RULES
    }
    return dataclasses.replace(loops, **wrapped)


def _guard(loop: Callable[..., Any], name: str, game: Any, compiled: bool) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        try:
            if compiled:
                return loop(*args)
            # Interpreted, numpy's integers would divide by zero quietly (numba raises,
            # as Python does) and wrap around loudly (numba wraps quietly).
            with np.errstate(divide="raise", over="ignore"):
                return loop(*args)
        except FloatingPointError:
            # A rule divided by zero (named by the replay), or a float that numba lets be
            # (np.log(0) is -inf there): then run again as numba would.
            found = _first_failure(game, _codes_of(args))
            if found is not None:
                raise found from None
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                return loop(*args)
        except (GameError, KeyboardInterrupt, MemoryError):
            raise
        except SystemError as exc:  # numba's word for a Ctrl-C inside compiled code
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            raise _named(game, name, args, exc) from None
        except Exception as exc:
            raise _named(game, name, args, exc) from None

    run.__name__ = name
    run.__doc__ = loop.__doc__
    run.__wrapped__ = loop  # type: ignore[attr-defined]  # (inspect.unwrap: the dispatcher)
    return run


def _named(game: Any, loop: str, args: tuple[Any, ...], error: Exception) -> GameError:
    """The GameError of the first position of the loop's input whose rules fail."""
    codes = _codes_of(args)
    if loop == "start":
        codes = np.array([game.checked_root()], dtype=np.int64)  # (raises when start fails)
    found = None if codes is None else _first_failure(game, codes)
    if found is not None:
        return found
    return GameError(
        f"{type(game).__name__}'s rules raised {type(error).__name__}: {error} in the "
        f"engine's {loop} loop (perfectplay check {type(game).__name__} may find the "
        "position; a rule of the compiled form must not raise)"
    )


def _codes_of(args: tuple[Any, ...]) -> Any:
    """The loop's positions: its first int64 array (codes, or a tier's codes)."""
    return next((a for a in args if isinstance(a, np.ndarray) and a.dtype == np.int64), None)


def _first_failure(game: Any, codes: Any) -> GameError | None:
    """Each code's rules run as plain Python, in order, until one fails (or time is up)."""
    if codes is None:
        return None
    deadline = time.monotonic() + REPLAY_SECONDS
    rules = game.rule_functions
    # Quiet as numba is: a float it lets be (log 0) is no warning on the user's terminal.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for code in np.asarray(codes).tolist():
            if time.monotonic() > deadline:
                return None
            try:
                _replay(game, rules, int(code))
            except GameError as exc:
                return exc
    return None


def _replay(game: Any, rules: dict[str, Any], code: int) -> None:
    """Every rule on one position through the game's checked plain methods."""
    if "tier" in rules:
        game.checked_tier(code)
    if "to_move" in rules:
        game.to_move(code)
    if game.outcome(code) is not None:
        return
    if "exits" in rules:
        game.checked_split(code)
    for move in game.moves(code):
        child = game.play(code, move)
        if "key" in rules:
            child = game.key(child)
        if "tier" in rules:
            game.checked_tier(child)
        if "reward" in rules:
            game.reward(code, move)
