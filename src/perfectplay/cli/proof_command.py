"""perfectplay verify-proof: a proof tree (analyze --proof) replayed against the rules alone."""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any

import click

from ..proof_check import Verdict, check_proof
from ..proof_tree import Header, ProofRefuted, read_header
from ..rules import Rules
from .common import emit_json, game_options, json_option, out, print_rows
from .loader import build_game
from .progress import status_lines
from .search_analysis import interruptible


@click.command("verify-proof")
@game_options
@click.argument("proof", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--plain",
    is_flag=True,
    help="Replay with the plain rules in Python (thousands of nodes a second) rather than "
    "the game's compiled rules (millions): a check that shares no compiled code.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Threads searching the proof's leaves (0: one a core).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@json_option
def verify_proof_command(
    game: str,
    params: tuple[str, ...],
    proof: Path,
    plain: bool,
    threads: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Check a proof tree written by 'analyze --method search --proof FILE' with the game's
    rules alone (no search, no table): every move it names legal, every reply there, every
    end scoring as its claims need, every leaf proven by the checker's own plain search.
    Exit status 0 when it proves its claims, 1 when not.

    Example: perfectplay verify-proof examples/othello.py:Othello -p size=4 othello.proof
    """
    rules = Rules(build_game(game, list(params)))
    header = read_header(proof)  # (a file that is no proof: a usage error, exit 2)
    started = time.perf_counter()
    try:
        verdict = _checked(rules, proof, header, (plain, threads), quiet)
    except ProofRefuted as exc:
        if as_json:
            emit_json({"proof": str(proof), "game": rules.name, "proven": False,
                       "problem": str(exc)})  # fmt: skip
        else:
            out.print(f"not proven: {exc}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(1)
    seconds = time.perf_counter() - started
    low, high = verdict.at_least, verdict.at_most
    if as_json:
        emit_json(
            {
                "proof": str(proof),
                "game": rules.name,
                "proven": True,
                "start": header.start,
                "moves_played": list(header.moves),
                "at_least": _json_bound(low),
                "at_most": _json_bound(high),
                "nodes": verdict.nodes,
                "seconds": round(seconds, 3),
            }
        )
        return
    print_rows(
        [
            ("game", rules.name),
            ("proof", str(proof)),
            ("moves played", " ".join(header.moves) or "-"),
            ("nodes checked", f"{verdict.nodes:,} in {seconds:.2f} s"),
            ("proven", _claimed(low, high)),
        ]
    )


def _checked(
    rules: Rules[Any, Any], proof: Path, header: Header, how: tuple[bool, int], quiet: bool
) -> Verdict:
    """The proof checked (``how``: plain, threads), its progress on stderr, Ctrl-C
    stopping it at once (one line)."""
    done: list[Any] = [None, (0, 0)]

    def work() -> None:
        done[0] = check_proof(rules, proof, *how, lambda *n: done.__setitem__(1, n))

    def line() -> str:
        nodes, leaves = done[1]
        return f"{nodes:,} of {header.nodes:,} nodes replayed, {leaves:,} leaves searched"

    with status_lines(f"checking {proof}", quiet=quiet) as say:
        interruptible(work, lambda: f"interrupted while checking the proof {proof}",
                      None if say is None else lambda: say(line()))  # fmt: skip
    verdict: Verdict = done[0]
    return verdict


def _json_bound(bound: float | None) -> float | str | None:
    if bound is None or not math.isinf(bound):
        return bound
    return "inf" if bound > 0 else "-inf"


def _claimed(low: float | None, high: float | None) -> str:
    """The bounds proven, in words, for the player to move at the position."""
    if low is not None and low == high:
        return f"the player to move scores exactly {low:+g}"
    parts = []
    if low is not None:
        parts.append(f"at least {low:+g}")
    if high is not None:
        parts.append(f"at most {high:+g}")
    return f"the player to move scores {' and '.join(parts)}"
