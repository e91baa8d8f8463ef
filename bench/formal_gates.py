"""Gates position by position: perfectplay's examples/gates.py against GamesmanOne's gates.

Run: .venv/bin/python bench/formal_gates.py [--positions N] [--plies P] [--seed S]
     .venv/bin/python bench/formal_gates.py --record tests/examples/golden/gates-gamesmanone.txt \
         --plies 45 --seed 0   (the tests' recorded playout)

GamesmanOne v1.3.0 (commit 1969986) gives Gates no ``query``: its game has no UWAPI (``gamesman
query gates 0 ...`` and ``getstart`` answer "missing UWAPI function definition"), and no
solve of it finishes here (see below). What it answers is its own text interface: ``gamesman``
run with the keys of its menus (list of games, Gates, start without solving, play) prints
each position (the board drawing, 18 cells) and every legal move of it (GamesmanOne's move
text), takes a move typed in, ``u`` to take it back, and says "Player N wins!" where its
``Primitive`` ends the game. So the rules are compared, not values: random playouts from
the start are typed in, one GamesmanOne process a playout; at every position of a playout
every move is typed and taken back, and each position printed (the playout's and every
child's) must show the board ``gates_board`` gives, the player to move, and the same moves
as ``format_move`` writes (or end with the same winner). A child that ends the game is
reached again by a new game and the playout's moves. Exits 1 on the first difference of a
playout, naming the moves that led there.

The conversion both ways: ``gates_board`` writes a state's cells as GamesmanOne prints them,
and ``state_of`` makes the state back from the printed cells, the player to move and the
phase (GamesmanOne's p, m, g1, g2, which its tiers keep and its board does not print); every
printed position is converted back and must be the state perfectplay reached.

Values: neither tool solves Gates here. GamesmanOne's solve (``OMP_NUM_THREADS=1 gamesman
-M 3 solve gates 0`` in runs/gates-0-t1, stopped after ten minutes on 2026-11-29) began "all
75609 tiers ... of total size 1977526345897 (positions)" (a tier of the full board holds up
to 1.8 billion), finished 5,663 small end tiers (663,764,640 positions) at a peak of 340 MB
and estimated 20 days for the rest; perfectplay keeps 8 bytes a reachable position. The
tests (tests/examples/test_gates.py) solve small variants (the ring of 6 cells) and
endgames of the real board against the reference search instead. The run of 2026-11-29
(``--positions 1000 --plies 300 --seed 0``): 1,037 playout positions, 80,443 positions
printed and compared, none differ.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
WORK = Path("/work/peers/gamesmanone")
RUN = WORK / "runs" / "gates-0-t1"
MENUS = ["", "g", "3", "w", "p"]  # press return, list of games, Gates, start without solving, play

gates = __import__("gates")
GAME = gates.Gates()
PHASES = ("p", "m", "g1", "g2")


def gates_board(state: int) -> str:
    """A position's 18 cells as GamesmanOne prints them (1 to 18: G g A a Z z, - empty)."""
    return GAME.letters(state)


def phase_of(state: int) -> str:
    """GamesmanOne's phase: p (pieces going down), m (moves), g1 or g2 (the scorer's first or
    second gate to move before the move)."""
    _, moving, gate = gates.board(GAME.params, state)[6:]
    return PHASES[gate + 1] if gate else PHASES[moving]


def state_of(cells: str, player: int, phase: str) -> int:
    """The state of GamesmanOne's printed cells, the player to move (1 white, 2 black) and
    its phase."""
    state = 0
    for name, letter in enumerate(cells, start=1):  # (cell 9 of the toolkit's 19 skipped)
        cell = name - 1 if name <= 9 else name
        state = gates.place(GAME.params, state, cell, gates.LETTERS.index(letter))[0]
    at = 3 * gates.SIZES[3]
    gate = {"g1": 1, "g2": 2}.get(phase, 0)
    return state | (player - 1) << at | (phase != "p") << (at + 1) | gate << (at + 2)


def ended(state: int) -> bool:
    return GAME.outcome(state) is not None or not GAME.moves(state)


def expected(state: int) -> tuple[str, str, int, frozenset[str] | None]:
    """What GamesmanOne should print at a position: its cells, then ("moves", the player to
    move, the moves) or ("wins", the winner, None)."""
    player = 1 + gates.board(GAME.params, state)[6]
    if ended(state):
        return gates_board(state), "wins", 3 - player, None
    return gates_board(state), "moves", player, frozenset(map(GAME.format_move, GAME.moves(state)))


def printed(text: str) -> list[tuple[tuple[str, str, int, tuple[str, ...] | None], bool]]:
    """The positions in GamesmanOne's output, as ``expected`` writes them, each with whether
    GamesmanOne then refused a line typed ("Sorry, I don't know that option")."""
    found = []
    for chunk in text.split("LEGEND")[1:]:
        lines = chunk.split("\n")[2:11:2]
        cells = "".join("".join(line.split(":", 1)[1].split()) for line in lines)
        turn = re.search(r"Player (\d)'s move \[(.*?)\]: ", chunk, re.S)
        won = re.search(r"Player (\d) wins!", chunk)
        if won and (not turn or won.start() < turn.start()):
            found.append(((cells, "wins", int(won.group(1)), None), "Sorry" in chunk))
        elif turn:
            moves = tuple(m[1:-1] for m in turn.group(2).split("/") if m)
            found.append(((cells, "moves", int(turn.group(1)), moves), "Sorry" in chunk))
    return found


def script(path: list[int], moves: list[int]) -> tuple[list[str], list[int]]:
    """The lines typed for a playout (every move at each position, taken back or replayed
    to) and the positions GamesmanOne should print, in order."""
    lines, shown = [], [path[0]]
    for i, state in enumerate(path[:-1]):
        for move in sorted(GAME.moves(state)):
            if move == moves[i]:
                continue
            child = GAME.play(state, move)
            lines.append(GAME.format_move(move))
            shown.append(child)
            if ended(child):  # a new game, the playout's moves again
                lines += ["p", *map(GAME.format_move, moves[:i])]
                shown += path[: i + 1]
            else:
                lines.append("u")
                shown.append(state)
        lines.append(GAME.format_move(moves[i]))
        shown.append(path[i + 1])
    return lines, shown


def playout(rng: random.Random, plies: int) -> tuple[list[int], list[int]]:
    state, path, moves = GAME.initial(), [GAME.initial()], []
    while not ended(state) and len(moves) < plies:
        moves.append(rng.choice(GAME.moves(state)))
        state = GAME.play(state, moves[-1])
        path.append(state)
    return path, moves


def typed_in(lines: list[str]) -> str:
    """GamesmanOne's output for the lines typed after its menus (then quit)."""
    RUN.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(WORK / "bin" / "gamesman")], cwd=RUN, timeout=600,
                          input="\n".join([*MENUS, *lines, "q", "q", ""]).encode(),
                          capture_output=True)  # fmt: skip
    text = done.stdout.decode("utf-8", errors="replace")
    if "Menu for Gates" not in text:  # the list of games has changed: see MENUS
        raise SystemExit(f"game 3 of GamesmanOne's list is not Gates: {text[-500:]}")
    return text


def compare(path: list[int], moves: list[int]) -> tuple[int, str | None]:
    """(positions GamesmanOne printed, the first difference or None) for one playout."""
    lines, shown = script(path, moves)
    found = printed(typed_in(lines))
    typed = ["p", *lines]  # the line each position is printed after
    for i, state in enumerate(shown):
        ours = expected(state)
        # A move text of 20 characters is one more than GamesmanOne reads a line for (its
        # move strings are 19 at most): the move is taken, its newline then read as an empty
        # move and refused. Any other refusal is a difference.
        refused = len(typed[i]) > 19 and ours[1] == "moves"
        theirs, said = found[i] if i < len(found) else (None, False)
        if theirs is not None and theirs[3] is not None:
            theirs = (*theirs[:3], frozenset(theirs[3]))
        if theirs != ours or said != refused:
            refusal = f" (after {typed[i]!r} it refused a line)" if said else ""
            return i, f"position {i} printed: perfectplay {ours}, GamesmanOne {theirs}{refusal}"
        phase, player = phase_of(state), ours[2] if ours[1] == "moves" else 3 - ours[2]
        if state_of(theirs[0], player, phase) != state:
            return i, f"position {i}: {theirs[0]} {phase} does not convert back"
    if len(found) != len(shown):
        return len(shown), f"GamesmanOne printed {len(found)} positions, {len(shown)} expected"
    return len(shown), None


def record(seed: int, plies: int, file: Path) -> None:
    """Writes to ``file`` what GamesmanOne prints along the first random playout that ends
    within ``plies`` and meets both gate phases and a spike taken: each position as the move
    typed ("-" at the start), the 18 cells, then "N: " and the moves (by "/") for player N
    to move, or "N wins"."""
    rng = random.Random(seed)
    while True:
        path, moves = playout(rng, plies)
        texts = [GAME.format_move(m) for m in moves]
        phases = set(map(phase_of, path))
        if ended(path[-1]) and {"g1", "g2"} <= phases and any(" t " in m for m in texts):
            break
    blocks = []
    answers = printed(typed_in(texts))
    for typed, ((cells, kind, player, listed), _) in zip(["-", *texts], answers, strict=True):
        said = f"{player} wins" if kind == "wins" else f"{player}: " + " / ".join(listed or ())
        blocks.append(f"{typed}\n{cells}\n{said}\n")
    head = (
        "# GamesmanOne v1.3.0 (commit 1969986) on this machine: `gamesman`, its menus (games, "
        "Gates, start without solving, play),\n# then a playout's moves typed in "
        f"(bench/formal_gates.py --record FILE --plies {plies} --seed {seed}). Per position: "
        "the move typed,\n# the cells 1-18 it printed, and the player to move with every "
        "move it listed, or the winner.\n"
    )
    file.write_text(head + "\n" + "\n".join(blocks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="playout positions")
    parser.add_argument("--plies", type=int, default=300, help="the longest playout")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", type=Path, help="write one playout's answers here, and stop")
    args = parser.parse_args()
    if args.record:
        record(args.seed, args.plies, args.record)
        return 0
    rng, seen, printed_in_all, differ = random.Random(args.seed), set(), 0, 0
    while len(seen) < args.positions:
        path, moves = playout(rng, args.plies)
        count, difference = compare(path, moves)
        printed_in_all += count
        seen.update(path)
        if difference:
            differ += 1
            print(f"after {' / '.join(map(GAME.format_move, moves))}: {difference}")
    print(f"gates: {len(seen)} playout positions, every move of each tried ({printed_in_all} "
          f"positions printed and compared), {differ} playouts differ")  # fmt: skip
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
