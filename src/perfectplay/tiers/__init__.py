"""The tier engine, in one place: games solved tier by tier, out of core, into tablebases.

A tier is a set of positions that moves never leave backward (Connect Four: the discs on
the board). Each tier is one file of records (``core.records``: value and remoteness in one
or two bytes an index; ``files``: written atomically and hashed), solved after its child
tiers, so only a tier and its children are in memory. Read in this order:

- ``graph``: the tier graph of a game ranked by hand (its ``tier_size`` / ``rank`` hooks) or
  by the engine (``compiled_games``: ``discovery``, every position found forward from
  the start; ``code_sets``, each tier's sorted codes, a child's index its rank among them;
  ``ranking``, the code sets of every tier kept in files), and chunks of a tier's
  positions with their children ranked.
- ``marking``: what play reaches, marked tier by tier, root first; ``sweeps``: the game's
  own sweeps run over a tier's windows.
- ``solve``: the driver, tiers leaves first, each by the method the table of tier
  methods (``methods``) chooses: a loop-free tier by a sweep or a chunk at a time
  (backward induction), a loopy tier by ``retrograde_by_edges`` (its moves laid out whole,
  O(moves)), ``retrograde_in_records`` (counters kept in the records: no memory beyond
  them), ``retrograde_by_unmoves`` (frontiers of remoteness through un-moves) or
  ``value_iteration`` (rounds, a pass over the tier each: no un-moves needed).
- ``tablebase.build``: a solve into a tablebase directory, resumed from finished tiers;
  ``tablebase.on_dask``: the same on a Dask cluster, with the same bytes.
"""
