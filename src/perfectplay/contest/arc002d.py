"""ARC 002 D, Board game: who wins ``pawns`` on a board of up to 2000 x 2000 cells?

Far too large to search, so the answer counts spare moves (checked against exhaustive
search of ``pawns`` on small boards in the tests). The reasoning:

Pieces of one row never leave it, and a piece cannot get past an enemy piece ahead of it
unless that enemy steps next to it (``o.x``: whoever steps into the gap is captured).

1. Races. A piece with no enemy ahead of it in its row can neither be stopped nor captured.
   If ``o`` has such a piece, let ``d_o`` be the fewest steps one needs to reach the camp,
   likewise ``d_x``. The side with the shorter race wins; ``o`` moves first, so it wins
   ties (``d_o <= d_x``). A side without such a piece cannot win faster by breaking
   through: stepping next to an enemy only lets the enemy capture.
2. Otherwise every row with pieces starts with ``o`` and ends with ``x``, and it splits into
   independent segments: some ``o`` followed by some ``x`` facing them. In a segment with
   ``p`` o, ``q`` x and fronts ``D`` cells apart, each side steps its front forward until
   the fronts are 2 apart (``o.x``); the pieces behind follow up to their front. Every
   move made this way is safe; the first side out of safe moves must step into a gap and
   loses. Each of the ``D - 2`` front steps is worth ``p`` later moves to ``o`` or ``q`` to
   ``x``; when ``D - 2`` is even the sides share them equally, when it is odd one step is
   left over and goes to whoever claims it first. Both sides claim the leftover steps of
   the largest ``p + q`` first, ``o`` first. ``o`` wins with strictly more spare moves
   (with equal counts ``o``, moving first, runs out first).

No position in play leaves a side without a legal move (see ``perfectplay.games.pawns.game``),
so neither part needs a rule for it.
"""

from __future__ import annotations

import random

import numpy as np

from . import Problem
from .reader import InputError, Reader

MAX_H = 2000
MAX_W = 2000
MIN_W = 3
ONLY_PIECES = str.maketrans("", "", ".ox")
O_CELL = ord("o")


def problem_with(rows: list[str]) -> str | None:
    """Why a board breaks the problem's guarantees (for the first row that does), or None.

    Rows are numbered from 1. Each row must hold only '.', 'o', 'x'; no 'o' may stand in
    the rightmost column nor 'x' in the leftmost (nobody has won yet); no 'o' may stand
    right before an 'x' (o cannot capture on its first move); both sides need pieces.
    """
    for number, row in enumerate(rows, start=1):
        found = _row_problem(row)
        if found is not None:
            return f"row {number}: {found}"
    if not any("o" in row for row in rows):
        return "o has no pieces"
    if not any("x" in row for row in rows):
        return "x has no pieces"
    return None


def _row_problem(row: str) -> str | None:
    if row.translate(ONLY_PIECES):
        bad = sorted(set(row.translate(ONLY_PIECES)))
        return f"cells must be '.', 'o' or 'x', got {''.join(bad)!r}"
    if row[-1] == "o":
        return "an 'o' stands in the rightmost column (o would already have won)"
    if row[0] == "x":
        return "an 'x' stands in the leftmost column (x would already have won)"
    if "ox" in row:
        column = row.index("ox") + 1
        return f"o could capture at once (the 'o' in column {column} stands right before an 'x')"
    return None


def parse(text: str) -> list[str]:
    """``H W``, then H lines of W cells from '.ox', meeting the problem's guarantees."""
    reader = Reader(text)
    height = reader.integer("H", 1, MAX_H)
    width = reader.integer("W", MIN_W, MAX_W)
    reader.end_of_line("H and W")
    rows = []
    for r in range(1, height + 1):
        number, row = reader.line(f"board row {r}")
        if len(row) != width:
            raise InputError(f"line {number}: board row {r} has {len(row)} cells, expected {width}")
        found = _row_problem(row)
        if found is not None:
            raise InputError(f"line {number}: board row {r}: {found}")
        rows.append(row)
    reader.end()
    where = "line 2" if height == 1 else f"lines 2-{height + 1}"
    for side in "ox":
        if not any(side in row for row in rows):
            raise InputError(f"{where}: the board has no '{side}' ({side} would already have lost)")
    return rows


def race_winner(rows: list[str]) -> str | None:
    """The winner by an unstoppable piece (o on ties), or None when neither side has one."""
    width = len(rows[0])
    o_steps = x_steps = width
    for row in rows:
        last_o, last_x = row.rfind("o"), row.rfind("x")
        if last_o > last_x:
            o_steps = min(o_steps, width - 1 - last_o)
        first_x = row.find("x")
        if first_x >= 0:
            first_o = row.find("o")
            if first_o < 0 or first_x < first_o:
                x_steps = min(x_steps, first_x)
    if o_steps == x_steps == width:
        return None
    return "o" if o_steps <= x_steps else "x"


def spare_moves(rows: list[str]) -> tuple[int, int]:
    """The spare moves of o and of x when no piece can race (every row is o...x segments)."""
    width = len(rows[0])
    flat = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)
    where = np.flatnonzero(flat != ord("."))
    is_o = flat[where] == O_CELL
    where %= width
    cols = where.astype(np.int32)  # every count and column below fits in 32 bits
    del where
    n = len(cols)
    # A segment starts at an o after an x (a row's first piece is an o after the last
    # row's x); its fronts are the o..x pair of consecutive pieces inside it.
    starts = np.flatnonzero(is_o & np.concatenate(([True], ~is_o[:-1]))).astype(np.int32)
    front = np.flatnonzero(is_o[:-1] & ~is_o[1:]).astype(np.int32)
    del is_o
    # Column sums of each segment's o part and x part, alternating.
    bounds = np.empty(2 * len(starts), dtype=np.int32)
    bounds[0::2], bounds[1::2] = starts, front + 1
    sums = np.add.reduceat(cols, bounds)
    p = front + 1 - starts
    q = np.append(starts[1:], np.int32(n)) - front - 1
    o_front, x_front = cols[front], cols[front + 1]
    del cols, starts, bounds, front
    steps = x_front - o_front - 2
    half = steps // 2
    # Each side takes half the front steps; its pieces pack up behind its front.
    o_spare = p * (o_front + half) - p * (p - 1) // 2 - sums[0::2]
    x_spare = sums[1::2] - q * (x_front - half) - q * (q - 1) // 2
    o_total, x_total = int(o_spare.sum(dtype=np.int64)), int(x_spare.sum(dtype=np.int64))
    odd = steps % 2 == 1
    order = np.argsort(-(p[odd] + q[odd]), kind="stable")
    o_total += int(p[odd][order][0::2].sum(dtype=np.int64))
    x_total += int(q[odd][order][1::2].sum(dtype=np.int64))
    return o_total, x_total


def tempo_winner(rows: list[str]) -> str:
    """``o`` or ``x``: who wins a board meeting the guarantees, in O(H * W)."""
    winner = race_winner(rows)
    if winner is not None:
        return winner
    o_total, x_total = spare_moves(rows)
    return "o" if o_total > x_total else "x"


def answer(text: str) -> str:
    """The winner, ``o`` or ``x``."""
    return tempo_winner(parse(text)) + "\n"


def random_board(
    rng: random.Random, max_rows: int = 4, max_cols: int = 9, *, contested: bool = False
) -> list[str]:
    """A random board of up to max_rows x max_cols (at least 3 columns) meeting the guarantees.

    Rows breaking a row guarantee are drawn again, and so is a board missing a side.
    ``contested`` boards have no piece that can race (every row with pieces starts with an
    'o' and ends with an 'x'), so the spare-move count decides them.
    """
    height = rng.randint(1, max_rows)
    width = rng.randint(MIN_W, max(MIN_W, max_cols))
    density = rng.choice((0.2, 0.35, 0.5, 0.7))
    share_o = rng.choice((0.3, 0.5, 0.7))
    while True:
        rows = []
        for _ in range(height):
            while True:
                row = "".join(
                    ("o" if rng.random() < share_o else "x") if rng.random() < density else "."
                    for _ in range(width)
                )
                if _row_problem(row) is None and (not contested or _facing(row)):
                    break
            rows.append(row)
        if problem_with(rows) is None:
            return rows


def _facing(row: str) -> bool:
    """Whether a row has no piece that can race: empty, or its first piece o and last x."""
    pieces = row.replace(".", "")
    return not pieces or (pieces[0] == "o" and pieces[-1] == "x")


def generate(rng: random.Random) -> str:
    """A small random board meeting the guarantees, as judge input."""
    rows = random_board(rng)
    return f"{len(rows)} {len(rows[0])}\n" + "".join(row + "\n" for row in rows)


PROBLEM = Problem(
    name="arc002d",
    title="Board game (AtCoder ARC 002 D)",
    game="pawns",
    limit_seconds=2.0,
    answer=answer,
    generate=generate,
)
