"""The self-check's two entries: ``check_game`` (every protocol a game offers, on a sample)
and ``presolve_problem`` (a short sample before a solve, to refuse rules not to trust)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import GameError, PerfectplayError
from ..rules import Rules
from .batch import BatchCheck
from .sample import SHOWN
from .tiers import TierCheck


def check_game(game: Any, *, samples: int = 1000, seed: int = 0) -> list[str]:
    """The problems found in a sample of ``game``'s positions; [] when all is well."""
    try:
        check = TierCheck(Rules(game), samples, seed)
        check.playouts()
    except PerfectplayError as exc:
        return [str(exc)]
    try:
        if check.rules.key is not None:
            check.key_symmetry()
        if check.rules.batch is not None and check.codes():
            check.batch(check.rules.batch)
            if check.rules.engine_loops is not None:
                check.compiled_agreement(check.rules.engine_loops)
            if check.rules.tiers is not None:
                check.tiers(check.rules.tiers)
    except PerfectplayError as exc:  # a compiled game's rules that numba cannot compile
        check.lines.append(str(exc))
    except Exception as exc:  # a plain method failing on a move the playouts did not try
        check.lines.append(f"{check.rules.name}: {type(exc).__name__}: {exc}")
    more = [f"{check.rules.name}.{h}: {n - SHOWN} more" for h, n in check.count.items()]
    return check.lines + [
        line for line, n in zip(more, check.count.values(), strict=True) if n > SHOWN
    ]


@dataclass(frozen=True)
class Distrust:
    """Why a solve must not start: one line, and whether the rules themselves failed on a
    sampled position (else optional rules disagree with them)."""

    line: str
    rules_fail: bool


def presolve_problem(rules: Rules[Any, Any], samples: int = 200) -> Distrust | None:
    """Why a game's optional rules cannot be trusted on a short sample, or None: a key that
    is no symmetry of the rules, batch hooks that disagree with the plain rules, or (a
    compiled game's) the engine's tier loops disagreeing with its moves. Quick (a few
    hundred positions, the rules run as plain Python): run before every solve of a game
    with such rules, so that they are never solved silently wrong."""
    if rules.key is None and rules.batch is None:
        return None  # nothing beyond the plain rules to distrust
    check = BatchCheck(rules, samples, 0)
    check.playouts()
    if check.lines:
        return Distrust(check.lines[0], True)
    try:
        if rules.key is not None:
            check.key_symmetry()
        if not check.lines and rules.batch is not None and check.codes():
            check.batch(rules.batch)
            if not check.lines:
                check.engine_loops()
    except GameError as exc:  # the plain rules failing on a position the checks met
        return Distrust(str(exc), True)
    except Exception as exc:  # a hook failing outright is a disagreement too
        check.lines.append(f"{rules.name}: {type(exc).__name__}: {exc}")
    if not check.lines:
        return None
    more = sum(check.count.values()) - 1
    return Distrust(check.lines[0] + (f" (and {more} more)" if more > 0 else ""), False)
