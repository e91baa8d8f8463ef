"""perfectplay contest: a judge problem's exact output for its input."""

from __future__ import annotations

import sys

import click

from ..errors import UsageProblem


@click.command("contest")
@click.argument("name", required=False)
@click.option("--list", "list_problems", is_flag=True, help="Name the judge problems.")
def contest_command(name: str | None, list_problems: bool) -> None:
    """Answer a judge problem: its input on stdin, exactly the judge's output on stdout.

    Example: perfectplay contest edpc_k < input.txt
    """
    from ..contest import problems

    known = problems()
    if list_problems:
        from .common import out  # rich and the solving helpers: not on a judge's path

        for entry in known.values():
            out.print(f"{entry.name:<10} {entry.title}  (game: {entry.game})")
        return
    if name is None:
        raise UsageProblem(f"name a problem: {', '.join(known)} (or --list)")
    problem = known.get(name)
    if problem is None:
        raise UsageProblem(f"unknown problem {name!r}; problems: {', '.join(known)}")
    text = sys.stdin.read()
    result = problem.answer(text)
    sys.stdout.write(result)
