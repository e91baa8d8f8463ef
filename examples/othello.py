"""Othello on a size x size board, as a wide compiled game: two bit boards, two words.

A user's Othello, written once in the compiled form: 6x6 needs two 36-bit boards, 72 bits,
more than one int64 holds, so the game is a ``WideGame`` of two words.

Rules: the first player (X, "black") and the second (O) alternately put a disc of their
colour on an empty cell so that it brackets, in a line in any of the eight directions, one
or more of the opponent's discs ending at one of the mover's own; every bracketed disc
turns to the mover's colour. A player without such a move passes; when neither can move
the game ends. The start: the four centre cells, O on the diagonal from the top left
(X on d3-style cells: the standard diagonal set-up). The score, for the player to move, is
their discs minus the opponent's, the empty cells counted to the one ahead (the World
Othello Federation's rule).

A state: word 0 holds the mover's discs (bit r * size + c for row r, column c) and, in bit
62, whether O is the mover; word 1 the opponent's discs and, in bit 62, whether the move
that led here was a pass (a pass after a pass ends the game). A move is a cell r * size + c,
or size * size to pass. ``moves`` orders its moves, down to 4 empty cells: those that
leave the opponent the fewest replies first, a reply on a corner counted three times
(fastest first: the order endgame solvers use), a move onto a corner favoured. From 14 empty
cells it looks a reply further (the opponent's best reply, by their moves less mine after
it), and from 22 a reply and my answer further: far from the end, the better order saves
more positions than it costs. ``key`` folds the eight symmetries of the board
(``perfectplay.boards.square``); ``tabled`` keeps the search's table for positions with
more than 7 empty cells.

Fits one int64 word per board up to size 7 (49 bits).
"""

import numpy as np

from perfectplay.boards.square import least_pair, popcount
from perfectplay.compiled_games.wide import WideGame

FLAG = 62
"""Word 0: O is the mover. Word 1: the last move was a pass."""
BOARD = (1 << FLAG) - 1


def full(n):
    return (1 << (n * n)) - 1


def edges(n):
    """The board, and the board without its first column, without its last."""
    first_column = full(n) // ((1 << n) - 1)  # bit r * n for each row r
    return full(n), full(n) & ~first_column, full(n) & ~(first_column << (n - 1))


def shift(x, dr, dc, n, board, no_first, no_last):
    """Every disc of x moved one cell by (dr, dc); those that leave the board dropped."""
    k = dr * n + dc
    y = x << k if k > 0 else x >> (-k)
    if dc == 1:
        return y & no_first
    if dc == -1:
        return y & no_last
    return y & board


def mobility(mine, theirs, n):
    """The cells where the owner of ``mine`` may put a disc."""
    board, no_first, no_last = edges(n)
    empty = board & ~(mine | theirs)
    found = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            x = shift(mine, dr, dc, n, board, no_first, no_last) & theirs
            for _ in range(n - 3):
                x |= shift(x, dr, dc, n, board, no_first, no_last) & theirs
            found |= shift(x, dr, dc, n, board, no_first, no_last) & empty
    return found


def flips(mine, theirs, cell, n):
    """The opponent's discs a disc put on ``cell`` turns."""
    board, no_first, no_last = edges(n)
    turned = 0
    at = 1 << cell
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            line = 0
            x = shift(at, dr, dc, n, board, no_first, no_last)
            while x & theirs:
                line |= x
                x = shift(x, dr, dc, n, board, no_first, no_last)
            if x & mine:
                turned |= line
    return turned


def corners(n):
    return 1 | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (n * n - 1))


def put(mine, theirs, cell, n):
    """Both boards after the owner of ``mine`` puts a disc on ``cell``: (mine, theirs)."""
    turned = flips(mine, theirs, cell, n)
    return mine | turned | (1 << cell), theirs & ~turned


def first_cell(x):
    """The lowest cell of a set that is not empty."""
    return popcount((x & -x) - 1)


def weighed(moves, n):
    """Moves counted, a corner three times."""
    return popcount(moves) + 2 * popcount(moves & corners(n))


def after_reply(me, them, n):
    """How bad a move of mine is (``me`` after it, ``them`` to move), one reply on: the most
    the opponent can make of their weighed moves less mine; -60 when they must pass."""
    replies = mobility(them, me, n)
    if replies == 0:
        return -60
    worst = -1000
    while replies:
        theirs, mine = put(them, me, first_cell(replies), n)
        replies &= replies - 1
        worst = max(
            worst, weighed(mobility(theirs, mine, n), n) - weighed(mobility(mine, theirs, n), n)
        )
    return worst


def after_two_replies(me, them, n):
    """``after_reply`` a reply and my answer further on: the most the opponent can make of
    my best answer's ``after_reply``; 50 when I must pass, -60 when they must."""
    replies = mobility(them, me, n)
    if replies == 0:
        return -60
    worst = -1000
    while replies:
        theirs, mine = put(them, me, first_cell(replies), n)
        replies &= replies - 1
        answers = mobility(mine, theirs, n)
        best = 50 if answers == 0 else 1000
        while answers:
            me_after, them_after = put(mine, theirs, first_cell(answers), n)
            answers &= answers - 1
            best = min(best, after_reply(me_after, them_after, n))
        worst = max(worst, best)
    return worst


class Othello(WideGame):
    """Othello on a size x size board (4 to 7), two words a state (see the module)."""

    size: int = 6
    scored = True
    max_moves = 100

    def start(p, s):
        n = p[0]
        a = (n - 1) // 2
        o = (1 << (a * n + a)) | (1 << ((a + 1) * n + a + 1))
        x = (1 << (a * n + a + 1)) | (1 << ((a + 1) * n + a))
        s[0] = x
        s[1] = o

    def moves(p, s, out):
        n = p[0]
        mine = s[0] & BOARD
        theirs = s[1] & BOARD
        can = mobility(mine, theirs, n)
        if can == 0:
            out[0] = n * n
            return 1
        count = 0
        ranks = out[n * n + 1 :]  # (out's second half: scratch for the moves' ranks)
        empty = n * n - popcount(mine | theirs)
        for cell in range(n * n):
            if (can >> cell) & 1:
                rank = 0
                if empty > 3:  # (near the end, ordering costs more than it saves)
                    me, after = put(mine, theirs, cell, n)
                    if empty >= 22:  # (far from the end, a deeper look pays)
                        rank = 64 + after_two_replies(me, after, n)
                    elif empty >= 14:
                        rank = 64 + after_reply(me, after, n)
                    else:
                        rank = weighed(mobility(after, me, n), n)
                if (corners(n) >> cell) & 1:
                    rank -= 64
                i = count
                while i > 0 and ranks[i - 1] > rank:  # fewest replies first (stable)
                    ranks[i] = ranks[i - 1]
                    out[i] = out[i - 1]
                    i -= 1
                ranks[i] = rank
                out[i] = cell
                count += 1
        return count

    def play(p, s, m, t):
        n = p[0]
        mine = s[0] & BOARD
        theirs = s[1] & BOARD
        o_moves = (s[0] >> FLAG) & 1
        if m == n * n:
            t[0] = theirs | ((1 - o_moves) << FLAG)
            t[1] = mine | (1 << FLAG)
            return
        mine, theirs = put(mine, theirs, m, n)
        t[0] = theirs | ((1 - o_moves) << FLAG)
        t[1] = mine

    def key(p, s, t):
        """The position without its colours, as its least image under the eight symmetries
        of the square (the rules know no direction): the board toolkit's least pair."""
        mine, theirs = least_pair(s[0] & BOARD, s[1] & BOARD, p[0])
        t[0] = mine
        t[1] = theirs | (s[1] & ~BOARD)  # (the pass flag)

    def tabled(p, s):
        """Whether the search keeps the position in its table: not with 7 empty cells or
        fewer, whose subtrees are searched again faster than their key is made and found."""
        n = p[0]
        return n * n - popcount((s[0] | s[1]) & BOARD) > 7

    def outcome(p, s):
        n = p[0]
        mine = s[0] & BOARD
        theirs = s[1] & BOARD
        passed = (s[1] >> FLAG) & 1
        if (mine | theirs) != full(n) and (passed == 0 or mobility(mine, theirs, n) != 0):
            return np.nan
        a = popcount(mine)
        b = popcount(theirs)
        empty = n * n - a - b
        if a > b:
            return float(a + empty - b)
        if a < b:
            return float(a - b - empty)
        return 0.0

    def max_plies(self):
        """Every cell filled, each after a pass at most, and the last two passes."""
        return 2 * (self.size * self.size - 4) + 2

    def show(self, state):
        n = self.size
        mine, theirs = state[0] & BOARD, state[1] & BOARD
        o_moves = (state[0] >> FLAG) & 1
        x_discs, o_discs = (theirs, mine) if o_moves else (mine, theirs)
        rows = []
        for r in range(n):
            cells = []
            for c in range(n):
                bit = 1 << (r * n + c)
                cells.append("X" if x_discs & bit else "O" if o_discs & bit else ".")
            rows.append(" ".join(cells))
        return "\n".join(rows) + f"\n{'O' if o_moves else 'X'} to move"

    def format_move(self, move):
        n = self.size
        if move == n * n:
            return "pass"
        return "abcdefg"[move % n] + str(move // n + 1)

    def parse_move(self, text):
        n = self.size
        text = text.strip().lower()
        if text == "pass":
            return n * n
        if len(text) == 2 and text[0] in "abcdefg"[:n] and text[1] in "1234567"[:n]:
            return (int(text[1]) - 1) * n + "abcdefg".index(text[0])
        raise ValueError(f"a move is a cell from a1 to {'abcdefg'[n - 1]}{n}, or pass")
