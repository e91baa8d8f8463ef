"""Finding a game by name: a built-in, ``path/to/file.py:ClassName``, ``module:ClassName``
or ``openspiel:SPEC`` (an OpenSpiel game, through ``perfectplay.openspiel``).

Loading a game from a file or module runs that code (and only that): it is the user's own.
OpenSpiel is imported only for an ``openspiel:`` name.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from pathlib import Path
from typing import Any

from ..core.specialised import module_from_file
from ..errors import GameError, GameNotFound, ParameterError
from ..games import BUILTINS, builtin_game
from ..identity import LOADED_FROM_FILE
from ..rules import check_protocol
from .params import convert, parse_assignments

OPENSPIEL = "openspiel:"
BRIDGE_OPTIONS = {"keep_histories": bool, "scored": bool}
"""Parameters of the bridge itself, beside the OpenSpiel game's own."""


def find_game_class(spec: str) -> type:
    """The class a game name refers to."""
    found = builtin_game(spec)
    if found is not None:
        return found
    if ":" not in spec and spec.endswith(".py") and Path(spec).is_file():
        module = _load_file(spec)
        found_here = [name for name, value in vars(module).items()
                      if isinstance(value, type) and value.__module__ == module.__name__
                      and callable(getattr(value, "initial", None))]  # fmt: skip
        listed = ", ".join(f"{spec}:{name}" for name in found_here) or "none"
        raise GameNotFound(f"{spec}: name the game's class after a colon; its games: {listed}")
    if ":" not in spec:
        raise GameNotFound(
            f"unknown game {spec!r}; built-in games: {', '.join(BUILTINS)} "
            "(or path/to/file.py:ClassName, or module:ClassName)"
        )
    where, _, class_name = spec.rpartition(":")
    module = _load_file(where) if where.endswith(".py") else _load_module(where)
    cls = getattr(module, class_name, None)
    if cls is None:
        raise GameNotFound(f"{where} defines no {class_name!r}")
    if not isinstance(cls, type):
        raise GameNotFound(f"{where}:{class_name} is not a class")
    return cls


def build_game(spec: str, assignments: list[str]) -> Any:
    """An instance of the named game, with NAME=VALUE parameters typed by its constructor
    (for an OpenSpiel game, by the game's own parameter defaults)."""
    if spec.startswith(OPENSPIEL):
        return build_openspiel_game(spec.removeprefix(OPENSPIEL), assignments)
    cls = find_game_class(spec)
    kwargs = parse_assignments(cls, assignments)
    if "name" in kwargs:
        raise ParameterError(
            f"{spec}: a parameter called 'name' would rename the game; call it otherwise"
        )
    try:
        game = cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise GameNotFound(f"{spec}: {exc}") from None
    except Exception as exc:  # the user's constructor: any failure is one line
        raise GameNotFound(f"{spec}: the constructor raised {type(exc).__name__}: {exc}") from None
    check_protocol(game)
    return game


def build_openspiel_game(spec: str, assignments: list[str]) -> Any:
    """The bridged OpenSpiel game of ``spec`` ("connect_four" or "mnk(m=4,n=4,k=3)") with
    NAME=VALUE parameters; keep_histories and scored go to the bridge."""
    try:
        from ..openspiel.adapter import from_openspiel
        from ..openspiel.loading import parameter_defaults
    except ImportError:
        raise GameNotFound(
            f"{OPENSPIEL}{spec} needs OpenSpiel, which is not installed: "
            "pip install perfectplay[openspiel]"
        ) from None
    defaults = parameter_defaults(spec.partition("(")[0].strip())
    options: dict[str, Any] = {}
    parameters: dict[str, Any] = {}
    for text in assignments:
        name, sep, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise ParameterError(f"--param wants NAME=VALUE, got {text!r}")
        wanted = BRIDGE_OPTIONS.get(name)
        if wanted is None and name not in defaults:
            known = ", ".join([*sorted(defaults), *BRIDGE_OPTIONS])
            raise ParameterError(f"unknown parameter {name!r}; this game takes: {known}")
        kind = wanted if wanted is not None else type(defaults[name])
        try:
            value = convert(raw.strip(), kind)
        except ValueError as exc:
            raise ParameterError(
                f"parameter {name}={raw!r}: expected {kind.__name__} ({exc})"
            ) from None
        (options if wanted is not None else parameters)[name] = value
    return from_openspiel(spec, **options, **parameters)


def _load_file(path_text: str) -> Any:
    path = Path(path_text)
    if not path.is_file():
        raise GameNotFound(f"no such file: {path_text}")
    # A name stable across processes: numba's disk cache refers to functions by module.
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    name = f"{LOADED_FROM_FILE}{digest}"
    try:
        module = module_from_file(name, path, beside=True)
    except SyntaxError as exc:
        raise GameNotFound(f"{path_text}:{exc.lineno}: syntax error: {exc.msg}") from None
    except GameError as exc:  # perfectplay's words on a class it defines (a compiled game)
        raise GameNotFound(f"{path_text}: {exc}") from None
    except Exception as exc:
        raise GameNotFound(f"{path_text} raised {type(exc).__name__}: {exc} on loading") from None
    if module is None:
        raise GameNotFound(f"cannot load {path_text} as Python")
    return module


def _load_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise GameNotFound(f"cannot import module {name!r}: {exc}") from None
    except Exception as exc:
        raise GameNotFound(f"module {name!r} raised {type(exc).__name__}: {exc}") from None
