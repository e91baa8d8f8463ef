"""Proof trees: a claim on a position's score, written so that the rules alone check it.

A search's answer is trusted only as far as the search is. A proof tree is the answer's
evidence, small enough to keep and checked without any search, table or compiled code:
``check_proof`` replays every move it names with the game's plain rules.

A claim is a bound on a position's score for its mover: ``>= v`` (the mover can make
sure of at least v) or ``<= v`` (the opponent can hold the mover to v). A ``>=`` node
names one move and its child's claim; a ``<=`` node every legal move's child's claim, in
the rules' order. Through a move that earns ``r`` points, the child's claim is the
parent's bound less r when the move keeps the turn, else r less the bound, the side
flipped: a ``>= v`` parent needs its child ``<= r - v``. A child the game ends in (or a
position with no move) is not a node: its score is read from ``outcome`` (a win 1, a tie
0, a loss -1; a scored game's score; no move: a loss, -inf in scored games); nor is a
claim any score meets (``>= -1`` in a game of wins and losses, ``<= inf``...). A
position met again through another line is the same node (a tree with shared branches):
the checker confirms the position reached is the one first met there.

The file: UTF-8 JSON lines (read as data, never evaluated). Line 1, a header::

    {"format": "perfectplay-proof", "version": 1, "game": NAME, "start": TEXT or null,
     "moves": [M, ...], "position": TEXT, "claims": [[ID, ">=", V], [ID, "<=", V]],
     "nodes": N}

(the root: the position after ``moves`` from ``start``, a position as ``parse_state``
reads it, or the game's start when null; ``position``: the root as ``show`` shows it, so
that a proof of other parameters is refused), then one line a node, ids 1..N in order::

    [ID, ">=", V, MOVE, CHILD]        MOVE as format_move writes it
    [ID, "<=", V, [CHILD, ...]]       one child a legal move

CHILD is a node's id, or 0 for a position the game is over in (or without a move). V is
a number, or "inf" / "-inf" (a scored game's ends).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .errors import GameError
from .rules import Rules
from .values import LOSS, TIE, WIN, Value

FORMAT = "perfectplay-proof"
VERSION = 1
AT_LEAST = ">="
AT_MOST = "<="


class ProofError(GameError):
    """A file that is no proof, or a proof of another game or position (its header)."""


class ProofRefuted(ProofError):
    """A proof whose tree does not prove its claims (or does not read past its header)."""


@dataclass(frozen=True)
class Node:
    """One claim of a proof tree: ``side`` ">=" or "<=", bound ``value``; a ">=" node's
    ``move`` (as text) and the one child, a "<=" node's children (0: the game ended)."""

    side: str
    value: float
    move: str | None
    children: tuple[int, ...]


@dataclass(frozen=True)
class Header:
    """What a proof is of: the game, the moves from its start, the position shown, the
    root claims ``(id, side, value)``, and the number of nodes."""

    game: str
    start: str | None
    moves: tuple[str, ...]
    position: str
    claims: tuple[tuple[int, str, float], ...]
    nodes: int


@dataclass(frozen=True)
class Verdict:
    """A checked proof: the bounds it proves on the root's score (None: not claimed) and
    the nodes checked."""

    at_least: float | None
    at_most: float | None
    nodes: int


def number_text(value: float) -> float | str:
    """A bound as the file writes it: a number, or "inf" / "-inf"."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def _number(raw: Any, where: str) -> float:
    """A bound as the file gives it, checked."""
    if raw in ("inf", "-inf"):
        return math.inf if raw == "inf" else -math.inf
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ProofError(f"{where}: a bound must be a number or 'inf' / '-inf', not {raw!r}")
    return float(raw)


def write_header(stream: TextIO, header: Header) -> None:
    """The header line."""
    stream.write(
        json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "game": header.game,
                "start": header.start,
                "moves": list(header.moves),
                "position": header.position,
                "claims": [[i, side, number_text(v)] for i, side, v in header.claims],
                "nodes": header.nodes,
            }
        )
        + "\n"
    )


def write_node(stream: TextIO, ident: int, node: Node) -> None:
    """One node's line."""
    bound = number_text(node.value)
    if node.side == AT_LEAST:
        row: list[Any] = [ident, AT_LEAST, bound, node.move, node.children[0]]
    else:
        row = [ident, AT_MOST, bound, list(node.children)]
    stream.write(json.dumps(row) + "\n")


def read_header(path: Path) -> Header:
    """A proof file's header, checked (ProofError: not a proof, or another version)."""
    with _opened(path) as stream:
        return _header(stream.readline(), path)


def _opened(path: Path) -> Any:
    try:
        return path.open(encoding="utf-8")
    except OSError as exc:
        raise ProofError(f"cannot read the proof {path}: {exc.strerror}") from None


def _header(line: str, path: Path) -> Header:
    try:
        raw = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ProofError(f"{path} is not a perfectplay proof (its first line is no proof header)")
    if raw.get("version") != VERSION:
        raise ProofError(f"{path}: a proof of version {raw.get('version')!r}; this reads {VERSION}")
    try:
        claims = tuple(
            (int(i), str(side), _number(v, f"{path}: a claim")) for i, side, v in raw["claims"]
        )
        header = Header(
            game=str(raw["game"]),
            start=None if raw["start"] is None else str(raw["start"]),
            moves=tuple(str(m) for m in raw["moves"]),
            position=str(raw["position"]),
            claims=claims,
            nodes=int(raw["nodes"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ProofError(f"{path}: a proof header without its fields ({exc})") from None
    if not claims or any(side not in (AT_LEAST, AT_MOST) for _, side, _ in claims):
        raise ProofError(f"{path}: the header claims nothing a proof can prove")
    return header


def _nodes(stream: TextIO, path: Path, count: int) -> dict[int, Node]:
    """Every node line, checked for shape (what they claim is checked later)."""
    nodes: dict[int, Node] = {}
    for number, line in enumerate(stream, start=2):
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ProofRefuted(f"{where}: not a JSON line") from None
        ok = isinstance(row, list) and len(row) in (4, 5) and isinstance(row[0], int)
        if ok and row[1] == AT_LEAST and len(row) == 5:
            ok = isinstance(row[3], str) and isinstance(row[4], int)
            node = Node(AT_LEAST, _number(row[2], where), row[3], (row[4],)) if ok else None
        elif ok and row[1] == AT_MOST and len(row) == 4 and isinstance(row[3], list):
            ok = all(isinstance(c, int) and not isinstance(c, bool) for c in row[3])
            node = Node(AT_MOST, _number(row[2], where), None, tuple(row[3])) if ok else None
        else:
            ok = False
        if not ok or node is None:
            raise ProofRefuted(f"{where}: not a proof node ([id, '>=', v, move, child] or "
                             f"[id, '<=', v, [children]])")  # fmt: skip
        if row[0] != len(nodes) + 1:
            raise ProofRefuted(f"{where}: node {row[0]} out of order (expected {len(nodes) + 1})")
        nodes[row[0]] = node
    if len(nodes) != count:
        raise ProofRefuted(
            f"{path}: {len(nodes):,} nodes where the header says {count:,} (a file cut short?)"
        )
    return nodes


def end_score(rules: Rules[Any, Any], state: Any) -> float | None:
    """The score of a position the game is over in, for its mover, in the proof's terms
    (win 1, tie 0, loss -1; a scored game's score); a position with no move scores a loss
    (-inf in a scored game); None while the game goes on."""
    end = rules.outcome(state)
    if end is None:
        if rules.legal_moves(state):
            return None
        return -1.0 if not rules.ends_in_scores() else -math.inf
    if isinstance(end, Value):
        scores = {WIN: 1.0, TIE: 0.0, LOSS: -1.0}
        if end not in scores:
            raise ProofError(f"{rules.name}: an outcome of {end} has no score in a proof")
        return scores[end]
    return float(end)


def score_range(rules: Rules[Any, Any]) -> tuple[float, float]:
    """The least and the largest score of a game in a proof's terms: a loss and a win
    (-1, 1), or a scored game's -inf and inf."""
    return (-math.inf, math.inf) if rules.ends_in_scores() else (-1.0, 1.0)


def trivial(side: str, bound: float, scores: tuple[float, float]) -> bool:
    """Whether the claim ``side bound`` holds of any score in ``scores`` (the game's
    range; >= its least, <= its largest): no node proves it."""
    return bound <= scores[0] if side == AT_LEAST else bound >= scores[1]


def holds(side: str, value: float, bound: float) -> bool:
    """Whether ``side value`` (a claim) is at least as strong as ``side bound``."""
    return value >= bound if side == AT_LEAST else value <= bound


def needed_claim(
    rules: Rules[Any, Any], state: Any, move: Any, child: Any, side: str, bound: float
) -> tuple[str, float]:
    """The claim a child must prove for its parent's ``side bound`` through ``move``."""
    earned = 0.0 if rules.reward is None else float(rules.reward(state, move))
    if not rules.mover_changes(state, child):
        return side, bound - earned
    return (AT_MOST if side == AT_LEAST else AT_LEAST), earned - bound


def check_proof(rules: Rules[Any, Any], path: Path) -> Verdict:
    """Check the proof in ``path`` against ``rules`` alone: every claim's children claim
    enough, every move named is legal, every end scores as the claim needs, every node
    met again is the same position. ProofError: no proof, or one of another position;
    ProofRefuted names the first node that fails."""
    with _opened(path) as stream:
        header = _header(stream.readline(), path)
        nodes = _nodes(stream, path, header.nodes)
    root = _root_of(rules, header, path)
    scores = score_range(rules)
    at: dict[int, Any] = {}
    pending: list[int] = []
    for ident, side, value in header.claims:
        node = nodes.get(ident)
        if node is None or (node.side, node.value) != (side, value):
            raise ProofRefuted(f"{path}: the header claims node {ident} {side} {value}, "
                             "which the tree does not hold")  # fmt: skip
        at[ident] = root
        pending.append(ident)
    checked = 0
    for ident in _each(pending):
        node, state = nodes[ident], at[ident]
        checked += 1
        for move, child_id in _moves_of(rules, ident, node, state):
            child = rules.play(state, move)
            side, bound = needed_claim(rules, state, move, child, node.side, node.value)
            where = f"node {ident}, move {rules.format_move(move)}"
            if child_id == 0 and trivial(side, bound, scores):
                continue
            if child_id == 0:
                score = end_score(rules, child)
                if score is None:
                    raise ProofRefuted(f"{where}: the game goes on, yet the proof ends there")
                if not holds(side, score, bound):
                    raise ProofRefuted(f"{where}: the game ends at {score:g}, not {side} {bound:g}")
                continue
            child_node = nodes.get(child_id)
            if child_node is None:
                raise ProofRefuted(f"{where}: node {child_id} is not in the proof")
            if child_node.side != side or not holds(side, child_node.value, bound):
                raise ProofRefuted(f"{where}: node {child_id} claims {child_node.side} "
                                 f"{child_node.value:g}; {side} {bound:g} is needed")  # fmt: skip
            if child_id in at:
                if at[child_id] != child:
                    raise ProofRefuted(f"{where}: node {child_id} is another position")
                continue
            at[child_id] = child
            pending.append(child_id)
    lows = [v for _, side, v in header.claims if side == AT_LEAST]
    highs = [v for _, side, v in header.claims if side == AT_MOST]
    return Verdict(max(lows, default=None), min(highs, default=None), checked)


def _root_of(rules: Rules[Any, Any], header: Header, path: Path) -> Any:
    """The position a proof's header names, replayed by ``rules``; ProofError when it does
    not replay or is shown otherwise (a proof of another game or parameters)."""
    try:
        root = rules.initial_state() if header.start is None else rules.read_position(header.start)
        for text in header.moves:
            root = rules.play(root, rules.parse_move(root, text))
    except GameError as exc:
        raise ProofError(
            f"{path}: its position does not replay in {rules.name} (a proof of another "
            f"game or other parameters?): {exc}"
        ) from None
    if rules.show(root) != header.position:
        raise ProofError(
            f"{path}: a proof for another position (other parameters?) than "
            f"{rules.name}'s after {' '.join(header.moves) or 'no moves'}"
        )
    return root


def _moves_of(rules: Rules[Any, Any], ident: int, node: Node, state: Any) -> list[tuple[Any, int]]:
    """(move, child node) of a node: the one move an at-least claim names, or every legal
    reply of an at-most claim, each with the node the proof gives it (0: none)."""
    if rules.outcome(state) is not None:
        raise ProofRefuted(f"node {ident}: moves from a position the game is over in")
    if node.side == AT_LEAST:
        try:
            move = rules.parse_move(state, node.move or "")
        except GameError as exc:
            raise ProofRefuted(f"node {ident}: {exc}") from None
        return [(move, node.children[0])]
    legal = rules.legal_moves(state)
    if len(legal) != len(node.children):
        raise ProofRefuted(f"node {ident}: {len(node.children)} replies for a position "
                           f"with {len(legal)} moves")  # fmt: skip
    return list(zip(legal, node.children, strict=True))


def _each(pending: list[int]) -> Iterator[int]:
    """The ids of ``pending`` until it is empty, as it grows (depth first: no recursion)."""
    while pending:
        yield pending.pop()
