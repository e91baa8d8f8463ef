"""Reading a sector's children in the sectors beside it: numpy's indexing against the
first pass's compiled read that asks for each record ahead.

Run:  .venv/bin/python bench/records_beside.py DIR [--sector 8-6] [--pieces 40] [--rounds 3]

DIR is a finished build of Nine Men's Morris's database (``bench/morris_database.py``).
Takes ``--pieces`` pieces of 65,536 indices at random from the sector, lists their moves
leaving it (the mills), and reads each move's child record from the packed files of the
sectors beside it both ways, taking turns in one process: prints the nanoseconds a move
each way took, and checks that both read the same records. One thread.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.core.records import RecordFormat
from perfectplay.rules import Rules
from perfectplay.terminals import Terminals
from perfectplay.tiers.children_beside import Beside, read_by_indexing
from perfectplay.tiers.files import TierFiles
from perfectplay.tiers.graph import Chunk, TierGraph, moves_out_chunk, present_codes

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "morris.py"


def _by_numpy(beside: Beside, chunk: Chunk) -> Any:
    """The records as numpy's indexing reads them (the first pass's way until 2026-12-04)."""
    records = np.zeros(chunk.parents.shape[0], dtype=np.uint16)
    child_tier = np.asarray(chunk.child_tier, dtype=np.int64)
    read_by_indexing(beside.kids, child_tier, np.asarray(chunk.child_index), records)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--sector", default="8-6")
    parser.add_argument("--pieces", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("perfectplay_example_morris", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (registered: numba's cache finds the rules again)
    spec.loader.exec_module(module)
    game = module.MorrisMidgame(points=24, stones=9)
    graph = TierGraph(Rules(game))
    larger, smaller = sorted(int(side) for side in args.sector.split("-"))[::-1]
    tier = next(t for t in graph.order
                if {(m, o) for m, o, _ in game.tier_parts(t)} == {(larger, smaller),
                                                                  (smaller, larger)})  # fmt: skip
    progress = json.loads((args.directory / "progress.json").read_text())
    files = TierFiles(args.directory, RecordFormat(2), progress["identity"], pack=True)
    beside = Beside(graph, files, Terminals(graph.rules.name), tier)
    rng = np.random.default_rng(1)
    chunks = []
    for start in rng.integers(0, graph.sizes[tier] - 65_536, args.pieces):
        indices, codes = present_codes(graph, tier, np.arange(start, start + 65_536))
        chunks.append(moves_out_chunk(graph, beside.terminals, tier, indices, codes))
    moves = sum(chunk.parents.shape[0] for chunk in chunks)
    print(f"sector {args.sector} (tier {tier}): {moves / len(chunks):,.0f} moves leaving it "
          f"a piece of 65,536 indices")  # fmt: skip
    for _ in range(args.rounds):
        for label, read in (("numpy", _by_numpy), ("compiled", Beside._read_beside)):
            started = time.perf_counter()
            found = [read(beside, chunk) for chunk in chunks]
            seconds = time.perf_counter() - started
            total = sum(int(records.astype(np.int64).sum()) for records in found)
            print(f"{label:>9}: {seconds / moves * 1e9:5.1f} ns a move (records sum {total})")


if __name__ == "__main__":
    main()
