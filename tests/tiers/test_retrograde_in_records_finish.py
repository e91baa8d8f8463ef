"""The end of a tier solved in its records (``retrograde_in_records._finish``): what stayed
open is a DRAW, every other record kept, and the counts those of the records written;
compiled and interpreted, against numpy, on random records."""

from __future__ import annotations

import numpy as np
import pytest

from perfectplay.core.records import REACHED, RecordFormat, TierSummary
from perfectplay.tiers import retrograde_in_records as rir


@pytest.mark.parametrize("how", ["interpreted", "compiled"])
@pytest.mark.parametrize("seed", range(6))
def test_open_records_become_draws_and_the_counts_are_the_records(how: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    record = RecordFormat(2)
    values = rng.choice([0, 1, 2, 3, REACHED], 5000).astype(np.uint16)
    flat = (values << record.shift) | rng.integers(0, 40, 5000).astype(np.uint16)
    flat[values == 0] = 0
    want = np.where(values == REACHED, np.uint16(4 << record.shift), flat).astype(np.uint16)
    tally = np.zeros(1 << 16, dtype=np.int64)
    run = rir._drawn_tallied.interpreted if how == "interpreted" else rir._drawn_tallied.compiled
    block = flat.copy()
    run(block, record.shift, tally)
    assert (block == want).all() and (values == REACHED).any()
    assert (tally == np.bincount(want, minlength=1 << 16)).all()
    got, expected = rir._finish(flat.copy(), record), TierSummary()
    expected.add_records(want, record)
    assert (got.positions, got.values, got.remoteness) == (
        expected.positions,
        expected.values,
        expected.remoteness,
    )
    assert got.positions == int(np.count_nonzero(want))
