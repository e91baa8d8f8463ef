"""``core.bits.popcount``: the machine's count, compiled, equals Python's count of bits, run
plainly, on random words of every width up to 63 bits, alone and inside a kernel."""

from __future__ import annotations

import numpy as np

from perfectplay.core.bits import popcount
from perfectplay.core.compiled import kernel


@kernel
def _counts(words: np.ndarray, out: np.ndarray) -> None:
    for i in range(words.shape[0]):
        out[i] = popcount(words[i])


def test_the_machine_count_equals_the_plain_count() -> None:
    rng = np.random.default_rng(5)
    widths = rng.integers(0, 64, 20_000)
    words = (rng.integers(0, 2**63 - 1, 20_000, dtype=np.int64) >> (63 - widths)).astype(np.int64)
    words[:3] = [0, 1, 2**63 - 1]
    expected = [int(w).bit_count() for w in words.tolist()]
    compiled = np.empty_like(words)
    _counts.compiled(words, compiled)
    plain = np.empty_like(words)
    _counts.interpreted(words, plain)
    assert compiled.tolist() == expected == plain.tolist()
    assert popcount.compiled(2**40 + 7) == 4 == popcount(2**40 + 7)
