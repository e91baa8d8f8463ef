"""OpenSpiel and perfectplay, both ways: solve OpenSpiel's perfect-information games
exactly (``from_openspiel``), play perfectly as an OpenSpiel bot (``PerfectBot``), grade an
agent's every decision against solved values (``grade``), and run OpenSpiel's algorithms on
a perfectplay game (``register``).

Needs OpenSpiel (``pip install perfectplay[openspiel]``); ``import perfectplay`` never
imports it, only this package does.
"""

from __future__ import annotations

INSTALL = "pip install perfectplay[openspiel]"

try:
    from .adapter import Move, OpenSpielGame, from_openspiel
    from .bot import PerfectBot
    from .grade import Grade, grade, policy_share
    from .loading import UnsupportedGame, load_openspiel
    from .register import register
except ModuleNotFoundError as missing:
    if missing.name != "pyspiel":
        raise
    raise ImportError(f"OpenSpiel is not installed; {INSTALL}") from None

__all__ = [
    "INSTALL",
    "Grade",
    "Move",
    "OpenSpielGame",
    "PerfectBot",
    "UnsupportedGame",
    "from_openspiel",
    "grade",
    "load_openspiel",
    "policy_share",
    "register",
]
