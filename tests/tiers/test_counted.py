"""First records counted while a tier alone in its game is marked in bits (``counted``):
the same tier as counting them in a pass of their own, whatever stops or spoils the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layered_games import one_loopy_tier, same_answers, wide_loopy_tier
from stops import stopping_at

from perfectplay import build_tablebase
from perfectplay.errors import InterruptedSolve
from perfectplay.games import Dobutsu
from perfectplay.tiers import counted, marking, reached_set, retrograde_in_records
from perfectplay.tiers import graph as tier_graph
from perfectplay.tiers.files import COUNTED


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """A list that grows by one each time ``module.name`` runs."""
    calls: list[int] = []
    function = getattr(module, name)

    def spied(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, spied)
    return calls


def _spy_ended(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows, with each marking of a chunk's children, by how many of them
    were found ending (``FreshMarks.add``'s rows)."""
    ended: list[int] = []
    add = reached_set.FreshMarks.add

    def spied(self: Any, *args: Any) -> Any:
        rows = add(self, *args)
        ended.append(rows.shape[0])
        return rows

    monkeypatch.setattr(reached_set.FreshMarks, "add", spied)
    return ended


def _build(directory: Path, game: Any) -> dict[str, Any]:
    build_tablebase(game, directory)
    return json.loads((directory / "header.json").read_text())


def _progress(directory: Path) -> dict[str, Any]:
    return json.loads((directory / "progress.json").read_text())


class _NoEnds(Dobutsu):
    """Dobutsu whose ranked children come without their ends."""

    def batch_ranked_children(self, tier: int, codes: Any) -> Any:
        parents, indices, _ = super().batch_ranked_children(tier, codes)
        return parents, indices


def _stopped_in_levels(
    game: Any, directory: Path, monkeypatch: pytest.MonkeyPatch, calls: int
) -> None:
    """A build of ``game`` into ``directory`` stopped (as by kill -9) at the ``calls``-th
    application of a level's parents."""
    with monkeypatch.context() as patch:
        patch.setattr(
            retrograde_in_records, "_apply", stopping_at(retrograde_in_records._apply, calls)
        )
        with pytest.raises(InterruptedSolve):
            build_tablebase(game, directory)


@pytest.mark.parametrize(("height", "pieces"), [(3, "c"), (3, "ge"), (4, "c")])
def test_first_records_counted_while_marking_give_the_tier_a_pass_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, height: int, pieces: str
) -> None:
    """Dobutsu variants: the marking counts a first record for every reached position
    (scattered, no counting pass; the ends among the children written as found, not
    followed), and the file is byte for byte the one a game without the children's ends
    gives (counted in a pass of their own); the files go with the bit sets once the
    tablebase is whole."""
    scattered = _spy(monkeypatch, retrograde_in_records, "_scatter_counted")
    passes = _spy(monkeypatch, retrograde_in_records, "_count_moves")
    ended = _spy_ended(monkeypatch)
    with_ends = _build(tmp_path / "ends", Dobutsu(height, pieces))
    assert scattered and not passes
    positions = with_ends["tiers"][0]["positions"]
    assert 0 < sum(ended) < positions  # ends found as children, never unranked and judged
    assert _progress(tmp_path / "ends")[COUNTED] == {"0": positions}
    assert not list((tmp_path / "ends").glob("*.counted*"))
    scattered.clear()
    without = _build(tmp_path / "pass", _NoEnds(height, pieces))
    assert passes and not scattered
    assert COUNTED not in _progress(tmp_path / "pass")
    assert without["tiers"] == with_ends["tiers"]


class _EndsForAWhile(Dobutsu):
    """Dobutsu whose ranked children come with their ends for the first few chunks only."""

    calls = 0

    def batch_ranked_children(self, tier: int, codes: Any) -> Any:
        parents, indices, found = super().batch_ranked_children(tier, codes)
        type(self).calls += 1
        return (parents, indices, found) if type(self).calls <= 3 else (parents, indices)


@pytest.mark.parametrize("how", ["hook", "disk"])
def test_first_records_given_up_midway_are_counted_in_a_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The marking gives its first records up after a few chunks (ends among the children
    already reached but never followed): a hook that stops giving the ends, or a disk
    that stops taking them. The files go, the moves are counted in a pass, the same tier."""
    whole = _build(tmp_path / "whole", Dobutsu(3, "ge"))
    monkeypatch.setattr(tier_graph, "CHUNK", 64)
    monkeypatch.setattr(marking, "CHUNK", 64)
    game: Any = Dobutsu(3, "ge")
    if how == "hook":
        _EndsForAWhile.calls = 0
        game = _EndsForAWhile(3, "ge")
    else:
        write = counted.CountedWriter.write
        calls = [0]

        def failing(self: Any, indices: Any, records: Any) -> None:
            calls[0] += 1
            if calls[0] == 6:
                self._handles[0] = _FullDisk()
            write(self, indices, records)

        monkeypatch.setattr(counted.CountedWriter, "write", failing)
    ended = _spy_ended(monkeypatch)
    passes = _spy(monkeypatch, retrograde_in_records, "_count_moves")
    again = _build(tmp_path / how, game)
    assert sum(ended) > 0 and passes  # ends found as children before the files went
    assert COUNTED not in _progress(tmp_path / how) or not _progress(tmp_path / how)[COUNTED]
    assert not list((tmp_path / how).glob("*.counted*"))
    assert again["tiers"] == whole["tiers"]


class _FullDisk:
    """A file whose writes fail as a full disk's do."""

    closed = False

    def write(self, data: Any) -> int:
        raise OSError(28, "No space left on device")

    def close(self) -> None:
        self.closed = True


def test_a_counted_file_cut_short_or_gone_is_counted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve stopped in its levels, its file of first records then cut short (or
    removed): run again, the moves are counted in a pass and the tier is the same."""
    game = Dobutsu(3, "ge")
    whole = _build(tmp_path / "whole", game)
    for spoil in ("cut", "gone"):
        directory = tmp_path / spoil
        _stopped_in_levels(game, directory, monkeypatch, 3)
        (path,) = directory.glob("*.counted")  # the records (beside them, their indices)
        if spoil == "cut":
            with path.open("r+b") as handle:
                handle.truncate(path.stat().st_size - 2)
        else:
            path.unlink()
        with monkeypatch.context() as patch:
            passes = _spy(patch, retrograde_in_records, "_count_moves")
            again = _build(directory, game)
        assert passes, spoil
        assert again["tiers"] == whole["tiers"], spoil


def test_first_records_an_older_marking_counted_are_counted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve stopped in its levels whose progress notes its counted files as markings
    before 2026-11-30 did ("counted": moves, not children): the solve does not read them,
    counts in a pass, and the tier is the same."""
    game = Dobutsu(3, "ge")
    whole = _build(tmp_path / "whole", game)
    directory = tmp_path / "older"
    _stopped_in_levels(game, directory, monkeypatch, 3)
    progress = _progress(directory)
    progress["counted"] = progress.pop(COUNTED)
    (directory / "progress.json").write_text(json.dumps(progress))
    with monkeypatch.context() as patch:
        passes = _spy(patch, retrograde_in_records, "_count_moves")
        again = _build(directory, game)
    assert passes
    assert again["tiers"] == whole["tiers"]


def test_a_marking_stopped_midway_counts_every_position_when_it_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after a few chunks, the marking goes on following every reached position
    again: the file is written anew, whole (a row per position), and scattered."""
    game = Dobutsu(3, "ge")
    whole = _build(tmp_path / "whole", game)
    monkeypatch.setattr(tier_graph, "CHUNK", 64)
    monkeypatch.setattr(marking, "CHUNK", 64)
    with monkeypatch.context() as patch:
        stop = stopping_at(counted.CountedWriter.write, 5)
        patch.setattr(counted.CountedWriter, "write", stop)
        with pytest.raises(InterruptedSolve):
            build_tablebase(game, tmp_path / "stopped")
    scattered = _spy(monkeypatch, retrograde_in_records, "_scatter_counted")
    again = _build(tmp_path / "stopped", game)
    assert scattered
    assert _progress(tmp_path / "stopped")[COUNTED] == {"0": whole["tiers"][0]["positions"]}
    assert again["tiers"] == whole["tiers"]


def test_first_records_read_the_ends_of_moves() -> None:
    """By hand: a position with no move loses at once; one whose moves all reach won ends
    loses at 1; a move to a lost end wins at 1; else the moves not reaching a won end are
    counted; the ends keep their value at remoteness 0."""
    shift = 13
    outcome = np.array([0, 0, 0, 0, 1, 2], dtype=np.int8)
    open_rows = np.array([0, 1, 2, 3])
    parents = np.array([1, 1, 2, 2, 3, 3, 3])
    ends = np.array([1, 1, 1, 2, 0, 1, 0], dtype=np.int8)
    first = counted.first_records(outcome, open_rows, parents, ends, shift, "t")
    assert first.tolist() == [
        2 << shift,  # no move
        (2 << shift) | 1,  # both moves to won ends
        (1 << shift) | 1,  # a move to a lost end
        (7 << shift) | 2,  # three moves, one to a won end: two left
        1 << shift,
        2 << shift,
    ]


def _first_records_by_numpy(outcome: Any, open_rows: Any, parents: Any, ends: Any) -> Any:
    """The first records written apart, in whole-array passes."""
    shift, width = 13, open_rows.shape[0]
    moves = np.zeros(outcome.shape[0], dtype=np.int64)
    wins = np.zeros(outcome.shape[0], dtype=bool)
    losing = np.zeros(outcome.shape[0], dtype=np.int64)
    moves[open_rows] = np.bincount(parents, minlength=width)
    wins[open_rows] = np.bincount(parents[ends == 2], minlength=width) > 0
    losing[open_rows] = np.bincount(parents[ends == 1], minlength=width)
    ended, left = outcome != 0, moves - losing
    record = np.where(ended, outcome.astype(np.int64) << shift, (7 << shift) | left)
    record[~ended & (left == 0)] = (2 << shift) | 1
    record[~ended & wins] = (1 << shift) | 1
    record[~ended & (moves == 0)] = 2 << shift
    return record.astype(np.uint16)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(0, 300))
def test_first_records_interpreted_and_compiled_are_whole_array_passes(
    seed: int, width: int
) -> None:
    rng = np.random.default_rng(seed)
    outcome = rng.choice([0, 0, 0, 1, 2, 3], width).astype(np.int8)
    open_rows = np.flatnonzero(outcome == 0)
    parents = np.sort(rng.integers(0, max(1, open_rows.shape[0]), 4 * open_rows.shape[0]))
    ends = rng.choice([0, 0, 1, 2, 3], parents.shape[0]).astype(np.int8)
    expected = _first_records_by_numpy(outcome, open_rows, parents, ends)
    for run in (counted._first_records.interpreted, counted._first_records.compiled):
        records = np.empty(width, dtype=np.uint16)
        run(outcome, open_rows, parents, ends, 13, records)
        assert np.array_equal(records, expected)


def test_a_tier_of_four_billion_indices_counts_in_wider_indices(tmp_path: Path) -> None:
    for size, width in ((1 << 32) - 1, 4), (1 << 32, 8):
        assert counted.index_type(size).itemsize == width
    paths = (tmp_path / "t.counted-at", tmp_path / "t.counted")
    writer = counted.CountedWriter(paths, 1 << 33)
    writer.write(np.array([5, (1 << 32) + 7]), np.array([1, 2], dtype=np.uint16))
    assert writer.finish() == 2
    (indices, records), *rest = counted.counted_pieces(paths, 1 << 33, 2)
    assert not rest and indices.tolist() == [5, (1 << 32) + 7] and records.tolist() == [1, 2]
    assert counted.counted_pieces(paths, 1 << 33, 3) is None


@settings(max_examples=120, deadline=None)
@given(st.one_of(one_loopy_tier(), wide_loopy_tier()))
def test_one_loopy_tier_counted_in_a_pass_equals_explored_retrograde(
    tmp_path_factory: Any, game: Any
) -> None:
    """Random single loopy tiers (their first records counted while marking, tested with
    the tablebase's), here with the file ignored: the counting pass over the slots."""
    directory = tmp_path_factory.mktemp("tb")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(retrograde_in_records, "counted_pieces", lambda *_: None)
        build_tablebase(game, directory)
    same_answers(game, directory)


@pytest.mark.parametrize("spoil", ["not reached", "repeated"])
def test_counted_files_naming_a_position_not_reached_are_refused_with_a_remedy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    """Files of the right length that do not belong to the tier's bits (an index the
    marking did not reach, or one repeated in place of another): one error that says
    what to do, and doing it solves."""
    from perfectplay.errors import TablebaseError

    game = Dobutsu(3, "c")
    whole = _build(tmp_path / "whole", game)
    directory = tmp_path / "spoilt"
    _stopped_in_levels(game, directory, monkeypatch, 2)
    reached = np.unpackbits(
        np.fromfile(directory / "tier-000000.reached", dtype=np.uint8), bitorder="little"
    )
    (at,) = directory.glob("*.counted-at")
    indices = np.fromfile(at, dtype="<u4")
    if spoil == "not reached":
        indices[0] = int(np.flatnonzero(reached == 0)[0])
    else:
        indices[1] = indices[0]
    indices.tofile(at)
    with pytest.raises(TablebaseError, match="remove those two files"):
        build_tablebase(game, directory)
    for path in directory.glob("*.counted*"):
        path.unlink()
    assert _build(directory, game)["tiers"] == whole["tiers"]
