"""Tiered solving and tablebases: the same answers as the explored solver, whatever the game,
and nothing answered from a file that cannot be trusted.

The random tier games here are layered graphs whose tiers are layers; the explored-graph
solver (itself checked against independent references elsewhere) is the yardstick.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layered_games import (
    LayeredGame,
    LayeredGameWithUnmoves,
    layered_games,
    loopy_layered_games,
    one_loopy_tier,
    same_answers,
    wide_loopy_tier,
)

from perfectplay import (
    DRAW,
    LOSS,
    TIE,
    WIN,
    Expansion,
    GameError,
    InterruptedSolve,
    TablebaseError,
    build_tablebase,
    open_tablebase,
    save_solution,
    solve,
)
from perfectplay.games import ConnectFour, Subtraction, TicTacToe
from perfectplay.tablebase.blocks import compress
from perfectplay.tablebase.header import read_header, write_header
from perfectplay.tiers import graph as tier_graph
from perfectplay.tiers import marking


@settings(max_examples=150, deadline=None)
@given(loopy_layered_games())
def test_loopy_tiers_with_unmoves_equal_explored_retrograde(
    tmp_path_factory: Any, game: Any
) -> None:
    directory = tmp_path_factory.mktemp("tb")
    with_unmoves = LayeredGameWithUnmoves(game.table, game.ends, game.width)
    build_tablebase(with_unmoves, directory)
    same_answers(with_unmoves, directory)


@settings(max_examples=150, deadline=None)
@given(loopy_layered_games())
def test_loopy_tiers_equal_explored_retrograde_on_random_games(
    tmp_path_factory: Any, game: Any
) -> None:
    directory = tmp_path_factory.mktemp("tb")
    build_tablebase(game, directory)
    same_answers(game, directory)


@settings(max_examples=240, deadline=None)
@given(st.one_of(one_loopy_tier(), wide_loopy_tier()))
def test_one_loopy_tier_with_counters_equals_explored_retrograde(
    tmp_path_factory: Any, game: Any
) -> None:
    """Small tiers (2-14 positions: every shape of few moves) and wide ones (64-400: the
    pending bits span many words and marks)."""
    directory = tmp_path_factory.mktemp("tb")
    build_tablebase(game, directory)
    same_answers(game, directory)


@settings(max_examples=120, deadline=None)
@given(st.one_of(one_loopy_tier(), wide_loopy_tier()))
def test_one_loopy_tier_marked_in_its_records_equals_explored_retrograde(
    tmp_path_factory: Any, game: Any
) -> None:
    """As above, the tier marked in a record per index (as Dask marks it), not in bit sets
    and slots."""
    directory = tmp_path_factory.mktemp("tb")
    with mock.patch.object(marking, "in_bits", lambda *_: False):
        build_tablebase(game, directory)
    assert "in_bits" not in json.loads((directory / "progress.json").read_text())
    same_answers(game, directory)


@pytest.mark.parametrize("kind", ["rounds", "un-moves"])
def test_loopy_tier_loses_as_slowly_as_its_children_allow(tmp_path: Path, kind: str) -> None:
    # Tier 0 holds 0 and 1 (0 moves to 1 inside it); 1 moves out to 2, which wins in 1.
    cls = LayeredGame if kind == "rounds" else LayeredGameWithUnmoves
    game = cls({0: [1], 1: [2], 2: [3], 3: []}, {}, width=2)
    assert game.child_tiers(0) == [0, 1]
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        assert [base.lookup(s) for s in range(4)] == [
            (WIN, 3),
            (LOSS, 2),
            (WIN, 1),
            (LOSS, 0),
        ]
    same_answers(game, tmp_path / "tb")


@pytest.mark.parametrize("kind", ["rounds", "un-moves"])
def test_loopy_tier_ties_as_soon_as_its_children_allow(tmp_path: Path, kind: str) -> None:
    # As above, but 3 is a tied end: 2 ties in 1, 1 in 2, 0 in 3; 4 and 5 move in a circle.
    cls = LayeredGame if kind == "rounds" else LayeredGameWithUnmoves
    game = cls({0: [1, 4], 1: [2], 2: [3], 3: [], 4: [5], 5: [4]}, {3: 3}, width=2)
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        assert [base.lookup(s) for s in range(6)] == [
            (TIE, 3),
            (TIE, 2),
            (TIE, 1),
            (TIE, 0),
            (DRAW, None),
            (DRAW, None),
        ]
    same_answers(game, tmp_path / "tb")


@settings(max_examples=80, deadline=None)
@given(layered_games())
def test_tiered_solve_equals_explored_solve_on_random_games(
    tmp_path_factory: Any, game: Any
) -> None:
    directory = tmp_path_factory.mktemp("tb")
    build_tablebase(game, directory)
    same_answers(game, directory)


@pytest.mark.parametrize(
    "game",
    [TicTacToe(), ConnectFour(4, 4), ConnectFour(3, 3, connect=3)],
    ids=["tictactoe", "connect-four-4x4", "connect-three-3x3"],  # the same in every worker
)
def test_tiered_builtins_equal_explored_solve(tmp_path: Path, game: Any) -> None:
    build_tablebase(game, tmp_path / "tb")
    header = read_header(tmp_path / "tb")
    assert header.layout == "tiers"
    solution = solve(game)
    with open_tablebase(tmp_path / "tb", game) as base:
        for code in solution.graph.states:
            state = game.from_code(int(code)) if isinstance(game, ConnectFour) else int(code)
            assert base.lookup(state) == (solution.value(state), solution.remoteness(state))
    assert header.counts()["positions"] == solution.stats.states


def test_saved_explored_solve_answers_like_the_solution(tmp_path: Path) -> None:
    game = Subtraction(stones=40, take=(1, 3, 4))
    solution = solve(game)
    save_solution(solution, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        for stones in range(41):
            assert base.value(stones) == solution.value(stones)
            assert base.remoteness(stones) == solution.remoteness(stones)
            assert base.grundy(stones) == solution.grundy(stones)
        assert base.get_value(41) is None


def test_non_integer_keys_cannot_be_saved(tmp_path: Path) -> None:
    from perfectplay.games import Nim

    with pytest.raises(GameError, match="non-negative integers"):
        save_solution(solve(Nim()), tmp_path / "tb")


def test_interrupted_solve_goes_on_and_gives_the_same_bytes(tmp_path: Path) -> None:
    game = ConnectFour(4, 4)
    whole, _ = build_tablebase(game, tmp_path / "whole")
    calls = 0

    def stop_midway(done: int, found: int, /, level: int | None = None) -> None:
        nonlocal calls
        calls += 1
        if calls == 30:
            raise KeyboardInterrupt

    with pytest.raises(InterruptedSolve, match="run the same solve again"):
        build_tablebase(game, tmp_path / "resumed", progress=stop_midway)
    progress = json.loads((tmp_path / "resumed" / "progress.json").read_text())
    assert progress["expanded"] or progress["solved"]  # something was kept
    resumed, _ = build_tablebase(game, tmp_path / "resumed")
    assert {t: e.sha256 for t, e in resumed.tiers.items()} == {
        t: e.sha256 for t, e in whole.tiers.items()
    }


def test_damaged_tier_is_never_trusted(tmp_path: Path) -> None:
    game = TicTacToe()
    build_tablebase(game, tmp_path / "tb")
    victim = tmp_path / "tb" / read_header(tmp_path / "tb").tiers[5].file
    data = bytearray(victim.read_bytes())
    data[3] ^= 0xFF
    victim.write_bytes(bytes(data))
    base = open_tablebase(tmp_path / "tb", game)
    assert base.value(0) is not None  # tier 0 is sound
    state = 0
    for cell in (0, 1, 2, 3, 4):  # five marks: tier 5
        state = game.play(state, cell)
    with pytest.raises(TablebaseError, match="checksum"):
        base.value(state)


def test_truncated_file_and_wrong_game_are_refused(tmp_path: Path) -> None:
    build_tablebase(TicTacToe(), tmp_path / "tb")
    with pytest.raises(TablebaseError, match="made with parameters"):
        open_tablebase(tmp_path / "tb", TicTacToe(symmetry=True))
    with pytest.raises(TablebaseError, match="holds"):
        open_tablebase(tmp_path / "tb", ConnectFour(3, 3, connect=3))
    victim = tmp_path / "tb" / read_header(tmp_path / "tb").tiers[4].file
    victim.write_bytes(victim.read_bytes()[:-1])
    with pytest.raises(TablebaseError, match="truncated"):
        open_tablebase(tmp_path / "tb", TicTacToe())


def test_header_that_is_no_header(tmp_path: Path) -> None:
    build_tablebase(TicTacToe(), tmp_path / "tb")
    header = tmp_path / "tb" / "header.json"
    data = json.loads(header.read_text())
    data["tiers"][0]["file"] = "../../etc/passwd"
    header.write_text(json.dumps(data))
    with pytest.raises(TablebaseError, match="bad file name"):
        open_tablebase(tmp_path / "tb", TicTacToe())
    header.write_text("{not json")
    with pytest.raises(TablebaseError, match="not a perfectplay tablebase"):
        open_tablebase(tmp_path / "tb", TicTacToe())


def test_compressed_copy_answers_the_same(tmp_path: Path) -> None:
    game = ConnectFour(4, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    write_header(tmp_path / "small", compress(tmp_path / "tb", tmp_path / "small", header))
    solution = solve(game)
    with open_tablebase(tmp_path / "small", game) as base:
        rng = np.random.default_rng(3)
        for code in rng.choice(solution.graph.states, 3000):
            state = game.from_code(int(code))
            assert base.lookup(state) == (solution.value(state), solution.remoteness(state))
    packed = sum(p.stat().st_size for p in (tmp_path / "small").glob("tier-*"))
    assert packed * 8 < solution.stats.states * 8  # under a byte a position


def test_compressed_two_byte_records_answer_the_same(tmp_path: Path) -> None:
    """A game longer than 31 plies keeps 2-byte records; its compressed copy answers every
    position as the original does, one probe at a time and many at once."""
    game = Subtraction(100, (1, 2))
    header, _ = build_tablebase(game, tmp_path / "tb")
    assert header.record_bytes == 2
    write_header(tmp_path / "small", compress(tmp_path / "tb", tmp_path / "small", header))
    with (
        open_tablebase(tmp_path / "tb", game) as plain,
        open_tablebase(tmp_path / "small", game) as packed,
    ):
        for n in range(101):
            assert packed.lookup(n) == plain.lookup(n)
            assert plain.lookup(n) is not None
        tier = next(iter(header.tiers))
        indices = np.arange(header.tiers[tier].size, dtype=np.int64)
        assert np.array_equal(
            packed.probe_records(tier, indices), plain.probe_records(tier, indices)
        )


@pytest.mark.parametrize("form", ["mapped", "compressed"])
def test_threads_share_one_tablebase(tmp_path: Path, form: str) -> None:
    """Threads probing one tablebase at once, in random order (in the compressed form,
    each tier's block read last is swapped between them), read what the solution says."""
    game = ConnectFour(4, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    where = tmp_path / "tb"
    if form == "compressed":
        write_header(tmp_path / "small", compress(tmp_path / "tb", tmp_path / "small", header))
        where = tmp_path / "small"
    solution = solve(game)
    codes = np.random.default_rng(5).choice(solution.graph.states, 8000)
    wrong: list[int] = []
    with open_tablebase(where, game) as base:

        def work(part: Any) -> None:
            try:
                for code in part:
                    state = game.from_code(int(code))
                    if base.value(state) != solution.value(state):
                        wrong.append(int(code))
            except Exception as exc:  # a thread's exception must fail the test
                wrong.append(-1)
                raise exc

        threads = [threading.Thread(target=work, args=(codes[i::4],)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert wrong == []


def test_move_into_an_undeclared_tier_names_tier_and_position(tmp_path: Path) -> None:
    game = LayeredGame({0: [2], 1: [], 2: [], 3: []}, {}, width=2)
    game.child_tiers = lambda tier: []  # type: ignore[method-assign]
    with pytest.raises(GameError, match="tier 0 leads into tier 1"):
        build_tablebase(game, tmp_path / "tb")


def test_verify_passes_a_sound_tablebase_and_finds_a_swapped_pair(tmp_path: Path) -> None:
    from perfectplay.tablebase.verify import verify
    from perfectplay.tiers.files import file_sha256

    game = TicTacToe()
    build_tablebase(game, tmp_path / "tb")
    with open_tablebase(tmp_path / "tb", game) as base:
        assert verify(base, samples=500) == []
    header = read_header(tmp_path / "tb")
    entry = header.tiers[3]
    path = tmp_path / "tb" / entry.file
    records = np.fromfile(path, dtype=np.uint8)
    values = records >> 5
    first = int(np.flatnonzero(values == 1)[0])  # a win and a loss trade places:
    second = int(np.flatnonzero(values == 2)[0])  # the counts stay, the checksum is redone
    records[first], records[second] = records[second], records[first]
    records.tofile(path)
    data = json.loads((tmp_path / "tb" / "header.json").read_text())
    for raw in data["tiers"]:
        if raw["tier"] == 3:
            raw["sha256"] = file_sha256(path)
    (tmp_path / "tb" / "header.json").write_text(json.dumps(data))
    with open_tablebase(tmp_path / "tb", game) as base:
        problems = verify(base, samples=4000)
    assert problems and all("its moves give" in p for p in problems)


def test_tiered_solve_refuses_a_budget_it_cannot_keep(tmp_path: Path) -> None:
    from perfectplay.core.memory import MemoryBudgetExceeded, resident_bytes

    with pytest.raises(MemoryBudgetExceeded, match="widest tier"):
        build_tablebase(ConnectFour(4, 4), tmp_path / "tb", memory=resident_bytes() + 1000)


def test_killed_solve_goes_on_from_its_finished_tiers(tmp_path: Path) -> None:
    """kill -9 in the middle of a solve: nothing half-written is trusted afterwards."""
    import signal
    import subprocess
    import sys
    import time

    code = (  # progress noted after every tier, so that the kill comes before the end
        "import sys; from perfectplay import build_tablebase; "
        "from perfectplay.games import ConnectFour; from perfectplay.tiers import files; "
        "files.NOTE_EVERY = 0; build_tablebase(ConnectFour(5, 4), sys.argv[1])"
    )
    target = tmp_path / "killed"
    child = subprocess.Popen([sys.executable, "-c", code, str(target)])
    progress = target / "progress.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until some tier is solved, then kill
        if progress.exists() and json.loads(progress.read_text() or "{}").get("solved"):
            break
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert not (target / "header.json").exists()  # it died before the end
    resumed, _ = build_tablebase(ConnectFour(5, 4), target)
    whole, _ = build_tablebase(ConnectFour(5, 4), tmp_path / "whole")
    assert {t: e.sha256 for t, e in resumed.tiers.items()} == {
        t: e.sha256 for t, e in whole.tiers.items()
    }


def test_a_move_inside_an_undeclared_loopy_tier_is_refused(tmp_path: Path) -> None:
    game = LayeredGame({0: [1], 1: [], 2: [], 3: []}, {}, width=2)  # 0 -> 1: same layer
    game.child_tiers = lambda tier: [t for t in range(tier + 1, 2)]  # type: ignore[method-assign]
    with pytest.raises(GameError, match="stays in tier 0; a tier with moves inside it"):
        build_tablebase(game, tmp_path / "tb")


def test_check_tests_unmoves_against_moves() -> None:
    from perfectplay.checking import check_game

    table = {0: [1, 1, 2], 1: [0, 2], 2: [3], 3: [2]}
    sound = LayeredGameWithUnmoves(table, {}, width=2)
    assert check_game(sound, samples=200) == []

    class Forgetful(LayeredGameWithUnmoves):
        def batch_parents(self, tier: int, codes: Any) -> Expansion:
            back = super().batch_parents(tier, codes)
            keep = np.asarray(back.children) != 0  # forgets that 0 moves into tier 0
            return Expansion(np.asarray(back.parents)[keep], np.asarray(back.children)[keep])

    problems = check_game(Forgetful(table, {}, width=2), samples=200)
    assert problems and all("batch_parents" in p for p in problems)


@pytest.mark.parametrize("kind", ["rounds", "un-moves"])
def test_loopy_tier_half_solved_before_a_crash_is_solved_again(tmp_path: Path, kind: str) -> None:
    """A loopy tier whose file holds some decided records (a crash mid-tier) comes out the
    same as a clean solve: nothing decided before the crash is trusted."""
    cls = LayeredGame if kind == "rounds" else LayeredGameWithUnmoves
    # Tier 0 is 0..3: 0 wins by moving to 1, which loses (its one move reaches 2, which wins
    # at once); 3 moves back to 0. Tier 1 holds the end 4.
    table = {0: [1, 3], 1: [2], 2: [4], 3: [0], 4: [], 5: [], 6: [], 7: []}
    game = cls(table, {4: 2}, width=4)
    whole, _ = build_tablebase(game, tmp_path / "whole")
    crashed = tmp_path / "crashed"
    shutil.copytree(tmp_path / "whole", crashed)
    (crashed / "header.json").unlink()
    progress = json.loads((crashed / "progress.json").read_text())
    del progress["solved"]["0"]  # tier 0 was being solved when the machine stopped
    (crashed / "progress.json").write_text(json.dumps(progress))
    done = crashed / whole.tiers[0].file
    records = np.fromfile(done, dtype=np.uint16)
    records[0::2] = np.where(records[0::2] != 0, 7 << 13, 0)  # 0 and 2 open again, 1 decided
    records.tofile(done.with_suffix(".partial"))
    done.unlink()
    again, _ = build_tablebase(game, crashed)
    assert again.tiers[0].sha256 == whole.tiers[0].sha256


def test_a_large_tier_is_verified_block_by_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tier file longer than one hash block keeps a hash per block: a probe verifies only
    the blocks it reads, and a damaged block gives an error, never an answer."""
    from perfectplay.tiers import files

    monkeypatch.setattr(files, "HASH_BLOCK", 4096)
    game = ConnectFour(4, 4)
    header, _ = build_tablebase(game, tmp_path / "tb")
    big = max(header.tiers.values(), key=lambda e: e.size)
    assert len(big.blocks) == -(-big.size * header.record_bytes // 4096) > 1
    same_answers(game, tmp_path / "tb")  # every block verified along the way
    per_block = 4096 // header.record_bytes
    with open_tablebase(tmp_path / "tb", game) as base:
        places = {}
        for state in solve(game, batch=False).graph.states:
            tier, index = base.locate(state) or (-1, -1)
            if tier == big.tier:
                places.setdefault(index // per_block, (index, state))
    assert len(places) > 1
    blocks = sorted(places)
    damaged, broken_state = places[blocks[-1]]
    _, sound_state = places[blocks[0]]
    records = np.fromfile(tmp_path / "tb" / big.file, dtype=f"<u{header.record_bytes}")
    records[damaged] ^= 1
    records.tofile(tmp_path / "tb" / big.file)
    with open_tablebase(tmp_path / "tb", game) as base:
        assert base.lookup(sound_state) is not None  # its block is sound
        with pytest.raises(TablebaseError, match="checksum"):
            base.lookup(broken_state)


class _Killed(BaseException):
    """Stands for kill -9 at one exact moment (nothing after it runs)."""


@pytest.mark.parametrize("killed_at", [3, 7])
def test_a_kill_between_a_tiers_rename_and_its_note_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, killed_at: int
) -> None:
    """``finish`` renames a solved tier's file final, then notes it in progress.json: a
    kill between the two left a final file nobody had noted, and the solve taken up again
    began that tier from a new file of zeros, so the tier below found its children unsolved
    (seen once in CI). Now the file is taken back, and the bytes equal a clean solve's."""
    from perfectplay.tiers import files as tier_files

    game = ConnectFour(4, 3)
    clean, _ = build_tablebase(game, tmp_path / "clean")
    real = tier_files.write_json_atomically

    def note(path: Path, data: dict[str, Any]) -> None:
        if str(killed_at) in data.get("solved", {}):
            raise _Killed  # the tier's file is final, its note not yet written
        real(path, data)

    monkeypatch.setattr(tier_files, "write_json_atomically", note)
    target = tmp_path / "killed"
    with pytest.raises(_Killed):
        build_tablebase(game, target)
    monkeypatch.setattr(tier_files, "write_json_atomically", real)
    assert (target / f"tier-{killed_at:06d}.rec").exists()
    resumed, _ = build_tablebase(game, target)
    assert {t: e.sha256 for t, e in resumed.tiers.items()} == {
        t: e.sha256 for t, e in clean.tiers.items()
    }


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_a_child_of_a_large_process_reports_its_own_peak() -> None:
    """peak_resident_bytes in a process started from one holding 256 MB is that process's
    own peak; getrusage's ru_maxrss there carries the parent's size over exec (the premise:
    the benches' children reported their parent's size through it)."""
    import subprocess
    import sys

    held = np.ones(256 << 20, dtype=np.uint8)
    code = (
        "import resource; from perfectplay.core.memory import peak_resident_bytes; "
        "print(peak_resident_bytes(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    own, inherited = (int(x) for x in done.stdout.split())
    assert inherited >= 256 << 20  # the premise
    assert own < 128 << 20
    del held


@pytest.mark.parametrize("length", [0, 5, 4096, 4096 * 5 + 17])
def test_file_hashes_are_the_sha256_of_the_file_and_of_each_block(
    tmp_path: Path, length: int
) -> None:
    """The hashes a finished tier is noted with, the blocks hashed on a second thread:
    hashlib's of the whole and of each block, in order."""
    import hashlib

    from perfectplay.tiers.files import file_hashes

    data = np.random.default_rng(length).integers(0, 256, length).astype(np.uint8).tobytes()
    path = tmp_path / "f"
    path.write_bytes(data)
    found = file_hashes(path, block=4096)
    assert found["sha256"] == hashlib.sha256(data).hexdigest()
    blocks = [data[i : i + 4096] for i in range(0, length, 4096)]
    if len(blocks) > 1:
        assert found["blocks"] == [hashlib.sha256(b).hexdigest() for b in blocks]
        assert found["hash_block"] == 4096
    else:
        assert "blocks" not in found


def test_child_tiers_that_lead_on_forever_are_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tier graph that never closes (each tier names a new one after it) would walk
    forever: past MOST_TIERS tiers it is a GameError that names the hook."""

    class Endless(LayeredGame):
        def child_tiers(self, tier: int) -> list[int]:
            return [tier + 1]

    monkeypatch.setattr(tier_graph, "MOST_TIERS", 500)
    game = Endless({0: []}, {}, 1)
    with pytest.raises(GameError, match=r"child_tiers\(\) lead on forever") as caught:
        build_tablebase(game, tmp_path / "tb")
    assert "\n" not in str(caught.value)
