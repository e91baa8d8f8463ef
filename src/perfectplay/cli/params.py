"""Game parameters from the command line: NAME=VALUE text typed by the constructor's hints."""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any

from ..errors import ParameterError


@dataclass(frozen=True)
class Parameter:
    """One constructor parameter of a game: its name, type and default."""

    name: str
    annotation: Any
    default: Any

    @property
    def type_name(self) -> str:
        """The type as a person reads it: int, bool, list of int..."""
        return _type_name(self.annotation)

    @property
    def required(self) -> bool:
        """True when the constructor has no default for it."""
        return self.default is inspect.Parameter.empty


def parameters(cls: type) -> list[Parameter]:
    """The constructor parameters of a game class, with their resolved type hints."""
    # The constructor as attribute lookup finds it: the first class in the MRO defining one.
    init = next(c.__dict__["__init__"] for c in cls.__mro__ if "__init__" in c.__dict__)
    try:
        hints = typing.get_type_hints(init)
    except Exception:
        hints = {}
    result = []
    for name, param in inspect.signature(init).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        result.append(Parameter(name, hints.get(name, _typed_by(param.default)), param.default))
    return result


def _typed_by(default: Any) -> Any:
    """The type of a parameter without a hint: its default's (bool, int, float; a tuple or
    list of those), else text."""
    if isinstance(default, (bool, int, float)):
        return type(default)
    if isinstance(default, (tuple, list)) and default:
        kinds = {type(item) for item in default}
        if len(kinds) == 1 and kinds <= {bool, int, float}:
            item = kinds.pop()
            return tuple[item, ...] if isinstance(default, tuple) else list[item]  # type: ignore[valid-type]
    return str


def parse_assignments(cls: type, assignments: list[str]) -> dict[str, Any]:
    """Turn ["piles=3,4,5", "misere=true"] into constructor keyword arguments."""
    known = {p.name: p for p in parameters(cls)}
    kwargs: dict[str, Any] = {}
    for text in assignments:
        name, sep, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise ParameterError(f"--param wants NAME=VALUE, got {text!r}")
        if name not in known:
            choices = ", ".join(known) or "none"
            raise ParameterError(f"unknown parameter {name!r}; this game takes: {choices}")
        if name in kwargs:
            raise ParameterError(f"parameter {name} is given twice; give it once")
        try:
            kwargs[name] = convert(raw.strip(), known[name].annotation)
        except ValueError as exc:
            raise ParameterError(
                f"parameter {name}={raw!r}: expected {known[name].type_name} ({exc})"
            ) from None
    missing = [p.name for p in known.values() if p.required and p.name not in kwargs]
    if missing:
        raise ParameterError(f"missing parameter(s): {', '.join(missing)} (use --param NAME=VALUE)")
    return kwargs


def convert(raw: str, annotation: Any) -> Any:
    """Read text as a value of ``annotation``; ValueError when it does not fit."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in args:
            if option is type(None):
                if raw.lower() in ("none", ""):
                    return None
                continue
            try:
                return convert(raw, option)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError("; ".join(errors))
    if origin in (tuple, list):
        item = args[0] if args else str
        parts = [p.strip() for p in raw.split(",")] if raw.strip() else []
        items = [convert(p, item) for p in parts]
        return tuple(items) if origin is tuple else items
    if annotation is bool:
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{raw!r} is not true or false")
    if annotation is int:
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"{raw!r} is not a whole number") from None
    if annotation is float:
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"{raw!r} is not a number") from None
    return raw


def _type_name(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (tuple, list):
        return f"list of {_type_name(args[0]) if args else 'str'} (comma-separated)"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args if a is not type(None))
    return getattr(annotation, "__name__", str(annotation))
