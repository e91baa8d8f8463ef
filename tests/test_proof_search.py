"""Issue 48 item 4: proof trees written from the search and checked by the rules alone:
on random games of every kind they prove the exhaustive reference's score, with and
without searched leaves, the compiled checker and the plain one agreeing; a proof altered
anywhere that matters is refused by both, naming the same node."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
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

from perfectplay.proof_check import check_proof
from perfectplay.proof_search import write_proof
from perfectplay.proof_tree import (
    SEARCHED,
    Header,
    ProofError,
    ProofRefuted,
    Tree,
    read_proof,
    write_proof_file,
)
from perfectplay.protocol import SCORE_ENDS
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import CompiledSearch, compiled_rules_of
from perfectplay.values import LOSS, TIE, WIN

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
OUTCOME_SCORE = {WIN: 1.0, TIE: 0.0, LOSS: -1.0}


def _prove(game: Any, state: Any, path: Path, leaves: int, log_size: int = 6) -> Rules[Any, Any]:
    """Search ``state``, write its proof to ``path`` (leaves searched within ``leaves``
    nodes); the rules."""
    rules = Rules(game)
    search = CompiledSearch(compiled_rules_of(rules), log_size)
    score = search.score(search.rules.encode(state))
    write_proof(rules, state, [], search, score, path, leaf_nodes=leaves)
    return rules


@pytest.mark.parametrize(
    "cls", [WideScored, WideRewardTurns, WideRewardTurnsKeyed, WideOutcomes, WideOutcomesTurns]
)
def test_proofs_of_random_games_prove_the_references_scores(cls: Any, tmp_path: Path) -> None:
    """Every reachable non-final state of random games (scores, rewards, extra turns, a key
    merging positions): its proof, whole or with leaves, checks compiled and plain alike,
    and proves exactly the reference's score. A small table (2**6 entries) keeps the
    search honest: it forgets, the proof must not."""
    proven = leafy = 0
    for seed in range(4):
        game = cls(seed=seed) if cls in (WideOutcomes, WideOutcomesTurns) else cls(seed=seed, n=40)
        outcomes = cls in (WideOutcomes, WideOutcomesTurns)
        expected = reference.solve_outcomes(game) if outcomes else reference.upward_scores(game)
        for k, (state, (value, _)) in enumerate(sorted(expected.items())[:12]):
            if game.outcome(state) is not None:
                continue
            path = tmp_path / f"{seed}-{proven}.proof"
            rules = _prove(game, state, path, leaves=(0, 4, 10**6)[k % 3])
            verdict = check_proof(rules.starting_at(state), path)
            assert check_proof(rules.starting_at(state), path, plain=True) == verdict
            want = OUTCOME_SCORE[value] if outcomes else float(value)
            least, largest = (-1.0, 1.0) if outcomes else (-math.inf, math.inf)
            # (a bound at the range's end holds of any position: no tree claims it)
            assert verdict.at_least == (None if want == least else want), (seed, state)
            assert verdict.at_most == (None if want == largest else want), (seed, state)
            proven += 1
            leafy += int((read_proof(path)[1].edge == SEARCHED).any())
    assert proven > 20 and leafy > 3


@pytest.fixture(scope="module")
def othello_proof(tmp_path_factory: pytest.TempPathFactory) -> tuple[Rules[Any, Any], Path]:
    """4x4 Othello's start, proven (-10 for the first player), every node written."""
    from perfectplay.cli.loader import build_game

    rules = Rules(build_game(f"{EXAMPLES / 'othello.py'}:Othello", ["size=4"]))
    path = tmp_path_factory.mktemp("proof") / "othello.proof"
    search = CompiledSearch(compiled_rules_of(rules), 16)
    score = search.score(search.rules.encode(rules.initial_state()))
    write_proof(rules, rules.initial_state(), [], search, score, path, leaf_nodes=0)
    return rules, path


def test_othellos_proof_checks_and_proves_minus_ten(othello_proof: Any) -> None:
    rules, path = othello_proof
    verdict = check_proof(rules, path)
    assert (verdict.at_least, verdict.at_most) == (-10, -10)
    header, tree = read_proof(path)
    assert verdict.nodes == header.nodes == tree.nodes > 100
    assert not (tree.edge == SEARCHED).any()
    assert check_proof(rules, path, plain=True) == verdict


def _rewritten(
    path: Path, to: Path, change: Callable[[dict[str, Any]], None], claims: Any = None
) -> Path:
    """``path``'s proof with its arrays changed by ``change`` (nodes 1..N: kind, bound,
    choice, first; edge), written to ``to`` with a fresh hash, as a forger would."""
    header, tree = read_proof(path)
    arrays = {name: getattr(tree, name).copy() for name in ("kind", "bound", "choice", "first")}
    arrays["edge"] = list(tree.edge)
    change(arrays)
    edge = np.array(arrays["edge"], np.int64)
    altered = Tree.of(arrays["kind"][1:], arrays["bound"][1:], arrays["choice"][1:], edge)
    fields = dict(header.__dict__, claims=claims or header.claims)
    fields.update(nodes=altered.nodes, edges=len(edge))
    write_proof_file(to, Header(**fields), altered)
    return to


def _refused(rules: Rules[Any, Any], path: Path, match: str) -> str:
    """The compiled checker's refusal, the plain checker's the same."""
    with pytest.raises(ProofRefuted, match=match) as compiled:
        check_proof(rules, path)
    with pytest.raises(ProofRefuted) as plain:
        check_proof(rules, path, plain=True)
    assert str(plain.value) == str(compiled.value)
    return str(compiled.value)


def _first(tree: Tree, kind: int) -> int:
    """The first node of ``kind`` with a child node (not an end)."""
    for i in range(1, tree.nodes + 1):
        count = 1 if tree.kind[i] == 0 else int(tree.choice[i])
        if tree.kind[i] == kind and (tree.edge[tree.first[i] : tree.first[i] + count] > 0).any():
            return i
    raise AssertionError(kind)


def test_an_altered_proof_is_refused_naming_where(othello_proof: Any, tmp_path: Path) -> None:
    """Each change that breaks the argument is refused, by both checkers alike: a
    stronger root claim, a reply left out, an end claimed where play goes on, a child
    pointed at another position's node, another move in place of the proven one, a leaf
    whose search cannot prove what is claimed; and a child before its parent (a claim
    resting on itself), a body cut short or not matching its hash."""
    rules, path = othello_proof
    header, tree = read_proof(path)
    broken = tmp_path / "broken.proof"
    root, side, value = header.claims[0]
    stronger = [(root, side, value + 1 if side == ">=" else value - 1), *header.claims[1:]]

    def strengthen(a: dict[str, Any]) -> None:
        a["bound"][root] = stronger[0][2]

    _refused(rules, _rewritten(path, broken, strengthen, stronger), "needed|short")
    at_most, at_least = _first(tree, 1), _first(tree, 0)

    def fewer(a: dict[str, Any]) -> None:
        a["choice"][at_most] -= 1
        del a["edge"][int(a["first"][at_most])]

    _refused(rules, _rewritten(path, broken, fewer), f"node {at_most} has not one child")

    def ended(a: dict[str, Any]) -> None:
        a["edge"][int(a["first"][at_least])] = 0

    _refused(rules, _rewritten(path, broken, ended), f"node {at_least}, .* the game goes on")
    children = [
        int(c) for c in tree.edge[tree.first[at_most] : tree.first[at_most] + tree.choice[at_most]]
    ]
    child = next(c for c in children if c > 0)
    target = next(
        t for t in range(child + 1, tree.nodes + 1)
        if t not in children and tree.kind[t] == tree.kind[child]
        and tree.bound[t] == tree.bound[child]
    )  # fmt: skip

    def elsewhere(a: dict[str, Any]) -> None:
        a["edge"][int(a["first"][at_most]) + children.index(child)] = target

    _refused(rules, _rewritten(path, broken, elsewhere), r"node \d+")

    def other_move(a: dict[str, Any]) -> None:
        a["choice"][at_least] = (a["choice"][at_least] + 1) % 2

    _refused(rules, _rewritten(path, broken, other_move), r"node \d+")

    def leaf(a: dict[str, Any]) -> None:
        a["bound"][root] = stronger[0][2]
        a["edge"][int(a["first"][root])] = SEARCHED
        if a["kind"][root] == 1:
            a["edge"][int(a["first"][root]) : int(a["first"][root] + a["choice"][root])] = [
                SEARCHED
            ] * int(a["choice"][root])

    _refused(rules, _rewritten(path, broken, leaf, stronger), "leaf whose search does not")

    def backwards(a: dict[str, Any]) -> None:
        a["edge"][int(a["first"][at_least])] = at_least

    with pytest.raises(ProofRefuted, match="every child follows its parent"):
        check_proof(rules, _rewritten(path, broken, backwards))
    data = path.read_bytes()
    broken.write_bytes(data[:-3])
    with pytest.raises(ProofRefuted, match="cut short"):
        check_proof(rules, broken)
    broken.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(ProofRefuted, match="SHA-256"):
        check_proof(rules, broken)


def test_a_file_that_is_no_proof_is_a_usage_error(othello_proof: Any, tmp_path: Path) -> None:
    rules, _ = othello_proof
    garbage = tmp_path / "garbage.proof"
    garbage.write_text("print('hello')\n")
    with pytest.raises(ProofError, match="is not a perfectplay proof") as raised:
        check_proof(rules, garbage)
    assert not isinstance(raised.value, ProofRefuted)
    older = tmp_path / "older.proof"
    older.write_text(json.dumps({"format": "perfectplay-proof", "version": 1}) + "\n")
    with pytest.raises(ProofError, match="write it again"):
        check_proof(rules, older)


def test_the_cli_proves_and_checks_and_refuses_in_one_line(tmp_path: Path) -> None:
    """analyze --proof writes it, verify-proof checks it compiled and plain (exit 0),
    refuses a broken one (exit 1, one line) and one of other parameters (exit 2, one
    line)."""
    game = [f"{EXAMPLES / 'othello.py'}:Othello", "-p", "size=4"]
    proof = tmp_path / "o.proof"
    done = run_cli("analyze", *game, "--method", "search", "--proof", str(proof), "--moves",
                   "b1", "--proof-leaves", "20")  # fmt: skip
    assert done.returncode == 0, done.stderr
    searched = run_cli("analyze", *game, "--method", "search", "--moves", "b1", "--json")
    score = json.loads(searched.stdout)["score"]
    for plain in ([], ["--plain"]):
        checked = run_cli("verify-proof", *game, str(proof), "--json", *plain)
        assert checked.returncode == 0, checked.stderr
        report = json.loads(checked.stdout)
        assert report["proven"] and report["at_least"] == report["at_most"] == score
        assert report["moves_played"] == ["b1"]
    header, _ = read_proof(proof)
    root, side, value = header.claims[0]
    stronger = [(root, side, value + 1 if side == ">=" else value - 1), *header.claims[1:]]

    def strengthen(a: dict[str, Any]) -> None:
        a["bound"][root] = stronger[0][2]

    _rewritten(proof, proof, strengthen, stronger)
    bad = run_cli("verify-proof", *game, str(proof))
    assert bad.returncode == 1 and bad.stdout.startswith("not proven: "), bad.stdout
    assert bad.stdout.count("\n") == 1
    other = run_cli(
        "verify-proof", f"{EXAMPLES / 'othello.py'}:Othello", "-p", "size=6", str(proof)
    )
    assert other.returncode == 2 and other.stderr.count("\n") == 1, other.stderr
    assert "other parameters" in other.stderr
    refused = run_cli("analyze", *game, "--proof", str(proof))
    assert refused.returncode == 2 and "--proof goes with a search" in refused.stderr


def test_the_compiled_check_in_small_turns_finds_what_the_plain_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled walk lists a turn's leaves, then threads search them: with room for a
    handful a turn, many turns, on one thread and on two, the same verdict as the plain
    replay; and with one leaf's claim made too strong, the same first fault."""
    import perfectplay.proof_check as proof_check
    from perfectplay.cli.loader import build_game

    rules = Rules(build_game(f"{EXAMPLES / 'othello.py'}:Othello", ["size=4"]))
    path = tmp_path / "o.proof"
    search = CompiledSearch(compiled_rules_of(rules), 16)
    score = search.score(search.rules.encode(rules.initial_state()))
    write_proof(rules, rules.initial_state(), [], search, score, path, leaf_nodes=12)
    header, tree = read_proof(path)
    assert (tree.edge == SEARCHED).sum() > 40
    monkeypatch.setattr(proof_check, "LEAVES_AT_ONCE", compiled_rules_of(rules).max_moves + 3)
    plain = check_proof(rules, path, plain=True)
    assert plain.at_least == plain.at_most == score
    assert check_proof(rules, path, threads=1) == check_proof(rules, path, threads=2) == plain
    leaves = np.flatnonzero(tree.edge == SEARCHED)
    last = int(np.searchsorted(tree.first, leaves[-1], side="right")) - 1

    def stronger(a: dict[str, Any]) -> None:  # the last node with a leaf claims +-inf
        assert header.infinity is not None
        a["bound"][last] = header.infinity if a["kind"][last] == 0 else -header.infinity

    broken = _rewritten(path, tmp_path / "broken.proof", stronger)
    for threads in (1, 2):
        with pytest.raises(ProofRefuted) as compiled:
            check_proof(rules, broken, threads=threads)
        with pytest.raises(ProofRefuted) as replayed:
            check_proof(rules, broken, plain=True)
        assert str(compiled.value) == str(replayed.value)
        assert f"node {last}" in str(compiled.value)


def test_a_proof_that_outgrows_the_memory_stops_in_one_line_naming_the_way_out(
    tmp_path: Path,
) -> None:
    """5x5 Othello's proof (some 470,000 nodes written out) under a bound it cannot
    keep: a ProofError naming --proof-leaves, and no file left; with leaves, it fits."""
    from perfectplay.cli.loader import build_game
    from perfectplay.core.memory import resident_bytes

    rules = Rules(build_game(f"{EXAMPLES / 'othello.py'}:Othello", ["size=5"]))
    start = rules.initial_state()
    search = CompiledSearch(compiled_rules_of(rules), 18)
    score = search.score(search.rules.encode(start))
    path = tmp_path / "o5.proof"
    with pytest.raises(ProofError, match=r"outgrows the memory.*--proof-leaves"):
        write_proof(rules, start, [], search, score, path, memory=resident_bytes() + 2**20)
    assert list(tmp_path.iterdir()) == []
    write_proof(
        rules, start, [], search, score, path, leaf_nodes=10**5, memory=resident_bytes() + 2**20
    )
    assert check_proof(rules, path).at_least == score


def test_a_forged_header_or_bound_is_refused_in_one_line(
    othello_proof: Any, tmp_path: Path
) -> None:
    """The header's infinity must be the game's (a scored game's ends, read as +-inf, or
    none for wins and losses), every bound one of the game's scores, every count a whole
    number: else one ProofError, never a false proof or a traceback."""
    rules, path = othello_proof
    header, tree = read_proof(path)
    forged = tmp_path / "forged.proof"
    for infinity in (None, 5, 0):
        fields = dict(header.__dict__, infinity=infinity)
        write_proof_file(forged, Header(**fields), tree)
        for plain in (False, True):
            with pytest.raises(ProofError, match="another kind of game"):
                check_proof(rules, forged, plain=plain)
    assert header.infinity is not None
    near = header.infinity - 1  # a finite bound a move's points would carry to an end

    def beyond(a: dict[str, Any]) -> None:
        a["bound"][2] = near if a["kind"][2] == 0 else -near

    with pytest.raises(ProofRefuted, match=r"node 2 claims .* no score of"):
        check_proof(rules, _rewritten(path, forged, beyond))
    wins = WideOutcomes(seed=0)
    won = tmp_path / "won.proof"
    outcomes = reference.solve_outcomes(wins)
    state = next(s for s, (v, _) in outcomes.items() if v == WIN and wins.outcome(s) is None)
    wins_rules = _prove(wins, state, won, leaves=0)

    def two(a: dict[str, Any]) -> None:
        a["bound"][1] = 2

    claims = [(1, ">=", 2.0)]
    with pytest.raises(ProofRefuted, match="no score of"):
        check_proof(wins_rules.starting_at(state), _rewritten(won, forged, two, claims))
    text = path.read_bytes().split(b"\n", 1)
    for field, value in ((b'"nodes": ', b"Infinity"), (b'"edge_bytes": ', b"4.0")):
        at = text[0].index(field) + len(field)
        end = text[0].index(b",", at)
        forged.write_bytes(text[0][:at] + value + text[0][end:] + b"\n" + text[1])
        with pytest.raises(ProofError, match="without its fields"):
            check_proof(rules, forged)
    forged.write_bytes(
        b'{"format": "perfectplay-proof", "version": 2, "x": ' + b"[" * 100000 + b"\n"
    )
    with pytest.raises(ProofError, match="not a perfectplay proof"):
        check_proof(rules, forged)


def test_a_leaf_on_a_line_longer_than_max_plies_is_refused_by_both_checkers(
    tmp_path: Path,
) -> None:
    """A game whose lines outlast its stated max_plies (as positions that repeat would):
    a leaf there is refused by both checkers alike (the compiled one counts the plies,
    from its threads too), never taken as proven."""

    class Short(WideScored):
        def max_plies(self) -> int:  # (its real lines are longer)
            return 2

    game = Short(seed=0, n=40)
    rules = Rules(game)
    start = rules.initial_state()
    path = tmp_path / "short.proof"
    root = [(1, "<=", 0.0)]
    header = Header(rules.name, None, (), rules.show(start), tuple(root), 1, 0, SCORE_ENDS)
    moves = len(rules.legal_moves(start))
    tree = Tree.of([1], [0], [moves], [SEARCHED] * moves)
    write_proof_file(path, dataclasses.replace(header, edges=moves), tree)
    messages = set()
    for plain, threads in ((False, 1), (False, 2), (True, 0)):
        with pytest.raises(ProofRefuted, match="longer than the game's max_plies") as refused:
            check_proof(rules, path, plain=plain, threads=threads)
        messages.add(str(refused.value))
    assert len(messages) == 1


class _Half:
    """A plain scored game: one move, to a position its mover holds at 0.5 (the root
    scores -0.5)."""

    scored = True

    def initial(self) -> int:
        return 0

    def moves(self, state: int) -> list[int]:
        return [0] if state == 0 else []

    def play(self, state: int, move: int) -> int:
        return 1

    def outcome(self, state: int) -> float | None:
        return None if state == 0 else 0.5


class _NoneStart:
    """A plain game whose start is the position None, its one move a loss for it."""

    def initial(self) -> None:
        return None

    def moves(self, state: Any) -> list[str]:
        return ["a"] if state is None else []

    def play(self, state: Any, move: str) -> str:
        return "end"

    def outcome(self, state: Any) -> Any:
        return None if state is None else WIN


@pytest.mark.parametrize("edge", [0, SEARCHED])
def test_plain_games_are_checked_in_their_own_scores_whatever_their_positions(
    edge: int, tmp_path: Path
) -> None:
    """Games outside the compiled form are replayed plainly: a fraction is not cut to a
    whole number (``>= 0`` for a position worth -0.5 is refused, through an end or a
    leaf), and a position that is None is a position (``>= 1`` for a lost one refused)."""
    half = Rules(_Half())
    path = tmp_path / "half.proof"
    header = Header(half.name, None, (), half.show(0), ((1, ">=", 0.0),), 1, 1, SCORE_ENDS)
    write_proof_file(path, header, Tree.of([0], [0], [0], [edge]))
    with pytest.raises(ProofRefuted, match="node 1, its move 1"):
        check_proof(half, path)
    lost = Rules(_NoneStart())
    header = Header(lost.name, None, (), lost.show(None), ((1, ">=", 1.0),), 1, 1, None)
    write_proof_file(path, header, Tree.of([0], [1], [0], [edge]))
    with pytest.raises(ProofRefuted, match="node 1, its move 1"):
        check_proof(lost, path)
