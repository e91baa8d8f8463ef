"""Connect Four on any board, solved by every method the library has.

The modules, each importing only those before it:

- ``board``: the bitboard encoding (drawn in its docstring) and the rules, each written
  once as an inlined kernel: the line test, the disc mask of a code, the drop.
- ``kernels``: the batch rules over arrays of codes (outcome, expansion), each a kernel
  with its numpy twin for interpreted runs.
- ``ranking``: the tier ranking, positions of t discs <-> dense indices, and its tables.
- ``children``: moves ranked straight into the next tier, from codes or from indices.
- ``sweeps``: the fused tier sweeps that mark and solve a window of a tier by index.
- ``tiers``: ``DiscTiers``, the tables of one board size and the tier hooks' kernel runs.
- ``search`` (with its template ``search_template`` and ``intrinsics``): the rules of the
  compiled alpha-beta search, loaded with numba only when asked for.
- ``game``: the ``ConnectFour`` class, a section per protocol.
"""

from .game import ConnectFour

__all__ = ["ConnectFour"]
