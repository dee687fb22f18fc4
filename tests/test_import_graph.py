"""svot's import graph is the one ARCHITECTURE.md draws (issue 17, "hidden upward dependencies").

* No function-level ``import svot...`` outside an explicit allow-list: an import inside a function hides
  an arrow of the graph (often an upward one, or a cycle).
* The lower layers load no upper one: ``import svot.errors`` / ``svot.pddl`` / ``svot.kernel`` in a fresh
  interpreter leave Gymnasium, ``svot.envs`` and the registry out of ``sys.modules``, and the env ids
  still get registered once Gymnasium is imported, whatever the import order.
* Module-level imports follow the layer order: a module never imports a module of a higher layer.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "svot"
# the architecture sketch: in the checkout once it is committed there, until then beside the worktrees
ARCHITECTURE = next((d / "ARCHITECTURE.md" for d in (ROOT, ROOT / "docs", ROOT.parent / "shared",
                                                     ROOT.parent.parent / "shared") if (d / "ARCHITECTURE.md").is_file()),
                    None)

# path (relative to the repository) -> why its function-level svot imports stay
ALLOWED_FUNCTION_LEVEL = {
    "svot/__init__.py": "registering the env ids waits for Gymnasium's import (svot._after_import), "
                        "so that `import svot.<lower layer>` loads neither Gymnasium nor the envs",
    "svot/cli.py": "lazy per command, so that `svot --version` and `svot -h` stay fast",
    "svot/rulemaze/cli.py": "lazy per command, so that `svot --version` and `svot -h` stay fast",
    "svot/engine/region_kernel.py": "Numba (and the compiled search it loads from its cache) waits for the "
                                    "first verdict search, so that a process that searches nothing never imports it",
    "svot/problem_gen/optimal.py": "Numba (and the compiled Held-Karp table and A* it loads from its cache) waits "
                                   "for the first shortest plan, so that a process that plans nothing never imports it",
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _is_svot(name: str | None) -> bool:
    return name is not None and (name == "svot" or name.startswith("svot."))


def _imported(node: ast.AST) -> list[str]:
    """The svot modules an import statement names (absolute imports only; svot uses no relative ones)."""
    if isinstance(node, ast.ImportFrom) and node.level == 0 and _is_svot(node.module):
        return [node.module] + [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if _is_svot(a.name)]
    return []


def _function_level_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            found += [(n.lineno, m) for n in ast.walk(fn) for m in _imported(n)[:1]]
    return found


def _module_level_imports(path: Path) -> set[str]:
    """svot modules imported when the module runs: top-level statements (also under if/try), not in defs."""
    found: set[str] = set()
    stack = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        found.update(_imported(node))
        stack.extend(ast.iter_child_nodes(node))
    return found


def test_no_function_level_svot_imports_outside_the_allow_list():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in MODULES.values()
        if str(path.relative_to(ROOT)) not in ALLOWED_FUNCTION_LEVEL
        for line, module in _function_level_imports(path)
    ]
    assert not offenders, "function-level svot imports hide the import graph; move them to the top:\n" + "\n".join(
        offenders)


def test_the_allow_list_names_existing_files_with_a_reason():
    for path, reason in ALLOWED_FUNCTION_LEVEL.items():
        assert (ROOT / path).is_file(), path
        assert reason.strip(), path
        assert _function_level_imports(ROOT / path), f"{path} has no function-level svot import left: drop it from the list"


# modules of svot's dependencies that import an optional package when loaded
NEEDS_AN_EXTRA = {"gymnasium.utils.play": "imports pygame (the rl extra)"}


def _core_dependencies() -> set[str]:
    """The import names of the packages ``pip install svot`` always brings (pyproject's dependencies)."""
    import tomllib  # stdlib from 3.11; this test is about svot's code, so 3.10 simply skips it

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].strip().lower() for d in deps}
    return {{"pillow": "PIL"}.get(n, n) for n in names}


def _third_party_function_level(path: Path) -> list[tuple[int, str, bool]]:
    """(line, module, has a comment on its line or the two above) of each non-svot import in a function."""
    text = path.read_text()
    lines = text.splitlines()
    out = []
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                if not _is_svot(name):
                    near = lines[max(0, node.lineno - 3): node.lineno]
                    out.append((node.lineno, name, any("#" in x for x in near)))
    return out


def test_function_level_imports_are_of_optional_packages_and_say_why():
    """Issue 17: no function-level imports, except of optional third-party packages, each with a comment
    saying why. The standard library and svot's own dependencies are imported at the top of a module."""
    pytest.importorskip("tomllib")
    core = _core_dependencies() | set(sys.stdlib_module_names)
    offenders = []
    for path in MODULES.values():
        for line, module, commented in _third_party_function_level(path):
            where = f"{path.relative_to(ROOT)}:{line}: {module}"
            optional = module in NEEDS_AN_EXTRA or module.split(".")[0] not in core
            if not optional and str(path.relative_to(ROOT)) not in ALLOWED_FUNCTION_LEVEL:
                offenders.append(f"{where} (a dependency or the standard library: import it at the top)")
            elif not commented:
                offenders.append(f"{where} (say why it is imported here, e.g. '# optional: the rl extra')")
    assert not offenders, "\n".join(offenders)


def _fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)


# what a module may not load when imported in a fresh interpreter: below the registry nothing of the layers
# above; the registry (svot.domains) loads the samplers (svot.problem_gen) but neither Gymnasium nor the envs,
# whose classes Gymnasium imports by their entry points when an env is made
LIGHT = {
    "svot": ("gymnasium", "svot.envs", "svot.problem_gen", "svot.dataset", "svot.domains"),
    "svot.errors": ("gymnasium", "svot.envs", "svot.problem_gen", "svot.dataset", "svot.domains"),
    "svot.pddl": ("gymnasium", "svot.envs", "svot.problem_gen", "svot.dataset", "svot.domains"),
    "svot.engine": ("gymnasium", "svot.envs", "svot.problem_gen", "svot.dataset", "svot.domains"),
    "svot.kernel": ("gymnasium", "svot.envs", "svot.problem_gen", "svot.dataset", "svot.domains"),
    "svot.problem_gen": ("gymnasium", "svot.envs", "svot.dataset", "svot.domains"),
    "svot.domains": ("gymnasium", "svot.envs", "svot.dataset"),
}


@pytest.mark.parametrize("module", sorted(LIGHT))
def test_lower_layers_load_neither_gymnasium_nor_the_layers_above(module):
    done = _fresh(f"import sys, {module}\n"
                  f"loaded = sorted(m for m in {LIGHT[module]!r} if m in sys.modules)\n"
                  "print(loaded)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"import {module} loaded {done.stdout.strip()}"


@pytest.mark.parametrize("first", ["import svot", "import svot.errors", "import svot.envs", "import svot.domains",
                                   "import svot.domains.gym_ids", "import svot.domains.maze.env",
                                   "import svot.rulemaze.registration",
                                   "import svot.rulemaze.env", "import svot.rulemaze",
                                   "import gymnasium; import svot", "import gymnasium.spaces; import svot.pddl"])
def test_env_ids_are_registered_whatever_the_import_order(first):
    done = _fresh(f"{first}\nimport gymnasium as gym\n"
                  "ids = [i for i in gym.registry if i.startswith(('SVoT/', 'RuleMaze/'))]\n"
                  "assert 'SVoT/Sokoban-5x5-v0' in ids and 'RuleMaze/QuestMaze-5x5-v1' in ids, ids\n"
                  "assert type(gym.__loader__).__name__ != '_CallbackLoader'\n")
    assert done.returncode == 0, done.stderr


# --- the layer order ----------------------------------------------------------------------------------
# ARCHITECTURE.md's one-way flow, lowest first: pddl -> engine -> kernel (the spec protocol, the grid) ->
# problem_gen/render -> envs -> domains (the registry and the domain folders) -> dataset/metrics ->
# (RuleMaze and the other applications on top) -> cli. A module is in the layer of the longest prefix below.
# The layers below the domains are handed spec and domain objects (svot.kernel): none imports a domain
# folder or the registry, so none looks a domain up by name. A domain folder sits above the envs: its
# generator uses svot.problem_gen, its env.py subclasses svot.envs' env classes, and its __init__.py binds
# the two with its spec into the domain object the registry (svot/domains/__init__.py) lists.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("leaves", ("svot._version", "svot._after_import", "svot.errors", "svot.safe_paths", "svot.jsonl", "svot.cli_support",
                "svot.parallel", "svot.training", "svot.atomic", "svot.numbers", "svot.raster", "svot.state_hash")),
    ("pddl", ("svot.pddl", "svot.domains_pddl")),
    ("engine", ("svot.engine",)),
    ("kernel", ("svot.kernel",)),
    ("problem_gen and render", ("svot.problem_gen", "svot.render")),
    ("envs", ("svot.envs", "svot.wrappers", "svot.gif", "svot.play")),
    ("domains: the registry and the domain folders", ("svot.domains",)),
    ("dataset and metrics", ("svot.dataset", "svot.metrics")),
    ("on top: RuleMaze, the gallery, Inspect, extend", ("svot.rulemaze", "svot.gallery", "svot.inspect",
                                                         "svot.extend", "svot.agents",
                                                         "svot.jax")),  # the JAX backend reads the vector env's tables
    ("cli", ("svot.cli", "svot.__main__", "svot.rulemaze.cli")),
]
REGISTRY_LAYER = 6


def layer_of(module: str) -> int:
    if module == "svot":  # the root package: the composition root, above everything
        return len(LAYERS)
    best = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in {Path(__file__).name}")
    return best[1]


def test_the_layer_table_names_the_packages_of_the_architecture():
    assert LAYERS[REGISTRY_LAYER][1] == ("svot.domains",)
    assert [name for name, _ in LAYERS[1:6]] == ["pddl", "engine", "kernel", "problem_gen and render", "envs"]
    if ARCHITECTURE is None:
        pytest.skip("ARCHITECTURE.md is not beside this checkout")
    flow = ARCHITECTURE.read_text(encoding="utf-8").split("## Data flows one way", 1)[1].split("```")[1]
    named = {m.group(1) for m in re.finditer(r"^(\w+)/", flow, re.M)} - {"domains_pddl"}
    assert named <= {p.removeprefix("svot.") for _, prefixes in LAYERS for p in prefixes}, named


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_module_imports_a_higher_layer():
    upward = []
    for module, path in MODULES.items():
        own = layer_of(module)
        for target in sorted(_module_level_imports(path)):
            if target in MODULES and target != "svot" and layer_of(target) > own:
                upward.append(f"{module} ({LAYERS[own][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    assert not upward, "imports against the layer order:\n" + "\n".join(upward)


def test_below_the_registry_no_module_looks_a_module_up_by_name():
    """``importlib.import_module`` / ``__import__`` hide an arrow from the layer check above: the layers below
    the registry are handed objects, and Gymnasium loads an env id's class from its entry point itself."""
    offenders = []
    for module, path in MODULES.items():
        if layer_of(module) < REGISTRY_LAYER:
            text = path.read_text(encoding="utf-8")
            offenders += [f"{module}: {name}" for name in ("import_module(", "__import__(") if name in text]
    assert not offenders, offenders


def _all_imports(path: Path) -> set[str]:
    """svot modules a module imports anywhere: at module level and inside functions."""
    return {t for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) for t in _imported(node)}


def test_no_import_cycle_among_modules_counting_function_level_imports():
    """A function-level import hides an arrow from the layer check: ``svot.rulemaze.cli`` took the exit codes
    and ``check_writable`` from ``svot.cli``, which loads it (now both take them from the leaf
    ``svot.cli_support``). Package ``__init__`` modules are left out: they re-export their submodules, and a
    submodule's ``from svot.rulemaze import symbols`` names the package without running a cycle."""
    packages = {m for m, p in MODULES.items() if p.name == "__init__.py"}
    graph = nx.DiGraph()
    for module, path in MODULES.items():
        if module not in packages:
            graph.add_edges_from((module, t) for t in _all_imports(path)
                                 if t in MODULES and t not in packages and t != module)
    cycles = sorted(sorted(c) for c in nx.simple_cycles(graph))
    assert cycles == [], cycles
