"""perfectplay stress: a user's program against the exact answers on random small judge inputs.

Case i runs on ``problem.generate(random.Random(base_seed + i))``, so ``--seed S --cases 1``
replays exactly the case that was reported with seed S. Results go to stdout; the seed
note and the progress display (only on a terminal) go to stderr.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..errors import ProgramError, UsageProblem

if TYPE_CHECKING:
    from ..contest import Problem


@click.command("stress")
@click.argument("name")
@click.option(
    "--program",
    required=True,
    metavar="CMD",
    help="The command to test: reads one input on stdin, writes its answer on stdout.",
)
@click.option("--cases", default=200, show_default=True, help="How many random inputs.")
@click.option("--seed", default=None, type=int, help="Seed of the first case (default: random).")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds allowed per run.")
def stress_command(name: str, program: str, cases: int, seed: int | None, timeout: float) -> None:
    """Check your program against exact search on random small inputs of a judge problem.

    Prints the first input on which the outputs differ, both outputs and the seed that
    reproduces it, and exits 1; exits 0 when every case agrees.

    Example: perfectplay stress edpc_k --program "python3 my_solution.py" --cases 500
    """
    from ..contest import problems

    problem = problems().get(name)
    if problem is None:
        raise UsageProblem(f"unknown problem {name!r}; problems: {', '.join(problems())}")
    if cases < 1:
        raise UsageProblem("--cases must be at least 1")
    sys.exit(run_stress(problem, program, cases=cases, seed=seed, timeout=timeout))


@dataclass(frozen=True)
class Run:
    """What one run of the program did."""

    stdout: str
    stderr: str
    returncode: int | None
    """None when the run was stopped at the timeout."""


def normalise(text: str) -> str:
    """The text without trailing blanks on each line and without trailing blank lines."""
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip()


def parse_program(program: str) -> list[str]:
    """The command as an argument list (shell quoting rules, no shell)."""
    try:
        argv = shlex.split(program)
    except ValueError as exc:
        raise ProgramError(f"cannot read --program {program!r}: {exc}") from None
    if not argv:
        raise ProgramError("--program is empty; give the command that runs your solution")
    return argv


def check_program(argv: list[str]) -> None:
    """Fail early, before any output, when the command names nothing that can run."""
    name = argv[0]
    if os.sep in name or (os.altsep is not None and os.altsep in name):
        if not os.path.isfile(name):
            raise ProgramError(f"cannot run {name!r}: no such file")
        if not os.access(name, os.X_OK):
            raise ProgramError(f"cannot run {name!r}: the file is not executable")
    elif shutil.which(name) is None:
        raise ProgramError(f"cannot run {name!r}: no such program on PATH")


def run_program(argv: list[str], stdin: str, timeout: float) -> Run:
    """Run ``argv`` once with ``stdin``; stop it (and anything it started) at the timeout."""
    posix = os.name == "posix"
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=posix,
        )
    except FileNotFoundError:
        raise ProgramError(f"cannot run {argv[0]!r}: no such program or file") from None
    except PermissionError:
        raise ProgramError(f"cannot run {argv[0]!r}: permission denied") from None
    except OSError as exc:
        raise ProgramError(f"cannot run {argv[0]!r}: {exc.strerror or exc}") from None
    try:
        try:
            out, err = process.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process, posix)
            out, err = process.communicate()
            return Run(out, err, None)
        return Run(out, err, process.returncode)
    finally:
        if process.poll() is None:
            _kill(process, posix)
            process.wait()


def _kill(process: subprocess.Popen[str], posix: bool) -> None:
    if posix:
        with suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    process.kill()


def failure_reason(run: Run, expected: str, timeout: float) -> str | None:
    """Why a run disagrees with the expected output, or None when it agrees."""
    if run.returncode is None:
        return f"timed out after {timeout:g} s"
    if run.returncode != 0:
        return f"exit code {run.returncode}"
    if normalise(run.stdout) != normalise(expected):
        return "wrong answer"
    return None


@contextmanager
def _progress(label: str, total: int) -> Iterator[Progress | None]:
    """A progress bar on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        yield None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        bar.add_task(label, total=total)
        yield bar


def _section(title: str, text: str) -> None:
    print(f"--- {title} ---")
    if not text:
        print("(empty)")
    else:
        print(text, end="" if text.endswith("\n") else "\n")


def report_failure(
    problem: Problem,
    program: str,
    case: int,
    cases: int,
    seed: int,
    case_input: str,
    expected: str,
    run: Run,
    reason: str,
) -> None:
    """Print the failing case to stdout: how to replay it, the input and both outputs."""
    print(f"case {case} of {cases} failed: {reason}")
    print(f"seed {seed}")
    print(
        f"reproduce: perfectplay stress {problem.name} --program {shlex.quote(program)} "
        f"--seed {seed} --cases 1"
    )
    _section("input", case_input)
    _section("expected output", expected)
    _section("your program's output", run.stdout)
    if run.stderr.strip():
        _section("your program's stderr", run.stderr)
    if run.returncode is None:
        print(f"stopped: {reason}; the output above is what it wrote until then")
    elif run.returncode != 0:
        print(f"exit code: {run.returncode}")


def run_stress(
    problem: Problem, program: str, *, cases: int, seed: int | None, timeout: float
) -> int:
    """Run ``program`` on ``cases`` random inputs; 1 and a report at the first disagreement.

    A run disagrees when its output differs (trailing blanks aside), when it exits non-zero
    (as a judge counts a runtime error) or when it outlasts ``timeout`` seconds.
    """
    argv = parse_program(program)
    check_program(argv)
    base_seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    print(
        f"stress {problem.name}: seeds {base_seed}..{base_seed + cases - 1} "
        f"(rerun with --seed {base_seed})",
        file=sys.stderr,
        flush=True,
    )
    started = time.perf_counter()
    with _progress(f"stress {problem.name}", cases) as bar:
        for i in range(cases):
            case_seed = base_seed + i
            case_input = problem.generate(random.Random(case_seed))
            expected = problem.answer(case_input)
            run = run_program(argv, case_input, timeout)
            reason = failure_reason(run, expected, timeout)
            if reason is not None:
                if bar is not None:
                    bar.stop()
                report_failure(
                    problem, program, i + 1, cases, case_seed, case_input, expected, run, reason
                )
                return 1
            if bar is not None:
                bar.advance(bar.task_ids[0])
    seconds = time.perf_counter() - started
    print(f"all {cases} cases agree ({problem.name}, {seconds:.1f} s)")
    return 0
