"""Octal games: Grundy values against a mex written here from the rules, the sparse-space
method against the plain one, periods against published tables and a brute-force scan,
misère values against exhaustive search of heap sums, and the ``octal`` command.

The reference code below reads a code and enumerates moves on its own (a heap, the tokens
taken, the heaps left), sharing nothing with ``perfectplay.cgt.octal`` but the rules.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable

import numpy as np
import pytest
from click.testing import CliRunner

from perfectplay.cgt.octal import (
    GrundyRun,
    analyze,
    extend,
    find_octal_period,
    grundy_game,
    grundy_game_values,
    grundy_values,
    misere,
    octal_plain,
    octal_sparse,
    parse_code,
    period_scan,
)
from perfectplay.cli.octal_command import octal_command
from perfectplay.errors import UsageProblem

Heaps = tuple[int, ...]

# ----------------------------------------------------------------------------- reference


def reference_moves(code: str, unequal: bool = False) -> Callable[[int], list[Heaps]]:
    """The heaps a heap of n may become, read from the code's digits by their definition."""
    before, after = code.split(".")
    digits = [int(before or "0", 16)] + [int(c, 16) for c in after]

    def moves(n: int) -> list[Heaps]:
        found: list[Heaps] = []
        for taken, digit in enumerate(digits):
            left = n - taken
            if left < 0:
                continue
            if taken > 0 and digit & 1 and left == 0:
                found.append(())
            if taken > 0 and digit & 2 and left >= 1:
                found.append((left,))
            if digit & 4:
                found.extend(
                    (a, left - a)
                    for a in range(1, left)
                    if a <= left - a and not (unequal and a == left - a)
                )
            if digit & 8:
                for a in range(1, left):
                    for b in range(a, left):
                        if left - a - b >= b:
                            found.append((a, b, left - a - b))
        return found

    return moves


def reference_grundy(code: str, last: int, unequal: bool = False) -> list[int]:
    """Grundy values of heaps 0..last by the mex of the xor of every option's heaps."""
    moves = reference_moves(code, unequal)
    values: list[int] = []
    for n in range(last + 1):
        options = set()
        for heaps in moves(n):
            x = 0
            for h in heaps:
                x ^= values[h]
            options.add(x)
        g = 0
        while g in options:
            g += 1
        values.append(g)
    return values


def random_code(rng: random.Random, hexadecimal: bool = False) -> str:
    top = 15 if hexadecimal else 7
    digits = [rng.randint(0, top) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.5:
        digits[rng.randrange(len(digits))] |= 4  # most interesting games split
    head = rng.choice(["0", "0", "0", "4", ""] + (["8", "c"] if hexadecimal else []))
    return head + "." + "".join(f"{d:x}" for d in digits)


# ----------------------------------------------------------------------------- values


def test_well_known_sequences_match_published_values() -> None:
    # OEIS A002186 (Kayles), A002187 (Dawson's chess), A002188 (Grundy's game)
    kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8]
    chess = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1]
    grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3]
    assert list(grundy_values("0.77", len(kayles) - 1)) == kayles
    assert list(grundy_values("0.137", len(chess) - 1)) == chess
    assert list(grundy_game_values(len(grundy) - 1)) == grundy
    assert grundy_game_values(41)[41] == 5  # where "period 3 from 31" breaks


def test_plain_and_sparse_equal_the_reference_mex_on_random_codes() -> None:
    rng = random.Random(19)
    for trial in range(120):
        code = random_code(rng, hexadecimal=trial % 4 == 0)
        last = rng.randint(0, 45)
        expected = reference_grundy(code, last)
        game = parse_code(code)
        assert list(grundy_values(game, last, "plain")) == expected, code
        assert list(grundy_values(game, last, "auto")) == expected, code
        if game.takes(4).size and not game.takes(8).size:
            assert list(grundy_values(game, last, "sparse")) == expected, code


def test_grundys_game_equals_the_reference() -> None:
    expected = reference_grundy("4.0", 120, unequal=True)
    assert list(grundy_game_values(120, "plain")) == expected
    assert list(grundy_game_values(120, "sparse")) == expected


def test_sparse_equals_plain_on_long_runs() -> None:
    for code in ("0.16", "0.6", "0.106", "0.36", "0.77", "4.07", "0.156", "0.0000004"):
        plain = grundy_values(code, 4000, "plain")
        assert np.array_equal(grundy_values(code, 4000, "sparse"), plain), code
        assert np.array_equal(grundy_values(code, 4000, "auto"), plain), code
    plain = grundy_game_values(4000, "plain")
    assert np.array_equal(grundy_game_values(4000, "sparse"), plain)


def test_sparse_is_exact_for_any_mask() -> None:
    """The mask decides only the speed: random masks, parities and classes agree too."""
    rng = random.Random(5)
    for _ in range(40):
        code = random_code(rng)
        game = parse_code(code)
        if not game.takes(4).size:
            continue
        last = rng.randint(20, 400)
        plain = grundy_values(game, last, "plain")
        start = rng.randint(1, 10)
        values = np.zeros(last + 1, dtype=np.int64)
        values[:start] = plain[:start]
        two = game.takes(4)
        domain = rng.randint(0, 1) if len({int(j) & 1 for j in two}) == 1 else 0
        mask = rng.choice([rng.randint(1, 63), ~rng.randint(0, 63)])
        args = (values, start, game.takes(1), game.takes(2), two, False, mask)
        octal_sparse(*args, domain, rng.randint(0, 1))
        assert np.array_equal(values, plain), (code, mask, domain)


def test_kernels_compiled_equal_interpreted() -> None:
    rng = random.Random(3)
    for _ in range(8):
        game = parse_code(random_code(rng, hexadecimal=True))
        args = [game.takes(1), game.takes(2), game.takes(4), game.takes(8), game.unequal]
        a = np.zeros(150, dtype=np.int64)
        b = np.zeros(150, dtype=np.int64)
        octal_plain.interpreted(a, 1, *args)
        octal_plain.compiled(b, 1, *args)
        assert np.array_equal(a, b)
    values = grundy_values("0.77", 400)
    assert np.array_equal(
        period_scan.interpreted(values, 2, 2, 200), period_scan.compiled(values, 2, 2, 200)
    )


def test_extending_a_run_gives_the_same_values() -> None:
    run = GrundyRun(parse_code("0.16"), np.zeros(1, dtype=np.int64))
    for last in (10, 300, 2500, 5000):
        run = extend(run, last)
    assert np.array_equal(run.values, grundy_values("0.16", 5000, "plain"))


# ----------------------------------------------------------------------------- periods


def brute_period(values: list[int], factor: int, take: int) -> tuple[int, int] | None:
    """The first p (ascending) whose least start n0 meets factor*max(n0,1)+factor*p+take."""
    last = len(values) - 1
    for p in range(1, (last + 1) // 2 + 1):
        n0 = 0
        for n in range(last - p, -1, -1):
            if values[n] != values[n + p]:
                n0 = n + 1
                break
        if factor * max(n0, 1) + factor * p + take <= last:
            return p, n0
    return None


def test_kayles_is_proven_with_the_published_period_and_exceptions() -> None:
    found = analyze("0.77")
    assert found.status == "proven"
    assert (found.period, found.preperiod) == (12, 71)
    # OEIS A002186 / Winning Ways: periodic from 71 on; the only exceptions are these.
    published = [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
    assert [n for n, _ in found.exceptions()] == published
    assert found.bound == 2 * 71 + 2 * 12 + 2 <= found.checked


def test_dawsons_games_are_proven_with_the_published_periods() -> None:
    chess = analyze("0.137")
    # OEIS A002187: period 34, the only exceptions at 0, 14, 16, 17, 31, 34 and 51.
    assert (chess.status, chess.period, chess.preperiod) == ("proven", 34, 52)
    assert [n for n, _ in chess.exceptions()] == [0, 14, 16, 17, 31, 34, 51]
    kayles = analyze("0.07")  # Dawson's Kayles: Dawson's chess one heap later
    assert (kayles.status, kayles.period, kayles.preperiod) == ("proven", 34, 53)
    assert list(kayles.values[1:200]) == list(grundy_values("0.137", 198))


def test_a_proof_needs_the_whole_bound() -> None:
    bound = 2 * 71 + 2 * 12 + 2
    short = analyze("0.77", bound - 1)
    assert short.status == "apparent" and short.bound == bound
    assert "not proven" in short.sentence() and "apparent period 12" in short.sentence()
    assert analyze("0.77", bound).status == "proven"


def test_proven_periods_hold_far_beyond_the_bound() -> None:
    rng = random.Random(11)
    proven = 0
    for _ in range(60):
        code = random_code(rng)
        found = analyze(code, 600)
        factor = max(found.game.max_heaps, 1)
        expected = brute_period([int(v) for v in found.values], factor, found.game.max_take)
        if found.status == "proven":
            assert found.period is not None and found.preperiod is not None
            assert (found.period, found.preperiod) == expected, code
            proven += 1
            values = list(grundy_values(code, 4 * found.checked, "plain"))
            n0, p = found.preperiod, found.period
            assert all(values[n] == values[n + p] for n in range(n0, len(values) - p)), code
        else:
            assert expected is None, code
    assert proven >= 20


def test_period_scan_matches_brute_force_on_planted_sequences() -> None:
    rng = random.Random(8)
    game = parse_code("0.77")
    for _ in range(200):
        period = rng.randint(1, 9)
        pre = rng.randint(0, 30)
        cycle = [rng.randint(0, 3) for _ in range(period)]
        head = [rng.randint(0, 3) for _ in range(pre)]
        length = rng.randint(1, 140)
        values = (head + cycle * 100)[:length]
        found = find_octal_period(game, np.array(values, dtype=np.int64))
        expected = brute_period(values, 2, 2)
        got = (found.period, found.preperiod) if found.status == "proven" else None
        assert got == expected, values


def test_grundys_game_is_never_called_proven() -> None:
    found = analyze(grundy_game(), 3000)
    assert found.status != "proven"
    assert "proven:" not in found.sentence()
    short = analyze(grundy_game(), 39)  # the range the report came from
    assert short.status != "proven"


# ----------------------------------------------------------------------------- codes


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("0.77", "0.77"),
        (".77", "0.77"),
        ("0.770", "0.77"),
        ("octal:0.07", "0.07"),
        ("Kayles", "0.77"),
        ("dawsons-chess", "0.137"),
        ("4.07", "4.07"),
        ("0.F", "0.f"),
        ("c.0", "c.0"),
        ("0.0", "0.0"),
    ],
)
def test_codes_read(text: str, code: str) -> None:
    assert parse_code(text).code == code


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("77", "no point"),
        ("0.7g", "'g' at position 4"),
        ("0.7.7", "more than one point"),
        ("12.7", "one digit at most"),
        ("0.", "no digit after the point"),
        ("1.7", "may only split"),
        ("2.07", "may only split"),
        ("0." + "7" * 300, "at most"),
    ],
)
def test_bad_codes_say_why(text: str, words: str) -> None:
    with pytest.raises(UsageProblem, match=words):
        parse_code(text)


def test_game_shape() -> None:
    kayles = parse_code("0.77")
    assert (kayles.max_take, kayles.max_heaps, kayles.name) == (2, 2, "Kayles")
    assert parse_code("0.0000007").max_take == 7
    assert parse_code("0.8").max_heaps == 3
    assert parse_code("0.33").max_heaps == 1


# ----------------------------------------------------------------------------- misère


def misere_search(code: str, unequal: bool = False) -> Callable[[Heaps, int], int]:
    """Misère Grundy value (1 with no move) of heaps plus some nim heaps of 2, exhaustively."""
    moves = reference_moves(code, unequal)

    @functools.cache
    def value(heaps: Heaps, twos: int, ones: int = 0) -> int:
        options = set()
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for after in moves(h):
                options.add(value(tuple(sorted(rest + after)), twos, ones))
        if twos:
            options.add(value(heaps, twos - 1, ones))
            options.add(value(heaps, twos - 1, ones + 1))
        if ones:
            options.add(value(heaps, twos, ones - 1))
        if not options:
            return 1
        g = 0
        while g in options:
            g += 1
        return g

    return value


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.0", "0.15", "0.6", "0.31", "0.34"])
def test_misere_values_and_sums_match_exhaustive_search(code: str) -> None:
    search = misere_search(code)
    report = misere(code, 13)
    for n in range(report.last + 1):  # the wild heap's own values are exact too
        for k in range(3):
            assert search((n,), k) == report.gammas[n, k], (code, n, k)
    top = min(report.tame_to(), 8)
    for size in (2, 3):
        for heaps in itertools.combinations_with_replacement(range(1, top + 1), size):
            x = 0
            firm = False
            for h in heaps:
                x ^= int(report.values[h])
                firm |= bool(report.gammas[h, 0] == report.values[h])
            predicted_loss = x == (0 if firm else 1)
            assert (search(heaps, 0) == 0) == predicted_loss, (code, heaps)


def test_misere_genera_in_conways_notation() -> None:
    kayles = misere("0.77", 50)
    assert [kayles.genus(n) for n in range(3)] == ["0^{120}", "1^{031}", "2^{2}"]
    assert kayles.wild == 5  # Winning Ways: Kayles' heap of 5 has genus 4^{146}
    assert kayles.genus(5) == "4^{146}"


def test_misere_random_codes_single_heaps() -> None:
    rng = random.Random(23)
    for _ in range(25):
        code = random_code(rng)
        report = misere(code, 11)
        search = misere_search(code)
        assert report.misere_values() == [search((n,), 0) for n in range(report.last + 1)], code


# ----------------------------------------------------------------------------- command


def test_octal_command_text_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(octal_command, ["0.77"])
    assert text.exit_code == 0, text.output
    assert "period 12 from heap 71 on, proven" in " ".join(text.output.split())
    assert "70:6" in text.output
    data = json.loads(runner.invoke(octal_command, ["0.07", "--json"]).output)
    assert (data["status"], data["period"], data["preperiod"]) == ("proven", 34, 53)
    assert [n for n, _ in data["exceptions"]][-1] == 52
    none = json.loads(runner.invoke(octal_command, ["grundy", "--n", "500", "--json"]).output)
    assert none["status"] != "proven" and none["checked_to"] == 500
    short = runner.invoke(octal_command, ["kayles", "--n", "160"])
    assert "not proven" in short.output
    mis = json.loads(runner.invoke(octal_command, ["0.77", "--misere", "--json"]).output)
    assert mis["wild_at"] == 5 and mis["misere_values"][:5] == [1, 0, 2, 3, 0]


def test_octal_command_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from perfectplay.cli import app, main

    if "octal" not in app.commands:
        app.add_command(octal_command)
    with pytest.raises(SystemExit) as stopped:
        main(["octal", "0.79x"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("perfectplay: error: octal code") and "\n" not in err
    with pytest.raises(SystemExit):
        main(["octal", "0.77", "--n", "0"])
    assert capsys.readouterr().err.startswith("perfectplay: error:")
