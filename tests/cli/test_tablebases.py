"""Tablebases through the console script: solve --save, analyze/play --db, verify, compress,
check and --memory, run as a user runs them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pexpect
import pytest
from cli_script import SCRIPT, one_line_error, run_cli

from perfectplay import open_tablebase
from perfectplay.games import BUILTINS, TicTacToe
from perfectplay.tablebase.header import read_header

GAMES = {
    "tictactoe": ("tictactoe",),
    "connect-four": ("connect-four",),
    "subtraction": ("subtraction", "-p", "stones=30", "-p", "take=1,3,4"),
}
POSITIONS = {"tictactoe": 5478, "connect-four": 161029}


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tablebase of each game, built once by `solve --save` (at the same time)."""
    root = tmp_path_factory.mktemp("tablebases")

    def build(name: str) -> subprocess.CompletedProcess[str]:
        return run_cli("solve", *GAMES[name], "--save", str(root / name), "--json")

    with ThreadPoolExecutor() as pool:
        results = dict(zip(GAMES, pool.map(build, GAMES), strict=True))
    for name, result in results.items():
        assert result.returncode == 0, (name, result.stderr)
        (root / f"{name}.json").write_text(result.stdout)
    return {name: root / name for name in GAMES}


def json_of(*args: str) -> dict[str, Any]:
    result = run_cli(*args, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def rows_of(stdout: str) -> dict[str, str]:
    rows = {}
    for line in stdout.splitlines():
        key, _, value = line.strip().partition("  ")
        if key:
            rows[key.strip()] = value.strip()
    return rows


def disk_bytes(directory: Path, pattern: str = "*") -> int:
    return sum(p.stat().st_size for p in directory.glob(pattern) if p.is_file())


ANSWER_FIELDS = ("position", "moves_played", "value", "remoteness", "best_moves", "moves")


# --------------------------------------------------------------------------- solve --save


def test_save_answers_the_start_as_the_solver_does(bases: dict[str, Path]) -> None:
    for name, directory in bases.items():
        saved = json.loads((directory.parent / f"{name}.json").read_text())
        solved = json_of("solve", *GAMES[name])
        for field in ("game", "value", "remoteness", "best_moves", "principal_variation"):
            assert saved[field] == solved[field], (name, field)
        assert saved.get("grundy") == solved.get("grundy")
        assert saved["method"] == "tablebase"
        assert saved["tablebase"]["bytes"] == disk_bytes(directory)
        assert saved["tablebase"]["reused"] is False
    saved = json.loads((bases["connect-four"].parent / "connect-four.json").read_text())
    assert saved["stats"]["positions"] == POSITIONS["connect-four"]
    assert saved["tablebase"]["layout"] == "tiers"
    assert saved["value"] == "tie" and saved["remoteness"] == 16
    sub = json.loads((bases["subtraction"].parent / "subtraction.json").read_text())
    assert sub["tablebase"]["layout"] == "graph" and "grundy" in sub


def test_save_again_reuses_the_tablebase_and_prints_its_rows(bases: dict[str, Path]) -> None:
    directory = bases["tictactoe"]
    before = (directory / "header.json").stat().st_mtime_ns
    result = run_cli("solve", "tictactoe", "--save", str(directory))
    assert result.returncode == 0, result.stderr
    rows = rows_of(result.stdout)
    assert rows["method"] == "tiers (already built)"
    assert rows["value"] == "tie" and rows["remoteness"] == "9"
    assert rows["positions"] == "5,478"
    assert rows["tablebase"] == str(directory)
    assert rows["bytes on disk"] == f"{disk_bytes(directory):,}"
    assert sorted(rows["best moves"].split()) == [str(c) for c in range(1, 10)]
    assert (directory / "header.json").stat().st_mtime_ns == before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["weighted-tictactoe", "--workers", "1"], "is scored"),
        (["nim"], "non-negative integers"),
        (["tictactoe", "--method", "negamax"], "tier by tier"),
        (["tictactoe", "--method", "alphabeta"], "no --save"),
    ],
)
def test_save_refuses_what_it_cannot_do(tmp_path: Path, args: list[str], words: str) -> None:
    target = tmp_path / "base"
    one_line_error(run_cli("solve", *args, "--save", str(target)), words)
    assert not target.exists()  # nothing left behind


def test_save_refuses_a_directory_of_other_files_and_another_games(
    tmp_path: Path, bases: dict[str, Path]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    one_line_error(run_cli("solve", "tictactoe", "--save", str(tmp_path)), "other files")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    one_line_error(
        run_cli("solve", "tictactoe", "--save", str(bases["connect-four"])), "'connect-four'"
    )


# --------------------------------------------------------------------------- analyze --db

SEQUENCES = [
    ("tictactoe", ""),
    ("tictactoe", "5"),
    ("tictactoe", "1,2,5"),
    ("tictactoe", "5,1,9,3,7"),
    ("tictactoe", "1,4,2,5,3"),  # X has won: no moves
    ("connect-four", ""),
    ("connect-four", "1,2,2"),
    ("connect-four", "2,3,2,3"),
    ("connect-four", "1,1,1,1,2,2"),
    ("subtraction", "1,3"),
]


@pytest.mark.parametrize(("game", "moves"), SEQUENCES)
def test_analyze_db_answers_as_the_solver(bases: dict[str, Path], game: str, moves: str) -> None:
    where = ["--moves", moves] if moves else []
    solved = json_of("analyze", *GAMES[game], *where)
    answered = json_of("analyze", *GAMES[game], *where, "--db", str(bases[game]))
    for field in (*ANSWER_FIELDS, "principal_variation", "grundy"):
        assert answered.get(field) == solved.get(field), field
    assert answered["method"] == "tablebase"
    positions = json.loads((bases[game] / "header.json").read_text())["tiers"]
    assert answered["stats"] == {"positions": sum(t["positions"] for t in positions)}


def test_analyze_db_text_names_the_tablebase(bases: dict[str, Path]) -> None:
    result = run_cli("analyze", "tictactoe", "--db", str(bases["tictactoe"]), "--moves", "1,2,5")
    assert result.returncode == 0, result.stderr
    rows = rows_of(result.stdout)
    assert rows["tablebase"] == str(bases["tictactoe"])
    assert rows["value"] == "loss" and rows["remoteness"] == "4"
    # O has lost; blocking at 9 loses slowest, and is marked best.
    assert re.search(r"│ 9 \*\s+│ loss\s+│\s+4 │", result.stdout), result.stdout


def test_analyze_db_position_is_the_position_the_moves_reach(bases: dict[str, Path]) -> None:
    db = ["--db", str(bases["tictactoe"])]
    by_moves = json_of("analyze", "tictactoe", *db, "--moves", "1,2,5")
    by_text = json_of("analyze", "tictactoe", *db, "--position", "XO./.X./...")
    for field in ANSWER_FIELDS[2:]:
        assert by_text[field] == by_moves[field]


def test_analyze_db_refuses_a_position_play_never_reaches(bases: dict[str, Path]) -> None:
    result = run_cli(
        "analyze", "tictactoe", "--db", str(bases["tictactoe"]), "--position", "XXX/OOO/..."
    )
    line = one_line_error(result, "does not hold position 'XXX/OOO/...'")
    assert "not reach" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["analyze", "connect-four", "-p", "width=5"], "parameters"),
        (["analyze", "tictactoe"], "holds 'connect-four', not 'tictactoe'"),
        (["play", "tictactoe"], "holds 'connect-four', not 'tictactoe'"),
        (["analyze", "connect-four", "--method", "negamax"], "without solving"),
    ],
)
def test_db_answers_only_for_its_own_game(
    bases: dict[str, Path], args: list[str], words: str
) -> None:
    one_line_error(run_cli(*args, "--db", str(bases["connect-four"])), words)


def test_db_that_is_no_tablebase(tmp_path: Path) -> None:
    one_line_error(run_cli("analyze", "tictactoe", "--db", str(tmp_path)), "no tablebase")


# --------------------------------------------------------------------------- verify


def test_verify_a_sound_tablebase(bases: dict[str, Path]) -> None:
    result = run_cli("verify", str(bases["connect-four"]), "--samples", "300")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "sound"
    rows = rows_of(result.stdout)
    assert rows["positions"] == "161,029"
    assert rows["checksums and counts"] == "17 tiers"
    assert rows["samples"].startswith("300 positions")
    report = json_of("verify", str(bases["tictactoe"]))
    assert report["sound"] is True and report["problems"] == []
    assert (report["tiers"], report["positions"]) == (10, POSITIONS["tictactoe"])
    # The header's parameters name the game: stones=30, take=1,3,4, not the defaults.
    assert json_of("verify", str(bases["subtraction"]))["sound"] is True


def test_verify_with_the_wrong_parameters_is_one_line(bases: dict[str, Path]) -> None:
    result = run_cli("verify", str(bases["subtraction"]), "subtraction", "-p", "stones=31")
    one_line_error(result, "parameters")


def damaged_copy(source: Path, target: Path, tier: str = "tier-000005.rec") -> Path:
    """A copy of a tablebase with one byte of one tier file changed."""
    shutil.copytree(source, target)
    data = bytearray((target / tier).read_bytes())
    data[len(data) // 2] ^= 0x40
    (target / tier).write_bytes(bytes(data))
    return target


def test_verify_finds_a_flipped_byte(tmp_path: Path, bases: dict[str, Path]) -> None:
    damaged = damaged_copy(bases["tictactoe"], tmp_path / "damaged")
    result = run_cli("verify", str(damaged))
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode in (1, 2)
    if result.returncode == 2:
        one_line_error(result, "tier-000005.rec")
        return
    problems = [line for line in result.stdout.splitlines() if line.startswith("problem:")]
    assert len(problems) == 1 and "tier-000005.rec" in problems[0], result.stdout
    assert "checksum" in problems[0]
    assert result.stdout.strip().splitlines()[-1].startswith("not sound")


def test_verify_finds_a_record_that_disagrees_with_its_counts(
    tmp_path: Path, bases: dict[str, Path]
) -> None:
    # The checksum is made to match: only the counts (and the moves) can tell.
    damaged = damaged_copy(bases["tictactoe"], tmp_path / "damaged", "tier-000003.rec")
    header = json.loads((damaged / "header.json").read_text())
    for tier in header["tiers"]:
        if tier["file"] == "tier-000003.rec":
            tier["sha256"] = hashlib.sha256((damaged / tier["file"]).read_bytes()).hexdigest()
    (damaged / "header.json").write_text(json.dumps(header))
    result = run_cli("verify", str(damaged), "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["sound"] is False and any("tier 3" in p for p in report["problems"])


def test_analyze_db_refuses_a_damaged_tier(tmp_path: Path, bases: dict[str, Path]) -> None:
    damaged = damaged_copy(bases["tictactoe"], tmp_path / "damaged")
    result = run_cli("analyze", "tictactoe", "--db", str(damaged), "--moves", "1,2,3,4")
    one_line_error(result, "fails its checksum")
    # Positions whose answers never read tier 5 are still answered.
    later = json_of("analyze", "tictactoe", "--db", str(damaged), "--moves", "1,2,3,4,5,6")
    assert later["value"] == "win" and later["best_moves"] == ["7", "9"]


# --------------------------------------------------------------------------- compress


def test_compress_then_answer_from_the_copy(tmp_path: Path, bases: dict[str, Path]) -> None:
    source, target = bases["connect-four"], tmp_path / "c4.zst"
    report = json_of("compress", str(source), str(target), "--level", "9")
    after = disk_bytes(target, "tier-*.zst") + disk_bytes(target, "tier-*.idx")
    assert report["tier_bytes_after"] == after
    assert report["tier_bytes_before"] == disk_bytes(source, "tier-*.rec")
    assert report["bytes_before"] == disk_bytes(source)
    assert report["bytes_after"] == disk_bytes(target)
    assert report["bits_per_position"] == round(8 * after / POSITIONS["connect-four"], 4)
    assert 0 < report["bits_per_position"] < 8
    everything = 8 * disk_bytes(target) / POSITIONS["connect-four"]
    assert report["all_bits_per_position"] == round(everything, 4)
    compressed = read_header(target).compressed
    assert compressed is not None and compressed["filled"] == "batch_answered_by"
    for moves in ("1,2,2", "2,3,2,3", "1,1,1,1,2,2"):
        plain = json_of("analyze", "connect-four", "--db", str(source), "--moves", moves)
        packed = json_of("analyze", "connect-four", "--db", str(target), "--moves", moves)
        assert packed == plain
    verify = run_cli("verify", str(target), "--samples", "200")
    assert verify.returncode == 0 and verify.stdout.strip().endswith("sound")
    one_line_error(run_cli("compress", str(target), str(tmp_path / "again")), "compressed")
    one_line_error(run_cli("compress", str(source), str(target)), "new or empty")


def test_compress_text_shows_sizes(tmp_path: Path, bases: dict[str, Path]) -> None:
    result = run_cli("compress", str(bases["tictactoe"]), str(tmp_path / "t"))
    assert result.returncode == 0, result.stderr
    rows = rows_of(result.stdout)
    after = disk_bytes(tmp_path / "t", "tier-*.zst") + disk_bytes(tmp_path / "t", "tier-*.idx")
    assert rows["tier files"].startswith(f"{disk_bytes(bases['tictactoe'], '*.rec'):,} bytes")
    assert f"-> {after:,} bytes" in rows["tier files"]
    everything = 8 * disk_bytes(tmp_path / "t") / POSITIONS["tictactoe"]
    assert rows["bits per position"] == (
        f"{8 * after / POSITIONS['tictactoe']:.3f} in the tier files, {everything:.3f} in all "
        "files (codes, scores and header too)"
    )


# --------------------------------------------------------------------------- check

BROKEN_GAME = textwrap.dedent(
    """
    import numpy as np
    from perfectplay import Expansion
    from perfectplay.protocol import BatchRules

    class Countdown:
        '''Take 1 or 2 from a pile; no move loses. broken=true forgets the 2 in batch.'''

        name = "countdown"

        def __init__(self, stones: int = 12, broken: bool = False) -> None:
            self.stones, self.broken = stones, broken

        def initial(self) -> int:
            return self.stones

        def moves(self, n: int) -> list[int]:
            return [t for t in (1, 2) if t <= n]

        def play(self, n: int, t: int) -> int:
            return n - t

        def outcome(self, n: int) -> None:
            return None

        def batch_outcome(self, codes):
            return np.zeros(codes.shape[0], dtype=np.int8)

        def batch_expand(self, codes):
            takes = (1,) if self.broken else (1, 2)
            parents = [i for i, n in enumerate(codes) for t in takes if t <= n]
            children = [int(codes[i]) - t for i, n in enumerate(codes) for t in takes if t <= n]
            return Expansion(np.array(parents, dtype=np.int64), np.array(children, dtype=np.int64))

        def speed(self):
            return BatchRules(self.batch_outcome, self.batch_expand)
    """
)


@pytest.mark.parametrize("name", list(BUILTINS))
def test_check_every_builtin(name: str) -> None:
    result = run_cli("check", name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "no problems"
    protocols = rows_of(result.stdout)["protocols"].split(", ")
    assert protocols[0] == "plain"
    assert ("tiers" in protocols) == (
        name in ("tictactoe", "connect-four", "weighted-tictactoe", "dobutsu")
    )


def test_check_finds_batch_hooks_that_disagree(tmp_path: Path) -> None:
    (tmp_path / "countdown.py").write_text(BROKEN_GAME)
    game = str(tmp_path / "countdown.py") + ":Countdown"
    sound = json_of("check", game)
    assert sound["problems"] == [] and sound["protocols"] == ["plain", "batch"]
    result = run_cli("check", game, "-p", "broken=true", "--samples", "200")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    problems = [line for line in result.stdout.splitlines() if line.startswith("problem:")]
    assert problems and all("countdown.batch" in line for line in problems), result.stdout


# --------------------------------------------------------------------------- --memory


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "tictactoe"],
        ["analyze", "tictactoe"],
        ["play", "tictactoe"],
        ["table", "subtraction", "--range", "stones=1..3"],
    ],
)
@pytest.mark.parametrize(("size", "words"), [("12Q", "512M or 4G"), ("100K", "below 1 MB")])
def test_memory_that_does_not_read(command: list[str], size: str, words: str) -> None:
    line = one_line_error(run_cli(*command, "--memory", size), words)
    assert "--memory" in line


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "connect-four"],
        ["analyze", "connect-four"],
        ["play", "connect-four"],
        ["table", "connect-four", "--range", "width=4..4"],
    ],
)
def test_memory_budget_stops_exploring(command: list[str]) -> None:
    line = one_line_error(run_cli(*command, "--memory", "150M"), "memory budget of 150 MB")
    assert "--save DIR" in line  # the route this game has (tiers), not a protocol to add


@pytest.mark.parametrize("command", [["solve", "tictactoe"], ["analyze", "connect-four"]])
def test_a_budget_below_the_process_itself_is_refused(command: list[str]) -> None:
    line = one_line_error(run_cli(*command, "--memory", "20M"), "before any work")
    assert "--memory" in line


def test_memory_budget_stops_a_tiered_save(tmp_path: Path) -> None:
    target = tmp_path / "base"
    one_line_error(
        run_cli("solve", "connect-four", "--save", str(target), "--memory", "150M"),
        "memory budget of 150 MB",
    )
    assert not (target / "header.json").exists()  # no whole tablebase (the work is kept)


# --------------------------------------------------------------------------- play --db

PROMPT = r"your move \(([^;]*); undo, hint, quit\)> "


def test_play_db_plays_the_tablebase_best_moves(bases: dict[str, Path]) -> None:
    """A scripted game against the tablebase: the person takes the first legal cell each
    turn; every reply must be the tablebase's first best move, announced with its value."""
    game = TicTacToe()
    child = pexpect.spawn(
        SCRIPT,
        ["play", "tictactoe", "--db", str(bases["tictactoe"]), "--as", "second"],
        encoding="utf-8",
        timeout=60,
    )
    child.setwinsize(50, 200)
    state = game.initial()
    replies = 0
    with open_tablebase(bases["tictactoe"], game) as base:
        while True:
            best = base.best_moves(state)[0]
            value = {mv.move: mv for mv in base.move_values(state)}[best]
            child.expect(r"perfectplay plays (\d) \((\w+) for it, in (\d+) pl(?:ies|y)\)")
            assert child.match.group(1) == str(best + 1)
            assert child.match.group(2) == str(value.value)
            assert int(child.match.group(3)) == value.remoteness
            state, replies = game.play(state, best), replies + 1
            if not game.moves(state) or game.outcome(state) is not None:
                break
            child.expect(PROMPT)
            mine = int(child.match.group(1).split()[0])
            child.sendline(str(mine))
            state = game.play(state, mine - 1)
            if not game.moves(state) or game.outcome(state) is not None:
                break
    child.expect(r"game over: ([^\r\n]*)")
    result = child.match.group(1)
    child.expect(r"another game\? \(y/n\)> ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert result in ("a tie", "perfectplay wins")
    assert replies >= 3


def test_save_goes_on_after_ctrl_c(tmp_path: Path) -> None:
    """Interrupted on a terminal while solving tiers: one line, the finished tiers kept, and
    the same command then completes the tablebase."""
    # One thread, and Ctrl-C at one of the first 8 of 25 tiers solved (leaves first: the
    # largest tiers are still to come). The child gets Ctrl-C's default action back: a test
    # run started in the background of a shell has it ignored, and so would the child.
    env = {**os.environ, "PERFECTPLAY_THREADS": "1"}
    target = tmp_path / "c4-4x6"
    args = ["solve", "connect-four", "-p", "height=6", "--save", str(target)]
    child = pexpect.spawn(
        SCRIPT,
        args,
        encoding="utf-8",
        timeout=120,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.setwinsize(50, 200)
    child.expect(r"solving tier \d+ \([1-8] of 25 tiers\), [\d,]+ of 15,835,683 positions")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # (128 + SIGINT, as shells give it)
    assert "Traceback" not in (child.before or "")
    assert "run the same solve again" in (child.before or "")
    assert (target / "progress.json").exists() and not (target / "header.json").exists()
    done = json_of(*args)
    assert done["stats"]["positions"] == 15835683
    assert (done["value"], done["remoteness"]) == ("tie", 24)


def test_verify_reloads_a_game_of_the_users_from_the_file_its_header_records(
    tmp_path: Path,
) -> None:
    """Issue 46, item 11: the header names the file and class; verify tries them first,
    and says in one line when the file has gone."""
    game = tmp_path / "race.py"
    game.write_text(
        "class Race:\n"
        "    def __init__(self, n: int = 7):\n"
        "        self.n = n\n"
        "    def initial(self):\n"
        "        return 0\n"
        "    def moves(self, s):\n"
        "        return [1, 2]\n"
        "    def play(self, s, m):\n"
        "        return s + m\n"
        "    def outcome(self, s):\n"
        "        from perfectplay import LOSS\n"
        "        return LOSS if s >= self.n else None\n"
    )
    saved = run_cli("solve", f"{game}:Race", "-p", "n=9", "--save", str(tmp_path / "tb"), "-q")
    assert saved.returncode == 0, saved.stderr
    header = json.loads((tmp_path / "tb" / "header.json").read_text())
    assert header["identity"]["file"] == str(game.resolve())
    verified = run_cli("verify", str(tmp_path / "tb"), "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["sound"], verified.stderr
    game.rename(tmp_path / "elsewhere.py")
    line = one_line_error(run_cli("verify", str(tmp_path / "tb")))
    assert "which is no longer there" in line and ":Race" in line
