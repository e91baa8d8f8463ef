"""What a compiled game's class declares: its rule functions and its parameters.

Shared by the compiled forms (``form.CompiledGame``, one int64 a state, and
``wide.WideGame``, several): a subclass writes its rules as functions in the class body,
which are moved out of the class into ``rule_functions`` (so ``game.moves`` can be the plain
method), and declares its parameters as annotated int or bool class attributes with
defaults, which become keyword arguments of its constructor, in declaration order.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..errors import GameError


def take_rules(cls: type, names: tuple[str, ...]) -> dict[str, Any]:
    """The rule functions ``cls`` and its bases write, by name, moved out of ``cls``; a
    rule set to None (``key = None``) drops an inherited one."""
    found = dict(getattr(cls, "rule_functions", {}))
    for name in names:
        raw = cls.__dict__.get(name)
        if raw is None:
            if name in cls.__dict__:
                found.pop(name, None)
                delattr(cls, name)
            continue
        function = raw.__func__ if isinstance(raw, staticmethod) else raw
        if not callable(function):
            raise GameError(f"{cls.__name__}.{name} must be a function")
        found[name] = function
        delattr(cls, name)
    return found


def declared_parameters(cls: type) -> tuple[str, ...]:
    """The names of the int and bool parameters ``cls`` and its bases annotate, checked:
    each has a default, and none is a float (the rules are compiled for ints)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name, hint in inspect.get_annotations(klass).items():
            if hint in ("float", float) and klass is cls:
                raise GameError(
                    f"{cls.__name__}.{name}: a compiled game's parameters are ints or "
                    f"bools (the rules are compiled for them); a float is not one (say "
                    f"it in hundredths, as an int)"
                )
            if hint in ("int", "bool", int, bool) and name not in names:
                if not hasattr(cls, name):
                    raise GameError(
                        f"{cls.__name__}.{name} has no default: a compiled game's "
                        f"parameters are annotated class attributes with one "
                        f"({name}: {getattr(hint, '__name__', hint)} = ...)"
                    )
                names.append(name)
    return tuple(names)


def read_parameters(game: Any, params: dict[str, Any]) -> tuple[int, ...]:
    """Set each declared parameter on ``game`` from ``params`` or its default, checked to
    be an integer (a bool stays a bool); the values as the rules take them, in order."""
    for name in game.parameter_names:
        value: Any = params.get(name, getattr(type(game), name, None))
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, float) or not hasattr(value, "__index__"):
            raise ValueError(f"parameter {name} must be an integer, got {value!r}")
        default = getattr(type(game), name, 0)
        setattr(game, name, bool(value) if isinstance(default, bool) else int(value))
    return tuple(int(getattr(game, n)) for n in game.parameter_names)


def parameters_init(cls: type, names: tuple[str, ...]) -> Any:
    """A constructor taking the declared parameters as keywords, with their defaults, so
    that ``-p NAME=VALUE`` and identity read them like any game's; it calls
    ``self._setup(params)``."""

    def __init__(self: Any, **params: Any) -> None:
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise TypeError(
                f"{cls.__name__} has no parameter {unknown[0]!r}; it takes: "
                f"{', '.join(names) or 'none'}"
            )
        self._setup(params)

    annotations: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        annotations.update(inspect.get_annotations(klass))
    hints = {n: annotations.get(n, int) for n in names}
    resolved = {n: (bool if h in ("bool", bool) else int) for n, h in hints.items()}
    __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [
            inspect.Parameter(
                n, inspect.Parameter.KEYWORD_ONLY, default=getattr(cls, n), annotation=t
            )
            for n, t in resolved.items()
        ]
    )
    __init__.__annotations__ = {**resolved, "return": None}
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def declare(cls: Any, names: tuple[str, ...]) -> None:
    """A compiled form's subclass set up: its rule functions among ``names`` taken out of
    the class, its parameters read, its constructor made."""
    cls.rule_functions = take_rules(cls, names)
    cls.parameter_names = declared_parameters(cls)
    setattr(cls, "__init__", parameters_init(cls, cls.parameter_names))  # noqa: B010


def check_required(game: Any, required: tuple[str, ...], form: str) -> None:
    """GameError naming the rule functions ``game`` lacks of the ``required`` ones (``form``:
    "a compiled game", "a wide game")."""
    missing = [name for name in required if name not in game.rule_functions]
    if missing:
        raise GameError(
            f"{type(game).__name__} lacks the rule function(s) {', '.join(missing)} "
            f"({form} writes {', '.join(required)})"
        )
