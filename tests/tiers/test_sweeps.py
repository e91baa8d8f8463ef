"""The tier sweeps (batch_mark_tier, batch_solve_tier) against the chunked path they replace.

Connect Four's sweeps walk a window of a tier index by index, stepping from one colouring to
the next instead of unranking each; here they run on random windows of many boards,
compiled and interpreted, and must mark exactly the children batch_expand_tier gives and
record what retrograde analysis decides (written out in this file). Tablebases built with
and without them are byte for byte the same, and the self-test catches sweeps that lie.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import build_tablebase
from perfectplay.checking import check_game
from perfectplay.core import compiled
from perfectplay.core.records import (
    TOO_REMOTE,
    UNSOLVED_CHILD,
    RecordFormat,
    sweep_codes,
    tally_records,
)
from perfectplay.games import ConnectFour
from perfectplay.tablebase.header import read_header
from perfectplay.tiers.one_pass import combine
from perfectplay.values import Value

RECORD = RecordFormat(1)
CODES = sweep_codes(RECORD)
BOARDS = [(4, 4, 4), (5, 4, 4), (6, 4, 4), (3, 3, 3), (4, 7, 3), (7, 6, 4), (5, 3, 3)]
LARGEST = 1 << 23  # child tiers up to this many indices are held whole in a test


def _window(game: ConnectFour, tier: int, rng: np.random.Generator) -> tuple[int, int]:
    """A random window of a tier, often starting inside a column filling."""
    size = game.tier_size(tier)
    length = int(rng.integers(1, 3000))
    start = int(rng.integers(0, max(1, size - length)))
    return start, min(size, start + length)


def _expected_marks(game: ConnectFour, tier: int, indices: Any) -> tuple[Any, set[int]]:
    """(record of each index after marking, the child indices to be marked), from
    batch_expand_tier (tested elsewhere against a reference on a grid)."""
    if tier == game.width * game.height:  # a full board: expand_tier declines
        outcome = game.batch_outcome(game.batch_unrank(tier, indices))
        return CODES.ended[outcome].astype(RECORD.dtype), set()
    found = game.batch_expand_tier(tier, indices)
    assert found is not None
    outcome, _, child_index = found
    records = np.where(outcome == 0, CODES.reached, CODES.ended[outcome])
    return records.astype(RECORD.dtype), set(np.asarray(child_index).tolist())


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(("width", "height", "connect"), BOARDS)
def test_marking_sweep_records_ends_and_marks_the_children(
    width: int, height: int, connect: int, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(width, height, connect)
    rng = np.random.default_rng(width * 100 + height * 10 + connect)
    for tier in range(width * height + 1):
        child_size = game.tier_size(tier + 1) if tier < width * height else 0
        if child_size > LARGEST:
            continue
        start, stop = _window(game, tier, rng)
        reached = rng.random(stop - start) < 0.6
        records = np.where(reached, CODES.reached, 0).astype(RECORD.dtype)
        child = np.zeros(child_size, dtype=RECORD.dtype)
        visited = game.batch_mark_tier(tier, start, records, child, CODES)
        indices = start + np.flatnonzero(reached)
        want_records, want_children = _expected_marks(game, tier, indices)
        assert visited == indices.size, tier
        assert np.array_equal(records[reached], want_records), tier
        assert not records[~reached].any(), tier
        assert set(np.flatnonzero(child).tolist()) == want_children, tier
        assert set(child[child != 0].tolist()) <= {CODES.reached}, tier


def _retrograde(child_records: list[int], record: RecordFormat) -> int:
    """A position's record from its children's, as retrograde analysis decides."""
    values = [(r >> record.shift, r & record.max_remoteness) for r in child_records]
    wins = [p + 1 for v, p in values if v == Value.LOSS]
    ties = [p + 1 for v, p in values if v == Value.TIE]
    if wins:
        return (int(Value.WIN) << record.shift) | min(wins)
    if ties:
        return (int(Value.TIE) << record.shift) | min(ties)
    return (int(Value.LOSS) << record.shift) | (max(p for _, p in values) + 1)


def _random_records(size: int, rng: np.random.Generator, record: RecordFormat) -> Any:
    values = rng.choice([int(Value.WIN), int(Value.LOSS), int(Value.TIE)], size)
    plies = rng.integers(0, min(record.max_remoteness, 200), size)
    return ((values << record.shift) | plies).astype(record.dtype)


def _check_solving(game: ConnectFour, rng: np.random.Generator, record: RecordFormat) -> None:
    """Mark then solve a random window of every tier (whose next tier a test can hold)
    over random child records, and compare each solved record with ``_retrograde``."""
    codes = sweep_codes(record)
    for tier in range(game.width * game.height):
        child_size = game.tier_size(tier + 1)
        if child_size > LARGEST:
            continue
        start, stop = _window(game, tier, rng)
        reached = rng.random(stop - start) < 0.6
        records = np.where(reached, codes.reached, 0).astype(record.dtype)
        marks = np.zeros(child_size, dtype=record.dtype)
        game.batch_mark_tier(tier, start, records, marks, codes)  # ends recorded
        going = records == codes.reached
        ended = records.copy()
        child = _random_records(child_size, rng, record)
        solved = game.batch_solve_tier(tier, start, records, child, codes)
        assert solved == int(going.sum()), tier
        assert np.array_equal(records[~going], ended[~going]), tier  # ends left alone
        found = game.batch_expand_tier(tier, start + np.flatnonzero(going))
        assert found is not None
        _, parents, child_index = found
        rows = np.flatnonzero(going)
        for row in range(rows.size):
            kids = child_index[parents == row].tolist()
            want = _retrograde([int(child[k]) for k in kids], record)
            assert int(records[rows[row]]) == want, tier


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(("width", "height", "connect"), BOARDS)
def test_solving_sweep_decides_as_retrograde_analysis(
    width: int, height: int, connect: int, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(width, height, connect)
    _check_solving(game, np.random.default_rng(width * 1000 + height * 10 + connect), RECORD)


@pytest.mark.parametrize(("width", "height", "connect"), [(4, 4, 4), (6, 4, 4), (3, 3, 3)])
def test_solving_sweep_reads_and_writes_two_byte_records(
    width: int, height: int, connect: int
) -> None:
    """Games longer than 31 plies keep 2-byte records: the same sweeps on uint16 arrays."""
    game = ConnectFour(width, height, connect)
    _check_solving(game, np.random.default_rng(width + height + connect), RecordFormat(2))


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_solving_sweep_reports_unsolved_children_and_remoteness_past_the_records(
    mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    game = ConnectFour(4, 4)
    records = np.array([CODES.reached], dtype=RECORD.dtype)
    child = np.zeros(game.tier_size(1), dtype=RECORD.dtype)
    assert game.batch_solve_tier(0, 0, records, child, CODES) == UNSOLVED_CHILD
    assert records[0] == CODES.reached  # nothing written
    child[:] = (int(Value.WIN) << RECORD.shift) | RECORD.max_remoteness  # lost in 32 plies
    assert game.batch_solve_tier(0, 0, records, child, CODES) == TOO_REMOTE
    child[:] = (int(Value.WIN) << RECORD.shift) | (RECORD.max_remoteness - 1)
    assert game.batch_solve_tier(0, 0, records, child, CODES) == 1
    assert records[0] == (int(Value.LOSS) << RECORD.shift) | RECORD.max_remoteness


@pytest.mark.parametrize("record_bytes", [1, 2])
def test_worth_and_record_of_choose_as_the_chunked_combine(record_bytes: int) -> None:
    """The sweeps' tables give, on random sets of child records, what ``combine`` (the
    chunked path's kernel) gives: best = max of worth, record = record_of[best + 1]."""
    record = RecordFormat(record_bytes)
    codes = sweep_codes(record)
    rng = np.random.default_rng(record_bytes)
    for _ in range(300):
        moves = int(rng.integers(1, 7))
        values = rng.choice([1, 2, 3, 4], moves)
        plies = rng.integers(0, record.max_remoteness, moves)
        plies[values == 4] = 0
        children = (values.astype(np.int64) << record.shift) | plies
        best = max(int(codes.worth[c]) for c in children)
        value, remoteness = combine(
            np.zeros(1, dtype=np.int8),
            np.zeros(1, dtype=np.int64),
            np.zeros(moves, dtype=np.int64),
            values.astype(np.uint8),
            plies.astype(np.int32),
            np.zeros(0, dtype=np.bool_),
        )
        want = (int(value[0]) << record.shift) | int(remoteness[0])
        assert int(codes.record_of[best + 1]) == want, (values, plies)


class Unswept(ConnectFour):
    """Connect Four that declines both sweeps: the tier solver goes by chunks."""

    def batch_mark_tier(self, *args: Any) -> None:
        return None

    def batch_solve_tier(self, *args: Any) -> None:
        return None


class MarkedOnly(ConnectFour):
    """Connect Four that marks by sweeps (ends recorded) but declines to solve by them."""

    def batch_solve_tier(self, *args: Any) -> None:
        return None


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_swept_and_chunked_solves_write_the_same_tablebase(
    tmp_path: Path, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    bases = {}
    for name, game in (("swept", ConnectFour(4, 4)), ("chunked", Unswept(4, 4)),
                       ("marked", MarkedOnly(4, 4))):  # fmt: skip
        build_tablebase(game, tmp_path / name)
        bases[name] = read_header(tmp_path / name)
    swept = bases["swept"]
    for name, other in bases.items():
        assert other.counts() == swept.counts(), name
        for tier, entry in swept.tiers.items():
            assert (tmp_path / "swept" / entry.file).read_bytes() == (
                tmp_path / name / other.tiers[tier].file
            ).read_bytes(), (name, tier)


class LyingMarks(ConnectFour):
    """Connect Four whose marking sweep marks one child index too many."""

    def batch_mark_tier(self, tier: int, start: int, records: Any, child: Any, codes: Any) -> Any:
        visited = super().batch_mark_tier(tier, start, records, child, codes)
        marked = np.flatnonzero(child)
        if marked.size and marked[-1] + 1 < child.shape[0]:
            child[marked[-1] + 1] = codes.reached
        return visited


class LyingSolves(ConnectFour):
    """Connect Four whose solving sweep adds a ply to every remoteness."""

    def batch_solve_tier(self, tier: int, start: int, records: Any, child: Any, codes: Any) -> Any:
        going = records == codes.reached
        solved = super().batch_solve_tier(tier, start, records, child, codes)
        records[going] += 1
        return solved


@pytest.mark.parametrize(("game", "hook"), [(LyingMarks, "batch_mark_tier"),
                                            (LyingSolves, "batch_solve_tier")])  # fmt: skip
def test_check_finds_sweeps_that_lie(game: Any, hook: str) -> None:
    problems = check_game(game(4, 4), samples=200)
    assert problems and all(hook in p for p in problems)
    assert check_game(ConnectFour(4, 4), samples=200) == []


def test_sweeps_refuse_windows_they_cannot_index_safely() -> None:
    """The compiled sweeps check no index: a window past the tier, a child array of the
    wrong length, or records of another type than the codes were made for are refused."""
    game = ConnectFour(4, 4)
    size, child_size = game.tier_size(3), game.tier_size(4)
    records = np.full(4, CODES.reached, dtype=RECORD.dtype)
    child = np.zeros(child_size, dtype=RECORD.dtype)
    with pytest.raises(ValueError, match="window"):
        game.batch_mark_tier(3, size - 2, records, child, CODES)
    with pytest.raises(ValueError, match="window"):
        game.batch_mark_tier(3, 0, records, child[:-1], CODES)
    wide = np.zeros(child_size, dtype=np.uint16)
    with pytest.raises(ValueError, match="window"):
        game.batch_solve_tier(3, 0, records, wide, CODES)
    with pytest.raises(ValueError, match="window"):
        game.batch_solve_tier(3, 0, records.astype(np.uint16), wide, CODES)
    assert game.batch_mark_tier(3, 0, records, child, CODES) == 4


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize(("length", "dtype"), [(0, np.uint8), (4099, np.uint8),
                                                (3001, np.uint16)])  # fmt: skip
def test_records_are_tallied_as_bincount_counts_them(
    length: int, dtype: Any, mode: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(compiled, "MODE", mode)
    rng = np.random.default_rng(length)
    records = rng.integers(0, np.iinfo(dtype).max + 1, length).astype(dtype)
    records[: length // 2] = records[0] if length else 0  # long runs of one record
    tally = np.full(np.iinfo(dtype).max + 1, 7, dtype=np.int64)
    tally_records(records, tally)
    assert np.array_equal(tally - 7, np.bincount(records, minlength=tally.shape[0]))


def _resident_pages(array: Any) -> int:
    """Pages of a mapped array resident in this process (its mapping's Rss in smaps)."""
    address = array.ctypes.data
    with open("/proc/self/smaps") as smaps:
        inside = False
        for line in smaps:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                low, high = (int(x, 16) for x in head.split("-"))
                inside = low <= address < high
            elif inside and head == "Rss:":
                return int(line.split()[1]) * 1024 // 4096
    raise AssertionError("the array is not mapped")


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="needs Linux's smaps")
def test_let_go_drops_pages_from_memory_and_keeps_what_they_hold(tmp_path: Path) -> None:
    """A window let go leaves the process's memory (only whole pages inside it), and what
    was written there is still read back, and is in the file once flushed."""
    from perfectplay.tiers.files import let_go

    size = 1 << 22
    path = tmp_path / "tier.partial"
    with path.open("wb") as handle:
        handle.truncate(size)
    records = np.memmap(path, dtype=np.uint8, mode="r+", shape=(size,))
    written = np.random.default_rng(0).integers(1, 256, size=size, dtype=np.uint8)
    records[:] = written
    before = _resident_pages(records)
    let_go(records, 1000, size - 1000)  # the first and last pages are partly outside
    after = _resident_pages(records)
    assert before >= size // 4096 and after == 2
    assert np.array_equal(np.asarray(records), written)
    records.flush()
    del records
    assert np.array_equal(np.fromfile(path, dtype=np.uint8), written)
    let_go(written, 0, size)  # not mapped: left alone


def test_marking_and_solving_keep_at_most_a_tier_and_its_child_mapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a tier is swept, only it and its child tier are mapped (a name left bound to
    the tier before's child kept a third map, and its pages, alive)."""
    import gc

    from perfectplay.tiers import sweeps

    sweep = sweeps.sweep_tier
    most = []

    def counting(*args: Any) -> Any:
        gc.collect()
        # type(), not isinstance: isinstance would look through a dead weak proxy and raise;
        # only this build's maps count (other tests may leave theirs to the collector)
        most.append(sum(type(o) is np.memmap and o._mmap is not None
                        and str(o.filename).startswith(str(tmp_path))
                        for o in gc.get_objects()))  # fmt: skip
        return sweep(*args)

    monkeypatch.setattr(sweeps, "sweep_tier", counting)
    build_tablebase(ConnectFour(4, 4), tmp_path / "base")
    assert len(most) > 10 and max(most) <= 2
