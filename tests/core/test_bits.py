"""``core.bits.popcount``: the machine's count, compiled, equals Python's count of bits, run
plainly, on random words of every width up to 63 bits, alone and inside a kernel."""

from __future__ import annotations

import numpy as np

from perfectplay.core.bits import gather, popcount, scatter
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


@kernel
def _gathered(words: np.ndarray, masks: np.ndarray, out: np.ndarray, back: np.ndarray) -> None:
    for i in range(words.shape[0]):
        out[i] = gather(words[i], masks[i])
        back[i] = scatter(out[i], masks[i])


def _by_cells(word: int, mask: int) -> int:
    """The bits of word at mask's set bits, packed low: cell by cell."""
    cells = [c for c in range(63) if mask >> c & 1]
    return sum(1 << k for k, c in enumerate(cells) if word >> c & 1)


def test_gather_and_scatter_compiled_and_plain_are_the_cell_by_cell_answers() -> None:
    """BMI2's pext and pdep where the machine has them (else a loop compiled): the same as
    packing cell by cell, scatter undoing gather on the mask's cells, on random words and
    masks of every density."""
    rng = np.random.default_rng(8)
    n = 5_000
    words = rng.integers(0, 2**63 - 1, n, dtype=np.int64)
    keep = rng.integers(0, 64, n)
    masks = rng.integers(0, 2**63 - 1, n, dtype=np.int64) & (
        rng.integers(0, 2**63 - 1, n, dtype=np.int64) | (keep > 32) * (2**63 - 1)
    )
    masks[:3] = [0, 2**63 - 1, 1 << 62]
    expected = [_by_cells(w, m) for w, m in zip(words.tolist(), masks.tolist(), strict=True)]
    for run in (_gathered.compiled, _gathered.interpreted):
        out, back = np.empty_like(words), np.empty_like(words)
        run(words, masks, out, back)
        assert out.tolist() == expected
        assert back.tolist() == (words & masks).tolist()
    assert gather.compiled(0b1011_0110, 0b1111_0000) == 0b1011 == gather(0b1011_0110, 0b1111_0000)
    assert scatter.compiled(0b101, 0b1110_0000) == 0b1010_0000 == scatter(0b101, 0b1110_0000)
