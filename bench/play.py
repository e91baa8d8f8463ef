"""How long perfectplay takes to answer a move in `play` on 7 x 6 Connect Four.

Run: python bench/play.py [--games N] [--seed S] [--book DIR]

Plays games against an opponent that picks a random legal move, perfectplay on each side
in turn, with the book shipped in the package (or ``--book DIR``) and the compiled search
beyond it, as ``play`` does (``SearchAnswers.best_move``). Each of perfectplay's moves is
timed; the first move of the process is measured apart (it compiles the search: about 2.5
seconds, once per process). Prints per ply the moves answered, the mean and the slowest
time, and how many the book held (no search run). Every move is checked as a move of
perfect play, untimed: the child's score must be minus the position's, read from the book
where it holds both, else proven by a null-window search on the same warm table.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from perfectplay import open_tablebase
from perfectplay.book import SearchAnswers, book_score, shipped_book
from perfectplay.games import ConnectFour
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import CompiledSearch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--book", type=Path, default=None, help="default: the shipped book")
    args = parser.parse_args()
    rules = Rules(ConnectFour(7, 6))
    where = args.book or shipped_book(rules)
    assert where is not None
    rng = random.Random(args.seed)
    times: dict[int, list[float]] = defaultdict(list)
    from_book: dict[int, int] = defaultdict(int)
    with open_tablebase(where, rules.game) as book:
        answers = SearchAnswers(rules, book)
        encode = answers.compiled.encode
        started = time.perf_counter()
        answers.search = CompiledSearch(answers.compiled)  # compiled now, timed apart
        answers.search.score(encode(_late_position(rules)))
        compile_seconds = time.perf_counter() - started
        for game in range(2 * args.games):
            perfectplay_first = game % 2 == 0
            state, ply = rules.initial_state(), 0
            while rules.outcome(state) is None and rules.legal_moves(state):
                if (ply % 2 == 0) == perfectplay_first:
                    searched = answers.search.nodes if answers.search else 0
                    began = time.perf_counter()
                    move = answers.best_move(state)
                    times[ply].append(time.perf_counter() - began)
                    after = answers.search.nodes if answers.search else 0
                    from_book[ply] += after == searched
                    score = answers.exact_score(state)
                    child = rules.play(state, move)
                    held = book_score(book, answers.compiled, child)
                    if held is None:
                        assert answers.search is not None  # made by the first answer
                        assert answers.search.at_most(encode(child), -score), (ply, move)
                    else:
                        assert held == -score, (ply, move)
                else:
                    move = rng.choice(rules.legal_moves(state))
                state = rules.play(state, move)
                ply += 1
    print(f"7x6 Connect Four, {args.games} games on each side against random moves, book {where}")
    print(f"compiling the search, once per process (apart): {compile_seconds:.2f} s")
    print(f"{'ply':>4} {'moves':>6} {'from book':>10} {'mean':>9} {'slowest':>9}")
    for ply in sorted(times):
        spent = times[ply]
        print(f"{ply:>4} {len(spent):>6} {from_book[ply]:>10} {sum(spent) / len(spent):>8.3f}s "
              f"{max(spent):>8.3f}s")  # fmt: skip
    every = [t for spent in times.values() for t in spent]
    mean = sum(every) / len(every)
    print(f"all {len(every)} moves: mean {mean:.3f} s, slowest {max(every):.3f} s")


def _late_position(rules: Rules[Any, Any]) -> Any:
    """A position 30 plies into a random game, not over: the search answers it at once."""
    rng = random.Random(0)
    while True:
        state = rules.initial_state()
        for _ in range(30):
            if rules.outcome(state) is not None:
                break
            state = rules.play(state, rng.choice(rules.legal_moves(state)))
        else:
            if rules.outcome(state) is None:
                return state


if __name__ == "__main__":
    main()
