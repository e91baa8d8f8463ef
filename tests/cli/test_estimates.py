"""Progress and the time left (``cli.progress``, ``cli.estimates``): a tier build's rate, a
last solve remembered, a save the disk cannot hold refused at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from perfectplay.cli import main
from perfectplay.cli.progress import TierDisplay


def test_a_tier_build_shows_the_time_left_from_its_rate() -> None:
    now = [0.0]
    display = TierDisplay(clock=lambda: now[0])
    for tier, done in ((0, 1), (1, 400), (2, 1000)):  # marking: 1,000 positions reached
        assert "marking" in display.describe(done, tier)
    now[0] = 100.0
    first = display.describe(100, 2)  # solving starts: no rate yet
    assert "left" not in first and "100 of 1,000 positions" in first
    now[0] = 140.0
    assert display.describe(500, 1).endswith("about 40 s left")  # 400 in 40 s, 500 to go
    now[0] = 100.0 + 3 * 3600
    assert display.describe(900, 0).endswith("about 20 min left")
    # A build taken up again marked only its last tiers: no "4 of 3 tiers", no estimate
    # once the positions solved pass those it marked.
    display = TierDisplay(clock=lambda: now[0])
    for tier, done in ((1, 10), (2, 30)):
        display.describe(done, tier)
    for tier, done in ((2, 5), (1, 20), (0, 40)):
        line = display.describe(done, tier)
    assert "(3 tiers), 40 positions" in line and "left" not in line


def test_a_tier_solved_without_a_word_inside_is_told_as_solving_not_marking() -> None:
    """A tier method that tells nothing inside its tier (by-edges) reports the tier's
    positions once, at its end: as many as the marking found, so no count fell and the
    display took the solve for more marking ("marking reachable positions" for a solve of
    five minutes). The build now says when the solving begins; a build taken up again,
    whose marking said nothing, is told so too."""
    display = TierDisplay(clock=lambda: 0.0)
    assert "marking" in display.describe(6_625_480, 0)
    assert "solving" in display.describe(0, None)
    assert display.describe(0, 0).startswith("solving tier 0 (1 of 1 tiers), 0 of 6,625,480")
    assert display.describe(6_625_480, 0).startswith("solving tier 0 (1 of 1 tiers)")
    taken_up = TierDisplay(clock=lambda: 0.0)
    assert "solving" in taken_up.describe(0, None)
    assert taken_up.describe(40, 3).startswith("solving tier 3")


def test_marking_and_exploring_show_the_time_left_when_a_last_solve_is_remembered() -> None:
    """Issue 46, item 18: the phase whose size is unknown until done (the marking, the
    exploration) is estimated from the size of the last solve of the same game here."""
    from perfectplay.cli.progress import time_left

    now = [0.0]
    display = TierDisplay(clock=lambda: now[0], expected=1000)
    assert "left" not in display.describe(1, 0)
    now[0] = 10.0
    assert display.describe(250, 1).endswith("about 30 s left")  # 250 in 10 s, 750 to go
    unknown = TierDisplay(clock=lambda: now[0])
    unknown.describe(1, 0)
    now[0] = 20.0
    assert "left" not in unknown.describe(250, 1)
    assert time_left(20.0, 100, 400) == ", about 60 s left"
    assert time_left(1.0, 100, 400) == ""  # too early for a rate
    assert time_left(30.0, 500, 400) == ""  # past what was remembered: no estimate
    assert time_left(30.0, 100, None) == ""


def test_a_save_the_disk_cannot_hold_is_refused_at_once_and_its_size_said_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Connect Four 5x4's tiers hold 5,621,939 slots, a byte each: with 1 MB free the save
    is refused before anything is written; with room, the size is said up front."""
    from perfectplay.cli import tablebases

    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))  # no rate known yet
    monkeypatch.setattr(tablebases, "ANNOUNCE_SLOTS", 0)  # (4x3 is too small to announce)
    real = shutil.disk_usage
    monkeypatch.setattr(tablebases.shutil, "disk_usage",
                        lambda path: real(path)._replace(free=1 << 20))  # fmt: skip
    target = tmp_path / "c4"
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "connect-four", "-p", "width=5", "--save", str(target)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs about 5 MB more on disk (5,621,939 slots" in err
    assert not target.exists() or not any(target.iterdir())
    monkeypatch.setattr(tablebases.shutil, "disk_usage", real)
    main(["solve", "connect-four", "-p", "width=4", "-p", "height=3", "--save", str(target)])
    said = capsys.readouterr().err
    from perfectplay.games import ConnectFour

    slots = sum(ConnectFour(4, 3).tier_size(t) for t in range(13))  # tiers: discs played
    assert f"connect-four: at most {slots:,} positions (its tiers' slots), about" in said
    assert f"about {round(slots / 1024)} KB on disk" in said  # a record of one byte a slot
    assert "on this machine" not in said  # no build of it here yet to take the rate of
    main(["solve", "connect-four", "-p", "width=4", "-p", "height=3", "--save",
          str(tmp_path / "again")])  # fmt: skip
    again = capsys.readouterr().err
    assert "on this machine (at the rate of its last whole tier-by-tier solve here)" in again


def test_a_small_builds_rate_is_not_taken_for_a_large_ones_estimate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rates are kept by game name: a small variant's (mostly fixed costs) would make the
    full game's estimate many times too long, so only builds that announce their size
    (ANNOUNCE_SLOTS) keep theirs."""
    from perfectplay.cli import estimates, tablebases
    from perfectplay.games import ConnectFour
    from perfectplay.rules import Rules

    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    rules = Rules(ConnectFour(4, 3))
    main(["solve", "connect-four", "-p", "width=4", "-p", "height=3", "--save",
          str(tmp_path / "small"), "--quiet"])  # fmt: skip
    assert estimates.remembered_rate(rules) is None
    monkeypatch.setattr(tablebases, "ANNOUNCE_SLOTS", 1000)  # as if 4x3 were large
    main(["solve", "connect-four", "-p", "width=4", "-p", "height=3", "--save",
          str(tmp_path / "large"), "--quiet"])  # fmt: skip
    assert estimates.remembered_rate(rules) is not None


def test_a_game_that_learns_its_size_by_solving_says_its_last_solve_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game explored in memory (or ranked by the engine) cannot know its size before it
    is solved: its last solve here, with the same parameters, is said instead."""
    from perfectplay.cli import estimates

    monkeypatch.setenv("PERFECTPLAY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(estimates, "ANNOUNCE_SECONDS", 0.0)  # (these solves are quick)
    monkeypatch.setattr(estimates, "REMEMBER_SECONDS", 0.0)
    nim = ["solve", "nim", "-p", "piles=2,3,4"]
    main(nim)
    first = capsys.readouterr()
    assert "last solve" not in first.err  # never solved here yet
    states = next(line.split()[1] for line in first.out.splitlines() if line.startswith("states"))
    main(nim)
    assert capsys.readouterr().err.startswith(f"nim: {states} positions; its last solve here took ")
    main(["solve", "nim", "-p", "piles=2,3,5"])  # other parameters: another game
    assert "last solve" not in capsys.readouterr().err
    main([*nim, "--quiet"])
    assert capsys.readouterr().err == ""
    main(["solve", "subtraction", "--save", str(tmp_path / "s1")])
    main(["solve", "subtraction", "--save", str(tmp_path / "s2")])
    assert "subtraction: 22 positions; its last solve here took" in capsys.readouterr().err
