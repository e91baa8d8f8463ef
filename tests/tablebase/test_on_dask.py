"""Tier solving on a Dask cluster: the same bytes as in one process, whatever happens."""

from __future__ import annotations

import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_script import run_cli
from stops import stopping_at

from perfectplay import build_tablebase
from perfectplay.errors import InterruptedSolve
from perfectplay.games import ConnectFour, TicTacToe
from perfectplay.rules import Rules

pytest.importorskip(
    "dask.distributed", reason="Dask is an optional extra (perfectplay[distributed])"
)
import cloudpickle  # comes with Dask

from perfectplay.tablebase.on_dask import build_on_dask, spans

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests


@pytest.fixture(autouse=True)
def every_tier_on_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """These games' tiers are all small enough to be solved in the client: sent to the
    workers here, so that the tests exercise the cluster (the CLI's runs keep the default)."""
    from perfectplay.tablebase import on_dask

    monkeypatch.setattr(on_dask, "HERE_AT_MOST", 0)


def checksums(directory: Path) -> dict[str, str]:
    header = json.loads((directory / "header.json").read_text())
    return {str(entry["tier"]): entry["sha256"] for entry in header["tiers"]}


@pytest.mark.parametrize("game", [TicTacToe(), ConnectFour(4, 4)], ids=["tictactoe", "c4-4x4"])
def test_two_workers_write_the_bytes_one_process_writes(tmp_path: Path, game: Any) -> None:
    build_tablebase(game, tmp_path / "here")
    build_on_dask(Rules(game), tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")
    assert len(checksums(tmp_path / "here")) == len(list((tmp_path / "dask").glob("tier-*.rec")))
    assert not list((tmp_path / "dask").glob("*.bits"))  # the bit sets of reach are gone


@pytest.mark.parametrize("here_at_most", [10_080, 1 << 16])
def test_small_tiers_solved_in_the_client_write_the_same_bytes(
    tmp_path: Path, here_at_most: int
) -> None:
    """Tiers of at most ``here_at_most`` positions run in this process, the others on the
    workers (Connect Four 4x4's tiers hold 1 to 34,320): some of each, then all here."""
    from perfectplay.tablebase import on_dask

    build_tablebase(ConnectFour(4, 4), tmp_path / "here")
    sent: list[Any] = []
    real = on_dask._Run._submit

    def submit(self: Any, tier: int, task: Any, *args: Any) -> Any:
        future = real(self, tier, task, *args)
        sent.append((tier, isinstance(future, on_dask._Done)))
        return future

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(on_dask._Run, "_submit", submit)
        build_on_dask(
            Rules(ConnectFour(4, 4)), tmp_path / "dask", workers=2, here_at_most=here_at_most
        )
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")
    from perfectplay.tiers.graph import TierGraph

    graph = TierGraph(Rules(ConnectFour(4, 4)))
    assert sent and all(here == (graph.sizes[t] <= here_at_most) for t, here in sent)
    assert {here for _, here in sent} == ({True, False} if here_at_most < 34_320 else {True})


class SolvesByChunks(ConnectFour):
    """Connect Four that marks by sweeps (its reach tasks record ends) but declines to
    solve by them: the span tasks go by chunks over marks whose ends are recorded."""

    def batch_solve_tier(self, *args: Any) -> None:
        return None


def test_ends_recorded_by_reach_tasks_solve_alike_by_sweeps_and_by_chunks(
    tmp_path: Path,
) -> None:
    build_tablebase(ConnectFour(4, 4), tmp_path / "here")
    build_on_dask(Rules(ConnectFour(4, 4)), tmp_path / "swept", workers=2)
    progress = json.loads((tmp_path / "swept" / "progress.json").read_text())
    assert len(progress["ends_recorded"]) == 17  # every tier: its ends came from its spans
    build_on_dask(Rules(SolvesByChunks(4, 4)), tmp_path / "chunks", workers=2)
    assert checksums(tmp_path / "swept") == checksums(tmp_path / "here")
    assert checksums(tmp_path / "chunks") == checksums(tmp_path / "here")
    assert not list((tmp_path / "swept").glob("*.ends-*"))  # the spans' ends are gone


class DyingConnectFour(ConnectFour):
    """Connect Four 4x4 whose rules kill the worker process the first time they expand,
    mark or solve positions with eight discs (a worker that dies in the middle of a
    task)."""

    def __init__(self, marker: str) -> None:
        super().__init__(4, 4)
        self.marker = marker

    def die_once(self, tier: int, work: Any) -> None:
        if tier == 8 and np.size(work) and not os.path.exists(self.marker):
            Path(self.marker).write_text("died once")
            os._exit(1)

    def batch_expand_tier(self, tier: int, indices: Any) -> Any:
        self.die_once(tier, indices)
        return super().batch_expand_tier(tier, indices)

    def batch_mark_tier(self, tier: int, start: int, records: Any, *rest: Any) -> Any:
        self.die_once(tier, records)
        return super().batch_mark_tier(tier, start, records, *rest)

    def batch_solve_tier(self, tier: int, start: int, records: Any, *rest: Any) -> Any:
        self.die_once(tier, records)
        return super().batch_solve_tier(tier, start, records, *rest)


def test_a_worker_killed_in_a_task_changes_nothing(tmp_path: Path) -> None:
    build_tablebase(ConnectFour(4, 4), tmp_path / "here")
    marker = tmp_path / "died"
    build_on_dask(Rules(DyingConnectFour(str(marker))), tmp_path / "dask", workers=2)
    assert marker.exists()  # a worker did die
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")


def test_a_solve_stopped_between_tiers_goes_on(tmp_path: Path) -> None:
    """A solve that stopped after some tiers (their files and progress kept) is run again:
    it solves only what is missing and ends with the same bytes."""
    rules = Rules(ConnectFour(4, 4))
    build_on_dask(rules, tmp_path / "dask", workers=2)
    whole = checksums(tmp_path / "dask")
    (tmp_path / "dask" / "header.json").unlink()
    progress = json.loads((tmp_path / "dask" / "progress.json").read_text())
    for tier in ("0", "1", "2", "3"):  # the last four tiers solved never were
        del progress["solved"][tier]
        (tmp_path / "dask" / f"tier-00000{tier}.rec").unlink()
    (tmp_path / "dask" / "progress.json").write_text(json.dumps(progress))
    # their marks were removed with them: mark again, from the start
    progress["expanded"], progress["merged"] = [], []
    (tmp_path / "dask" / "progress.json").write_text(json.dumps(progress))
    kept = {
        t: (tmp_path / "dask" / f"tier-{int(t):06d}.rec").stat().st_mtime_ns
        for t in whole
        if int(t) > 3
    }
    build_on_dask(rules, tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == whole
    for tier, stamp in kept.items():  # finished tiers were not written again
        assert (tmp_path / "dask" / f"tier-{int(tier):06d}.rec").stat().st_mtime_ns == stamp


def test_spans_cover_a_tier_in_whole_chunks() -> None:
    for size in (0, 1, 5000, 1 << 16, 3 << 20, 13_000_001):
        cut = spans(size)
        assert cut[0][0] == 0 and cut[-1][1] == size
        assert all(a[1] == b[0] for a, b in itertools.pairwise(cut))
        assert all((stop - start) % (1 << 16) == 0 for start, stop in cut[:-1])


def test_cli_flags_need_save_and_one_of_them(tmp_path: Path) -> None:
    alone = run_cli("solve", "tictactoe", "--workers", "2")
    assert alone.returncode == 2 and "--save" in alone.stderr
    both = run_cli(
        "solve", "tictactoe", "--save", str(tmp_path / "t"), "--workers", "2",
        "--scheduler", "tcp://127.0.0.1:1",
    )  # fmt: skip
    assert both.returncode == 2 and "--scheduler" in both.stderr
    assert len(both.stderr.strip().splitlines()) == 1


def test_cli_solves_on_two_workers_and_says_where_the_dashboard_is(tmp_path: Path) -> None:
    done = run_cli("solve", "tictactoe", "--save", str(tmp_path / "t"), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "dashboard" in done.stderr.lower() and "http" in done.stderr
    build_tablebase(TicTacToe(), tmp_path / "here")
    assert checksums(tmp_path / "t") == checksums(tmp_path / "here")


class _Killed(BaseException):
    """Stands for kill -9 at one exact moment."""


def test_a_kill_between_a_tiers_join_and_its_note_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Dask a tier's spans are joined into its final file, then the scheduler notes the
    tier solved: a kill between the two is taken up again from the spans still noted, with
    the bytes one process writes."""
    from perfectplay.tablebase import on_dask

    rules = Rules(ConnectFour(4, 3))
    build_tablebase(rules.game, tmp_path / "local")
    real = on_dask._Run._finished

    def finished(self: Any, tier: int, entry: dict[str, Any]) -> None:
        if tier == 5:
            raise _Killed  # joined and renamed final, not yet noted
        real(self, tier, entry)

    monkeypatch.setattr(on_dask._Run, "_finished", finished)
    with pytest.raises(_Killed):
        build_on_dask(rules, tmp_path / "dask", workers=2)
    monkeypatch.setattr(on_dask._Run, "_finished", real)
    assert (tmp_path / "dask" / "tier-000005.rec").exists()
    build_on_dask(rules, tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "local")


class _Killed(BaseException):
    """Stands for kill -9 at one exact moment (no progress written after it)."""


def test_a_solve_killed_in_one_process_goes_on_on_dask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve in one process killed after finishing tiers it had not yet noted (the
    progress is written at most every NOTE_EVERY seconds) goes on on a cluster: the tiers
    only renamed final are taken back by the driver before their spans are solved (a span
    task read the working file, gone), and the bytes are one process's."""
    from perfectplay.tiers import files as tier_files

    game = ConnectFour(4, 4)
    build_tablebase(game, tmp_path / "here")
    finished: list[int] = []
    real_finish = tier_files.TierFiles.finish

    def finish(self: Any, tier: int, *args: Any, **kwargs: Any) -> None:
        real_finish(self, tier, *args, **kwargs)
        finished.append(tier)
        if len(finished) == 3:
            raise _Killed

    def never_noted(self: Any) -> None:
        raise _Killed

    monkeypatch.setattr(tier_files, "NOTE_EVERY", 1e9)
    monkeypatch.setattr(tier_files.TierFiles, "finish", finish)
    monkeypatch.setattr(tier_files.TierFiles, "note_progress", never_noted)
    with pytest.raises(_Killed):
        build_tablebase(game, tmp_path / "moved")
    monkeypatch.undo()
    progress = json.loads((tmp_path / "moved" / "progress.json").read_text())
    assert not progress["solved"] and len(finished) == 3  # finished, none noted
    assert all((tmp_path / "moved" / f"tier-{t:06d}.rec").exists() for t in finished)
    build_on_dask(Rules(game), tmp_path / "moved", workers=2)
    assert checksums(tmp_path / "moved") == checksums(tmp_path / "here")


def test_a_tier_marked_in_bits_in_one_process_is_solved_alike_on_dask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dobutsu's one tier, marked in bit sets by one process (which stopped in its levels),
    is solved in slots by the cluster's task; and a cluster that marks it itself (in its
    records) writes the same bytes as one process marking in bits."""
    from perfectplay.games import Dobutsu
    from perfectplay.tiers import retrograde_in_records

    game = Dobutsu(3, "c")
    build_tablebase(game, tmp_path / "here")
    build_on_dask(Rules(game), tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")
    stopped = stopping_at(retrograde_in_records._apply, 3)
    monkeypatch.setattr(retrograde_in_records, "_apply", stopped)
    with pytest.raises(InterruptedSolve):
        build_tablebase(game, tmp_path / "moved")
    monkeypatch.undo()
    assert json.loads((tmp_path / "moved" / "progress.json").read_text())["in_bits"] == [0]
    build_on_dask(Rules(game), tmp_path / "moved", workers=2)
    assert checksums(tmp_path / "moved") == checksums(tmp_path / "here")
    assert not list((tmp_path / "moved").glob("*.reached"))  # the bit set is gone


def test_a_game_loaded_from_a_file_solves_on_dask_and_resumes(tmp_path: Path) -> None:
    """A game the command line loads by its path: its header notes the file (for verify),
    which a worker that gets the class by value cannot see; the workers' identity and a
    solve begun before the file was noted are the same game all the same."""
    source = Path(__file__).resolve().parents[1] / "compiled_keyed.py"
    spec = f"{source}:SwappedCounters"
    done = run_cli("solve", spec, "--save", str(tmp_path / "d"), "--workers", "1", "--json")
    assert done.returncode == 0 and '"value": "win"' in done.stdout, done.stderr
    header = json.loads((tmp_path / "d" / "header.json").read_text())
    assert header["identity"]["file"] == str(source)
    from perfectplay.identity import same_game

    noted = header["identity"]
    assert same_game(noted, {k: v for k, v in noted.items() if k != "file"})
    assert not same_game(noted, {**noted, "parameters": {"goal": 9}})


WORKER = """
import inspect, json, pickle, sys
found = []
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        rules = pickle.load(handle).load()  # as a worker's first task does
    cls = type(rules.game)
    try:
        source = inspect.getsourcefile(cls)
    except TypeError:  # no module of that name here
        source = None
    found.append({
        "module": cls.__module__ if sys.modules.get(cls.__module__) else None,
        "source": source,
        "goal": cls.goal,
        "moves": [rules.format_move(m) for m in rules.legal_moves(rules.initial_state())],
    })
print(json.dumps(found))
"""


def test_a_game_loaded_from_a_file_reaches_workers_by_reference(tmp_path: Path) -> None:
    """A worker loads a game's file under the module name the command line gave it, so its
    compiled copy has the client's hash (numba's disk cache serves it: by value, the class
    had no module and no file there, and every worker compiled every loop afresh, 40 s for
    Connect Four 4x4); a worker that cannot read that file, or reads another text there,
    takes the class by value."""
    import pickle
    import subprocess

    from perfectplay.cli.loader import build_game
    from perfectplay.tablebase.shipping import Packed

    text = (Path(__file__).resolve().parents[1] / "compiled_keyed.py").read_text()
    packs, modules = [], []
    for name in ("kept", "edited", "gone"):
        (tmp_path / f"{name}.py").write_text(text)
        game = build_game(f"{tmp_path / name}.py:Counters", ["goal=3"])
        packed = Packed(Rules(game))
        assert packed.load().game.__class__ is type(game)  # this process: its own module
        (tmp_path / f"{name}.pickle").write_bytes(pickle.dumps(packed))
        packs.append(str(tmp_path / f"{name}.pickle"))
        modules.append(type(game).__module__)
    (tmp_path / "edited.py").write_text(text.replace("goal: int = 3", "goal: int = 4"))
    (tmp_path / "gone.py").unlink()
    done = subprocess.run(
        [sys.executable, "-c", WORKER, *packs], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    kept, edited, gone = json.loads(done.stdout)
    # What the compiled copy's hash reads: the class's module name and its file's text.
    assert kept["module"] == modules[0] and kept["source"] == str(tmp_path / "kept.py")
    assert edited["module"] is None and edited["goal"] == 3  # the text packed, not the new
    assert gone["module"] is None and gone["source"] is None
    assert kept["moves"] == edited["moves"] == gone["moves"] == ["1"]


def test_a_database_of_every_position_writes_on_dask_the_bytes_one_process_writes(
    tmp_path: Path,
) -> None:
    """A game of every_position (Morris' midgame: each placed-out position, reached or
    not) is marked in this process, then solved by the workers, byte for byte as here."""
    game = _morris().MorrisMidgame(points=16, stones=3)
    build_tablebase(game, tmp_path / "here")
    build_on_dask(Rules(game), tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")


def _morris() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "examples" / "morris.py"
    spec = importlib.util.spec_from_file_location("morris_on_dask", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["morris_on_dask"] = module
    spec.loader.exec_module(module)
    return module


def test_tiers_that_wait_for_none_of_each_other_are_solved_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sectors of Morris' midgame that the plan readies together (each waiting only
    for sectors of fewer stones) each wait, as they start, for the other to start: only
    tiers solved at the same time get past; the bytes are those of one process."""
    import threading

    from perfectplay.tablebase import on_dask
    from perfectplay.tiers.graph import TierGraph
    from perfectplay.tiers.plan import TierPlan

    game = _morris().MorrisMidgame(points=16, stones=5)
    plan = TierPlan(TierGraph(Rules(game)), set())
    while len(plan.ready()) < 2:
        tier = plan.ready()[0]
        plan.start(tier)
        plan.finish(tier)
    pair = set(plan.ready()[:2])
    both_started = threading.Barrier(2, timeout=120)
    solve = on_dask._Run._solve

    def meeting(run: Any, tier: int) -> None:
        if tier in pair:
            both_started.wait()
        solve(run, tier)

    monkeypatch.setattr(on_dask._Run, "_solve", meeting)
    build_tablebase(game, tmp_path / "here")
    build_on_dask(Rules(game), tmp_path / "dask", workers=2)
    assert checksums(tmp_path / "dask") == checksums(tmp_path / "here")
