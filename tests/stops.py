"""A function stopped midway as Ctrl-C would stop it, for the tests of work taken up again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def stopping_at(function: Callable[..., Any], call: int) -> Callable[..., Any]:
    """``function``, raising KeyboardInterrupt instead on its ``call``-th call."""
    calls = [0]

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == call:
            raise KeyboardInterrupt
        return function(*args, **kwargs)

    return stopping
