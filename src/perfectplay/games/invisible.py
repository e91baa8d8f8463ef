"""Invisible (AOJ 2741): two decks, a shared stack, jamming cards; scored by passing.

A state is (mine_from, mine_to, theirs_from, theirs_to, mover, empty_passes), seen from the
player to move: ``mine_from:mine_to`` is the part of the mover's deck on the stack that still
counts for them (above the opponent's last jamming card), likewise for the opponent.
Passing on a non-empty stack collects both counted sums (the move's reward) and clears it;
two passes in a row on an empty stack end the game. Scores are the mover's points minus the
opponent's, so the start's value is player 1's score minus player 2's.
"""

from __future__ import annotations

from itertools import accumulate

JAM = -1
PASS = "pass"
PLACE = "place"

State = tuple[int, int, int, int, int, int]


class Invisible:
    """Place the top card of your deck or pass; passing scores your cards above their jams."""

    name = "invisible"

    def __init__(
        self, deck1: tuple[int, ...] = (100, -1), deck2: tuple[int, ...] = (200, 300)
    ) -> None:
        for deck in (deck1, deck2):
            if any(card != JAM and card <= 0 for card in deck):
                raise ValueError("cards are positive scores or -1 (a jamming card)")
        self.decks = (tuple(deck1), tuple(deck2))
        # prefix[p][i]: the score of the first i cards of player p's deck (jams count 0).
        self.prefix = [
            list(accumulate((max(c, 0) for c in deck), initial=0)) for deck in self.decks
        ]

    def initial(self) -> State:
        """Empty stack, player 1 to move."""
        return (0, 0, 0, 0, 0, 0)

    def moves(self, state: State) -> list[str]:
        """Pass, or place the top card while the mover's deck has one."""
        if state[1] < len(self.decks[state[4]]):
            return [PASS, PLACE]
        return [PASS]

    def play(self, state: State, move: str) -> State:
        """Pass (clearing the stack) or place the top card, then the other player moves."""
        mine_from, mine_to, theirs_from, theirs_to, mover, empty_passes = state
        if move == PASS:
            if mine_from == mine_to and theirs_from == theirs_to:
                return (theirs_from, theirs_to, mine_from, mine_to, 1 - mover, empty_passes + 1)
            return (theirs_to, theirs_to, mine_to, mine_to, 1 - mover, 0)
        if self.decks[mover][mine_to] == JAM:
            return (theirs_to, theirs_to, mine_from, mine_to + 1, 1 - mover, 0)
        return (theirs_from, theirs_to, mine_from, mine_to + 1, 1 - mover, 0)

    def reward(self, state: State, move: str) -> int:
        """Passing collects the mover's counted cards and the opponent's, with opposite signs."""
        if move != PASS:
            return 0
        mine_from, mine_to, theirs_from, theirs_to, mover, _ = state
        mine = self.prefix[mover][mine_to] - self.prefix[mover][mine_from]
        theirs = self.prefix[1 - mover][theirs_to] - self.prefix[1 - mover][theirs_from]
        return mine - theirs

    def outcome(self, state: State) -> int | None:
        """The game is over (no more points) after two passes in a row on an empty stack."""
        return 0 if state[5] >= 2 else None

    def show(self, state: State) -> str:
        """Each deck with the cards still to play, and what counts on the stack."""
        mine_from, mine_to, theirs_from, theirs_to, mover, empty_passes = state
        parts = {mover: (mine_from, mine_to), 1 - mover: (theirs_from, theirs_to)}
        lines = []
        for p in (0, 1):
            start, stop = parts[p]
            deck = self.decks[p]
            lines.append(
                f"player {p + 1}{' (to move)' if p == mover else ''}: "
                f"counting on the stack {list(deck[start:stop])}, deck {list(deck[stop:])}"
            )
        if empty_passes:
            lines.append("the stack is empty and the last move was a pass")
        return "\n".join(lines)
