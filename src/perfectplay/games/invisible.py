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

import numpy as np
import numpy.typing as npt

from ..protocol import BatchRules, Expansion

JAM = -1
PASS = "pass"
PLACE = "place"

State = tuple[int, int, int, int, int, int]

# The batch protocol: a state is coded as the bits of
# mine_from << 21 | mine_to << 15 | theirs_from << 9 | theirs_to << 3 | mover << 2 | passes.
_FIELD = 63


def encode(state: State) -> int:
    """The integer code of a state."""
    mine_from, mine_to, theirs_from, theirs_to, mover, empty_passes = state
    return (
        mine_from << 21 | mine_to << 15 | theirs_from << 9 | theirs_to << 3 | mover << 2
    ) | empty_passes


def decode(code: int) -> State:
    """The state with an integer code."""
    return (
        code >> 21 & _FIELD,
        code >> 15 & _FIELD,
        code >> 9 & _FIELD,
        code >> 3 & _FIELD,
        code >> 2 & 1,
        code & 3,
    )


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
        # The same decks as arrays for the batch methods, padded to one width.
        width = max(len(d) for d in self.decks) + 2
        self.card_array = np.zeros((2, width), dtype=np.int64)
        self.prefix_array = np.zeros((2, width), dtype=np.int64)
        self.deck_sizes = np.array([len(d) for d in self.decks], dtype=np.int64)
        for p, deck in enumerate(self.decks):
            self.card_array[p, : len(deck)] = deck
            self.prefix_array[p, : len(deck) + 1] = self.prefix[p]

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

    # --- the batch protocol: states coded by encode() ---------------------------------

    def key(self, state: State) -> int:
        """States are solved under their integer codes."""
        return encode(state)

    def from_code(self, code: int) -> State:
        """A state back from its code."""
        return decode(code)

    def speed(self) -> BatchRules:
        """The batch protocol over the states' codes."""
        return BatchRules(self.batch_outcome, self.batch_expand, from_code=self.from_code)

    def batch_outcome(self, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """0 points once the game has ended, NaN while it goes on."""
        return np.where((codes & 3) >= 2, 0.0, np.nan)

    def batch_expand(self, codes: npt.NDArray[np.int64]) -> Expansion:
        """Pass (first) and, where the mover has a card left, place it."""
        cards, prefix, sizes = self.card_array, self.prefix_array, self.deck_sizes
        mine_from = codes >> 21 & _FIELD
        mine_to = codes >> 15 & _FIELD
        theirs_from = codes >> 9 & _FIELD
        theirs_to = codes >> 3 & _FIELD
        mover = codes >> 2 & 1
        passes = codes & 3
        other = 1 - mover
        empty = (mine_from == mine_to) & (theirs_from == theirs_to)
        # Pass: on an empty stack it only counts; otherwise it scores and clears the stack.
        pass_child = np.where(
            empty,
            theirs_from << 21
            | theirs_to << 15
            | mine_from << 9
            | mine_to << 3
            | other << 2
            | (passes + 1),
            theirs_to << 21 | theirs_to << 15 | mine_to << 9 | mine_to << 3 | other << 2,
        )
        pass_reward = np.where(
            empty,
            0,
            prefix[mover, mine_to]
            - prefix[mover, mine_from]
            - (prefix[other, theirs_to] - prefix[other, theirs_from]),
        )
        # Place: a jamming card wipes out what counts for the opponent.
        can_place = mine_to < sizes[mover]
        jam = cards[mover, mine_to] == JAM
        kept_from = np.where(jam, theirs_to, theirs_from)
        place_child = (
            kept_from << 21 | theirs_to << 15 | mine_from << 9 | (mine_to + 1) << 3 | other << 2
        )
        degree = 1 + can_place.astype(np.int64)
        starts = np.concatenate(([0], np.cumsum(degree)[:-1]))
        total = int(degree.sum())
        children = np.empty(total, dtype=np.int64)
        rewards = np.zeros(total, dtype=np.float64)
        children[starts] = pass_child
        rewards[starts] = pass_reward
        children[starts[can_place] + 1] = place_child[can_place]
        parents = np.repeat(np.arange(codes.shape[0], dtype=np.int64), degree)
        return Expansion(parents, children, rewards=rewards)
