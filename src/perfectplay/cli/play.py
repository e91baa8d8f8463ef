"""perfectplay play: a game in the terminal against perfect play.

After each move the board is shown with the move that led to it; perfect play's replies
are coloured by their value where the terminal has colour (rich leaves it out elsewhere); a
move of the person that throws away a win or a tie (or, in a scored game, points) is named
as such at once; at the end another game is offered."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from ..answers import Answers
from ..errors import GameError
from ..rules import Rules
from ..values import LOSS, TIE, WIN, Value
from .common import db_option, full_solve, game_options, out, solve_options
from .loader import build_game
from .present import counted, plies_text, points_text, signed_text, value_text
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
            sys.exit(play_games(answers, human_first=first, always_hint=hint, console=out))
    solution = full_solve(rules, "auto", max_states, quiet, memory)
    sys.exit(play_games(solution, human_first=first, always_hint=hint, console=out))


STYLE = {"win": "bold green", "loss": "bold red", "tie": "bold yellow", "draw": "bold yellow"}
"""Colours of values (for the player they are told to), where the terminal has colour."""


def play_games(
    solution: Answers[Any, Any],
    *,
    human_first: bool,
    always_hint: bool,
    console: Console,
    read: Callable[[str], str] = input,
) -> int:
    """Games one after another, as long as the person answers yes to another one."""
    while True:
        status = play_session(
            solution, human_first=human_first, always_hint=always_hint, console=console, read=read
        )
        if status is not None:
            return status
        try:
            again = read("another game? (y/n)> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return 0
        if again not in ("y", "yes"):
            return 0


@dataclass(frozen=True)
class _Turn:
    """Where a game stands: the state, whose turn, and the person's points so far."""

    state: Any
    human_turn: bool
    human_points: float = 0
    """Rewards and final score, from the person's point of view."""
    mine: float = 0
    theirs: float = 0
    """The points the person and perfectplay collected so far (games with rewards)."""
    last: str = ""
    """The last move and who made it ("5 (you)"); empty at the start."""


def play_session(
    solution: Answers[Any, Any],
    *,
    human_first: bool,
    always_hint: bool,
    console: Console,
    read: Callable[[str], str] = input,
) -> int | None:
    """Play one game: the person types moves, perfect play answers. Returns an exit status
    when the person stops, None when the game is over (another may follow).

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
            if now.last:
                console.print(f"last move: {now.last}", markup=False, highlight=False)
            if rules.reward is not None:
                mine, theirs = points_text(now.mine), points_text(now.theirs)
                console.print(f"points so far: you {mine}, perfectplay {theirs}",
                              markup=False, highlight=False)  # fmt: skip
            shown_state = now.state
        legal = rules.legal_moves(now.state)
        if not legal:
            console.print(_final_words(solution, now), markup=False, highlight=False)
            return None
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
            warning = _thrown_away(solution, now.state, move)
            if warning:
                console.print(Text(warning, style="bold red"))
            taken_back.append(now)
        now = _after(rules, now, move)


def _reply(solution: Answers[Any, Any], state: Any, console: Console) -> Any:
    """Perfect play's move in ``state``, announced with its value."""
    move = solution.best_move(state)
    # A move of perfect play is worth to its player what the position is worth to it.
    value, remoteness = solution.value(state), solution.remoteness(state)
    worth = (
        f"score {signed_text(value)} for it, {_left(remoteness)}"
        if solution.scored
        else f"{value_text(value)} for it, {plies_text(remoteness)}"
    )
    line = f"perfectplay plays {solution.rules.format_move(move)} ({worth})"
    console.print(Text(line, style=STYLE.get(value_text(value), "")))
    return move


def _left(remoteness: int | None) -> str:
    """ "8 plies left", "1 ply left", or "never ends"."""
    return "never ends" if remoteness is None else f"{counted(remoteness, 'ply')} left"


RANK = {WIN: 2, TIE: 1, Value.DRAW: 1, LOSS: 0}


def _thrown_away(solution: Answers[Any, Any], state: Any, move: Any) -> str:
    """What the person's move gives up, in words ("" when it keeps the position's value):
    a win or a tie (a draw) it turns into worse, or in a scored game the points it costs."""
    before = solution.value(state)
    after = next((mv for mv in solution.move_values(state) if mv.move == move), None)
    if after is None or after.value == before:
        return ""
    shown = solution.rules.format_move(move)
    if solution.scored:
        if after.value >= before:
            return ""
        return (
            f"{shown} costs you {points_text(before - after.value)} "
            f"{'point' if before - after.value == 1 else 'points'}: the score for you is now "
            f"{signed_text(after.value)} (it was {signed_text(before)})"
        )
    if not isinstance(before, Value) or not isinstance(after.value, Value):
        return ""
    if RANK[after.value] >= RANK[before]:
        return ""
    now = value_text(after.value)
    return f"{shown} throws away your {value_text(before)}: it is now a {now} for you"


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
    points, mine, theirs = now.human_points, now.mine, now.theirs
    if rules.reward is not None:
        gained = rules.reward(now.state, move)
        points += gained if now.human_turn else -gained
        mine, theirs = (mine + gained, theirs) if now.human_turn else (mine, theirs + gained)
    child = rules.play(now.state, move)
    turn = not now.human_turn if rules.mover_changes(now.state, child) else now.human_turn
    who = "you" if now.human_turn else "perfectplay"
    return _Turn(child, turn, points, mine, theirs, f"{rules.format_move(move)} ({who})")


def _hint(solution: Answers[Any, Any], state: Any) -> str:
    rules = solution.rules
    value, remoteness = solution.value(state), solution.remoteness(state)
    best = ", ".join(rules.format_move(m) for m in solution.best_moves(state))
    if solution.scored:
        worth = f"score {signed_text(value)} for you, {_left(remoteness)}"
    else:
        worth = f"a {value_text(value)} for you ({plies_text(remoteness)})"
    return f"hint: this position is {worth}; best: {best}"


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
    return f"game over: your score minus perfectplay's is {signed_text(total)}"
