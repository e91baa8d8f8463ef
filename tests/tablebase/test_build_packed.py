"""Packed tiers (``core.packed_records``, ``solve --save DIR --pack``): one byte a position
where a tier's records allow, the same answers as 2-byte records everywhere they are read
(the tiers above them, the reader, the search over a database, compress, verify), a tier
that does not fit kept in 2 bytes, and a packed tier finished but not noted taken back."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import examples_loader
import numpy as np
import pytest
import reference
from compiled_random import TierUnmovesGame
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import build_tablebase, open_tablebase
from perfectplay.core.packed_records import DECODE, MOST_PLIES, PackedRecords, pack_window
from perfectplay.core.records import RecordFormat
from perfectplay.errors import TablebaseError
from perfectplay.rules import Rules
from perfectplay.tablebase.blocks import compress
from perfectplay.tablebase.header import read_header, write_header
from perfectplay.tablebase.probes import ProbedSearch, open_for_probing
from perfectplay.tiers.files import TierFiles, tier_file_name
from perfectplay.values import Value

WIN, LOSS, TIE, DRAW = 1, 2, 3, 4


def _record(value: int, plies: int) -> int:
    return (value << 13) | plies


def _fitting() -> Any:
    """A 2-byte record that one byte holds: none, a win in odd plies, a loss in even
    plies (both up to MOST_PLIES), a draw."""
    plies = st.integers(0, MOST_PLIES)
    return st.one_of(
        st.just(0),
        st.just(_record(DRAW, 0)),
        plies.filter(lambda r: r % 2 == 1).map(lambda r: _record(WIN, r)),
        plies.filter(lambda r: r % 2 == 0).map(lambda r: _record(LOSS, r)),
    )


def _misfit() -> Any:
    """A 2-byte record that one byte cannot hold."""
    return st.one_of(
        st.integers(0, 100).map(lambda r: _record(TIE, r)),
        st.integers(0, 126).map(lambda r: _record(WIN, 2 * r)),
        st.integers(0, 126).map(lambda r: _record(LOSS, 2 * r + 1)),
        st.integers(MOST_PLIES + 1, 8191).map(lambda r: _record(WIN if r % 2 else LOSS, r)),
        st.integers(1, 8191).map(lambda r: _record(DRAW, r)),
        st.just(_record(7, 3)),  # an open position
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(_fitting(), max_size=300), st.data())
def test_records_that_fit_round_trip_and_one_misfit_refuses_the_window(
    records: list[int], data: Any
) -> None:
    """Packed and read back, every record is itself; one record that does not fit among
    them, and the window is refused (never changed)."""
    array = np.array(records, dtype=np.uint16)
    codes = pack_window(array)
    assert codes is not None and codes.dtype == np.uint8
    assert (DECODE[codes] == array).all()
    view = PackedRecords(codes)
    assert len(view) == len(records) and (np.asarray(view) == array).all()
    if records:
        at = data.draw(st.integers(0, len(records) - 1))
        assert int(view[at]) == records[at]
        assert (view[at:] == array[at:]).all()
    bad = data.draw(_misfit())
    where = data.draw(st.integers(0, len(records)))
    assert pack_window(np.insert(array, where, bad).astype(np.uint16)) is None


def test_each_byte_reads_as_the_record_it_stands_for() -> None:
    """The code table, against its definition written out: 0 none, 1 + r a win (r odd) or
    a loss (r even) in r plies, 254 a draw, 255 none."""
    for code in range(256):
        if code == 0 or code == 255:
            expected = 0
        elif code == 254:
            expected = _record(DRAW, 0)
        else:
            plies = code - 1
            expected = _record(WIN if plies % 2 else LOSS, plies)
        assert int(DECODE[code]) == expected, code


def _tiers_of(directory: Path) -> dict[int, Any]:
    """Each tier's records as 2-byte records, read from its file by the header's word."""
    found = {}
    for entry in read_header(directory).tiers.values():
        path = directory / entry.file
        if entry.packed:
            found[entry.tier] = DECODE[np.fromfile(path, dtype=np.uint8)]
        else:
            found[entry.tier] = np.fromfile(path, dtype="<u2")
    return found


def test_random_loopy_tiers_packed_answer_as_unpacked_and_as_the_whole_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random loopy tier games (ties and won ends among them: tiers that do not fit),
    built packed and not: every tier's records the same, every state's answer that of
    retrograde analysis of the whole graph; across the seeds, tiers packed and tiers kept
    in 2 bytes both occur."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    packed = kept = 0
    for seed in range(12):
        game = TierUnmovesGame(seed=seed, n=300, block=40, mode=1)
        plain, small = tmp_path / f"{seed}-plain", tmp_path / f"{seed}-packed"
        build_tablebase(game, plain)
        build_tablebase(TierUnmovesGame(seed=seed, n=300, block=40, mode=1), small, pack=True)
        assert _tiers_of(plain).keys() == _tiers_of(small).keys()
        for tier, records in _tiers_of(plain).items():
            assert (_tiers_of(small)[tier] == records).all(), (seed, tier)
        for entry in read_header(small).tiers.values():
            length = (small / entry.file).stat().st_size
            assert length == entry.size * (1 if entry.packed else 2)
            packed += entry.packed and entry.size > 0
            kept += not entry.packed and entry.size > 0
        solved = reference.solve_outcomes(game)
        with open_tablebase(small, game) as base:
            for state, want in solved.items():
                assert (base.value(state), base.remoteness(state)) == want, (seed, state)
    assert packed > 0 and kept > 0


def _morris() -> Any:
    return examples_loader.load("morris")


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Six Men's Morris with four stones a side: its sectors (every position once all are
    placed) and its whole game, each built packed and not."""
    where = tmp_path_factory.mktemp("six")
    built = {}
    for name, game in (("mid", _morris().MorrisMidgame), ("whole", _morris().Morris)):
        for pack in (False, True):
            directory = where / f"{name}-{pack}"
            build_tablebase(game(points=16, stones=4), directory, pack=pack)
            built[f"{name}-{pack}"] = directory
    return built


def test_six_mens_morris_packed_holds_every_tier_in_a_byte_a_position(
    six: dict[str, Path],
) -> None:
    """Every sector and every placement tier (but the empty ones) fits one byte (a loss in
    even plies, a win in odd ones, draws): half the bytes, the same records, the same
    counts in the header."""
    for name in ("mid", "whole"):
        plain, small = six[f"{name}-False"], six[f"{name}-True"]
        before, after = read_header(plain), read_header(small)
        assert all(entry.packed for entry in after.tiers.values() if entry.size)
        for tier, entry in after.tiers.items():
            assert (entry.values, entry.remoteness) == (
                before.tiers[tier].values,
                before.tiers[tier].remoteness,
            )
            assert (small / entry.file).stat().st_size * 2 == (plain / entry.file).stat().st_size
        records = _tiers_of(plain)
        assert all((_tiers_of(small)[t] == r).all() for t, r in records.items())


def test_the_search_over_a_packed_database_gives_the_whole_games_values(
    six: dict[str, Path],
) -> None:
    """The placement searched over the packed sectors: the start and each first move score
    as the whole game's tablebase (unpacked) says."""
    game = _morris().Morris(points=16, stones=4)
    rules = Rules(game)
    with open_tablebase(six["whole-False"], game) as whole:
        probed = ProbedSearch(rules, open_for_probing(six["mid-True"], rules),
                              rules.initial_state(), log_size=16)  # fmt: skip
        states = [game.initial()] + [game.play(game.initial(), m) for m in game.moves(
            game.initial())]  # fmt: skip
        for state in states:
            value = whole.value(state)
            expected = 1 if value is Value.WIN else -1 if value is Value.LOSS else 0
            assert probed.search.score((state,)) == expected, game.show(state)


def test_a_packed_database_compressed_and_verified_reads_the_same(
    six: dict[str, Path], tmp_path: Path
) -> None:
    """Compressed (as the 2-byte records its bytes stand for), the packed database answers
    every index as the unpacked one."""
    game = _morris().MorrisMidgame(points=16, stones=4)
    source = six["mid-True"]
    header = compress(source, tmp_path / "z", read_header(source))
    write_header(tmp_path / "z", header)
    with open_tablebase(six["mid-False"], game) as plain, open_tablebase(
        tmp_path / "z", game
    ) as packed:  # fmt: skip
        for tier, entry in plain.header.tiers.items():
            want = np.asarray(plain.tier_records(tier)[0 : entry.size])
            assert (np.asarray(packed.tier_records(tier)[0 : entry.size]) == want).all()


def test_a_packed_tier_changed_on_disk_is_refused(six: dict[str, Path], tmp_path: Path) -> None:
    """A flipped byte in a packed tier's file: the reader refuses it (its checksum), rather
    than answer from it."""
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in six["mid-True"].iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    entry = max(read_header(copy).tiers.values(), key=lambda e: e.size)
    data = bytearray((copy / entry.file).read_bytes())
    data[len(data) // 2] ^= 0x04
    (copy / entry.file).write_bytes(bytes(data))
    game = _morris().MorrisMidgame(points=16, stones=4)
    with open_tablebase(copy, game) as base, pytest.raises(TablebaseError, match="checksum"):
        np.asarray(base.tier_records(entry.tier)[0 : entry.size])


def test_a_packed_tier_finished_but_not_noted_is_taken_back_as_its_records(
    tmp_path: Path,
) -> None:
    """A kill after a tier was packed (its 2-byte working file gone) but before the progress
    noted it: the solve run again takes the packed file back as the tier's records."""
    record = RecordFormat(2)
    files = TierFiles(tmp_path, record, {"game": "g"}, pack=True)
    rng = np.random.default_rng(5)
    plies = rng.integers(0, 60, 10_000)
    values = np.where(plies % 2 == 1, WIN, LOSS)
    records = ((values << 13) | plies).astype(np.uint16)
    records[rng.random(10_000) < 0.1] = 0
    working = files.partial(3, records.shape[0])
    working[:] = records
    files.finish(3, working, {"positions": 1}, durable=True)
    del working
    assert not (tmp_path / tier_file_name(3, "partial")).exists()
    assert (tmp_path / tier_file_name(3, "rec")).stat().st_size == records.shape[0]
    noted = json.loads((tmp_path / "progress.json").read_text()) if (
        tmp_path / "progress.json").exists() else {"solved": {}}  # fmt: skip
    assert "3" not in noted["solved"]  # (noted at most every NOTE_EVERY: not yet)
    again = TierFiles(tmp_path, record, {"game": "g"}, pack=True)
    assert not again.is_noted(3) and again.has_working_file(3)
    assert (np.asarray(again.partial(3, records.shape[0])) == records).all()
