"""Positions and solutions shown in a notebook (Jupyter, or anything that reads the
``_repr_html_`` and ``_repr_svg_`` conventions, as python-chess's boards do).

``board(game, state)`` draws a position through the game's ``draw_svg`` (its ``show`` text
otherwise); ``answers.position(state)`` (a Solution or a Tablebase) draws it with its value,
remoteness and every move's value, the best marked; a Solution or Tablebase shown on its own
is its start so drawn. Everything is built from the game's own hooks: no game is known here
by name.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .drawing import letters
from .rules import Rules
from .values import Value


@dataclass(frozen=True)
class Board:
    """One position of a game, drawn (``_repr_svg_``) and shown as text (``__str__``)."""

    rules: Rules[Any, Any]
    state: Any
    last: Any = None
    """The move that led here (games that mark it), or None."""

    def _repr_svg_(self) -> str:
        if self.rules.presentation.draw_svg is not None:
            return self.rules.presentation.draw_svg(self.state, self.last)
        return letters(self.rules.show(self.state))

    def __str__(self) -> str:
        return self.rules.show(self.state)


def board(game: Any, state: Any = None, last: Any = None) -> Board:
    """A position of ``game`` (its start when ``state`` is None) that a notebook draws."""
    rules = Rules(game)
    return Board(rules, rules.initial_state() if state is None else state, last)


@dataclass(frozen=True)
class PositionView:
    """A solved position: the board, its value for the player to move, its remoteness, and
    each legal move with its value for the player making it (the best in bold)."""

    answers: Any
    """A Solution or a Tablebase (``perfectplay.answers``, a layer above this one)."""
    state: Any
    title: str = ""

    def _repr_html_(self) -> str:
        answers, state = self.answers, self.state
        rules = answers.rules
        value, remoteness = answers.value(state), answers.remoteness(state)
        best = set(map(repr, answers.best_moves(state)))
        rows = []
        for option in answers.move_values(state):
            cells = (rules.format_move(option.move), _value(option.value),
                     _plies(option.remoteness))  # fmt: skip
            row = "".join(f"<td>{html.escape(c)}</td>" for c in cells)
            strong = ' style="font-weight:bold"' if repr(option.move) in best else ""
            rows.append(f"<tr{strong}>{row}</tr>")
        table = (
            "<table><tr><th>move</th><th>value</th><th>remoteness</th></tr>"
            + "".join(rows)
            + "</table>"
            if rows
            else "<p>no moves: the game is over</p>"
        )
        heading = f"<p><b>{html.escape(self.title)}</b></p>" if self.title else ""
        said = f"{_value(value)}, {_plies(remoteness)}"
        drawn = Board(rules, state)._repr_svg_()
        return (
            f'<div class="perfectplay-position">{heading}'
            f'<div style="display:inline-block;vertical-align:top;margin-right:1em">{drawn}</div>'
            f'<div style="display:inline-block;vertical-align:top">'
            f"<p>to move: <b>{html.escape(said)}</b></p>{table}</div></div>"
        )


def _value(value: Any) -> str:
    if isinstance(value, Value):
        return str(value)
    return f"{value:+g}" if isinstance(value, float) else f"{value:+}"


def _plies(remoteness: int | None) -> str:
    if remoteness is None:
        return "never ends"
    return f"{remoteness} ply" if remoteness == 1 else f"{remoteness} plies"
