"""perfectplay octal: Grundy values of an octal game's heaps, their period (proven by the
Guy-Smith theorem when the values reach its bound), and misère values while tame."""

from __future__ import annotations

from typing import cast

import click

from ..cgt.octal import Method, Misere, Periodicity, analyze, misere, parse_code
from .common import emit_json, json_option, out, print_rows
from .progress import working

DEFAULT_HEAPS = 10_000
SHOWN = 64
"""Values, exceptions or genera listed in the text output (--json gives them all)."""


@click.command("octal")
@click.argument("code")
@click.option(
    "--n",
    "most",
    type=click.IntRange(min=1),
    default=DEFAULT_HEAPS,
    show_default=True,
    metavar="N",
    help="Compute the values of heaps up to N at most (fewer once a period is proven).",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "plain", "sparse"]),
    default="auto",
    show_default=True,
    help="plain: the mex over every option; sparse: the sparse-space method of Winning "
    "Ways (same values, faster on long runs of games with rare values).",
)
@click.option(
    "--misere",
    "misere_play",
    is_flag=True,
    help="Misère play: misère Grundy values and genera of heaps 0..N while the game is tame.",
)
@json_option
def octal_command(code: str, most: int, method: str, misere_play: bool, as_json: bool) -> None:
    """Grundy values of an octal game and their period, proven when it can be.

    CODE is an octal code: 0.77 (Kayles), 0.07 (Dawson's Kayles), 0.137 (Dawson's chess);
    digit j after the point is a sum of 1 (taking j tokens may leave nothing), 2 (one heap)
    and 4 (two heaps); hexadecimal digits add 8 (three heaps); a digit 4 before the point
    splits without taking. Also: kayles, dawsons-kayles, dawsons-chess, grundy (Grundy's
    game).

    Example: perfectplay octal 0.77
    """
    game = parse_code(code)
    if misere_play:
        with working(f"misère values of {code}, heaps 0..{most:,}"):
            report = misere(game, most)
        if as_json:
            emit_json(report.to_json())
        else:
            _print_misere(report)
        return
    with working(f"Grundy values of {code}, heaps 0..{most:,}"):
        found = analyze(game, most, cast(Method, method))
    if as_json:
        emit_json(found.to_json())
        return
    _print_period(found)


def _listing(items: list[str]) -> str:
    """Items separated by spaces, cut after SHOWN of them."""
    if len(items) <= SHOWN:
        return " ".join(items) or "-"
    return " ".join(items[:SHOWN]) + f" ... ({len(items):,} in all; --json lists them)"


def _print_period(found: Periodicity) -> None:
    out.print(found.game.title(), markup=False)
    rows: list[tuple[str, str]] = [("status", found.sentence())]
    if found.period is not None and found.preperiod is not None:
        rows.append(("period", str(found.period)))
        rows.append(
            ("preperiod", f"{found.preperiod} (the period holds from heap {found.preperiod})")
        )
        rows.append(("periodic values", _listing([str(v) for v in found.periodic_values()])))
        exceptions = found.exceptions()
        rows.append(("exceptions", _listing([f"{n}:{v}" for n, v in exceptions])))
    rows.append(("heaps computed", f"0..{found.checked:,} ({found.method} method)"))
    rows.append(("largest value", str(int(found.values.max(initial=0)))))
    print_rows(rows)


def _print_misere(report: Misere) -> None:
    out.print(f"{report.game.title()}, misère play", markup=False)
    if report.wild is None:
        tame = f"every heap 0..{report.last:,}"
    else:
        tame = (
            f"heaps 0..{report.wild - 1:,}; heap {report.wild} is wild (genus "
            f"{report.genus(report.wild)}): sums with it do not follow nim's rules, so the "
            "values stop there"
        )
    values = report.misere_values()
    losing = [str(n) for n, v in enumerate(values) if v == 0]
    rows: list[tuple[str, str]] = [
        ("tame", tame),
        ("misère values", _listing([str(v) for v in values])),
        ("lost for the mover", _listing(losing)),
        ("genera", _listing([f"{n}:{report.genus(n)}" for n in range(report.last + 1)])),
    ]
    print_rows(rows)
