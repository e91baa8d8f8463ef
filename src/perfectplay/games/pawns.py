"""Pawns (AtCoder ARC 002 D): rows of pawns that only step straight ahead.

The board has H rows of W cells holding ``.`` (empty), ``o`` or ``x``. An ``o`` steps one
cell right, an ``x`` one cell left, always within its row; stepping onto an enemy piece
removes it, stepping onto one's own piece is not allowed. ``o`` moves first, and players
alternate, each moving exactly one piece. A player wins by removing every enemy piece or by
bringing a piece into the enemy camp: the rightmost column for ``o``, the leftmost for
``x``. Pieces only move forward, so the game always ends, and it has no ties.

No legal move. The frontmost piece of a side in any row can always step: the cell ahead is
empty or an enemy (a capture), never its own piece, and it is not the board's edge unless
the side has already won. So a side that still has a piece and has not lost always has a
move, and stuck positions never arise in play. The engine's normal-play convention (no move
is a loss for the mover) is therefore never invoked; the counting method of ``arc002d``
needs no special case for it either.

A state is ``(board, flipped)``: ``board`` is the position seen by the player to move, who
always plays ``o`` moving right, as bytes: the rows joined by ``/``. When ``x`` is really to
move (``flipped`` is True) the real board is turned half a turn (the whole string read
backwards, so rows and columns are reversed) and ``o`` and ``x`` are swapped. Moves are
named in real coordinates, ``(row, column)`` from 0, the cell of the piece that steps.
"""

from __future__ import annotations

from ..values import LOSS, Value

State = tuple[bytes, bool]
Move = tuple[int, int]

SWAP = bytes.maketrans(b"ox", b"xo")
OWN = ord("o")
ENEMY = ord("x")
PIECES = frozenset(".ox")


def parse_board(board: str) -> list[str]:
    """The rows of a board written as rows separated by ``/``; ValueError when malformed."""
    rows = board.strip().split("/")
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if not row:
            raise ValueError(f"row {number} is empty; write rows of '.', 'o', 'x' joined by '/'")
        bad = set(row) - PIECES
        if bad:
            raise ValueError(
                f"row {number} ({row!r}) holds {''.join(sorted(bad))!r}; cells are '.', 'o', 'x'"
            )
        if len(row) != width:
            raise ValueError(
                f"row {number} has {len(row)} cells but row 1 has {width}; rows must be equal"
            )
    if width < 2:
        raise ValueError("the board needs at least 2 columns")
    joined = "".join(rows)
    if "o" not in joined or "x" not in joined:
        raise ValueError("each side needs at least one piece: the game would already be over")
    for number, row in enumerate(rows, start=1):
        if row[-1] == "o":
            raise ValueError(f"row {number} has an 'o' in the rightmost column: o has already won")
        if row[0] == "x":
            raise ValueError(f"row {number} has an 'x' in the leftmost column: x has already won")
    return rows


def flip(board: bytes) -> bytes:
    """The board as the other player sees it: turned half a turn, colours swapped."""
    return board[::-1].translate(SWAP)


class Pawns:
    """Pawns step straight ahead and capture straight ahead; reach the far side or capture all.

    board: rows of '.', 'o', 'x' joined by '/'; o moves right and first, x moves left.
    """

    name = "pawns"

    def __init__(self, board: str = "..o.x/o...x") -> None:
        self.rows = parse_board(board)
        self.height = len(self.rows)
        self.width = len(self.rows[0])
        self.stride = self.width + 1
        size = self.height * self.stride
        # Where each index of a board string lies on the real board, as seen by o and by x;
        # and back: the index of a real cell in the board string of either player.
        self._real: tuple[list[Move], list[Move]] = ([], [])
        self._index: tuple[dict[Move, int], dict[Move, int]] = ({}, {})
        for i in range(size):
            row, col = divmod(i, self.stride)
            for flipped, cell in enumerate(
                [(row, col), (self.height - 1 - row, self.width - 1 - col)]
            ):
                self._real[flipped].append(cell)
                if col < self.width:
                    self._index[flipped][cell] = i

    def initial(self) -> State:
        """The given board, o to move."""
        return ("/".join(self.rows).encode("ascii"), False)

    def moves(self, state: State) -> list[Move]:
        """Every piece of the mover whose cell ahead is empty or holds an enemy."""
        board, flipped = state
        real = self._real[flipped]
        found = []
        i = board.find(b"o")
        while i >= 0:
            # The cell ahead is never '/' or past the end: an o there would have won.
            if board[i + 1] != OWN:
                found.append(real[i])
            i = board.find(b"o", i + 1)
        return found

    def play(self, state: State, move: Move) -> State:
        """Step the piece at ``move`` one cell ahead (capturing what is there); turn over."""
        board, flipped = state
        i = self._index[flipped][move]
        return ((board[:i] + b".o" + board[i + 2 :])[::-1].translate(SWAP), not flipped)

    def outcome(self, state: State) -> Value | None:
        """LOSS when the opponent has reached the mover's camp or removed all the mover's pieces.

        The mover (always ``o`` in the state's view) cannot have won already: the start has
        no winner, and a move never helps the other side.
        """
        board = state[0]
        if board[0] == ENEMY or b"/x" in board or b"o" not in board:
            return LOSS
        return None

    def show(self, state: State) -> str:
        """The real board, row 1 on top, and who is to move."""
        board, flipped = state
        real = (flip(board) if flipped else board).decode("ascii")
        mover = "x (moving left)" if flipped else "o (moving right)"
        return "\n".join([*real.split("/"), f"{mover} to move"])

    def format_move(self, move: Move) -> str:
        """The piece that steps: its column as a letter (a first) and its row counted from
        1, as in ``b3`` (no comma, which separates the moves of ``--moves``)."""
        return f"{chr(ord('a') + move[1])}{move[0] + 1}"

    def parse_move(self, text: str) -> Move:
        """``b3`` (column letter, row from 1), or ``3 2`` (row and column, from 1)."""
        text = text.strip().lower()
        if text[:1].isalpha() and text[1:].isdigit():
            return (int(text[1:]) - 1, ord(text[0]) - ord("a"))
        parts = text.replace(",", " ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError("a move is the piece's column letter and row, as b3")
        return (int(parts[0]) - 1, int(parts[1]) - 1)

    def partizan(self, state: State) -> tuple[PawnSegments, tuple[Segment, ...], bool]:
        """The position as a sum of row segments (``PawnSegments``), and whether o (Left)
        is to move; ValueError when a piece can race or capture (no such sum)."""
        board, flipped = state
        real = (flip(board) if flipped else board).decode("ascii")
        view = PawnSegments(real)
        return view, view.initial(), not flipped


# --------------------------------------------------------------------------- as a sum

Segment = tuple[int, str]
"""A row segment: its row (from 0) and its cells from its first ``o`` to its last ``x``."""
SegmentMove = tuple[int, int, int]
"""(segment index, cell index within it, +1 for an ``o`` stepping right or -1 for an ``x``)."""


def no_sum(rows: list[str]) -> str | None:
    """Why a real board is no sum of row segments, or None when it is one.

    It is one when no piece can race (every row with pieces starts with an ``o`` and ends
    with an ``x``) and no ``o`` stands right before an ``x`` (no capture can be made).
    """
    for number, row in enumerate(rows, start=1):
        pieces = row.replace(".", "")
        if pieces and pieces[0] == "x":
            return f"row {number}: an 'x' has no 'o' ahead and can race (a race decides)"
        if pieces and pieces[-1] == "o":
            return f"row {number}: an 'o' has no 'x' ahead and can race (a race decides)"
        if "ox" in row:
            return f"row {number}, column {row.index('ox') + 1}: an 'o' faces an 'x' (a capture)"
    return None


def segments(rows: list[str]) -> tuple[Segment, ...]:
    """The row segments of a board that is a sum: some ``o`` then the ``x`` facing them."""
    found: list[Segment] = []
    for r, row in enumerate(rows):
        start = row.find("o")
        while start >= 0:
            end = row.find("o", row.find("x", start))
            stop = len(row) if end < 0 else end
            found.append((r, row[start:stop].rstrip(".")))
            start = end
    return tuple(found)


class PawnSegments:
    """The pawns game of a board no piece can race, as a sum of its row segments (CGT).

    Left is ``o`` (moving right), Right is ``x``. Each side's moves are its safe steps: onto
    an empty cell, never next to an enemy piece (``o.x`` is left to stand). A side with no
    safe step must step next to an enemy and loses the segment's fight (the reasoning of
    ``perfectplay.contest.arc002d``, checked by exhaustive search in the tests), so the side
    first out of safe steps loses: normal play, and the board's value is the sum of its
    segments' values. A state is a tuple of segments.

    The values are not all numbers: with p ``o`` and q ``x`` and fronts leaving an even gap
    a segment is the integer n of spare moves after sharing the gap; an odd gap leaves a
    cell to claim, {n + p - 1 | n - q + 1} (``n*`` when p = q = 1). The spare-move count
    of ``arc002d`` plays these switches hottest first (tested against these values).
    """

    name = "pawns-segments"
    players = ("o", "x")
    """Left's and Right's names."""

    def __init__(self, board: str = "o...x../oo....x") -> None:
        rows = parse_board(board)
        why = no_sum(rows)
        if why is not None:
            raise ValueError(f"not a sum of row segments: {why}")
        self.board = "/".join(rows)
        self.rows = rows

    def initial(self) -> tuple[Segment, ...]:
        """The segments of the board."""
        return segments(self.rows)

    def left_moves(self, state: tuple[Segment, ...]) -> list[SegmentMove]:
        """Every ``o`` that can step onto an empty cell not next to an ``x``."""
        found = []
        for i, (_, cells) in enumerate(state):
            j = cells.find("o.")
            while j >= 0:
                if cells[j + 2 : j + 3] != "x":
                    found.append((i, j, 1))
                j = cells.find("o.", j + 1)
        return found

    def right_moves(self, state: tuple[Segment, ...]) -> list[SegmentMove]:
        """Every ``x`` that can step onto an empty cell not next to an ``o``."""
        found = []
        for i, (_, cells) in enumerate(state):
            j = cells.find(".x")
            while j >= 0:
                if j == 0 or cells[j - 1] != "o":
                    found.append((i, j + 1, -1))
                j = cells.find(".x", j + 1)
        return found

    def play(self, state: tuple[Segment, ...], move: SegmentMove) -> tuple[Segment, ...]:
        """Step the piece; the segment drops the empty cells left behind at its ends."""
        i, j, step = move
        row, cells = state[i]
        lo, hi = min(j, j + step), max(j, j + step)
        piece = cells[j]
        pair = "." + piece if step == 1 else piece + "."
        moved = (cells[:lo] + pair + cells[hi + 1 :]).strip(".")
        return (*state[:i], (row, moved), *state[i + 1 :])

    def components(self, state: tuple[Segment, ...]) -> list[tuple[Segment, ...]]:
        """Each segment alone."""
        return [(segment,) for segment in state]

    def key(self, state: tuple[Segment, ...]) -> tuple[str, ...]:
        """The cells alone: segments alike in any row have one value."""
        return tuple(cells for _, cells in state)

    def swap(self, state: tuple[Segment, ...]) -> tuple[Segment, ...]:
        """The board turned half a turn with colours swapped: o and x exchange roles."""
        return tuple((row, cells[::-1].translate(SWAP_TEXT)) for row, cells in state)

    def parse_position(self, text: str) -> tuple[Segment, ...]:
        """A board written as rows joined by ``/``."""
        rows = parse_board(text)
        why = no_sum(rows)
        if why is not None:
            raise ValueError(f"not a sum of row segments: {why}")
        return segments(rows)

    def show(self, state: tuple[Segment, ...]) -> str:
        """The segments, each with its row (from 1)."""
        return "  ".join(f"row {row + 1}: {cells}" for row, cells in state) or "no segments"


SWAP_TEXT = str.maketrans("ox", "xo")
