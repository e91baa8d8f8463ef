"""Issue 48 item 4: proof trees written from the search and checked by the rules alone:
on random games of every kind they prove the exhaustive reference's score, and a proof
altered anywhere that matters is refused, naming where."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import reference
from cli_script import run_cli
from wide_random import (
    WideOutcomes,
    WideOutcomesTurns,
    WideRewardTurns,
    WideRewardTurnsKeyed,
    WideScored,
)

from perfectplay.proof_search import write_proof
from perfectplay.proof_tree import ProofError, ProofRefuted, check_proof
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import CompiledSearch, compiled_rules_of
from perfectplay.values import LOSS, TIE, WIN

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
OUTCOME_SCORE = {WIN: 1.0, TIE: 0.0, LOSS: -1.0}


def _prove(game: Any, state: Any, path: Path, log_size: int = 6) -> tuple[Rules[Any, Any], int]:
    """Search ``state``, write its proof to ``path``; the rules and the searched score."""
    rules = Rules(game)
    search = CompiledSearch(compiled_rules_of(rules), log_size)
    score = search.score(search.rules.encode(state))
    write_proof(rules, state, [], search, score, path)
    return rules, score


@pytest.mark.parametrize(
    "cls", [WideScored, WideRewardTurns, WideRewardTurnsKeyed, WideOutcomes, WideOutcomesTurns]
)
def test_proofs_of_random_games_prove_the_references_scores(cls: Any, tmp_path: Path) -> None:
    """Every reachable non-final state of random games (scores, rewards, extra turns, a key
    merging positions): its proof checks, and proves exactly the reference's score. A small
    table (2**6 entries) keeps the search honest: it forgets, the proof must not."""
    proven = 0
    for seed in range(4):
        game = cls(seed=seed) if cls in (WideOutcomes, WideOutcomesTurns) else cls(seed=seed, n=40)
        outcomes = cls in (WideOutcomes, WideOutcomesTurns)
        expected = reference.solve_outcomes(game) if outcomes else reference.upward_scores(game)
        for state, (value, _) in sorted(expected.items())[:12]:
            if game.outcome(state) is not None:
                continue
            path = tmp_path / f"{seed}-{proven}.proof"
            rules, _ = _prove(game, state, path)
            verdict = check_proof(rules.starting_at(state), path)
            want = OUTCOME_SCORE[value] if outcomes else float(value)
            least, largest = (-1.0, 1.0) if outcomes else (-math.inf, math.inf)
            # (a bound at the range's end holds of any position: no tree claims it)
            assert verdict.at_least == (None if want == least else want), (seed, state)
            assert verdict.at_most == (None if want == largest else want), (seed, state)
            proven += 1
    assert proven > 20


def _lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, rows: list[Any]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


@pytest.fixture(scope="module")
def othello_proof(tmp_path_factory: pytest.TempPathFactory) -> tuple[Rules[Any, Any], Path]:
    """4x4 Othello's start, proven (-10 for the first player)."""
    from perfectplay.cli.loader import build_game

    rules = Rules(build_game(f"{EXAMPLES / 'othello.py'}:Othello", ["size=4"]))
    path = tmp_path_factory.mktemp("proof") / "othello.proof"
    search = CompiledSearch(compiled_rules_of(rules), 16)
    score = search.score(search.rules.encode(rules.initial_state()))
    write_proof(rules, rules.initial_state(), [], search, score, path)
    return rules, path


def test_othellos_proof_checks_and_proves_minus_ten(othello_proof: Any) -> None:
    rules, path = othello_proof
    verdict = check_proof(rules, path)
    assert (verdict.at_least, verdict.at_most) == (-10, -10)
    assert verdict.nodes == len(_lines(path)) - 1


def _first(rows: list[Any], side: str) -> int:
    """The line of the first node on ``side`` with a child node (not an end)."""
    for i, row in enumerate(rows[1:], start=1):
        if row[1] == side and (row[4] > 0 if side == ">=" else any(c > 0 for c in row[3])):
            return i
    raise AssertionError(side)


def test_an_altered_proof_is_refused_naming_where(othello_proof: Any, tmp_path: Path) -> None:
    """Each change that breaks the argument is refused: a stronger root claim, a reply
    left out, an end claimed where play goes on, a child pointed at another position's
    node, another move in place of the proven one, the file cut short."""
    rules, path = othello_proof
    rows = _lines(path)
    broken = tmp_path / "broken.proof"

    def refused(altered: list[Any], match: str) -> None:
        _write(broken, altered)
        with pytest.raises(ProofRefuted, match=match):
            check_proof(rules, broken)

    stronger = json.loads(json.dumps(rows))
    root_id, side, value = stronger[0]["claims"][0]
    stronger[0]["claims"][0][2] = value + 1 if side == ">=" else value - 1
    stronger[root_id][2] = stronger[0]["claims"][0][2]
    refused(stronger, "is needed|the game ends at")

    fewer = json.loads(json.dumps(rows))
    at = _first(fewer, "<=")
    fewer[at][3] = fewer[at][3][:-1]
    refused(fewer, "replies for a position")

    ended = json.loads(json.dumps(rows))
    at = _first(ended, ">=")
    ended[at][4] = 0
    refused(ended, "the game goes on")

    elsewhere = json.loads(json.dumps(rows))
    at = _first(elsewhere, "<=")
    children = [c for c in elsewhere[at][3] if c > 0]
    target = next(r[0] for r in elsewhere[1:] if r[0] not in children and r[0] != at)
    elsewhere[at][3] = [target if c == children[0] else c for c in elsewhere[at][3]]
    refused(elsewhere, r"^node \d+")

    other_move = json.loads(json.dumps(rows))
    at = _first(other_move, ">=")
    node = other_move[at]
    state = _position_of(rules, other_move, node[0])
    legal = [rules.format_move(m) for m in rules.legal_moves(state)]
    replacement = next(m for m in legal if m != node[3])
    node[3] = replacement
    refused(other_move, r"^node \d+")

    refused(rows[:-3], "a file cut short")


def _position_of(rules: Rules[Any, Any], rows: list[Any], wanted: int) -> Any:
    """The position node ``wanted`` stands for, found by replaying the tree."""
    positions = {rows[0]["claims"][0][0]: rules.initial_state()}
    for ident, _, _ in rows[0]["claims"]:
        positions[ident] = rules.initial_state()
    pending = list(positions)
    while pending:
        ident = pending.pop()
        if ident == wanted:
            return positions[ident]
        row = rows[ident]
        state = positions[ident]
        if row[1] == ">=":
            pairs = [(rules.parse_move(state, row[3]), row[4])]
        else:
            pairs = list(zip(rules.legal_moves(state), row[3], strict=True))
        for move, child in pairs:
            if child > 0 and child not in positions:
                positions[child] = rules.play(state, move)
                pending.append(child)
    raise AssertionError(wanted)


def test_a_file_that_is_no_proof_is_a_usage_error(othello_proof: Any, tmp_path: Path) -> None:
    rules, _ = othello_proof
    garbage = tmp_path / "garbage.proof"
    garbage.write_text("print('hello')\n")
    with pytest.raises(ProofError, match="is not a perfectplay proof") as raised:
        check_proof(rules, garbage)
    assert not isinstance(raised.value, ProofRefuted)


def test_the_cli_proves_and_checks_and_refuses_in_one_line(tmp_path: Path) -> None:
    """analyze --proof writes it, verify-proof checks it (exit 0), refuses a broken one
    (exit 1, one line) and one of other parameters (exit 2, one line)."""
    game = [f"{EXAMPLES / 'othello.py'}:Othello", "-p", "size=4"]
    proof = tmp_path / "o.proof"
    done = run_cli("analyze", *game, "--method", "search", "--proof", str(proof), "--moves", "b1")
    assert done.returncode == 0, done.stderr
    checked = run_cli("verify-proof", *game, str(proof), "--json")
    assert checked.returncode == 0, checked.stderr
    report = json.loads(checked.stdout)
    searched = run_cli("analyze", *game, "--method", "search", "--moves", "b1", "--json")
    score = json.loads(searched.stdout)["score"]
    assert report["proven"] and report["at_least"] == report["at_most"] == score
    assert report["moves_played"] == ["b1"]
    rows = _lines(proof)
    rows[0]["claims"][0][2] += 1 if rows[0]["claims"][0][1] == ">=" else -1
    rows[rows[0]["claims"][0][0]][2] = rows[0]["claims"][0][2]
    _write(proof, rows)
    bad = run_cli("verify-proof", *game, str(proof))
    assert bad.returncode == 1 and bad.stdout.startswith("not proven: node "), bad.stdout
    other = run_cli(
        "verify-proof", f"{EXAMPLES / 'othello.py'}:Othello", "-p", "size=6", str(proof)
    )
    assert other.returncode == 2 and other.stderr.count("\n") == 1, other.stderr
    assert "other parameters" in other.stderr
    refused = run_cli("analyze", *game, "--proof", str(proof))
    assert refused.returncode == 2 and "--proof goes with a search" in refused.stderr
