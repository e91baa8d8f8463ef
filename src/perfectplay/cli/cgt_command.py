"""perfectplay cgt: the value of a partizan position, or of an expression of values.

Prints the canonical value in the usual notation, the outcome class (L, R, N, P), the mean,
the temperature and the stops; ``--json`` adds the canonical form as nested options
(``{"left": [...], "right": [...]}``, a number expanded into its own options) so that
another tool can rebuild it, and ``--thermograph FILE`` draws the thermograph as SVG.
With ``--outcome`` (or for a loopy game, which has no canonical value here) it prints the
outcome class found by retrograde analysis, each side moving first, draws reported as such;
``--misere`` gives the outcome class in misère play (the player who cannot move wins).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from ..errors import GameNotFound, InputError, PerfectplayError, UsageProblem
from .common import emit_json, json_option, params_option, print_rows
from .params import parse_assignments

NESTED_LIMIT = 200_000
"""Largest canonical form (as a tree of options) written nested; past it, a table."""
DEPTH_LIMIT = 400
"""Deepest canonical form written nested (JSON encoders recurse); past it, a table."""

OUTCOMES = {
    "L": "L (Left wins, whoever starts)",
    "R": "R (Right wins, whoever starts)",
    "N": "N (the player to move wins)",
    "P": "P (the player to move loses)",
}


@click.command("cgt")
@click.argument("game", required=False)
@params_option
@click.option("--position", metavar="TEXT", help="The position to value (the game's notation).")
@click.option("--expr", metavar="EXPR", help='A value or sum to evaluate, e.g. "{1|-1} + ^ + *".')
@click.option(
    "--thermograph",
    "thermograph_file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Draw the thermograph into FILE (SVG).",
)
@click.option(
    "--outcome",
    "outcome_only",
    is_flag=True,
    help="Only the outcome class, by retrograde analysis (loopy games allowed).",
)
@click.option(
    "--misere",
    is_flag=True,
    help="The outcome class in misère play (the player who cannot move wins).",
)
@click.option(
    "--max-positions",
    type=click.IntRange(min=1),
    default=None,
    help="Stop with an error past this many positions valued.",
)
@json_option
def cgt_command(
    game: str | None,
    params: tuple[str, ...],
    position: str | None,
    expr: str | None,
    thermograph_file: Path | None,
    max_positions: int | None,
    outcome_only: bool,
    misere: bool,
    as_json: bool,
) -> None:
    """Values of short partizan games: canonical form, outcome, mean, temperature.

    GAME is a built-in (domineering, toads, clobber, pawns) or path/to/file.py:ClassName
    or module:ClassName with left_moves, right_moves and play.

    Examples:

      perfectplay cgt --expr "{1|-1} + ^ + *"

      perfectplay cgt domineering -p width=4 -p height=4

      perfectplay cgt toads --position TT..FF

      perfectplay cgt pawns --position o...x/oo..x --outcome
    """
    if expr is not None:
        g, report = _value_of_expression(expr, game, params, position, outcome_only, misere)
    else:
        if game is None:
            raise UsageProblem("give a GAME (domineering, toads, clobber, file.py:Class) or --expr")
        valued = _value_of_position(
            game, params, position, max_positions, outcome_only, misere, as_json
        )
        if valued is None:
            return
        g, report = valued
    report.update(_describe(g))
    if thermograph_file is not None:
        _write_thermograph(g, thermograph_file, report)
    if as_json:
        _emit_value_json(g, report)
    else:
        _print_value(report, thermograph_file)


def _value_of_expression(
    expr: str,
    game: str | None,
    params: tuple[str, ...],
    position: str | None,
    outcome_only: bool,
    misere: bool,
) -> tuple[Any, dict[str, Any]]:
    """The value of --expr and the report that names it; a GAME or --outcome refused."""
    from ..cgt import parse

    if game is not None or params or position is not None:
        raise UsageProblem("give a GAME or --expr, not both")
    if outcome_only or misere:
        raise UsageProblem("--outcome and --misere need a GAME, not --expr")
    return parse(expr), {"expression": expr}


def _value_of_position(
    game: str,
    params: tuple[str, ...],
    position: str | None,
    max_positions: int | None,
    outcome_only: bool,
    misere: bool,
    as_json: bool,
) -> tuple[Any, dict[str, Any]] | None:
    """The value of the game's position and the report that names it; None once the
    outcome class is printed instead (asked for, or the game is loopy)."""
    from ..cgt import PartizanRules, Solver
    from ..errors import CycleError

    instance = _build(game, list(params))
    state = _start(instance, position)
    hooks = PartizanRules.of(instance)
    report: dict[str, Any] = {"game": hooks.name, "position": hooks.describe(state)}
    if outcome_only or misere:
        _print_outcome(instance, state, report, misere, max_positions, as_json)
        return None
    try:
        return Solver(instance, max_positions).value(state), report
    except CycleError:
        report["loopy"] = True
        _print_outcome(instance, state, report, misere, max_positions, as_json)
        return None


def _emit_value_json(g: Any, report: dict[str, Any]) -> None:
    """The report as JSON, with the canonical form nested or, past the limits, as a table."""
    report["canonical"], report["canonical_table"] = _canonical_json(g)
    if report["canonical_table"] is None:
        del report["canonical_table"]
    emit_json(report)


def _print_value(report: dict[str, Any], thermograph_file: Path | None) -> None:
    """The report as rows of text: what was valued, its value, outcome, mean and stops."""
    rows: list[tuple[str, str]] = [
        (key, str(report[key])) for key in ("game", "position", "expression") if key in report
    ]
    rows += [
        ("value", report["value"]),
        ("outcome", OUTCOMES[report["outcome"]]),
        ("mean", report["mean"]),
        ("temperature", report["temperature"]),
        ("stops", f"{report['left_stop']} (Left first), {report['right_stop']} (Right first)"),
        ("birthday", str(report["birthday"])),
    ]
    if thermograph_file is not None:
        rows.append(("thermograph", str(thermograph_file)))
    print_rows(rows)


def _print_outcome(
    instance: Any,
    state: Any,
    report: dict[str, Any],
    misere: bool,
    max_positions: int | None,
    as_json: bool,
) -> None:
    """The outcome class by retrograde analysis, each side moving first."""
    from ..outcomes import WINNER_NAMES, outcome_class

    found = outcome_class(instance, state, misere=misere, max_states=max_positions)
    report.update(
        {
            "play": "misère" if misere else "normal",
            "outcome": found.label,
            "left_first": WINNER_NAMES[found.left_first],
            "right_first": WINNER_NAMES[found.right_first],
            "left_first_remoteness": found.left_first_remoteness,
            "right_first_remoteness": found.right_first_remoteness,
        }
    )
    if as_json:
        emit_json(report)
        return

    def start(winner: str, remoteness: int | None) -> str:
        if remoteness is None:
            return WINNER_NAMES[winner]
        return f"{WINNER_NAMES[winner]} in {remoteness} move{'' if remoteness == 1 else 's'}"

    rows: list[tuple[str, str]] = [
        (key, str(report[key])) for key in ("game", "position") if key in report
    ]
    if report.get("loopy"):
        rows.append(("value", "none: the game is loopy (a position recurs)"))
    rows += [
        ("play", report["play"]),
        ("outcome", found.describe()),
        ("Left first", start(found.left_first, found.left_first_remoteness)),
        ("Right first", start(found.right_first, found.right_first_remoteness)),
    ]
    print_rows(rows)


def partizan_report(rules: Any, state: Any, max_positions: int | None = None) -> dict[str, Any]:
    """A position of a game with the ``partizan`` hook as a sum: each component's value,
    the sum, and who wins with the player to move moving first (for analyze --cgt)."""
    from ..cgt import PartizanRules, Solver, render
    from ..cgt.canonical import ZERO, add

    if rules.partizan is None:
        raise UsageProblem(f"{rules.name} has no partizan(state) hook: no values (drop --cgt)")
    try:
        view, position, left_to_move = rules.partizan(state)
    except ValueError as exc:
        raise UsageProblem(f"--cgt: {exc}") from None
    solver = Solver(view, max_positions)
    hooks = PartizanRules.of(view)
    parts = list(hooks.components(position)) if hooks.components else [position]
    names = hooks.players
    components = []
    total = ZERO
    for part in parts:
        g = solver.value(part)
        total = add(total, g)
        components.append({"component": hooks.describe(part), "value": render(g)})
    cls = total.outcome
    mover, other = ("Left", "Right") if left_to_move else ("Right", "Left")
    winner = {"L": "Left", "R": "Right", "N": mover, "P": other}[cls]
    report: dict[str, Any] = {
        "game": rules.name,
        "components": components,
        "sum": render(total),
        "outcome": cls,
        "to_move": f"{names[0]} (Left)" if left_to_move else f"{names[1]} (Right)",
        "winner": f"{names[0]} (Left)" if winner == "Left" else f"{names[1]} (Right)",
    }
    report.update({k: v for k, v in _describe(total).items() if k != "value"})
    return report


def print_partizan_report(report: dict[str, Any]) -> None:
    """The report of ``partizan_report`` as text."""
    rows = [("game", str(report["game"]))]
    if report.get("moves_played"):
        rows.append(("moves played", " ".join(report["moves_played"])))
    rows += [(str(c["component"]), str(c["value"])) for c in report["components"]]
    rows += [
        ("sum", str(report["sum"])),
        ("outcome", OUTCOMES[report["outcome"]]),
        ("mean, temperature", f"{report['mean']}, {report['temperature']}"),
        ("to move", str(report["to_move"])),
        ("winner", str(report["winner"])),
    ]
    print_rows(rows)


def partizan_builtins() -> dict[str, type]:
    """The built-in partizan games by name and alias: ``perfectplay.cgt``'s own, and those
    beside a game (``games.PARTIZAN_GAMES``)."""
    from ..cgt import GAMES
    from ..games import PARTIZAN_GAMES, aliases_of

    return {name: cls for cls in (*GAMES, *PARTIZAN_GAMES)
            for name in (cls.name, *aliases_of(cls))}  # fmt: skip


def _build(spec: str, params: list[str]) -> Any:
    """An instance of a built-in partizan game or of a user's class."""
    from ..cgt import check_partizan

    builtins = partizan_builtins()
    if spec in builtins:
        cls = builtins[spec]
    elif ":" in spec:
        from .loader import find_game_class

        cls = find_game_class(spec)
    else:
        raise GameNotFound(
            f"unknown partizan game {spec!r}; built-in: {', '.join(builtins)} "
            "(or path/to/file.py:ClassName, or module:ClassName)"
        )
    kwargs = parse_assignments(cls, params)
    try:
        instance = cls(**kwargs)
    except PerfectplayError:
        raise
    except (ValueError, TypeError) as exc:
        raise GameNotFound(f"{spec}: {exc}") from None
    check_partizan(instance)
    return instance


def _start(instance: Any, position: str | None) -> Any:
    """The position to value: --position read by the game, else its initial()."""
    from ..cgt import PartizanRules

    hooks = PartizanRules.of(instance)
    if position is not None:
        reader = hooks.parse_position
        if reader is None:
            raise UsageProblem(
                f"{type(instance).__name__} reads no --position (it has no parse_position)"
            )
        try:
            return reader(position)
        except PerfectplayError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"--position {position!r}: {exc}") from None
    initial = hooks.initial
    if initial is None:
        raise UsageProblem(f"{type(instance).__name__} has no initial(): give --position")
    return initial()


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _describe(g: Any) -> dict[str, Any]:
    from ..cgt import render, thermograph

    th = thermograph(g)
    return {
        "value": render(g),
        "outcome": g.outcome,
        "mean": _fraction(th.mean),
        "temperature": _fraction(th.temperature),
        "left_stop": _fraction(g.left_stop),
        "right_stop": _fraction(g.right_stop),
        "birthday": g.birthday,
    }


def _write_thermograph(g: Any, path: Path, report: dict[str, Any]) -> None:
    from ..cgt import svg

    title = report.get("expression") or f"{report.get('game')} {report.get('position')}"
    try:
        path.write_text(svg(g, title=str(title)))
    except OSError as exc:
        raise UsageProblem(f"cannot write the thermograph to {path}: {exc.strerror}") from None
    report["thermograph"] = str(path)


def _canonical_json(g: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The canonical form as nested options, or (for a form too big or too deep to nest)
    None and a table: {"nodes": [{"left": [i...], "right": [j...]}], "root": k}, with
    options given by their index in the list of nodes."""
    order: list[Any] = []
    index: dict[int, int] = {}
    stack = [g]
    while stack:
        node = stack[-1]
        if node.id in index:
            stack.pop()
            continue
        missing = [o for o in (*node.left, *node.right) if o.id not in index]
        if missing:
            stack.extend(missing)
            continue
        index[node.id] = len(order)
        order.append(node)
        stack.pop()
    size: list[int] = []
    for node in order:
        size.append(1 + sum(size[index[o.id]] for o in (*node.left, *node.right)))
    if size[-1] > NESTED_LIMIT or g.birthday > DEPTH_LIMIT:
        nodes = [
            {
                "left": [index[o.id] for o in node.left],
                "right": [index[o.id] for o in node.right],
            }
            for node in order
        ]
        return None, {"nodes": nodes, "root": index[g.id]}
    built: list[dict[str, Any]] = []
    for node in order:
        built.append(
            {
                "left": [built[index[o.id]] for o in node.left],
                "right": [built[index[o.id]] for o in node.right],
            }
        )
    return built[-1], None


__all__ = ["cgt_command", "partizan_report", "print_partizan_report"]
