"""Finding a game by name: a built-in, ``path/to/file.py:ClassName`` or ``module:ClassName``.

Loading a game from a file or module runs that code (and only that): it is the user's own.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from ..errors import GameNotFound
from ..games import BUILTINS
from ..rules import check_protocol
from .params import parse_assignments


def find_game_class(spec: str) -> type:
    """The class a game name refers to."""
    if spec in BUILTINS:
        return BUILTINS[spec]
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
    """An instance of the named game, with NAME=VALUE parameters typed by its constructor."""
    cls = find_game_class(spec)
    kwargs = parse_assignments(cls, assignments)
    try:
        game = cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise GameNotFound(f"{spec}: {exc}") from None
    check_protocol(game)
    return game


def _load_file(path_text: str) -> Any:
    path = Path(path_text)
    if not path.is_file():
        raise GameNotFound(f"no such file: {path_text}")
    name = f"perfectplay_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise GameNotFound(f"cannot load {path_text} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise GameNotFound(f"{path_text}:{exc.lineno}: syntax error: {exc.msg}") from None
    except Exception as exc:
        raise GameNotFound(f"{path_text} raised {type(exc).__name__}: {exc} on loading") from None
    return module


def _load_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise GameNotFound(f"cannot import module {name!r}: {exc}") from None
    except Exception as exc:
        raise GameNotFound(f"module {name!r} raised {type(exc).__name__}: {exc}") from None
