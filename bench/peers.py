"""perfectplay beside OpenSpiel and easyAI on the same solves, timed in one run.

Run: make peers   (installs OpenSpiel and easyAI into .venv-peers, apart from the project)
Each peer is skipped, with a note, when it is not installed. Ratios are peer seconds over
perfectplay seconds: above 1 means perfectplay is faster.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from typing import Any

from perfectplay import search, solve
from perfectplay.games import ConnectFour, TicTacToe


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    """The result of ``work`` and the seconds it took."""
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


def report(case: str, ours: tuple[Any, float], peers: dict[str, tuple[Any, float] | str]) -> None:
    """One line for perfectplay and one per peer, with the ratio."""
    print(f"\n{case}")
    print(f"  {'perfectplay':<28}{ours[1]:>9.3f} s   {ours[0]}")
    for name, result in peers.items():
        if isinstance(result, str):
            print(f"  {name:<28}   skipped: {result}")
        else:
            ratio = result[1] / ours[1] if ours[1] > 0 else float("inf")
            print(f"  {name:<28}{result[1]:>9.3f} s   {result[0]}   ratio {ratio:,.1f}")


def installed(module: str) -> bool:
    """Whether a module can be imported here."""
    return importlib.util.find_spec(module) is not None


def openspiel_strong(game_name: str, params: dict[str, int]) -> tuple[str, int]:
    """Every state of an OpenSpiel game valued by OpenSpiel's own value iteration.

    ``value_iteration`` lists every state with ``get_all_states`` (keyed by the state's
    string), then sweeps them until no value moves by more than the threshold: values
    only, no remoteness. It imports OpenSpiel's LP solver, hence cvxpy in ``make peers``.
    """
    import pyspiel
    from open_spiel.python.algorithms.value_iteration import value_iteration

    game = pyspiel.load_game(game_name, params)
    values = value_iteration(game, depth_limit=-1, threshold=0.01)
    root = values[str(game.new_initial_state())]
    return f"first player's value {root:+.0f}", len(values)


def main() -> None:
    have_openspiel = installed("pyspiel")
    have_easyai = installed("easyAI")
    missing = "not installed (make peers installs it into .venv-peers)"
    solve(TicTacToe(), "retrograde")  # load the compiled kernels before timing

    # Root value of tic-tac-toe by game-tree search.
    ours = timed(lambda: search(TicTacToe()).value)
    peers: dict[str, tuple[Any, float] | str] = {}
    if have_openspiel:
        import pyspiel
        from open_spiel.python.algorithms import minimax

        peers["OpenSpiel alpha_beta_search"] = timed(
            lambda: minimax.alpha_beta_search(pyspiel.load_game("tic_tac_toe"))[0]
        )
    else:
        peers["OpenSpiel"] = missing
    if have_easyai:
        from easyAI import solve_with_iterative_deepening
        from easyAI.AI import TranspositionTable
        from easyAI.games.TicTacToe import TicTacToe as EasyTicTacToe

        class KeyedTicTacToe(EasyTicTacToe):  # type: ignore[misc]
            def ttentry(self) -> tuple[int, ...]:  # the table needs a key for positions
                return (*self.board, self.current_player)

        def easy() -> Any:
            game = KeyedTicTacToe([None, None])
            return solve_with_iterative_deepening(
                game, range(2, 10), win_score=100, tt=TranspositionTable(), verbose=False
            )[0]

        peers["easyAI iterative deepening"] = timed(easy)
    else:
        peers["easyAI"] = missing
    report("tic-tac-toe, root value (search)", ours, peers)

    # Every state of tic-tac-toe.
    solved = timed(lambda: solve(TicTacToe()))
    ours = (f"{solved[0].value()}, {solved[0].stats.states:,} states with remoteness", solved[1])
    peers = {}
    if have_openspiel:
        result, seconds = timed(lambda: openspiel_strong("tic_tac_toe", {}))
        peers["OpenSpiel value_iteration"] = (f"{result[0]}, {result[1]:,} states", seconds)
    else:
        peers["OpenSpiel"] = missing
    report("tic-tac-toe, every state", ours, peers)

    # Every state of Connect Four 4x4.
    solved = timed(lambda: solve(ConnectFour(4, 4)))
    ours = (f"{solved[0].value()}, {solved[0].stats.states:,} states with remoteness", solved[1])
    peers = {}
    if have_openspiel:
        result, seconds = timed(lambda: openspiel_strong("connect_four", {"rows": 4, "columns": 4}))
        peers["OpenSpiel value_iteration"] = (f"{result[0]}, {result[1]:,} states", seconds)
    else:
        peers["OpenSpiel"] = missing
    report("connect four 4x4, every state", ours, peers)


if __name__ == "__main__":
    main()
