"""A game's identity: what a saved solve must match before it answers for the game.

The name and class of the game, the values of its constructor parameters, and a fingerprint
of its rules' behaviour: a hash of what seeded random playouts meet (keys, ends, moves, and
for tier games the tiers and ranks), so that editing a comment keeps a tablebase valid and
changing a rule does not.
"""

from __future__ import annotations

import hashlib
import inspect
import random
from pathlib import Path
from typing import Any

import numpy as np

from .rules import Rules

LOADED_FROM_FILE = "perfectplay_user_"
"""How the command line's loader names the module of a game file it loads by path."""


def identity_of(rules: Rules[Any, Any]) -> dict[str, Any]:
    """What a saved solve must match: the game's name and class, the values of its
    constructor parameters, and a fingerprint of its rules' behaviour (a hash of seeded
    random playouts: keys, ends, moves, tiers and ranks met), so that editing a comment
    keeps a tablebase valid and changing a rule does not."""
    cls = type(rules.game)
    parameters: dict[str, Any] = {}
    try:
        names = list(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        names = []
    state = vars(rules.game) if hasattr(rules.game, "__dict__") else {}
    for name in names:
        value = state.get(name)
        if isinstance(value, (bool, int, float, str)) or (
            isinstance(value, tuple) and all(isinstance(v, (int, float, str)) for v in value)
        ):
            parameters[name] = list(value) if isinstance(value, tuple) else value
    found = {
        "game": rules.name,
        "class": cls.__qualname__,
        "parameters": parameters,
        "fingerprint": fingerprint(rules),
    }
    source = _source_file(cls)
    if source is not None:  # a game loaded from a file: where to load it again (verify)
        found[SOURCE] = source
    return found


SOURCE = "file"
"""The identity's note of the file a game was loaded from: not part of what must match (a
moved file, a Dask worker that got the class by value, a solve begun before it was noted
are the same game)."""


def same_game(found: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Whether two identities name the same game and parameters, with the same rules."""
    return {k: v for k, v in found.items() if k != SOURCE} == {
        k: v for k, v in expected.items() if k != SOURCE
    }


def _source_file(cls: type) -> str | None:
    """The file of a game the command line loaded by its path (``file.py:Class``): not a
    module's class (run again as a bare file, its relative imports would fail), nor a
    script's, nor perfectplay's own."""
    if not cls.__module__.startswith(LOADED_FROM_FILE) or "." in cls.__qualname__:
        return None
    try:
        path = inspect.getsourcefile(cls)
    except (TypeError, OSError):
        return None
    if not path or not Path(path).is_file():
        return None
    return str(Path(path).resolve())


def fingerprint(rules: Rules[Any, Any], playouts: int = 8, plies: int = 200) -> str:
    """SHA-256 of what seeded random playouts meet (see ``identity``)."""
    digest = hashlib.sha256()
    for seed in range(playouts):
        pick = random.Random(seed)
        state = rules.initial_state()
        for _ in range(plies):
            key = rules.key_of(state)
            facts: list[Any] = [key, rules.outcome(state)]
            # An engine's ranking follows from the rules: its tiers alone are fingerprinted
            # (ranks would mean finding every position first).
            if rules.tiers is not None and isinstance(key, int) and rules.tiers.ranked_by_engine:
                code = np.array([key], dtype=np.int64)
                facts.append(
                    int(rules.tiers.batch_tier(code)[0]) if rules.tiers.batch_tier else None
                )
            elif rules.tiers is not None and isinstance(key, int):
                code = np.array([key], dtype=np.int64)
                tier = rules.tiers.batch_tier(code)[0] if rules.tiers.batch_tier else None
                facts += [
                    tier,
                    None if tier is None else rules.tiers.batch_rank(int(tier), code)[0],
                ]
            moves = rules.legal_moves(state)
            facts.append([rules.format_move(m) for m in moves])
            digest.update(repr(facts).encode())
            if not moves:
                break
            state = rules.play(state, moves[pick.randrange(len(moves))])
    return digest.hexdigest()
