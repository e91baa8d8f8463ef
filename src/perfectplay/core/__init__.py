"""The basics every package above may use, and which import nothing above them.

- ``compiled``: kernels, run interpreted on small inputs and compiled by numba on large
  ones; ``specialised``: templates copied per game, their globals set, compiled with
  numba's disk cache.
- ``arrays``: the array types kernels pass; ``parallel``: chunks of work on every core,
  their results applied in order; ``piece_lists``: lists of arrays for kernels.
- ``records``: a tier's 1- or 2-byte records of value and remoteness, and the
  ``SweepCodes`` a game's sweeps read them by; ``sorting`` and ``packed_codes``: sorted
  int64 codes, merged and packed.
- ``memory``: memory budgets, checked as work goes.
"""
