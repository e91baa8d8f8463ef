"""Resume points of a loopy tier solved in its records (``tiers.resume_points``): a solve
stopped inside a tier (its first pass or its levels, by Ctrl-C or kill -9) goes on from
the last point and writes every tier byte for byte as a solve never stopped; a spoiled
point is not trusted."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import examples_loader
import pytest
from cli_script import run_cli
from stops import stopping_at

from perfectplay import build_tablebase
from perfectplay.errors import InterruptedSolve
from perfectplay.tiers import marking, retrograde_in_records, value_iteration
from perfectplay.tiers import solve as tier_solve
from perfectplay.tiers.resume_points import FIRST, LEVELS, ResumePoints

EXAMPLE = examples_loader.EXAMPLES / "morris.py"


def _game() -> Any:
    """Six Men's Morris's sectors with five stones a side: nine loopy tiers read beside
    one another, the largest of 180,840 indices."""
    return examples_loader.load("morris").MorrisMidgame(points=16, stones=5)


@pytest.fixture
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A point after every third piece and every third level (a stop lands after some
    work past the last point, done again), pieces of 512 positions."""
    asked = [0]

    def due(self: ResumePoints) -> bool:
        asked[0] += 1
        return asked[0] % 3 == 0

    monkeypatch.setattr(ResumePoints, "due", due)
    monkeypatch.setattr(retrograde_in_records, "PIECE", 512)
    monkeypatch.setattr(retrograde_in_records, "WIDE_PIECE", 512)
    monkeypatch.setattr(retrograde_in_records, "SCAN", 4096)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The tiers' hashes of a build never stopped."""
    directory = tmp_path_factory.mktemp("whole")
    build_tablebase(_game(), directory)
    return _hashes(directory)


def _stopped(
    directory: Path,
    monkeypatch: pytest.MonkeyPatch,
    module: Any,
    name: str,
    call: int,
    **options: Any,
) -> Path:
    """``directory`` holding a build stopped (as by Ctrl-C) at the ``call``-th call of
    ``module.name``."""
    with monkeypatch.context() as patch:
        patch.setattr(module, name, stopping_at(getattr(module, name), call))
        with pytest.raises(InterruptedSolve):
            build_tablebase(_game(), directory, **options)
    return directory


def _hashes(directory: Path) -> dict[str, str]:
    header = json.loads((directory / "header.json").read_text())
    return {str(t["tier"]): t["sha256"] for t in header["tiers"]}


def _restores(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The (stage, row or level) of every point a solve goes on from."""
    seen: list[tuple[str, int]] = []
    restore = ResumePoints.restore

    def spied(self: ResumePoints, *args: Any) -> None:
        assert self.found is not None
        seen.append((self.found.stage, self.found.row if self.found.stage == FIRST
                     else self.found.level))  # fmt: skip
        restore(self, *args)

    monkeypatch.setattr(ResumePoints, "restore", spied)
    return seen


def _first_passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tiers whose first pass runs."""
    tiers: list[int] = []
    first_pass = retrograde_in_records._first_pass

    def spied(*args: Any) -> Any:
        tiers.append(args[3])
        return first_pass(*args)

    monkeypatch.setattr(retrograde_in_records, "_first_pass", spied)
    return tiers


@pytest.mark.usefixtures("often")
@pytest.mark.parametrize(
    ("where", "call", "stage"),
    [
        ("_write_first", 30, FIRST),
        ("_write_first", 250, FIRST),
        ("_follow_level", 1, LEVELS),  # the first level: the point made as the levels begin
        ("_follow_level", 40, LEVELS),
    ],
)
def test_a_solve_stopped_inside_a_tier_goes_on_from_its_last_point(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    whole: dict[str, str],
    where: str,
    call: int,
    stage: str,
) -> None:
    stopped = _stopped(tmp_path, monkeypatch, retrograde_in_records, where, call)
    (point,) = stopped.glob("tier-*.resume")
    tier = int(point.stem.removeprefix("tier-"))
    restores = _restores(monkeypatch)
    first_passes = _first_passes(monkeypatch)
    build_tablebase(_game(), stopped)
    assert len(restores) == 1 and restores[0][0] == stage
    if stage == FIRST:
        assert restores[0][1] > 0  # past the tier's first row
    else:
        assert tier not in first_passes  # its first pass not done again
    assert _hashes(stopped) == whole
    assert not list(stopped.glob("tier-*.resume*"))  # gone with the tier made final


@pytest.mark.usefixtures("often")
@pytest.mark.parametrize("spoil", ["truncated", "flipped", "snapshot gone"])
def test_a_spoiled_point_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: dict[str, str], spoil: str
) -> None:
    stopped = _stopped(tmp_path, monkeypatch, retrograde_in_records, "_follow_level", 40)
    (point,) = stopped.glob("tier-*.resume")
    data = bytearray(point.read_bytes())
    if spoil == "truncated":
        point.write_bytes(data[: len(data) - 8])
    elif spoil == "flipped":
        data[-1] ^= 1
        point.write_bytes(bytes(data))
    else:
        for copy in stopped.glob("tier-*.resume-snapshot-*"):
            copy.unlink()
    restores = _restores(monkeypatch)
    build_tablebase(_game(), stopped)
    assert restores == []  # the tier solved from its start
    assert _hashes(stopped) == whole


KILLED = """
import importlib.util, sys
from perfectplay import build_tablebase
from perfectplay.tiers import resume_points, retrograde_in_records
resume_points.RESUME_EVERY = 0.0
retrograde_in_records.PIECE, retrograde_in_records.SCAN = 512, 4096
retrograde_in_records.WIDE_PIECE = 512
spec = importlib.util.spec_from_file_location("perfectplay_example_morris", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module  # (numba reloads the rules it compiled by module name)
spec.loader.exec_module(module)
build_tablebase(module.MorrisMidgame(points=16, stones=5), sys.argv[2])
"""


def test_kill_9_inside_tiers_resumes_to_the_same_bytes(
    tmp_path: Path, whole: dict[str, str]
) -> None:
    """kill -9 once a point of a first pass is on disk, then once a point between levels
    is: the build run again by the user's command (which once refused the points and their
    copies as "other files") writes the tiers a build never killed writes."""
    target = tmp_path / "killed"
    for pattern in ("tier-*.resume", "tier-*.resume-snapshot-*"):
        child = subprocess.Popen([sys.executable, "-c", KILLED, str(EXAMPLE), str(target)])
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and child.poll() is None:
            if list(target.glob(pattern)):
                break
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL, pattern
        assert not (target / "header.json").exists()
    assert list(target.glob("tier-*.resume*"))
    again = run_cli("solve", f"{EXAMPLE}:MorrisMidgame", "-p", "points=16", "-p", "stones=5",
                    "--save", str(target), "-q")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert _hashes(target) == whole


@pytest.mark.usefixtures("often")
def test_a_point_goes_when_another_method_opens_the_tier_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: dict[str, str]
) -> None:
    """A solve stopped in its first pass, then by another method (which opens the tier's
    records again and stops in them): no point is left to be taken for what the records
    hold, and the solve run again gives the bytes of one never stopped."""
    stopped = _stopped(tmp_path, monkeypatch, retrograde_in_records, "_write_first", 250)
    assert list(stopped.glob("tier-*.resume"))
    _stopped(stopped, monkeypatch, value_iteration, "solve_loopy_tier", 1,
             tier_method="value-iteration")  # fmt: skip
    assert not list(stopped.glob("tier-*.resume*"))
    build_tablebase(_game(), stopped)
    assert _hashes(stopped) == whole


@pytest.mark.parametrize("spoil", ["deleted", "flipped"])
def test_a_tier_lost_after_it_was_noted_is_marked_and_solved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: dict[str, str], spoil: str
) -> None:
    """A build stopped after some tiers, one of whose files is then deleted or changed:
    the build taken up again solves it again from what play reaches (its marks went with
    its working file), not as a tier of no position."""
    stopped = _stopped(tmp_path, monkeypatch, tier_solve, "solve_tier", 4)
    noted = json.loads((stopped / "progress.json").read_text())["solved"]
    assert len(noted) == 3
    victim = stopped / f"tier-{int(max(noted, key=lambda t: noted[t]['positions'])):06d}.rec"
    if spoil == "deleted":
        victim.unlink()
    else:
        data = bytearray(victim.read_bytes())
        data[len(data) // 2] ^= 0x20
        victim.write_bytes(bytes(data))
    build_tablebase(_game(), stopped)
    assert _hashes(stopped) == whole


def test_a_working_file_lost_after_its_tier_was_marked_is_marked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: dict[str, str]
) -> None:
    """A database's tiers marked first (as Dask's coordinator marks them), then the build
    stopped after three tiers and the largest working file left gone: the build taken up
    again solves that tier anew from its indices, not as a tier of no position."""
    with monkeypatch.context() as patch:
        patch.setattr(tier_solve, "reach", lambda graph, files, progress, memory: (
            marking.mark_every_position(graph, files, progress)))  # fmt: skip
        stopped = _stopped(tmp_path, monkeypatch, tier_solve, "solve_tier", 4)
    partials = sorted(stopped.glob("tier-*.partial"), key=lambda p: p.stat().st_size)
    assert len(partials) > 1
    partials[-1].unlink()
    build_tablebase(_game(), stopped)
    assert _hashes(stopped) == whole
