"""perfectplay play: a game in the terminal against perfect play."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..answers import Answers
from ..errors import GameError
from ..rules import Rules
from ..values import LOSS, Value
from .common import db_option, full_solve, game_options, out, solve_options
from .loader import build_game
from .present import plies_text, value_text
from .search_analysis import answers_without_solving

QUIT = ("quit", "q", "exit")
_NOTHING_SHOWN: Any = object()
_STOP: Any = object()
_UNDO: Any = object()
_AGAIN: Any = object()


@click.command("play")
@game_options
@click.option(
    "--as",
    "side",
    type=click.Choice(["first", "second"]),
    default="first",
    show_default=True,
    help="Which player you are.",
)
@click.option("--hint", is_flag=True, help="Show the best moves before each of your moves.")
@solve_options
@db_option
def play_command(
    game: str,
    params: tuple[str, ...],
    side: str,
    hint: bool,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    db: Path | None,
) -> None:
    """Play against perfect play in the terminal.

    At your turn type a move, or undo, hint, quit. The opponent wins as fast as it can,
    loses as slowly as it can and prefers a tie to a loss. With --db DIR its moves come
    from a tablebase made by 'solve --save DIR', without solving.

    \b
    Examples:
      perfectplay play tictactoe --as second
      perfectplay play connect-four --db c4-4x4
    """
    rules = Rules(build_game(game, list(params)))
    first = side == "first"
    with answers_without_solving(rules, db, max_states, memory) as (answers, _):
        if answers is not None:
            sys.exit(play_session(answers, human_first=first, always_hint=hint, console=out))
    solution = full_solve(rules, "auto", max_states, quiet, memory)
    sys.exit(play_session(solution, human_first=first, always_hint=hint, console=out))


@dataclass(frozen=True)
class _Turn:
    """Where a game stands: the state, whose turn, and the person's points so far."""

    state: Any
    human_turn: bool
    human_points: float = 0
    """Rewards and final score, from the person's point of view."""


def play_session(
    solution: Answers[Any, Any],
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
    now = _Turn(solution.initial, human_first)
    taken_back: list[_Turn] = []
    console.print(
        f"You play {'first' if human_first else 'second'} in {rules.name}. "
        "At your turn type a move, or undo, hint, quit."
    )
    shown_state: Any = _NOTHING_SHOWN
    while True:
        if shown_state is not now.state:
            console.print()
            console.print(rules.show(now.state), markup=False, highlight=False)
            shown_state = now.state
        legal = rules.legal_moves(now.state)
        if not legal:
            console.print(_final_words(solution, now))
            return 0
        if not now.human_turn:
            move = _reply(solution, now.state, console)
        else:
            move = _ask(solution, now.state, legal, always_hint, console, read)
            if move is _STOP:
                return 0
            if move is _UNDO:
                if taken_back:
                    now = taken_back.pop()
                else:
                    console.print("nothing to undo")
                continue
            if move is _AGAIN:
                continue
            taken_back.append(now)
        now = _after(rules, now, move)


def _reply(solution: Answers[Any, Any], state: Any, console: Console) -> Any:
    """Perfect play's move in ``state``, announced with its value."""
    move = solution.best_move(state)
    # A move of perfect play is worth to its player what the position is worth to it.
    value, remoteness = solution.value(state), solution.remoteness(state)
    console.print(
        f"perfectplay plays {solution.rules.format_move(move)} "
        f"({value_text(value)} for it, {plies_text(remoteness)})",
        markup=False,
    )
    return move


def _ask(
    solution: Answers[Any, Any],
    state: Any,
    legal: list[Any],
    always_hint: bool,
    console: Console,
    read: Callable[[str], str],
) -> Any:
    """The person's move, or _STOP, _UNDO or _AGAIN (ask again) for what they typed."""
    rules = solution.rules
    if always_hint:
        console.print(_hint(solution, state), markup=False)
    shown = " ".join(rules.format_move(m) for m in legal)
    try:
        text = read(f"your move ({shown}; undo, hint, quit)> ").strip()
    except (EOFError, KeyboardInterrupt):
        console.print("\nbye")
        return _STOP
    if text.lower() in QUIT:
        console.print("bye")
        return _STOP
    if text.lower() == "undo":
        return _UNDO
    if text.lower() == "hint":
        console.print(_hint(solution, state), markup=False)
        return _AGAIN
    if not text:
        return _AGAIN
    try:
        return rules.parse_move(state, text)
    except GameError as exc:
        console.print(str(exc), markup=False)
        return _AGAIN


def _after(rules: Rules[Any, Any], now: _Turn, move: Any) -> _Turn:
    """Where the game stands once ``move`` is played."""
    points = now.human_points
    if rules.reward is not None:
        gained = rules.reward(now.state, move)
        points += gained if now.human_turn else -gained
    child = rules.play(now.state, move)
    turn = not now.human_turn if rules.mover_changes(now.state, child) else now.human_turn
    return _Turn(child, turn, points)


def _hint(solution: Answers[Any, Any], state: Any) -> str:
    rules = solution.rules
    value = value_text(solution.value(state))
    best = ", ".join(rules.format_move(m) for m in solution.best_moves(state))
    worth = f"worth {value} to you" if solution.scored else f"a {value} for you"
    return (
        f"hint: this position is {worth} ({plies_text(solution.remoteness(state))}); best: {best}"
    )


def _final_words(solution: Answers[Any, Any], now: _Turn) -> str:
    """Who won, or the final score, once no move is left."""
    end = solution.rules.outcome(now.state)
    if isinstance(end, Value) or end is None:
        result = LOSS if end is None else end
        if result is Value.TIE:
            return "game over: a tie"
        mover_won = result is Value.WIN
        return (
            "game over: you win" if mover_won == now.human_turn else "game over: perfectplay wins"
        )
    total = now.human_points + (end if now.human_turn else -end)
    return f"game over: your score minus perfectplay's is {value_text(total)}"
