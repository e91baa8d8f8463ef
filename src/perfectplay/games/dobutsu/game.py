"""Dobutsu shogi (3x4 children's shogi) and smaller variants: the game class.

Pieces: lion (one step any way), giraffe (one step orthogonally), elephant (one step
diagonally), chick (one step forward; on the far rank it becomes a hen, which steps like a
gold general: any way but diagonally back). A captured piece changes sides into the
captor's hand (a hen as a chick) and may be dropped on any empty square later, the far
rank included. A player wins by taking the other lion, or by a lion's "try": standing on
the far rank where the other player cannot take it at once.

Ends, as Tanaka (2009) counts them: a position is over when the mover can take the other
lion (a WIN for the mover, remoteness 0: the capture itself is the ply after) or when the
other lion stands unanswered on the mover's home rank (the try succeeded: a LOSS). A
position that repeats is a DRAW under perfect play, as the solvers read a cycle.

Squares are named as players write them: columns A-C from sente's left, rows 1 (gote's home
rank, at the top) to 4; a move is ``B3-B2``, a drop ``G*B2`` (G, E, C for giraffe,
elephant, chick). States are codes (``board``): the board as seen, bit 60 set when gote
moves; a state's key is its view from the mover's side, or the mirror image of that view
(``symmetry``), so a position, its half-turned copy with the other player to move and their
mirror images are one position, as in the published count (Tanaka 2009).

Tiers: one tier, with cycles (captured pieces come back), of every arrangement of the
pieces up to the mirror (``ranking``: 855,232,344 indices on 3x4, of 1,567,925,964
arrangements); un-moves are given (``moves``), so the tier is solved by retrograde analysis
with a counter of undecided moves per position.

The class has a section per protocol: the plain rules, written apart from the kernels (the
self-check compares the two); the text of positions and moves; the drawing; the batch
protocol and the tier protocol, which call the kernels of ``ends``, ``moves``,
``symmetry`` and ``ranking``.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from ...drawing import CELL, svg
from ...protocol import BatchRules, Expansion, TierRules
from ...values import LOSS, WIN, Value
from . import ends, moves, ranking, symmetry
from .board import (
    ANIMALS,
    CHICK,
    ELEPHANT,
    GIRAFFE,
    GOTE,
    HEN,
    KINDS,
    LETTERS,
    LION,
    STEPS,
    Codes,
    cells_of,
    gote_to_move,
    hand_shift,
    in_hand,
    kind_of,
    parse_square,
    square_name,
)

Move = tuple[int, int]
"""(from square, to square); a drop is (-kind, to square)."""


class Dobutsu:
    """Dobutsu shogi; ``height`` 3 or 4 rows of 3, ``pieces`` the kinds beside the lions
    (a subset of "gec": giraffes, elephants, chicks), for smaller variants."""

    name = "dobutsu"
    aliases = ("dobutsu-shogi",)
    initial_tier = 0

    def __init__(self, height: int = 4, pieces: str = "gec") -> None:
        if height not in (3, 4):
            raise ValueError("height is 3 or 4 rows")
        if set(pieces) - set("gec") or len(set(pieces)) != len(pieces):
            raise ValueError('pieces is a subset of "gec" (giraffes, elephants, chicks)')
        self.height = height
        self.pieces = "".join(p for p in "gec" if p in pieces)
        self.squares = 3 * height
        self.kinds = np.array([KINDS[p] for p in self.pieces], dtype=np.int64)
        self.shares, self.offsets = ranking.ranking_tables(list(self.kinds), self.squares - 2)
        _, self.pairs = ranking.lion_slots(self.squares)
        self.bits = ranking.bit_tables()
        self.rows = ranking.row_tables()
        self.lions = ranking.lion_table(self.squares)
        self.places = ranking.place_tables()
        self.size = int(self.pairs.shape[0]) * int(self.shares[0, self.squares - 2])

    # --- the plain protocol, written apart from the kernels (check compares the two) ----------

    def initial(self) -> int:
        """Gote's giraffe, lion, elephant on row 1, sente's elephant, lion, giraffe on the
        last row, each chick in front of its lion (in hand on three rows)."""
        top, bottom = 0, self.squares - 3
        board = {top + 1: 8 | LION, bottom + 1: LION}
        code = 0
        if "g" in self.pieces:
            board[top] = 8 | GIRAFFE
            board[bottom + 2] = GIRAFFE
        if "e" in self.pieces:
            board[top + 2] = 8 | ELEPHANT
            board[bottom] = ELEPHANT
        if "c" in self.pieces:
            if self.height == 4:
                board[top + 4] = 8 | CHICK
                board[bottom - 2] = CHICK
            else:
                code |= 1 << hand_shift(False, CHICK) | 1 << hand_shift(True, CHICK)
        for square, piece in board.items():
            code |= piece << (4 * square)
        return code

    def _steps(self, state: int, gote: bool) -> list[Move]:
        """Every step of the mover's pieces onto a square not its own."""
        board = cells_of(state, self.squares)
        sign = -1 if gote else 1  # gote's steps are turned round
        out = []
        for a, piece in enumerate(board):
            if piece == 0 or bool(piece & 8) != gote:
                continue
            for dr, dc in STEPS[piece & 7]:
                r, c = a // 3 + sign * dr, a % 3 + sign * dc
                if 0 <= r < self.height and 0 <= c < 3:
                    target = board[r * 3 + c]
                    if target == 0 or bool(target & 8) != gote:
                        out.append((a, r * 3 + c))
        return out

    def moves(self, state: int) -> list[Move]:
        """Steps (captures included), then drops of each kind in hand on every empty square."""
        gote = gote_to_move(state)
        board = cells_of(state, self.squares)
        out = self._steps(state, gote)
        for kind in (GIRAFFE, ELEPHANT, CHICK):
            if in_hand(state, gote, kind):
                out += [(-kind, s) for s in range(self.squares) if board[s] == 0]
        return out

    def play(self, state: int, move: Move) -> int:
        """Step or drop, take what stands there into the hand, promote a chick."""
        gote = gote_to_move(state)
        board = cells_of(state, self.squares)
        hand = {
            (g, kind): in_hand(state, g, kind) for g in (False, True) for kind in KINDS.values()
        }
        origin, target = move
        if origin < 0:
            hand[gote, -origin] -= 1
            board[target] = -origin | (8 if gote else 0)
        else:
            taken = board[target]
            if taken:
                hand[gote, kind_of(taken)] += 1
            piece = board[origin]
            far = self.height - 1 if gote else 0
            if piece & 7 == CHICK and target // 3 == far:
                piece = (piece & 8) | HEN
            board[origin], board[target] = 0, piece
        code = sum(p << (4 * s) for s, p in enumerate(board))
        for (g, kind), count in hand.items():
            code |= count << hand_shift(g, kind)
        return code | (0 if gote else 1) << GOTE

    def outcome(self, state: int) -> Value | None:
        """WIN when the mover can take the other lion; LOSS when the other lion stands on
        the mover's home rank (its try was not answered)."""
        gote = gote_to_move(state)
        board = cells_of(state, self.squares)
        theirs = board.index(LION | (0 if gote else 8))
        if any(target == theirs for _, target in self._steps(state, gote)):
            return WIN
        if theirs // 3 == (0 if gote else self.height - 1):
            return LOSS
        return None

    def published_plies(self, state: int) -> int:
        """Tanaka (and Clausecker's table) count the capture of the lion as a ply: one more
        where the game ends because the mover can take it."""
        return 1 if self.outcome(state) == WIN else 0

    def key(self, state: int) -> int:
        """The position from the mover's side (see the module docstring)."""
        return int(self.batch_key(np.array([state], dtype=np.int64))[0])

    # --- the text of positions and moves ------------------------------------------------------

    def show(self, state: int) -> str:
        """The board, sente's pieces in capitals, gote's in small letters; hands below."""
        board = cells_of(state, self.squares)
        rows = ["   A B C"]
        for r in range(self.height):
            cells = []
            for c in range(3):
                piece = board[r * 3 + c]
                letter = LETTERS.get(piece & 7, ".")
                cells.append(letter.lower() if piece & 8 else letter)
            rows.append(f"{r + 1}  {' '.join(cells)}")
        for gote, who in ((True, "gote"), (False, "sente")):
            held = "".join(LETTERS[kind] * in_hand(state, gote, kind) for kind in KINDS.values())
            rows.append(f"{who} holds {held or '-'}")
        rows.append(("gote" if gote_to_move(state) else "sente") + " to move")
        return "\n".join(rows)

    def parse_state(self, text: str) -> int:
        """Rows from the top, '/' between them, then what each holds and who moves:
        ``gle/.c./.C./ELG - s`` (capitals sente's, small gote's; ``s`` or ``g``)."""
        parts = text.split()
        if not 1 <= len(parts) <= 3:
            raise ValueError("write rows/of/cells, then the pieces in hand (or -), then s or g")
        rows = parts[0].split("/")
        if len(rows) != self.height or any(len(row) != 3 for row in rows):
            raise ValueError(f"write {self.height} rows of 3 cells separated by '/'")
        code = 0
        named = {letter: kind for kind, letter in LETTERS.items()}
        for s, cell in enumerate("".join(rows)):
            if cell == ".":
                continue
            if cell.upper() not in named:
                raise ValueError(f"{cell!r} is no piece: L G E C H, small for gote, . empty")
            code |= (named[cell.upper()] | (8 if cell.islower() else 0)) << (4 * s)
        for cell in parts[1] if len(parts) > 1 and parts[1] != "-" else "":
            kind = KINDS.get(cell.lower())
            if kind is None:
                raise ValueError(f"{cell!r} cannot be in hand: G, E or C")
            code += 1 << hand_shift(cell.islower(), kind)
        side = parts[2].lower() if len(parts) > 2 else "s"
        if side not in ("s", "g"):
            raise ValueError("the side to move is s (sente) or g (gote)")
        code |= (1 if side == "g" else 0) << GOTE
        self._check(code)
        return code

    def _check(self, code: int) -> None:
        """A position has one lion each, and two of each kind of the variant in all."""
        board = cells_of(code, self.squares)
        if board.count(LION) != 1 or board.count(8 | LION) != 1:
            raise ValueError("each player has one lion on the board")
        for letter, kind in KINDS.items():
            on_board = sum(1 for p in board if p and kind_of(p) == kind)
            held = in_hand(code, False, kind) + in_hand(code, True, kind)
            want = 2 if letter in self.pieces else 0
            if on_board + held != want:
                got = on_board + held
                raise ValueError(f"this variant has {want} of {LETTERS[kind]} in all, not {got}")

    def format_move(self, move: Move) -> str:
        """``B3-B2``, or ``G*B2`` for a drop."""
        origin, target = move
        if origin < 0:
            return f"{LETTERS[-origin]}*{square_name(target)}"
        return f"{square_name(origin)}-{square_name(target)}"

    def parse_move(self, text: str) -> Move:
        """``B3-B2`` (or ``b3b2``, ``B3xB2``), ``G*B2`` for a drop."""
        found = re.fullmatch(r"\s*([a-c])([1-4])\s*[-x]?\s*([a-c])([1-4])\s*", text.lower())
        move: Move | None = None
        if found:
            move = (parse_square(found[1], found[2]), parse_square(found[3], found[4]))
        found = re.fullmatch(r"\s*([gec])\s*\*\s*([a-c])([1-4])\s*", text.lower())
        if found:
            move = (-KINDS[found[1]], parse_square(found[2], found[3]))
        if move is not None and move[1] < self.squares and move[0] < self.squares:
            return move
        raise ValueError("write a move as B3-B2, or a drop as G*B2 (G, E, C)")

    # --- the drawing --------------------------------------------------------------------------

    def draw_svg(self, state: int, last: Move | None = None) -> str:
        """The board (sente's pieces at the bottom, gote's turned upside down), the column
        letters and row numbers moves are written in, then both hands and the side to move."""
        board = cells_of(state, self.squares)
        body = []
        for r in range(self.height):
            for c in range(3):
                x, y = c * CELL + 20, r * CELL + 4
                ringed = " last" if last is not None and last[1] == r * 3 + c else ""
                body.append(f'<rect class="square{ringed}" x="{x}" y="{y}" width="{CELL}" '
                            f'height="{CELL}"/>')  # fmt: skip
                piece = board[r * 3 + c]
                if piece & 7 not in LETTERS:
                    continue
                side = "gote" if piece & 8 else "sente"
                turn = (
                    f' transform="rotate(180 {x + CELL / 2} {y + CELL / 2})"' if piece & 8 else ""
                )
                body.append(
                    f'<g class="piece {side}"{turn}><rect x="{x + 5}" y="{y + 5}" '
                    f'width="{CELL - 10}" height="{CELL - 10}" rx="8"/><text x="{x + CELL / 2}" '
                    f'y="{y + CELL / 2}">{LETTERS[piece & 7]}</text><title>{side} '
                    f"{ANIMALS[LETTERS[piece & 7]]}</title></g>"
                )
            body.append(f'<text class="label" x="8" y="{r * CELL + 4 + CELL / 2}">{r + 1}</text>')
        for c in range(3):
            body.append(f'<text class="label" x="{c * CELL + 20 + CELL / 2}" '
                        f'y="{self.height * CELL + 20}">{"ABC"[c]}</text>')  # fmt: skip
        top = self.height * CELL + 30
        notes = self.show(state).splitlines()[self.height + 1 :]  # the hands, the side to move
        for i, note in enumerate(notes):
            body.append(f'<text class="note" x="4" y="{top + 18 * (i + 1)}">{note}</text>')
        return svg(3 * CELL + 140, top + 18 * len(notes) + 10, body)

    # --- the groups Rules reads ----------------------------------------------------------------

    def speed(self) -> BatchRules:
        """The batch protocol: kernels over position codes."""
        return BatchRules(self.batch_outcome, self.batch_expand, batch_key=self.batch_key)

    def tiers(self) -> TierRules:
        """The tier protocol: one loopy tier, ranked by the game's own tables."""
        return TierRules(
            initial_tier=self.initial_tier,
            child_tiers=self.child_tiers,
            tier_size=self.tier_size,
            batch_rank=self.batch_rank,
            batch_unrank=self.batch_unrank,
            batch_tier=self.batch_tier,
            batch_parents=self.batch_parents,
            tier_index=self.tier_index,
            batch_ranked_children=self.batch_ranked_children,
        )

    # --- the batch protocol: kernels over codes -----------------------------------------------

    def batch_outcome(self, codes: Codes) -> npt.NDArray[np.int8]:
        """1 (WIN) or 2 (LOSS) as ``outcome``, 0 while the game goes on."""
        return ends.batch_end(np.asarray(codes, dtype=np.int64), self.height)

    def batch_expand(self, codes: Codes) -> Expansion:
        """Every move of every code (of positions that go on)."""
        parents, children, _ = moves.batch_moves(np.asarray(codes, dtype=np.int64), self.height)
        return Expansion(parents, children)

    def batch_key(self, codes: Codes) -> Codes:
        """Each position seen from the mover's side (bit 60 clear), or its mirror image
        where that is the canonical one (``symmetry``)."""
        return symmetry.batch_key(np.asarray(codes, dtype=np.int64), self.height)

    # --- the tier protocol: one loopy tier ----------------------------------------------------

    def child_tiers(self, tier: int) -> list[int]:
        """Moves stay in the one tier."""
        return [0]

    def tier_size(self, tier: int) -> int:
        """Every arrangement of the pieces up to the mirror, mover's side down."""
        return self.size

    def batch_rank(self, tier: int, codes: Codes) -> Codes:
        """The index of each code's key."""
        codes = np.asarray(codes, dtype=np.int64)
        return ranking.batch_rank(
            codes,
            self.height,
            self.kinds,
            self.shares,
            self.offsets,
            self.lions,
            self.bits,
            self.rows,
        )

    def batch_ranked_children(
        self, tier: int, codes: Codes
    ) -> tuple[Codes, Codes, npt.NDArray[np.int8]]:
        """(parents, indices, ends) of the moves of codes that go on, the children ranked
        as made: the ranking keys a code itself, so the children's keys (``batch_expand``'s
        path) are not built; each child's end is read from its parent as the move is made
        (``moves.moves_into``), so marking what play reaches also counts the moves the
        solve starts from. Marking: 31 ms a chunk of 65,536 positions, 47 with the keys (13
        of them), 2026-11-27; one kernel making and ranking each child in turn measured 29
        ms against 25 for the two kernels in turn."""
        parents, children, ends = moves.batch_moves(np.asarray(codes, dtype=np.int64), self.height)
        return parents, self.batch_rank(tier, children), ends

    def batch_unrank(self, tier: int, indices: Codes) -> Codes:
        """The view of each index (sente to move)."""
        indices = np.asarray(indices, dtype=np.int64)
        return ranking.batch_unrank(
            indices,
            self.height,
            self.kinds,
            self.shares,
            self.offsets,
            self.pairs,
            self.places,
        )

    def batch_parents(self, tier: int, codes: Codes) -> Expansion:
        """For each code, every position one move before it that goes on (un-moves), as
        many times as the moves from its key into the code's key (``moves.batch_unmoves``:
        keys fold the mirror image)."""
        rows, before = moves.batch_unmoves(np.asarray(codes, dtype=np.int64), self.height)
        return Expansion(rows, before)

    def batch_tier(self, codes: Codes) -> Codes:
        """Every position is in tier 0."""
        return np.zeros(np.asarray(codes).shape[0], dtype=np.int64)

    def tier_index(self, code: int) -> tuple[int, int]:
        """(0, index) of one position."""
        return 0, int(self.batch_rank(0, np.array([code], dtype=np.int64))[0])
