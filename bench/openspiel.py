"""OpenSpiel through perfectplay's bridge beside raw pyspiel exploration, in one run.

Run: .venv/bin/python bench/openspiel.py [--quick]   (--quick leaves out mnk 4x4 k=3)

Raw exploration is the floor: a plain depth-first walk over pyspiel states merged by
(string, player to move), counting positions and moves, nothing else. Bridge is
``solve(from_openspiel(spec))``: the bridge's walk, perfectplay's explorer and retrograde
solver, every position valued. Each measurement runs in a fresh process, one after
another, so each peak memory (VmHWM, less what the process held before starting) is
its own; the compiled kernels are loaded before timing (``cold start`` shows what loading
them costs once per process). The live-state line measures what one pyspiel state of
mnk 4x4 k=3 holds, the yardstick for the bridge's memory per position.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from typing import Any

from perfectplay.core.memory import peak_resident_bytes, resident_bytes

CASES = [
    ("tic_tac_toe", "tic_tac_toe", 5),
    ("connect_four 4x4", "connect_four(rows=4,columns=4)", 3),
    ("mnk 4x4 k=3", "mnk(m=4,n=4,k=3)", 1),
]
"""Label, OpenSpiel spec, and how many runs (the best is kept; the largest runs once)."""


def raw_walk(game: Any) -> tuple[int, int]:
    """Positions and moves of a game, merged by (string, player): the plainest walk."""
    root = game.new_initial_state()
    seen = {(str(root), root.current_player())}
    stack = [root]
    edges = 0
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        for action in state.legal_actions():
            child = state.child(action)
            edges += 1
            key = (str(child), child.current_player())
            if key not in seen:
                seen.add(key)
                stack.append(child)
    return len(seen), edges


def measure_raw(spec: str, runs: int) -> dict[str, Any]:
    """Best time of ``runs`` raw walks, with the peak memory they needed."""
    import pyspiel

    game = pyspiel.load_game(spec)
    before = resident_bytes()
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        positions, edges = raw_walk(game)
        best = min(best, time.perf_counter() - started)
    return {
        "seconds": best,
        "positions": positions,
        "edges": edges,
        "peak": peak_resident_bytes() - before,
    }


def measure_bridge(spec: str, runs: int) -> dict[str, Any]:
    """Best time of ``runs`` solves through the bridge, split into walk and the rest."""
    from perfectplay import solve
    from perfectplay.games import ConnectFour
    from perfectplay.openspiel import from_openspiel

    started = time.perf_counter()
    solve(ConnectFour(4, 4))  # loads numba and the compiled kernels, once per process
    cold = time.perf_counter() - started
    before = resident_bytes()
    best: dict[str, Any] = {"seconds": float("inf")}
    for _ in range(runs):
        started = time.perf_counter()
        game = from_openspiel(spec)
        game.explore()
        walked = time.perf_counter()
        solution = solve(game)
        seconds = time.perf_counter() - started
        if seconds < best["seconds"]:
            best = {
                "seconds": seconds,
                "walk": walked - started,
                "solve": seconds - (walked - started),
                "positions": solution.stats.states,
                "edges": solution.stats.edges,
                "value": str(solution.value()),
                "remoteness": solution.remoteness(),
            }
        del game, solution
    best["peak"] = peak_resident_bytes() - before
    best["cold_start"] = cold
    return best


def measure_state(spec: str, count: int = 200_000) -> dict[str, Any]:
    """Bytes one live pyspiel state holds: ``count`` states of random mid-game positions."""
    import pyspiel

    game = pyspiel.load_game(spec)
    pick = random.Random(0)
    before = resident_bytes()
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        for _ in range(pick.randrange(4, 10)):
            if state.is_terminal():
                break
            state.apply_action(pick.choice(state.legal_actions()))
        states.append(state)
    return {"bytes": (resident_bytes() - before) / len(states), "states": len(states)}


def child(*args: str) -> dict[str, Any]:
    """Run one measurement in a fresh process and read its JSON line."""
    done = subprocess.run(
        [sys.executable, __file__, "--measure", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(quick: bool) -> None:
    cases = CASES[:-1] if quick else CASES
    print(
        f"{'game':<18}{'positions':>11}{'moves':>12}{'raw s':>9}{'bridge s':>10}"
        f"{'(walk+rest)':>15}{'ratio':>7}{'raw B/pos':>11}{'bridge B/pos':>14}"
    )
    cold = []
    for label, spec, runs in cases:
        raw = child("raw", spec, str(runs))
        bridge = child("bridge", spec, str(runs))
        assert (raw["positions"], raw["edges"]) == (bridge["positions"], bridge["edges"])
        split = f"({bridge['walk']:.2f}+{bridge['solve']:.2f})"
        print(
            f"{label:<18}{raw['positions']:>11,}{raw['edges']:>12,}{raw['seconds']:>9.3f}"
            f"{bridge['seconds']:>10.3f}{split:>15}{bridge['seconds'] / raw['seconds']:>7.2f}"
            f"{raw['peak'] / raw['positions']:>11.0f}{bridge['peak'] / bridge['positions']:>14.0f}"
        )
        print(f"{'':<18}value {bridge['value']}, remoteness {bridge['remoteness']}")
        cold.append(bridge["cold_start"])
    print(f"\ncold start (numba and the compiled kernels, once per process): {min(cold):.2f} s")
    if not quick:
        state = child("state", CASES[-1][1])
        print(
            f"one live pyspiel state of {CASES[-1][0]}: {state['bytes']:.0f} bytes "
            f"(mean over {state['states']:,} mid-game states)"
        )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--measure":
        what, spec, *rest = sys.argv[2:]
        if what == "raw":
            print(json.dumps(measure_raw(spec, int(rest[0]))))
        elif what == "bridge":
            print(json.dumps(measure_bridge(spec, int(rest[0]))))
        else:
            print(json.dumps(measure_state(spec)))
    else:
        main(quick="--quick" in sys.argv)
