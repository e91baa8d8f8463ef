"""The self-checks: a game's hooks compared with its plain rules, protocol by protocol.

``check_game`` (``perfectplay check GAME``) samples positions by random playouts and checks
every protocol the game offers against the plain one, the reference; ``presolve_problem``
runs a short sample before every solve of a game with optional rules, so that a wrong key
or wrong batch rules are never solved silently. One module a protocol:

- ``game``: the two entries, and what a solve is told when it must not start.
- ``sample``: the sample (playouts, the positions' keys as codes) and the key's check.
- ``batch``: the batch protocol against the plain rules; a compiled game's loops compiled
  and run plainly.
- ``tiers``: the tier protocol: ranks, child tiers, moves out of each tier, un-moves.
- ``sweeps``: a game's tier sweeps (``batch_mark_tier``, ``batch_solve_tier``).
- ``loops``: the engine's tier loops over a compiled game, against its ``expand``.

Only ``Rules`` reaches the game's hooks.
"""

from .game import Distrust, check_game, presolve_problem

__all__ = ["Distrust", "check_game", "presolve_problem"]
