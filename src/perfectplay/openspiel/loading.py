"""Loading an OpenSpiel game for perfectplay: ``load_openspiel("connect_four(rows=4)")``.

A spec is read, its parameters are checked against the game's own (names and types), and
a game perfectplay cannot solve exactly is refused: anything not two-player, sequential,
deterministic, of perfect information and zero- or constant-sum. Every mistake is one line
naming the game (``openspiel:NAME: ...``), where OpenSpiel itself would also print its own
message on stderr.

Kept apart from the adapter (``adapter.py``) so that the command line reads a game's
parameters, and the list of games that fit, without making a game of it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..errors import GameError, GameNotFound, ParameterError

__all__ = [
    "PREFIX",
    "UnsupportedGame",
    "display_name",
    "load_openspiel",
    "parameter_defaults",
    "refuse_unsupported",
    "unsupported",
]

PREFIX = "openspiel:"

_T = pyspiel.GameType


class UnsupportedGame(GameError):
    """An OpenSpiel game that is not two-player, sequential, deterministic, of perfect
    information and zero- or constant-sum: perfectplay cannot solve it exactly."""


def display_name(game: Any) -> str:
    """``openspiel:`` and the game's string, without the empty parentheses of no parameters."""
    text = str(game)
    return PREFIX + (text[:-2] if text.endswith("()") else text)


def unsupported(game: Any) -> list[str]:
    """The properties that keep an OpenSpiel game from being solved exactly (empty if none)."""
    kind = game.get_type()
    found = []
    players = game.num_players()
    if players != 2:
        found.append(f"{players} players")
    if kind.dynamics == _T.Dynamics.SIMULTANEOUS:
        found.append("simultaneous moves")
    elif kind.dynamics != _T.Dynamics.SEQUENTIAL:
        found.append("a mean-field game")
    if kind.chance_mode != _T.ChanceMode.DETERMINISTIC:
        found.append("chance")
    if kind.information != _T.Information.PERFECT_INFORMATION:
        found.append("imperfect information")
    if kind.utility == _T.Utility.GENERAL_SUM:
        found.append("general-sum returns")
    elif kind.utility == _T.Utility.IDENTICAL:
        found.append("identical returns (a team game)")
    return found


def refuse_unsupported(game: Any) -> None:
    """UnsupportedGame, naming every failing property in one line, unless perfectplay can
    solve the pyspiel game exactly."""
    problems = unsupported(game)
    if problems:
        raise UnsupportedGame(f"{display_name(game)}: {_joined(problems)}")


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _registered() -> dict[str, Any]:
    """OpenSpiel's game types by short name."""
    return {kind.short_name: kind for kind in pyspiel.registered_games()}


def _game_type(name: str) -> Any:
    """The GameType of a registered game; GameNotFound, in one line, when there is none."""
    types = _registered()
    if name not in types and name.startswith("python_"):
        # OpenSpiel's games written in Python register themselves on import; one of their
        # optional modules failing to import leaves the name unknown.
        with contextlib.suppress(Exception):
            import open_spiel.python.games  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        types = _registered()
    if name not in types:
        fits = sorted(n for n, t in types.items() if not _type_problems(t))
        raise GameNotFound(
            f"{PREFIX}{name}: no such OpenSpiel game; two-player perfect-information games: "
            + ", ".join(fits)
        )
    return types[name]


def _type_problems(kind: Any) -> bool:
    """Whether a game type is plainly not for perfectplay (used to list candidates)."""
    return bool(
        kind.dynamics != _T.Dynamics.SEQUENTIAL
        or kind.chance_mode != _T.ChanceMode.DETERMINISTIC
        or kind.information != _T.Information.PERFECT_INFORMATION
        or kind.utility not in (_T.Utility.ZERO_SUM, _T.Utility.CONSTANT_SUM)
        or not kind.min_num_players <= 2 <= kind.max_num_players
    )


def parameter_defaults(name: str) -> dict[str, Any]:
    """The parameters an OpenSpiel game takes, each with its default (whose type is the
    parameter's: int, float, bool or str)."""
    return dict(_game_type(name).parameter_specification)


def load_openspiel(spec: str, parameters: Mapping[str, Any] | None = None) -> Any:
    """The pyspiel game of ``spec`` ("connect_four" or "connect_four(rows=4)"), with
    ``parameters`` added; names and types are checked here so that a mistake is one line
    (OpenSpiel itself would also print its own message on stderr)."""
    spec = spec.strip()
    try:
        given = dict(pyspiel.game_parameters_from_string(spec))
    except Exception as exc:  # pyspiel reports a malformed string as SpielError
        raise GameNotFound(f"{PREFIX}{spec}: cannot read it as an OpenSpiel game") from exc
    name = str(given.pop("name", spec))
    defaults = parameter_defaults(name)
    given.update(parameters or {})
    for key, value in given.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise ParameterError(
                f"{PREFIX}{name}: unknown parameter {key!r}; this game takes: {known}"
            )
        expected = type(defaults[key])
        if isinstance(value, float) and expected is int and value.is_integer():
            given[key] = value = int(value)
        if isinstance(value, int) and expected is float and not isinstance(value, bool):
            given[key] = value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ParameterError(
                f"{PREFIX}{name}: parameter {key}={value!r} should be {expected.__name__}"
            )
    try:
        return pyspiel.load_game(name, given)
    except pyspiel.SpielError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "cannot be loaded"
        raise GameNotFound(f"{PREFIX}{name}: {first}") from None
