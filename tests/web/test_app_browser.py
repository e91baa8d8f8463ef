"""The explorer's page in a real headless Chromium (Debian's, driven by Playwright).

A whole game of tic-tac-toe played by clicks, each cell's colour checked against the solver
before every move; the chart's points against the history; a shared URL reloaded; undo and
redo; perfect play answering for one side; a phone-sized screenshot; and the time from a
click to the page updated on Connect Four 6x4 from a tablebase, printed.
"""

from __future__ import annotations

import random
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import serving, serving_home

from perfectplay import build_tablebase, open_tablebase, solve
from perfectplay.games import ConnectFour, TicTacToe
from perfectplay.rules import Rules
from perfectplay.values import Value

# Without Playwright or a browser these tests skip; CI allows no skip (tests/conftest.py).
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no browser: install Debian's chromium (apt-get install chromium) for these tests",
)
KIND = {"win": "win", "loss": "loss", "tie": "tie", "draw": "draw"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def colour_of(element: Any) -> str | None:
    classes = (element.get_attribute("class") or "").split()
    found = [c for c in classes if c in KIND]
    return found[0] if found else None


def wait_plies(page: Any, plies: int) -> None:
    page.wait_for_function(f"document.body.dataset.plies === '{plies}'")


def test_a_game_of_tictactoe_by_clicks(browser: Any, tmp_path: Path) -> None:
    game = TicTacToe()
    rules = Rules(game)
    solution = solve(game)
    rng = random.Random(11)
    with serving(rules, solution) as base:
        page = browser.new_page()
        page.goto(base + "/")
        wait_plies(page, 0)
        state, played = game.initial(), []
        while game.outcome(state) is None and game.moves(state):
            expected = {
                rules.format_move(mv.move): str(mv.value) for mv in solution.move_values(state)
            }
            cells = page.locator("#board [data-move]")
            shown = {
                cells.nth(i).get_attribute("data-move"): colour_of(cells.nth(i))
                for i in range(cells.count())
            }
            assert shown == expected, played
            value = str(solution.value(state))
            assert value in page.locator("#value").inner_text()
            move = rng.choice(sorted(expected))
            page.locator(f'#board [data-move="{move}"]').click()
            played.append(move)
            state = game.play(state, rules.parse_move(state, move))
            wait_plies(page, len(played))
        page.screenshot(path=str(tmp_path / "tictactoe-over.png"))
        assert page.locator("#board [data-move]").count() == 0  # the game is over
        check_chart(page, solution, rules, played)
        # the URL is the position: reloaded, and opened anew, it shows the same game
        assert "moves=" + "%2C".join(played) in page.url or "moves=" + ",".join(played) in page.url
        shared = page.url
        page.reload()
        wait_plies(page, len(played))
        check_chart(page, solution, rules, played)
        other = browser.new_page()
        other.goto(shared)
        wait_plies(other, len(played))
        assert other.locator("#board").inner_html() == page.locator("#board").inner_html()
        # undo twice, redo once
        page.click("#undo")
        wait_plies(page, len(played) - 1)
        page.click("#undo")
        wait_plies(page, len(played) - 2)
        page.click("#redo")
        wait_plies(page, len(played) - 1)
        check_chart(page, solution, rules, played[:-1])
        page.click("#restart")
        wait_plies(page, 0)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(tmp_path / "phone-390x844.png"), full_page=True)
        assert (tmp_path / "phone-390x844.png").stat().st_size > 0
        board = page.locator("#board svg").bounding_box()
        assert board is not None and board["x"] + board["width"] <= 390  # fits the phone


def check_chart(page: Any, solution: Any, rules: Rules[Any, Any], played: list[str]) -> None:
    """One point per position, coloured by the value for the player who moved first."""
    state, flipped, expected = solution.initial, False, []
    for ply in range(len(played) + 1):
        value = solution.value(state)
        expected.append(str(value.flipped() if flipped and isinstance(value, Value) else value))
        if ply < len(played):
            child = rules.play(state, rules.parse_move(state, played[ply]))
            flipped ^= rules.mover_changes(state, child)
            state = child
    points = page.locator("#chart circle.point")
    assert [points.nth(i).get_attribute("data-value") for i in range(points.count())] == expected
    assert [colour_of(points.nth(i)) for i in range(points.count())] == expected


def test_perfect_play_answers_for_the_second_player(browser: Any) -> None:
    game = TicTacToe()
    rules = Rules(game)
    solution = solve(game)
    with serving(rules, solution) as base:
        page = browser.new_page()
        page.goto(base + "/?moves=1")  # a corner opening: O must answer in the centre
        wait_plies(page, 1)
        page.select_option("#computer", "second")
        wait_plies(page, 2)
        state = rules.play(game.initial(), rules.parse_move(game.initial(), "1"))
        best = {rules.format_move(m) for m in solution.best_moves(state)}
        assert page.url.split("moves=")[1].replace("%2C", ",").split(",")[1] in best


def test_the_home_page_opens_a_game_with_the_parameters_typed_in_it(browser: Any) -> None:
    from perfectplay.games import BUILTINS, Nim

    with serving_home() as base:
        page = browser.new_page()
        page.goto(base + "/")
        page.wait_for_function("document.body.dataset.ready === 'yes'")
        cards = page.locator("article.game")
        assert sorted(cards.nth(i).get_attribute("data-game") for i in range(cards.count())) == (
            sorted(BUILTINS)
        )
        nim = page.locator('article.game[data-game="nim"]')
        assert nim.locator('input[name="piles"]').input_value() == "3,4,5"  # the default
        nim.locator('input[name="piles"]').fill("oops")
        nim.locator("button").click()
        page.wait_for_function("document.querySelector('article[data-game=nim] .error')"
                               ".textContent.includes('piles')")  # fmt: skip
        nim.locator('input[name="piles"]').fill("2,5")
        nim.locator("button").click()
        page.wait_for_url("**/g/*/")
        wait_plies(page, 0)
        solution = solve(Nim((2, 5)))
        buttons = page.locator("#moves button")
        assert buttons.count() == len(solution.move_values(solution.initial)) == 7
        assert str(solution.value()) in page.locator("#value").inner_text()
        assert page.locator("#home").is_visible()
        page.locator('#board [data-move="2:3"]').click()  # take 3 of pile 2: 2 and 2 left
        wait_plies(page, 1)
        assert "loss" in page.locator("#value").inner_text()  # equal piles lose
        page.locator("#home").click()
        page.wait_for_function("document.body.dataset.ready === 'yes'")
        assert page.locator("article.game").count() == len(BUILTINS)


def test_blind_play_hides_every_value_and_the_chart_is_labelled(browser: Any) -> None:
    game = TicTacToe()
    rules = Rules(game)
    solution = solve(game)
    with serving(rules, solution) as base:
        page = browser.new_page()
        page.goto(base + "/?moves=5,1")
        wait_plies(page, 2)
        assert "last move: 1" in page.locator("#notes").inner_text()
        chart = page.locator("#chart svg")
        labels = chart.locator("text").evaluate_all("nodes => nodes.map(n => n.textContent)")
        assert "ply (move played)" in labels and "tie/draw" in labels
        assert {"0", "1", "2"} <= set(labels) and {"5", "1"} <= set(labels)  # plies, moves
        assert any(text.startswith("first player's value") for text in labels)
        words = ("win", "loss", "tie", "draw")
        page.check("#blind")
        buttons = page.locator("#moves button")
        shown = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        assert sorted(shown) == sorted(rules.format_move(m) for m in game.moves(
            rules.play(rules.play(game.initial(), 4), 0)))  # fmt: skip
        assert not any(word in page.locator("#summary").inner_text() for word in words)
        assert not page.locator("#chart").is_visible()
        cell = page.locator('#board rect[data-move="9"]')
        assert cell.evaluate("e => getComputedStyle(e).fill") == "rgb(236, 239, 241)"
        page.locator('#board [data-move="9"]').click()  # still playable blind
        wait_plies(page, 3)
        assert not any(word in page.locator("#moves").inner_text() for word in words)
        page.uncheck("#blind")
        assert any(word in page.locator("#summary").inner_text() for word in words)
        assert page.locator("#chart").is_visible()


@pytest.fixture(scope="module")
def c4_6x4(tmp_path_factory: Any) -> Path:
    where = tmp_path_factory.mktemp("c4") / "c4-6x4"
    build_tablebase(ConnectFour(6, 4), where)
    return where


def test_a_move_from_a_6x4_tablebase_updates_the_page_quickly(browser: Any, c4_6x4: Path) -> None:
    game = ConnectFour(6, 4)
    rules = Rules(game)
    with open_tablebase(c4_6x4, game) as base, serving(rules, base) as address:
        page = browser.new_page()
        page.goto(address + "/")
        wait_plies(page, 0)
        rng = random.Random(5)
        times = []
        for ply in range(1, 13):
            moves = page.locator("#board [data-move]")
            if moves.count() == 0:
                break
            moves.nth(rng.randrange(moves.count())).click()
            wait_plies(page, ply)
            times.append(page.evaluate("window.lastMoveMs"))
            # the colours shown are the tablebase's
            state = game.initial()
            for text in page.url.split("moves=")[1].replace("%2C", ",").split(","):
                state = rules.play(state, rules.parse_move(state, text))
            expected = {rules.format_move(mv.move): str(mv.value) for mv in base.move_values(state)}
            cells = page.locator("#board [data-move]")
            assert {
                cells.nth(i).get_attribute("data-move"): colour_of(cells.nth(i))
                for i in range(cells.count())
            } == expected
    print(
        f"\nConnect Four 6x4 from a tablebase: a move answered (click to page updated) in "
        f"{statistics.mean(times):.1f} ms on average, {max(times):.1f} ms at most "
        f"({len(times)} moves; target: under 100 ms)"
    )
    assert times and all(t > 0 for t in times)
