"""perfectplay cgt as a user runs it, and partizan games written by a user."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from perfectplay.cgt import (
    STAR,
    UP,
    ZERO,
    Domineering,
    Solver,
    ToadsAndFrogs,
    game,
    parse,
    svg,
    thermograph,
    value,
)
from perfectplay.cli import app, main
from perfectplay.cli.cgt_command import cgt_command
from perfectplay.errors import CycleError, GameError, StateBudgetExceeded

if "cgt" not in app.commands:  # until the command is registered with the others
    app.add_command(cgt_command)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `perfectplay cgt ARGS`."""
    status = 0
    try:
        main(["cgt", *args])
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def rows(stdout: str) -> dict[str, str]:
    table = {}
    for line in stdout.splitlines():
        key, _, rest = line.strip().partition("  ")
        table[key] = rest.strip()
    return table


def test_expression(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--expr", "{1|-1} + ^ + *")
    assert status == 0 and err == ""
    table = rows(out)
    assert parse(table["value"]) is game([1], [-1]) + UP + STAR
    assert table["outcome"].startswith("N")
    assert table["mean"] == "0" and table["temperature"] == "1"


def test_domineering_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "domineering", "-p", "width=3", "-p", "height=2")
    assert status == 0
    table = rows(out)
    assert table["value"] == "{2|-1/2}"
    assert table["mean"] == "3/4" and table["temperature"] == "5/4"
    assert table["outcome"].startswith("N")
    status, out, _ = run(capsys, "domineering", "-p", "width=3", "-p", "height=2", "--json")
    data = json.loads(out)
    assert data["value"] == "{2|-1/2}" and data["outcome"] == "N"
    assert rebuild(data["canonical"]) is parse("{2|-1/2}")


def rebuild(node: dict[str, Any]) -> Any:
    """A value from the nested JSON options, as another tool would."""
    return game([rebuild(o) for o in node["left"]], [rebuild(o) for o in node["right"]])


def test_positions_and_thermograph(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "toads", "--position", "TT..FF")
    assert status == 0 and rows(out)["value"] == "*"
    path = tmp_path / "t.svg"
    status, out, _ = run(capsys, "domineering", "--position", "..#/...", "--thermograph", str(path))
    assert status == 0 and rows(out)["value"] == "+-1"
    text = path.read_text()
    assert text.startswith("<svg") and "mean 0, temperature 1" in text
    status, out, _ = run(capsys, "clobber", "--position", "xo", "--json")
    assert json.loads(out)["value"] == "*"


def test_deep_values_come_as_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--expr", "1000", "--json")
    data = json.loads(out)
    assert status == 0 and data["canonical"] is None
    table = data["canonical_table"]
    assert len(table["nodes"]) == 1001 and table["nodes"][table["root"]]["left"] == [999]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give a GAME"),
        (("domineering", "--expr", "1"), "not both"),
        (("nim",), "unknown partizan game 'nim'"),
        (("--expr", "{1|"), "unclosed '{'"),
        (("--expr", "1/3"), "not a dyadic rational"),
        (("--expr", "{1|2|3}"), "ambiguous bars"),
        (("toads", "--position", "TQ"), "not 'Q'"),
        (("domineering", "-p", "depth=3"), "unknown parameter"),
        (("domineering", "--position", "../."), "row 2 has 1 cells"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith("perfectplay: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


class Cutcake:
    """Cutcake on a w x h cake: Left cuts vertically, Right horizontally (moves then play)."""

    def left_moves(self, cake: tuple[int, int]) -> list[int]:
        return list(range(1, cake[0]))

    def right_moves(self, cake: tuple[int, int]) -> list[int]:
        return [-k for k in range(1, cake[1])]

    def play(self, cake: tuple[int, int], move: int) -> tuple[tuple[int, int], ...]:
        w, h = cake
        if move > 0:
            return ((move, h), (w - move, h))
        return ((w, -move), (w, h + move))


class CutcakeSum:
    """The same game on sums of cakes, with components (so values add up)."""

    def left_moves(self, cakes: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
        return [(i, k) for i, (w, _) in enumerate(cakes) for k in range(1, w)]

    def right_moves(self, cakes: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
        return [(i, -k) for i, (_, h) in enumerate(cakes) for k in range(1, h)]

    def play(
        self, cakes: tuple[tuple[int, int], ...], move: tuple[int, int]
    ) -> tuple[tuple[int, int], ...]:
        i, k = move
        w, h = cakes[i]
        pieces = ((k, h), (w - k, h)) if k > 0 else ((w, -k), (w, h + k))
        return (*cakes[:i], *pieces, *cakes[i + 1 :])

    def components(self, cakes: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
        return [(cake,) for cake in cakes if cake != (1, 1)]

    def key(self, cakes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(cakes))

    def swap(self, cakes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        return tuple((h, w) for w, h in cakes)


def test_a_users_game_with_and_without_components() -> None:
    # Cutcake values are integers (Winning Ways): a 2 x 1 cake is 1, 1 x 2 is -1.
    solver = Solver(CutcakeSum())
    assert solver.value(((2, 1),)) is value(CutcakeSum(), ((2, 1),)) is parse("1")
    assert solver.value(((1, 2),)) is parse("-1")
    assert solver.value(((2, 2),)) is ZERO
    for w in range(1, 7):
        for h in range(1, 7):
            assert solver.value(((w, h),)).is_number


def test_hooks_are_checked() -> None:
    with pytest.raises(GameError, match="lacks left_moves, right_moves, play"):
        Solver(object())
    with pytest.raises(GameError, match="has no initial"):
        value(Cutcake())


class NamedCutcake(CutcakeSum):
    """Cutcake whose players have names, as a user's partizan game may give them."""

    name = "cutcake"
    players = ("Vertical", "Horizontal")

    def initial(self) -> tuple[tuple[int, int], ...]:
        return ((2, 1), (1, 3))


def test_one_adapter_reads_the_partizan_hooks_of_the_table() -> None:
    from perfectplay.cgt import PartizanRules
    from perfectplay.protocol import PARTIZAN_HOOKS

    plain = PartizanRules.of(Cutcake())
    assert (plain.name, plain.players, plain.components, plain.initial) == (
        "Cutcake", ("Left", "Right"), None, None)  # fmt: skip
    named = PartizanRules.of(NamedCutcake())
    assert (named.name, named.players) == ("cutcake", ("Vertical", "Horizontal"))
    assert named.components is not None and named.key is not None and named.swap is not None
    read = {f.name for f in dataclasses.fields(PartizanRules)} - {"game"}
    assert read == {h.name for h in PARTIZAN_HOOKS} - {"aliases"}  # aliases: the CLI's list
    bad = NamedCutcake()
    bad.players = ("one",)  # type: ignore[assignment]
    with pytest.raises(GameError, match="names 1 players, not 2"):
        PartizanRules.of(bad)


def test_a_partizan_report_names_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    from perfectplay.cli.cgt_command import partizan_report
    from perfectplay.rules import Rules

    class Wrapped:  # a game whose partizan hook hands over NamedCutcake
        def initial(self) -> int:
            return 0

        def moves(self, state: int) -> list[int]:
            return []

        def play(self, state: int, move: int) -> int:
            return state

        def outcome(self, state: int) -> None:
            return None

        def partizan(self, state: int) -> tuple[Any, Any, bool]:
            return NamedCutcake(), NamedCutcake().initial(), True

    report = partizan_report(Rules(Wrapped()), 0)
    # 2 x 1 is 1 and 1 x 3 is -2 (Winning Ways): -1, Horizontal (Right) wins
    assert (report["sum"], report["winner"]) == ("-1", "Horizontal (Right)")
    assert report["to_move"] == "Vertical (Left)"


class Loop:
    def left_moves(self, n: int) -> list[int]:
        return [1 - n]

    def right_moves(self, n: int) -> list[int]:
        return []

    def play(self, n: int, move: int) -> int:
        return move


def test_loopy_games_and_budgets_are_refused() -> None:
    with pytest.raises(CycleError, match="reached from itself"):
        value(Loop(), 0)
    with pytest.raises(StateBudgetExceeded):
        Solver(Domineering(4, 4), max_positions=10).value(Domineering(4, 4).initial())


def test_builtins_use_their_symmetries() -> None:
    board = Domineering(5, 5)
    region = board.parse_position("..#/.../...")
    assert value(board, board.swap(region)) is -value(board, region)
    toads = ToadsAndFrogs()
    assert value(toads, toads.swap("TT.F.")) is -value(toads, "TT.F.")
    assert toads.components("FT.FTTFFT.F") == ["T.F", "T.F"]  # TTFF walls the two off


def test_svg_is_drawn_for_numbers_and_hot_games() -> None:
    for g in (ZERO, parse("1/2"), parse("{2|-1/2}"), parse("+-{*,^}"), UP):
        text = svg(g, title="a <b>")
        assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
        assert "a &lt;b&gt;" in text
    th = thermograph(parse("{2|-1/2}"))
    assert th.left_wall(th.temperature) == th.mean == th.right_wall(th.temperature)
