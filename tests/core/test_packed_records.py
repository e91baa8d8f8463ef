"""Packing 2-byte records into one byte (``core.packed_records``): every one of the 65,536
records, compiled and interpreted, against the table that reads the bytes back."""

from __future__ import annotations

import numpy as np
import pytest

from perfectplay.core.packed_records import DECODE, _packed


@pytest.mark.parametrize("how", ["interpreted", "compiled"])
def test_each_record_packs_to_the_byte_that_reads_back_as_it_or_is_refused(how: str) -> None:
    """A record packs exactly when some byte reads back as it, and then to that byte."""
    stands_for = {int(DECODE[code]): code for code in range(255)}  # (255: unused)
    run = _packed.interpreted if how == "interpreted" else _packed.compiled
    packed = 0
    for record in range(1 << 16):
        codes = np.full(1, 255, dtype=np.uint8)
        fits = run(np.array([record], dtype=np.uint16), codes)
        assert fits == (record in stands_for), record
        if fits:
            assert codes[0] == stands_for[record] and DECODE[codes[0]] == record
            packed += 1
    assert packed == 255  # none, 253 plies' wins or losses, a draw
