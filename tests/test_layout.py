"""The package's shape: imports run one way, the library never imports its front ends, the
built-in games speak only the public protocol, and ``import perfectplay`` stays light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "perfectplay"

# The packages are the layers (a top-level module counts as a package of its own). Each
# layer may import itself and the layers before it, never a later one; between packages of
# one layer the cycle test below keeps the arrows one way.
LAYERS = [
    ("errors", "values", "progress", "periods", "drawing", "books", "core"),  # the basics
    ("protocol",),  # what a game says: the hooks and their typed groups
    (
        "rules",
        "diagnosis",
        "terminals",
        "boards",
        "cgt",
        "games",
    ),  # reading a game; the toolkit; games
    (
        "spaces",
        "identity",
        "notebook",
        "proof_tree",
        "proof_replay",
        "proof_check",
    ),  # state graphs, in and out of memory; proofs read and checked
    ("tiers", "answers"),  # tier solving: graph, chunks, reach, methods, files
    ("compiled_games",),  # the compiled form: loops, rankings, the engine's tiers
    ("solvers", "checking"),  # whole-graph solvers and search; the self-checks
    ("solution", "proof_grow", "proof_search"),  # what a solve answers; proofs written
    ("solve",),  # the one entry: a game in, a Solution out
    ("tablebase", "outcomes", "sums"),  # tablebases built, read and probed; sums
    ("__init__", "book", "statistics", "plots"),  # the public package
    ("web", "contest", "openspiel"),  # front ends: the explorer, the judge, OpenSpiel
    ("cli",),  # the command line, over all of them
]
GAMES_MAY_IMPORT = ("protocol", "drawing", "values", "core", "games")
FRONT_ENDS = ("cli", "contest", "openspiel", "web")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The perfectplay modules a file imports, as dotted names inside the package."""
    name = module_name(path)
    package = name.split(".")[:-1]  # a file's package; for __init__.py, its own
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("perfectplay"):
                    found.add(node.module.removeprefix("perfectplay").lstrip("."))
                continue
            base = package[: len(package) - (node.level - 1)]
            target = ".".join([*base, node.module] if node.module else base)
            if node.module is None:
                found.update(f"{target}.{a.name}".lstrip(".") for a in node.names)
            else:
                found.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("perfectplay."):
                    found.add(alias.name.removeprefix("perfectplay."))
    return {f for f in found if f}


def all_modules() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def top(name: str) -> str:
    return name.split(".")[0]


def layer_of(name: str) -> int | None:
    """The layer of a module: the one naming its package."""
    for i, layer in enumerate(LAYERS):
        if top(name) in layer:
            return i
    return None


def test_the_walk_sees_the_known_imports() -> None:
    graph = all_modules()
    assert "rules" in graph["spaces.graph"]
    assert "spaces.graph" in graph["solvers.retrograde"]
    assert "solution" in graph["solve"]


def test_every_module_is_placed() -> None:
    """A module in no layer would escape the test below: every package is in one."""
    unplaced = sorted(name for name in all_modules() if layer_of(name) is None)
    assert unplaced == []


def test_each_package_is_in_one_layer() -> None:
    named = [package for layer in LAYERS for package in layer]
    assert len(named) == len(set(named))


LONGEST_FUNCTION = 60
"""Lines a function may take, outside the compiled hot loops below."""
COMPILED_TEMPLATES = {
    ("solvers/search_engine.py", "negamax"),  # one explicit stack for the whole search
    ("compiled_games/drivers.py", "solve_sweep"),
    ("compiled_games/drivers.py", "tier_moves"),
}
"""Long functions of the templates numba compiles per game (``specialised``): a call per
node or position costs what its arguments cost, so the loop stays in one body."""
KERNEL_DECORATORS = ("kernel", "inlined_kernel")


def long_functions() -> list[str]:
    """Every function over ``LONGEST_FUNCTION`` lines that is neither a compiled kernel
    nor one of the compiled templates' loops."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            compiled = any(ast.unparse(d) in KERNEL_DECORATORS for d in node.decorator_list)
            template = (where, node.name) in COMPILED_TEMPLATES
            if lines > LONGEST_FUNCTION and not compiled and not template:
                found.append(f"{where}:{node.name} ({lines} lines)")
    return found


def test_no_long_function_outside_the_compiled_loops() -> None:
    assert long_functions() == []


LONGEST_MODULE = 400
"""Lines a module may take without being named, with its idea, on the design page."""


def test_every_long_module_is_named_on_the_design_page() -> None:
    design = (PACKAGE.parents[1] / "docs" / "design.md").read_text()
    sizes = design.split("## Sizes", 1)[1]
    named = {line.split("`")[1] for line in sizes.splitlines() if line.startswith("| `")}
    long_modules = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if len(path.read_text().splitlines()) > LONGEST_MODULE
    }
    assert long_modules - named == set()


def test_packages_import_only_downwards() -> None:
    wrong = []
    for name, targets in all_modules().items():
        mine = layer_of(name)
        assert mine is not None, name
        for target in targets:
            theirs = layer_of(target)
            if theirs is None or theirs > mine:
                wrong.append(f"{name} imports {target}")
    assert wrong == []


def test_games_speak_only_the_public_protocol() -> None:
    wrong = [
        f"{name} imports {target}"
        for name, targets in all_modules().items()
        if top(name) == "games"
        for target in targets
        if top(target) not in GAMES_MAY_IMPORT
    ]
    assert wrong == []


def cycle_in(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the directed graph ``edges`` (node -> the nodes it imports), as the
    nodes along it, its first node again at its end; None when there is none. Iterative,
    depth first, in sorted order."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    for start in sorted(edges):
        if state.get(start):
            continue
        path = [start]
        stack = [iter(sorted(edges[start]))]
        state[start] = 1
        while stack:
            child = next(stack[-1], None)
            if child is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if state.get(child) == 1:
                return [*path[path.index(child) :], child]
            if not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append(iter(sorted(edges.get(child, ()))))
    return None


def test_no_import_cycle() -> None:
    graph = all_modules()
    known = set(graph)

    def resolve(target: str) -> str | None:
        if target in known:
            return target
        if f"{target}.__init__" in known:
            return f"{target}.__init__"
        parent = target.rpartition(".")[0]  # "from .x import name" where name is no module
        return resolve(parent) if parent else None

    edges = {
        name: {r for t in targets if (r := resolve(t)) is not None and r != name}
        for name, targets in graph.items()
    }
    # A package's __init__ re-exports its children; importing a child runs __init__ first
    # but that is not a cycle of the code, so edges from a child up to its own package go.
    for name, targets in edges.items():
        targets -= {t for t in targets if t.endswith("__init__") and name.startswith(t[:-8])}
    found = cycle_in(edges)
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_no_import_cycle_between_packages() -> None:
    """Packages (and the top-level modules, each its own) import one another one way: no
    package reaches back to one that imports it, however many steps away."""
    edges: dict[str, set[str]] = {}
    for name, targets in all_modules().items():
        for target in targets:
            if top(name) != top(target):
                edges.setdefault(top(name), set()).add(top(target))
    found = cycle_in(edges)
    assert found is None, " -> ".join(found or [])


def test_library_never_imports_front_ends() -> None:
    wrong = [
        f"{name} imports {target}"
        for name, targets in all_modules().items()
        if top(name) not in FRONT_ENDS
        for target in targets
        if top(target) in FRONT_ENDS
    ]
    assert wrong == []


def test_import_perfectplay_loads_no_compiler() -> None:
    code = (
        "import sys, perfectplay; "
        "print(sorted(m for m in ('numba', 'llvmlite', 'rich', 'click') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_small_solve_runs_without_numba() -> None:
    code = (
        "import sys; from perfectplay import solve; from perfectplay.games import TicTacToe; "
        "s = solve(TicTacToe()); print(s.value(), s.stats.states, 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["tie", "5478", "False"]


def test_a_command_loads_its_own_modules_only() -> None:
    """The command line imports a command's module when it runs: a judge's `contest` loads
    neither the explorer, nor the tablebase commands, nor the compiled form."""
    code = (
        "import sys; from perfectplay.cli import main\n"
        "try:\n"
        "    main(['contest', '--list'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('perfectplay.cli.web_command', 'perfectplay.cli.tablebases', "
        "'perfectplay.compiled_games.form', 'perfectplay.cli.contest') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "['perfectplay.cli.contest']"


def test_the_design_page_draws_the_layers_as_the_test_holds_them() -> None:
    """The picture of docs/design.md: a line a layer, the top one first, each naming
    exactly that layer's packages."""
    design = (PACKAGE.parents[1] / "docs" / "design.md").read_text()
    picture = design.split("## Layers", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    drawn = [set(line.split()) for line in picture.splitlines() if line.strip()[:1] != "-"]
    assert drawn == [set(layer) for layer in reversed(LAYERS)]


def test_each_test_folder_is_named_for_the_package_it_tests() -> None:
    tests = PACKAGE.parents[1] / "tests"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith("__")}
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders - packages == {"data", "examples"}


ACROSS_MODULES = {
    "cli/test_bad_input_sweep.py": "bad input, swept over every command",
    "cli/test_cli.py": "the installed console script, run as a user runs it",
    "cli/test_cli_people.py": "analyze, solve, table and games from files, end to end",
    "cli/test_interrupts.py": "Ctrl-C at any moment of any command",
    "cli/test_rough_edges.py": "what a new user met, through the command line",
    "games/test_builtin_games.py": "every built-in game against published facts",
    "games/test_golden.py": "every built-in game's seeded playthrough",
    "games/test_tier_ranking.py": "the tier protocol of the built-in games",
    "openspiel/test_openspiel.py": "the bridge both ways: games in, games and bots out",
    "solvers/test_solvers_agree.py": "every solver against plain references",
    "examples/test_shelf.py": "the shelf of examples against its page",
    "test_layout.py": "the package's shape",
    "test_no_skips.py": "the suite itself: no test skips",
    "test_readme.py": "the README's promises",
}
"""Test modules that test across modules, each with what it holds; every other test
module is named for what it tests (below)."""


def test_each_test_module_is_named_for_the_module_it_tests() -> None:
    """``tests/<package>/test_<module>[_<aspect>].py`` for a module (or subpackage) of
    ``perfectplay.<package>`` (``tests/examples/``: of ``examples/``), unless listed above."""
    tests = PACKAGE.parents[1] / "tests"
    unnamed = []
    for path in sorted(tests.rglob("test_*.py")):
        where = path.relative_to(tests)
        if str(where) in ACROSS_MODULES or where.parts[0] == "data":
            continue
        if where.parts[0] == "examples":
            source = PACKAGE.parents[1] / "examples"
        else:
            source = PACKAGE.joinpath(*where.parts[:-1])
        words = path.stem.removeprefix("test_").split("_")
        prefixes = ("_".join(words[:k]) for k in range(len(words), 0, -1))
        if not any((source / f"{p}.py").exists() or (source / p).is_dir() for p in prefixes):
            unnamed.append(str(where))
    assert unnamed == []
    assert all((tests / name).exists() for name in ACROSS_MODULES)
