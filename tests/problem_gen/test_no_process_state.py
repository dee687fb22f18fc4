"""Randomness comes only from the seed: no module-level state under svot/domains/ or svot/problem_gen/
changes while problems are drawn, no code rewinds a Generator, and each generator has one entry, ``sample``.

Issue 45: "No module-level mutable state under svot/domains/ or svot/problem_gen/ changes what or how
anything is drawn (a pure-data cache is fine)"; "no non-test code assigns bit_generator.state";
"Generator modules define sample, and no draw_bits / bit_stream".
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import svot
from svot.domains import DOMAINS, SPECS, env_id, get_domain

ROOT = Path(svot.__file__).parent
WATCHED = [ROOT / "domains", ROOT / "problem_gen"]
CONTAINERS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_container(node: ast.AST) -> bool:
    """A dict/list/set display or comprehension, or a call of a container constructor."""
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        return name in CONTAINERS
    return False


def module_containers() -> list[tuple[str, str]]:
    """(module, name) of every module-level name bound to a container under the watched folders."""
    out = []
    for folder in WATCHED:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.parse(path.read_text()).body:
                targets, value = [], None
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets, value = [node.target], node.value
                if value is None or not _is_container(value):
                    continue
                for t in targets:
                    if isinstance(t, ast.Name):
                        out.append((_module_name(path), t.id))
    return out


def test_the_ast_listing_finds_module_containers():
    """The listing is not empty, and finds a known one (the domain registry)."""
    found = module_containers()
    assert ("svot.domains", "_ENTRIES") in found
    assert len(found) > 5


def _snapshot(pairs):
    """Each container's repr: its plain data in full, other objects (specs, modules) by identity."""
    return {(module, name): repr(getattr(importlib.import_module(module), name)) for module, name in pairs}


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_resets_change_no_module_level_container(domain):
    size = max(SPECS[domain].sizes)
    env = gym.make(env_id(domain, size, "ood"))
    env.reset(seed=0)  # first use: lazily imported modules, per-size caches
    pairs = module_containers()
    before = _snapshot(pairs)
    env.reset(seed=1)
    for k in range(200):
        env.reset()
        if k % 50 == 0:
            env.unwrapped.problem, env.unwrapped.plan  # the lazily built problem and plan too  # noqa: B018
    env.close()
    after = _snapshot(pairs)
    changed = [key for key in before if before[key] != after[key]]
    assert changed == []


def test_no_code_assigns_a_bit_generator_state():
    """Nothing in svot/ rewinds or replays a Generator: no assignment to ``<...>.bit_generator.state``."""
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr == "state" and isinstance(t.value, ast.Attribute) and t.value.attr == "bit_generator":
                    offenders.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    assert offenders == []


def test_the_bit_generator_check_sees_an_assignment():
    tree = ast.parse("rng.bit_generator.state = saved")
    t = tree.body[0].targets[0]
    assert isinstance(t, ast.Attribute) and t.attr == "state" and t.value.attr == "bit_generator"


@pytest.mark.parametrize("domain", DOMAINS)
def test_generator_modules_have_one_entry(domain):
    module = get_domain(domain).sampler
    assert callable(getattr(module, "sample", None))
    for twin in ("draw_bits", "bit_stream", "generate"):
        assert not hasattr(module, twin), twin


def test_a_draw_depends_only_on_its_generator():
    """Drawing other problems in between (other domains, other sizes) leaves a Generator's draw unchanged."""
    from svot.problem_gen import draw_rng, sample

    def name_of(domain, seed):
        return sample(get_domain(domain), 6, "ood", draw_rng(np.random.default_rng(seed))).problem.name

    first = [name_of("sokoban", s) for s in range(5)]
    for s in range(20):
        sample(get_domain("frozenlake"), 5, "id", np.random.default_rng(100 + s))
        sample(get_domain("sokoban"), 4, "ood", np.random.default_rng(100 + s))
    assert [name_of("sokoban", s) for s in range(5)] == first
