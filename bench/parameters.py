"""A compiled game's parameters passed at run time against folded in as constants.

Run: .venv/bin/python bench/parameters.py [--repeat R] [--threads N]

The engine's loops take a game's parameters as an argument (``compiled_games.drivers``):
one compiled copy serves every ``-p`` value. The other way, a copy per parameter set with
the parameters as compile-time constants, compiles again for every new value; it is worth
it only if it solves at least 1.3x faster (issue 46). This bench makes that other copy from
the same drivers text, each loop's ``P`` argument replaced by a constant tuple, and solves
the same games both ways, each solve in a fresh process after a first run that compiles
(not timed), the two ways alternated, R times each; the fastest solve of each counts (the
wall time of the tiered solve into a scratch directory, the loops already compiled or
loaded), the slowest printed beside.
Games: Connect Four 5x4 and 6x4 as a user writes it (``examples/connect_four.py``, width and
height parameters read in every rule) and Kalah(4, 3) (``examples/kalah.py``, scored).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GAMES = {
    "connect-four-5x4": ("connect_four.py", "ConnectFour", {"width": 5, "height": 4}),
    "connect-four-6x4": ("connect_four.py", "ConnectFour", {"width": 6, "height": 4}),
    "kalah-4x3": ("kalah.py", "Kalah", {"houses": 4, "seeds": 3}),
}


def folded_text(text: str, names: tuple[str, ...]) -> str:
    """The drivers' text with each named loop's parameters a constant: its ``P`` argument
    renamed and ``P`` bound to the module's tuple ``P_FOLDED`` before anything else."""
    for name in names:
        head = re.search(rf"^def {name}\(\s*P: Any", text, re.MULTILINE)
        assert head is not None, name
        body = text.index('"""', text.index('"""', head.end()) + 3) + 3  # after the docstring
        renamed = text[head.start() : head.end()].replace("P: Any", "given: Any")
        text = (text[: head.start()] + renamed + text[head.end() : body]
                + "\n    P = P_FOLDED" + text[body:])  # fmt: skip
    return text


def child(game: str, way: str, threads: int) -> None:
    """In a fresh process: one tiered solve of ``game`` the ``way`` asked, as JSON."""
    os.environ["PERFECTPLAY_THREADS"] = str(threads)
    import importlib.util

    from perfectplay import build_tablebase
    from perfectplay.compiled_games import building
    from perfectplay.core.specialised import template_copy

    file, name, params = GAMES[game]
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE.parent / "examples" / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    instance = getattr(module, name)(**params)
    if way == "folded":
        text = folded_text(Path(building.drivers.__file__).read_text(), building.TAKE_PARAMETERS)
        template = Path(tempfile.mkdtemp()) / "folded_drivers.py"
        template.write_text(text)

        def folded_module(cls: type, ident: str, compiled: bool) -> Any:
            copy: Any = template_copy(template, f"bench_folded_{cls.__name__}_{ident}_"
                                      f"{'_'.join(map(str, instance.params))}", "games",
                                      on_disk=compiled)  # fmt: skip
            copy.P_FOLDED = instance.params
            return copy

        building._driver_module = folded_module  # type: ignore[assignment]
    instance.engine_loops(True)  # compiled, or loaded from the cache: not timed
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        build_tablebase(instance, Path(scratch) / "tb")
        seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds}))


def run(game: str, way: str, threads: int) -> float:
    done = subprocess.run(
        [sys.executable, __file__, "--child", game, way, "--threads", str(threads)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{game} {way} failed:\n{done.stderr[-2000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--child", nargs=2, metavar=("GAME", "WAY"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.threads)
        return
    print(f"threads {args.threads}, best of {args.repeat} (slowest), seconds of the solve")
    for game in GAMES:
        times: dict[str, list[float]] = {"argument": [], "folded": []}
        for way in times:  # the first run of each compiles: not timed
            run(game, way, args.threads)
        for _ in range(args.repeat):
            for way in times:
                times[way].append(run(game, way, args.threads))
        argument, folded = min(times["argument"]), min(times["folded"])
        print(
            f"{game}: parameters as an argument {argument:.2f} s ({max(times['argument']):.2f}), "
            f"folded in {folded:.2f} s ({max(times['folded']):.2f}); folding is "
            f"{argument / folded:.2f}x as fast (worth a copy per value from 1.3x)"
        )


if __name__ == "__main__":
    main()
