"""Issue 17: "DomainSpec becomes a declared protocol, typed, with every hook that export, scoring,
rendering and generation need, in place of optional attributes probed with getattr."

The protocol is :class:`svot.kernel.DomainSpec` itself: every hook the shared layers call is
declared there, with its type and, where one works for any grid domain, a default. What a spec
must set itself (``REQUIRED_ATTRIBUTES``, ``REQUIRED_HOOKS``) is checked when it is registered.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import svot
from svot.domains import SPECS, register
from svot.kernel import DomainSpec, GridDomain
from svot.kernel.spec import REQUIRED_ATTRIBUTES, REQUIRED_HOOKS, check_spec
from svot.errors import ConfigError
from svot.extend import register_domain

from tests.toy_domain.lamps import LampsGenerator, LampsSpec

ROOT = Path(svot.__file__).parent
# the names a shared module gives the spec it reads (``spec.kinds``, ``self.dspec.fields``)
SPEC_NAMES = {"spec", "dspec", "_spec", "domain_spec"}


def _shared_modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        in_domain_folder = parts[0] == "domains" and len(parts) > 2
        if not in_domain_folder and parts[0] != "rulemaze":  # RuleMaze reads its own objects named "spec"
            yield path


def spec_reads() -> dict[str, set[str]]:
    """attribute -> the shared modules that read it off a spec."""
    reads: dict[str, set[str]] = {}
    for path in _shared_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else None
            if name in SPEC_NAMES:
                reads.setdefault(node.attr, set()).add(str(path.relative_to(ROOT)))
    return reads


# Attributes read off objects named "spec" that are not DomainSpecs: Gymnasium's EnvSpec
# (``env.spec.id``), importlib's ModuleSpec (``spec.loader``).
NOT_DOMAIN_SPECS = {"id", "entry_point", "kwargs", "max_episode_steps", "loader", "__name__"}


def test_every_hook_the_shared_layers_read_is_declared_on_the_protocol():
    reads = spec_reads()
    assert {"kinds", "fields", "state_dict", "problem_from_state", "cell_kinds"} <= set(reads), "the scan sees the reads"
    declared = set(dir(DomainSpec)) | set(DomainSpec.__annotations__)
    undeclared = {a: sorted(m) for a, m in reads.items() if a not in declared and a not in NOT_DOMAIN_SPECS}
    assert undeclared == {}


@pytest.mark.parametrize("hook", REQUIRED_HOOKS)
def test_required_hooks_are_declared_and_only_raise_on_the_base(hook):
    assert hook in vars(DomainSpec)
    with pytest.raises(NotImplementedError):
        getattr(DomainSpec(), hook)(*([None] * (getattr(DomainSpec, hook).__code__.co_argcount - 1)))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_registered_spec_keeps_the_protocol(name):
    check_spec(SPECS[name])


@pytest.mark.parametrize("left_out", REQUIRED_ATTRIBUTES + REQUIRED_HOOKS)
def test_a_spec_missing_a_required_piece_is_refused_at_registration_naming_it(left_out):
    class Partial(LampsSpec):
        name = "partial"

    if left_out in REQUIRED_HOOKS:
        setattr(Partial, left_out, getattr(DomainSpec, left_out))
    else:
        for cls in Partial.__mro__[:-1]:
            if left_out in vars(cls) and cls is not DomainSpec:
                # hide the inherited value: an attribute missing all the way up
                setattr(Partial, left_out, property(lambda self, _n=left_out: (_ for _ in ()).throw(AttributeError(_n))))
                break
    with pytest.raises(ConfigError, match=rf"Partial does not set .*{left_out}"):
        register_domain(Partial(), LampsGenerator(LampsSpec()))
    assert "partial" not in SPECS, "nothing is half-registered"


@pytest.mark.parametrize(
    "attr, value, says",
    [
        ("name", "Lamps2", "lower-case"),
        ("sizes", (4, 1), "integers >= 2"),
        ("sizes", [4, 5], "tuple"),
        ("kinds", ("player", "lamp", "lamp"), "distinct"),
        ("fields", ("player",), "svot.kernel.Field"),
    ],
)
def test_a_spec_of_the_wrong_shape_is_refused_naming_the_attribute(attr, value, says):
    spec = LampsSpec()
    object.__setattr__(spec, attr, value)
    with pytest.raises(ConfigError, match=rf"{attr} .*{says}|{says}"):
        register(GridDomain(spec, LampsGenerator(spec)), env="tests.toy_domain.unused:Env")
    assert SPECS.get(spec.name) is not spec
