"""A spec that declares its ``look`` and ``wording`` modules gets their names as hooks (svot.kernel.spec)."""

from __future__ import annotations

import types

import pytest

from svot.domains import SPECS
from svot.kernel.spec import LOOK_VALUES, WORDING_ANSWERS, WORDING_HOOKS, WORDING_VALUES, DomainSpec


def _module(name: str, **names) -> types.ModuleType:
    m = types.ModuleType(name)
    vars(m).update(names)
    return m


def test_declared_modules_become_attributes_and_hooks():
    toy_look = _module("toy_look", FLOOR=(1, 2, 3), SPRITES={"lamp": "coin"})
    toy_wording = _module(
        "toy_wording",
        QUESTION="Where is the lamp?",
        describe=lambda size, colours=(): f"a {size}x{size} room",
        is_partial=lambda truth, choice, initial=None: True,
    )

    class Spec(DomainSpec):
        name, title, pddl, sizes, kinds, fields = "toy", "Toy", "maze", (3,), ("player",), ()
        sprites = {"lamp": "flag"}  # the class body wins over the module
        look = toy_look
        wording = toy_wording

    spec = Spec()
    assert spec.floor == (1, 2, 3)
    assert spec.sprites == {"lamp": "flag"}
    assert spec.question() == "Where is the lamp?"
    assert spec.describe(4) == "a 4x4 room"
    assert spec.is_partial({}, {}) is True
    assert spec.empty_cell_name == DomainSpec.empty_cell_name  # not in the module: the default stays


def test_a_hook_with_other_parameters_is_refused_naming_module_and_hook():
    toy_wording = _module("toy_wording", effect_clauses=lambda before, after, add: [])
    with pytest.raises(TypeError, match=r"toy_wording\.effect_clauses\(before, after, add\).*\(before, after, applied, add\)"):

        class Spec(DomainSpec):  # noqa: F841
            name = "toy"
            wording = toy_wording


@pytest.mark.parametrize("name", sorted(SPECS))
def test_built_in_specs_take_every_name_their_modules_define(name):
    spec = SPECS[name]
    for module, table in ((spec.look, LOOK_VALUES), (spec.wording, WORDING_VALUES)):
        for key, attr in table.items():
            if module is not None and key in vars(module) and attr not in type(spec).__dict__:
                assert getattr(spec, attr) is vars(module)[key]
    for key, hook in WORDING_ANSWERS.items():
        if key in vars(spec.wording):
            assert getattr(spec, hook)() == vars(spec.wording)[key]
    for hook in WORDING_HOOKS:
        if hook in vars(spec.wording) and hook not in type(spec).__dict__:
            assert getattr(type(spec), hook) is vars(spec.wording)[hook]
