"""Proof trees: a claim on a position's score, in a file the rules alone check.

A search's answer is trusted only as far as the search is. A proof tree is the answer's
evidence, checked without any search or table (``proof_check`` replays it).

A claim is a bound on a position's score for its mover: ``>= v`` (the mover can make
sure of at least v) or ``<= v`` (the opponent can hold the mover to v). A ``>=`` node
names one move and its child's claim; a ``<=`` node every legal move's child's claim, in
the rules' order. Through a move that earns ``r`` points, the child's claim is the
parent's bound less r when the move keeps the turn, else r less the bound, the side
flipped: a ``>= v`` parent needs its child ``<= r - v``. A child the game ends in (or a
position with no move) is not a node: its score is the game's (a win 1, a tie 0, a loss
-1; a scored game's score; no move: a loss, -inf in scored games); nor is a claim any
score meets (``>= -1`` in a game of wins and losses, ``<= inf``...). A position met again
through another line is the same node (a tree with shared branches); the checker confirms
the position reached is the one first met there.

The file, version 2: one line of UTF-8 JSON, the header::

    {"format": "perfectplay-proof", "version": 2, "game": NAME, "start": TEXT or null,
     "moves": [M, ...], "position": TEXT, "claims": [[ID, ">=", V], [ID, "<=", V]],
     "nodes": N, "edges": E, "edge_bytes": 4 or 8, "infinity": I or null,
     "sha256": HEX}

(the root: the position after ``moves`` from ``start``, a position as ``parse_state``
reads it, or the game's start when null; ``position``: the root as ``show`` shows it, so
that a proof of other parameters is refused; V a number, or "inf" / "-inf"), then the
body, little-endian arrays one after the other, read as numbers (never evaluated), its
SHA-256 in the header:

- ``kind``, N bytes: node k's side (0 ``>=``, 1 ``<=``), ids 1..N in order;
- ``bound``, N int32: its bound, the game's score, or +-I for +-inf (a scored game);
- ``choice``, N int32: a ``>=`` node's move, as its place (from 0) in the rules' order
  of the position's moves; a ``<=`` node's number of moves;
- ``edge``, E signed integers of ``edge_bytes``: each node's children in id order, one
  for a ``>=`` node, one a move for a ``<=`` node: a node's id, 0 for an end, or -1 for
  a leaf: a position the checker proves the needed claim of by its own search (plain
  alpha-beta over the rules, no table), small by the writer's choice.

Every child's id is larger than its parent's: a claim never rests on itself (in a game
whose positions repeat, a tree going round a cycle would prove anything).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import GameError

FORMAT = "perfectplay-proof"
VERSION = 2
AT_LEAST = ">="
AT_MOST = "<="
SEARCHED = -1
"""An edge to a leaf the checker searches."""
SIDES = (AT_LEAST, AT_MOST)
"""A node's side as the body writes it: its place here."""
READ_CHUNK = 1 << 24
"""Bytes hashed at a time."""


class ProofError(GameError):
    """A file that is no proof, or a proof of another game or position (its header)."""


class ProofRefuted(ProofError):
    """A proof whose tree does not prove its claims (or whose body is not whole)."""


@dataclass(frozen=True)
class Header:
    """What a proof is of: the game, the moves from its start, the position shown, the
    root claims ``(id, side, value)`` in the game's terms, the sizes, the integer that
    stands for infinity in the body (None: a game of wins and losses), the body's hash."""

    game: str
    start: str | None
    moves: tuple[str, ...]
    position: str
    claims: tuple[tuple[int, str, float], ...]
    nodes: int
    edges: int
    infinity: int | None = None
    edge_bytes: int = 4
    sha256: str = ""


@dataclass(frozen=True)
class Tree:
    """A proof's nodes as arrays indexed by id (entry 0 unused): ``kind`` (0 ``>=``, 1
    ``<=``), ``bound`` (int64), ``choice``, ``first`` (the node's first edge), and
    ``edge``, every node's children in id order."""

    kind: npt.NDArray[np.int8]
    bound: npt.NDArray[np.int64]
    choice: npt.NDArray[np.int64]
    first: npt.NDArray[np.int64]
    edge: npt.NDArray[np.int64]

    @staticmethod
    def of(kind: Any, bound: Any, choice: Any, edge: Any) -> Tree:
        """The tree of nodes 1..N given as N-long arrays (and the E edges)."""
        n = len(kind)
        kinds = np.zeros(n + 1, np.int8)
        kinds[1:] = kind
        bounds = np.zeros(n + 1, np.int64)
        bounds[1:] = bound
        choices = np.zeros(n + 1, np.int64)
        choices[1:] = choice
        counts = edge_counts(kinds, choices)
        first = np.zeros(n + 1, np.int64)
        first[1:] = np.cumsum(counts[1:]) - counts[1:]
        return Tree(kinds, bounds, choices, first, np.asarray(edge, np.int64))

    @property
    def nodes(self) -> int:
        return len(self.kind) - 1


def edge_counts(kind: npt.NDArray[Any], choice: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """Each node's number of children: 1 for ``>=``, its moves for ``<=``."""
    return np.where(kind == 0, 1, choice).astype(np.int64)


def number_text(value: float) -> float | str:
    """A bound as the header writes it: a number, or "inf" / "-inf"."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def _number(raw: Any, where: str) -> float:
    """A bound as the header gives it, checked."""
    if raw in ("inf", "-inf"):
        return math.inf if raw == "inf" else -math.inf
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ProofError(f"{where}: a bound must be a number or 'inf' / '-inf', not {raw!r}")
    return float(raw)


def game_bound(value: int, infinity: int | None) -> float:
    """A body's bound in the game's terms (+-infinity: +-inf)."""
    if infinity is not None and abs(value) >= infinity:
        return math.copysign(math.inf, value)
    return float(value)


def _body(tree: Tree, edge_bytes: int) -> list[bytes]:
    n = tree.nodes
    return [
        tree.kind[1:].astype("<i1").tobytes(),
        tree.bound[1:].astype("<i4").tobytes(),
        tree.choice[1:].astype("<i4").tobytes(),
        tree.edge.astype(f"<i{edge_bytes}").tobytes() if n else b"",
    ]


def write_proof_file(path: Path, header: Header, tree: Tree) -> None:
    """The header and the tree's body, written beside ``path`` and renamed: the file
    appears whole or not at all."""
    edge_bytes = 4 if tree.nodes < 2**31 else 8
    parts = _body(tree, edge_bytes)
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    fields = {
        "format": FORMAT,
        "version": VERSION,
        "game": header.game,
        "start": header.start,
        "moves": list(header.moves),
        "position": header.position,
        "claims": [[i, side, number_text(v)] for i, side, v in header.claims],
        "nodes": tree.nodes,
        "edges": len(tree.edge),
        "edge_bytes": edge_bytes,
        "infinity": header.infinity,
        "sha256": digest.hexdigest(),
    }
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as stream:
        stream.write(json.dumps(fields).encode() + b"\n")
        for part in parts:
            stream.write(part)
    os.replace(partial, path)


def read_header(path: Path) -> Header:
    """A proof file's header, checked (ProofError: not a proof, or another version)."""
    try:
        with path.open("rb") as stream:
            line = stream.readline(1 << 20)
    except OSError as exc:
        raise ProofError(f"cannot read the proof {path}: {exc.strerror}") from None
    return _header(line, path)


def _header(line: bytes, path: Path) -> Header:
    try:
        raw = json.loads(line)
    except (ValueError, RecursionError):  # (JSON and Unicode errors are ValueErrors)
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ProofError(f"{path} is not a perfectplay proof (its first line is no proof header)")
    if raw.get("version") != VERSION:
        raise ProofError(f"{path}: a proof of version {raw.get('version')!r}; this reads "
                         f"{VERSION} (write it again with analyze --proof)")  # fmt: skip
    try:
        claims = tuple(
            (int(i), str(side), _number(v, f"{path}: a claim")) for i, side, v in raw["claims"]
        )
        infinity = raw["infinity"]
        header = Header(
            game=str(raw["game"]),
            start=None if raw["start"] is None else str(raw["start"]),
            moves=tuple(str(m) for m in raw["moves"]),
            position=str(raw["position"]),
            claims=claims,
            nodes=int(raw["nodes"]),
            edges=int(raw["edges"]),
            infinity=None if infinity is None else int(infinity),
            edge_bytes=int(raw["edge_bytes"]),
            sha256=str(raw["sha256"]),
        )
        if not all(type(raw_n) is int for raw_n in _whole_fields(raw)):
            raise ValueError("a count or id that is not a whole number")
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise ProofError(f"{path}: a proof header without its fields ({exc})") from None
    if not claims or any(side not in SIDES for _, side, _ in claims):
        raise ProofError(f"{path}: the header claims nothing a proof can prove")
    if header.edge_bytes not in (4, 8) or header.nodes < 0 or header.edges < 0:
        raise ProofError(f"{path}: a proof header with impossible sizes")
    return header


def _whole_fields(raw: dict[str, Any]) -> list[Any]:
    """The header's counts, ids and infinity as the JSON gives them (each must be an int)."""
    fields = [raw["nodes"], raw["edges"], raw["edge_bytes"], *(c[0] for c in raw["claims"])]
    return fields + ([] if raw["infinity"] is None else [raw["infinity"]])


def read_proof(path: Path) -> tuple[Header, Tree]:
    """A proof's header and tree, its body checked against the header's hash and for
    shape: sides 0 or 1, children's ids from 0 to N, each larger than its parent's
    (ProofRefuted otherwise, in one line)."""
    header = read_header(path)
    with path.open("rb") as stream:
        stream.readline(1 << 20)
        start = stream.tell()
    n, e = header.nodes, header.edges
    size = 9 * n + header.edge_bytes * e
    if os.path.getsize(path) - start != size:
        raise ProofRefuted(f"{path}: its body is {os.path.getsize(path) - start:,} bytes where "
                           f"the header's sizes make {size:,} (a file cut short?)")  # fmt: skip
    _check_hash(path, start, header.sha256)
    kind = np.fromfile(path, "<i1", n, offset=start)
    bound = np.fromfile(path, "<i4", n, offset=start + n)
    choice = np.fromfile(path, "<i4", n, offset=start + 5 * n)
    edge = np.fromfile(path, f"<i{header.edge_bytes}", e, offset=start + 9 * n)
    if ((kind != 0) & (kind != 1)).any() or (choice < 0).any():
        raise ProofRefuted(f"{path}: a node of no side, or a negative move")
    tree = Tree.of(kind, bound, choice, edge.astype(np.int64))
    counts = edge_counts(tree.kind, tree.choice)[1:]
    if int(counts.sum()) != e:
        raise ProofRefuted(f"{path}: the nodes have {int(counts.sum()):,} children, the "
                           f"header says {e:,}")  # fmt: skip
    parents = np.repeat(np.arange(1, n + 1, dtype=np.int64), counts)
    bad = ((tree.edge > 0) & (tree.edge <= parents)) | (tree.edge > n) | (tree.edge < SEARCHED)
    if bad.any():
        at = int(np.argmax(bad))
        raise ProofRefuted(f"{path}: node {int(parents[at])} has child {int(tree.edge[at])}: "
                           "every child follows its parent, among the nodes")  # fmt: skip
    return header, tree


def _check_hash(path: Path, start: int, sha256: str) -> None:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        stream.seek(start)
        while chunk := stream.read(READ_CHUNK):
            digest.update(chunk)
    if digest.hexdigest() != sha256:
        raise ProofRefuted(f"{path}: its body's SHA-256 is not the header's (a damaged or "
                           "altered file)")  # fmt: skip
