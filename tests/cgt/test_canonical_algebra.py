"""The arithmetic of canonical forms against the definitions, written out here plainly.

Games are drawn as raw trees of options (not reduced). A plain recursive comparison of
raw trees straight from the definition, and an exhaustive search of who wins a sum, are
the independent references; perfectplay's reduced, hash-consed forms must agree.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.cgt import (
    DOWN,
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    compare,
    game,
    miny,
    nimber,
    number,
    parse,
    render,
    tiny,
    up_multiple,
    value,
)
from perfectplay.cgt.canonical import simplest_between

Raw = tuple[tuple["Raw", ...], tuple["Raw", ...]]
"""A game as (Left's options, Right's options), unreduced."""

raw_games: st.SearchStrategy[Raw] = st.recursive(
    st.just(((), ())),
    lambda inner: st.tuples(
        st.lists(inner, max_size=3).map(tuple), st.lists(inner, max_size=3).map(tuple)
    ),
    max_leaves=12,
)


def build(raw: Raw) -> CanonicalGame:
    """The canonical form of a raw tree."""
    left, right = raw
    return game([build(o) for o in left], [build(o) for o in right])


@functools.cache
def raw_leq(g: Raw, h: Raw) -> bool:
    """g <= h by the definition: no g^L >= h and no h^R <= g."""
    return not any(raw_leq(h, gl) for gl in g[0]) and not any(raw_leq(hr, g) for hr in h[1])


def raw_neg(g: Raw) -> Raw:
    return (tuple(raw_neg(o) for o in g[1]), tuple(raw_neg(o) for o in g[0]))


def raw_sum(games: tuple[Raw, ...]) -> tuple[tuple[Raw, ...], ...]:
    """Not built: sums are played out by ``wins`` instead."""
    return games


@functools.cache
def wins(games: tuple[Raw, ...], left_to_move: bool) -> bool:
    """Whether the player to move wins the sum, by exhaustive search."""
    side = 0 if left_to_move else 1
    for i, g in enumerate(games):
        for option in g[side]:
            after = (*games[:i], option, *games[i + 1 :])
            if not wins(after, not left_to_move):
                return True
    return False


def outcome_by_search(games: tuple[Raw, ...]) -> str:
    left_first = wins(games, True)
    right_first = wins(games, False)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left_first, right_first)
    ]


@settings(max_examples=300, deadline=None)
@given(raw_games, raw_games)
def test_comparison_agrees_with_the_definition(g: Raw, h: Raw) -> None:
    a, b = build(g), build(h)
    assert (a <= b) == raw_leq(g, h)
    assert (a >= b) == raw_leq(h, g)
    assert (a == b) == (raw_leq(g, h) and raw_leq(h, g))


@settings(max_examples=300, deadline=None)
@given(raw_games)
def test_canonical_form_equals_the_raw_game(g: Raw) -> None:
    # The reduced form has the same value as the tree it came from (both ways <=), and
    # each of its options is itself the canonical form of something in the tree.
    a = build(g)
    assert raw_leq(g, to_raw(a)) and raw_leq(to_raw(a), g)


def to_raw(g: CanonicalGame) -> Raw:
    return (tuple(to_raw(o) for o in g.left), tuple(to_raw(o) for o in g.right))


@settings(max_examples=300, deadline=None)
@given(raw_games)
def test_g_minus_g_is_zero(g: Raw) -> None:
    a = build(g)
    assert a + (-a) is ZERO
    assert a - a is ZERO
    assert build(raw_neg(g)) is -a


@settings(max_examples=300, deadline=None)
@given(raw_games)
def test_parse_reads_back_what_render_writes(g: Raw) -> None:
    a = build(g)
    assert parse(render(a)) is a


@settings(max_examples=200, deadline=None)
@given(st.lists(raw_games, min_size=1, max_size=3))
def test_outcome_of_a_sum_agrees_with_exhaustive_search(games: list[Raw]) -> None:
    total = ZERO
    for g in games:
        total = total + build(g)
    assert total.outcome == outcome_by_search(tuple(games))


@settings(max_examples=200, deadline=None)
@given(raw_games, raw_games, raw_games)
def test_addition_is_commutative_and_associative(g: Raw, h: Raw, k: Raw) -> None:
    a, b, c = build(g), build(h), build(k)
    assert a + b is b + a
    assert (a + b) + c is a + (b + c)
    assert (a <= b) == ((b - a) >= 0)


def test_known_values() -> None:
    assert parse("{|}") is ZERO
    assert parse("{0|}") is number(1)
    assert parse("{0|1}") is number(Fraction(1, 2))
    assert parse("{0|0}") is STAR
    assert parse("{0|*}") is UP
    assert parse("{*|0}") is DOWN
    assert UP + STAR is parse("{0,*|0}")
    assert UP + UP is parse("{0|^*}")
    assert UP + UP + STAR is parse("{0|^}")
    assert nimber(2) + nimber(3) is STAR
    assert number(Fraction(1, 2)) + number(Fraction(1, 2)) is number(1)
    assert parse("{1|-1}") + parse("{1|-1}") is ZERO
    assert tiny(2) is parse("{0||0|-2}") and miny(2) is -tiny(2)
    assert tiny(2) > 0 and tiny(2) < UP
    assert compare(UP, STAR) == "||" and compare(UP + UP, STAR) == ">"
    assert compare(parse("+-1"), ZERO) == "||"
    assert STAR.confused_with(0) and not UP.confused_with(0)
    assert parse("{1|-1}").outcome == "N" and UP.outcome == "L" and ZERO.outcome == "P"
    assert DOWN.outcome == "R"
    assert number(3).birthday == 3 and number(Fraction(3, 4)).birthday == 3
    assert STAR.birthday == 1 and UP.birthday == 2 and nimber(5).birthday == 5
    total = ZERO
    for n in range(1, 12):
        total = total + UP
        assert up_multiple(n) is total and up_multiple(-n) is -total


def test_rendering_uses_the_usual_notation() -> None:
    cases = {
        "0": ZERO,
        "*": STAR,
        "*2": nimber(2),
        "1/2": number(Fraction(1, 2)),
        "-3/4": number(Fraction(-3, 4)),
        "^": UP,
        "^*": UP + STAR,
        "v": DOWN,
        "v*": DOWN + STAR,
        "^^": UP + UP,
        "v3*2": up_multiple(-3) + nimber(2),
        "1*": number(1) + STAR,
        "-1/2^": number(Fraction(-1, 2)) + UP,
        "+-1": game([1], [-1]),
        "{2|-1/2}": game([2], [Fraction(-1, 2)]),
        "Tiny(2)": tiny(2),
        "Miny(1/2)": miny(Fraction(1, 2)),
    }
    for text, expected in cases.items():
        assert render(expected) == text
        assert parse(text) is expected


def test_expressions() -> None:
    assert parse("{1|-1} + ^ + *") is game([1], [-1]) + UP + STAR
    assert parse("1 - 1/2") is number(Fraction(1, 2))
    assert parse("-(1 + ^)") is number(-1) + DOWN
    assert parse("-1^") is number(-1) + UP  # the sign belongs to the number
    assert parse("+-{*,^}") is game([STAR, UP], [STAR, DOWN])
    assert parse("{0||0|-1}") is game([0], [game([0], [-1])])
    assert parse("{1|0||-1}") is game([game([1], [0])], [-1])
    assert parse("↑ + ↓") is ZERO and parse("±1") is game([1], [-1])
    assert parse("3/4 + 1/4") is number(1)
    assert parse("0.5") is number(Fraction(1, 2))


def test_simplest_numbers() -> None:
    f = Fraction
    assert simplest_between(None, None) == 0
    assert simplest_between(f(1), None) == 2
    assert simplest_between(None, f(-1, 2)) == -1
    assert simplest_between(f(1, 4), f(1, 2)) == f(3, 8)
    assert simplest_between(f(-5, 2), f(3)) == 0
    assert simplest_between(f(1), f(3)) == 2
    assert simplest_between(f(1), f(2)) == f(3, 2)


class Ladder:
    """A user game as deep as n: Left moves n to n - 1, and so does Right when n is odd
    (the values alternate * and 0)."""

    def left_moves(self, n: int) -> list[int]:
        return [n - 1] if n > 0 else []

    def right_moves(self, n: int) -> list[int]:
        return [n - 1] if n % 2 else []

    def play(self, n: int, move: int) -> int:
        return move


def test_deep_games_need_no_recursion() -> None:
    # Past Python's recursion limit: building, comparing, adding, negating, rendering,
    # parsing and valuing a user's game, all with explicit stacks.
    depth = 1500
    chain = ZERO
    for _ in range(depth):
        chain = game([0], [chain])  # {0 | {0 | ...}}: ups and stars
    assert parse("{0|" * depth + "0" + "}" * depth) is chain
    text = render(chain)
    assert parse(text) is chain
    assert chain > 0 and -chain < 0 and (-chain).confused_with(STAR) is False
    one = number(1)
    assert chain + one - one is chain
    assert number(10**9).birthday == 10**9  # numbers build their options lazily
    assert number(10**9) > number(10**9 - 1)
    assert value(Ladder(), 5001) is STAR and value(Ladder(), 5000) is ZERO


def sum_outcome_by_search(board: Any, states: tuple[Any, ...]) -> str:
    """Who wins a sum of positions of a built-in game, searching every line of play."""

    @functools.cache
    def to_move_wins(states: tuple[Any, ...], left: bool) -> bool:
        for i, state in enumerate(states):
            moves = board.left_moves(state) if left else board.right_moves(state)
            for move in moves:
                after = (*states[:i], board.play(state, move), *states[i + 1 :])
                if not to_move_wins(after, not left):
                    return True
        return False

    first = (to_move_wins(states, True), to_move_wins(states, False))
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[first]


def test_outcomes_of_sums_of_built_in_positions_agree_with_search() -> None:
    import random

    from perfectplay.cgt import Clobber, Domineering, Solver, ToadsAndFrogs

    rnd = random.Random(11)
    board = Domineering(4, 4)
    toads, clobber = ToadsAndFrogs(), Clobber()
    cases: list[tuple[Any, tuple[Any, ...]]] = []
    for _ in range(40):
        regions = tuple(
            board.parse_position(
                "/".join("".join(rnd.choice("..#") for _ in range(3)) for _ in range(2))
            )
            for _ in range(2)
        )
        cases.append((board, regions))
        cases.append(
            (toads, tuple("".join(rnd.choice("TF..") for _ in range(4)) for _ in range(2)))
        )
        cases.append(
            (clobber, tuple("".join(rnd.choice("xo") for _ in range(4)) for _ in range(2)))
        )
    for game_, states in cases:
        solver = Solver(game_)
        total = ZERO
        for state in states:
            total = total + solver.value(state)
        assert total.outcome == sum_outcome_by_search(game_, states), states
