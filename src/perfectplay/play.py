"""Playing a game in the terminal against perfect play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from .errors import GameError
from .present import remoteness_text, value_text
from .solution import Solution
from .values import LOSS, Value

QUIT = ("quit", "q", "exit")
_NOTHING_SHOWN: Any = object()


def play_session(
    solution: Solution[Any, Any],
    *,
    human_first: bool,
    always_hint: bool,
    console: Console,
    read: Callable[[str], str] = input,
) -> int:
    """Play one game: the person types moves, perfect play answers. Returns an exit status.

    Bad input gets a message and a new prompt. ``undo`` takes back the person's last move
    (and the reply to it), ``hint`` shows the best moves, ``quit`` (or end of input) stops.
    """
    rules = solution.rules
    state = solution.initial
    human_turn = human_first
    human_points: float = 0  # rewards and final score, from the person's point of view
    taken_back: list[tuple[Any, bool, float]] = []
    console.print(
        f"You play {'first' if human_first else 'second'} in {rules.name}. "
        "At your turn type a move, or undo, hint, quit."
    )
    shown_state: Any = _NOTHING_SHOWN
    while True:
        if shown_state is not state:
            console.print()
            console.print(rules.show(state), markup=False, highlight=False)
            shown_state = state
        legal = rules.legal_moves(state)
        if not legal:
            console.print(_final_words(solution, state, human_turn, human_points))
            return 0
        if not human_turn:
            move = solution.best_moves(state)[0]
            reply = next(mv for mv in solution.move_values(state) if mv.move == move)
            console.print(
                f"perfectplay plays {rules.format_move(move)} "
                f"({value_text(reply.value)} for it, {remoteness_text(reply.remoteness)} plies)",
                markup=False,
            )
        else:
            if always_hint:
                console.print(_hint(solution, state), markup=False)
            shown = " ".join(rules.format_move(m) for m in legal)
            try:
                text = read(f"your move ({shown}; undo, hint, quit)> ").strip()
            except (EOFError, KeyboardInterrupt):
                console.print("\nbye")
                return 0
            if text.lower() in QUIT:
                console.print("bye")
                return 0
            if text.lower() == "undo":
                if taken_back:
                    state, human_turn, human_points = taken_back.pop()
                else:
                    console.print("nothing to undo")
                continue
            if text.lower() == "hint":
                console.print(_hint(solution, state), markup=False)
                continue
            if not text:
                continue
            try:
                move = rules.parse_move(state, text)
            except GameError as exc:
                console.print(str(exc), markup=False)
                continue
            taken_back.append((state, human_turn, human_points))
        if rules.reward is not None:
            gained = rules.reward(state, move)
            human_points += gained if human_turn else -gained
        child = rules.play(state, move)
        if rules.mover_changes(state, child):
            human_turn = not human_turn
        state = child


def _hint(solution: Solution[Any, Any], state: Any) -> str:
    rules = solution.rules
    value = value_text(solution.value(state))
    best = ", ".join(rules.format_move(m) for m in solution.best_moves(state))
    return (
        f"hint: this position is a {value} for you "
        f"({remoteness_text(solution.remoteness(state))} plies); best: {best}"
    )


def _final_words(
    solution: Solution[Any, Any], state: Any, human_turn: bool, human_points: float
) -> str:
    """Who won, or the final score, once no move is left."""
    end = solution.rules.outcome(state)
    if isinstance(end, Value) or end is None:
        result = LOSS if end is None else end
        if result is Value.TIE:
            return "game over: a tie"
        mover_won = result is Value.WIN
        return "game over: you win" if mover_won == human_turn else "game over: perfectplay wins"
    total = human_points + (end if human_turn else -end)
    return f"game over: your score minus perfectplay's is {value_text(total)}"
