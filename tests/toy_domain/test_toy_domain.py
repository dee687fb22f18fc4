"""Adding a domain from outside the package (README, "Adding a domain"), end to end.

The toy "lamps" domain lives in this folder (``lamps.py``: its DomainSpec and
generator, beside its PDDL file). ``svot.extend.register_domain`` registers them;
then the env, the renderer, the perception, the state text and the PDDLGym
reference engine all work for it with no further code, and so do the dataset's
wording and the scoring, through the DomainSpec hooks' defaults
(``tests/test_contract.py`` runs every layer on it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from svot.domains import get_domain
from svot.extend import register_domain, unregister_domain
from svot.pddl import load_domain

from tests.toy_domain.lamps import PDDL, LampsGenerator, LampsOrSpec, LampsSpec, LampsTypedSpec


@pytest.fixture(scope="module")
def lamp_ids():
    ids = register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield ids
    unregister_domain("lamps")
    assert "SVoT/Lamps-4x4-v0" not in gym.registry


def test_registers_ids(lamp_ids):
    assert lamp_ids == ["SVoT/Lamps-4x4-v0", "SVoT/Lamps-4x4-OOD-v0", "SVoT/Lamps-5x5-v0", "SVoT/Lamps-5x5-OOD-v0"]


@pytest.mark.parametrize("eid", ["SVoT/Lamps-4x4-v0", "SVoT/Lamps-5x5-OOD-v0"])
def test_env_checker_and_plan(lamp_ids, eid):
    env = gym.make(eid, render_mode="rgb_array")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=4)
    assert info["state_text"].startswith("Lamps,")
    for a in env.unwrapped.plan:
        obs, reward, terminated, _, info = env.step(a)
    assert terminated and reward == 1.0
    assert sorted(info["state"]["lit"]) == sorted(info["state"]["lamps"])
    frame = env.render()
    assert frame.shape == (256, 256, 3)


def test_text_image_round_trip(lamp_ids):
    from svot.render.labels import label_grid
    from svot.render.perceive import read_labels
    from svot.render.text import describe, parse

    env = gym.make("SVoT/Lamps-5x5-v0", render_mode="rgb_array").unwrapped
    _, info = env.reset(seed=1)
    spec = env.dspec
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, _, term, _, info = env.step(int(rng.integers(4)))
        assert parse(spec, describe(spec, info["state"])) == info["state"]
        assert read_labels(spec, env.render(), 5) == label_grid(spec, info["state"])
        if term:
            env.reset()


def test_one_ground_action_per_move(lamp_ids):
    """Deterministic: PDDLGym would pick among several applicable operators in hash order."""
    env = gym.make("SVoT/Lamps-5x5-v0").unwrapped
    env.reset(seed=0)
    task = env.engine.task
    rng = np.random.default_rng(1)
    s = env.engine.initial()
    for _ in range(100):
        for key in env._keys:
            assert len(task.applicable_all(s, key)) <= 1
        s, _ = env.engine.step(s, env._keys[int(rng.integers(4))])


@pytest.mark.pddlgym
def test_agrees_with_pddlgym(lamp_ids):
    fast = gym.make("SVoT/Lamps-4x4-v0").unwrapped
    ref = gym.make("SVoT/Lamps-4x4-v0", engine="pddlgym").unwrapped
    fast.reset(seed=2)
    ref.reset(seed=2)
    for a in np.random.default_rng(3).integers(4, size=40).tolist():
        assert fast.step(a)[1:] == ref.step(a)[1:]




def _plays_like_lamps(spec_cls, caplog, reason, steps):
    """Register ``spec_cls``; its env must step on PDDLGym, log ``reason``, and play exactly as the STRIPS lamps."""
    import logging

    from svot.engine.reference import PDDLGymEngine
    from svot.envs.vector import SVoTVectorEnv
    from svot.errors import ConfigError

    assert load_domain(spec_cls.pddl).unsupported == reason
    with caplog.at_level(logging.WARNING, logger="svot.engine"):
        ids = register_domain(spec_cls(), LampsGenerator(spec_cls()))
        try:
            title = spec_cls.title
            slow, fast = gym.make(f"SVoT/{title}-4x4-v0"), gym.make("SVoT/Lamps-4x4-v0")
            obs_s, _ = slow.reset(seed=5)
            obs_f, _ = fast.reset(seed=5)
            assert isinstance(slow.unwrapped.engine, PDDLGymEngine)
            assert f"cannot run {reason}; stepping with PDDLGym" in caplog.text
            assert np.array_equal(obs_s, obs_f) and slow.unwrapped.plan == fast.unwrapped.plan
            for a in np.random.default_rng(6).integers(4, size=steps).tolist():
                o_s, r_s, t_s, u_s, i_s = slow.step(a)
                o_f, r_f, t_f, u_f, i_f = fast.step(a)
                assert np.array_equal(o_s, o_f) and (r_s, t_s, u_s) == (r_f, t_f, u_f)
                assert i_s["state"]["lit"] == i_f["state"]["lit"] and i_s["applicable"] == i_f["applicable"]
                if t_s:
                    break
            # make_vec falls back to Gymnasium's sync vector env (a registered domain has no vector entry point)
            venv = gym.make_vec(f"SVoT/{title}-4x4-v0", num_envs=2)
            obs, _ = venv.reset(seed=1)
            assert obs.shape == (2, 4, 4)
            venv.step(np.array([0, 1]))
            venv.close()
            with pytest.raises(ConfigError, match="vector env needs svot's compiled engine.*vectorization_mode='sync'"):
                SVoTVectorEnv(num_envs=2, domain=get_domain(spec_cls.name), size=4)
        finally:
            unregister_domain(spec_cls.name)
    assert ids == [f"SVoT/{title}-4x4-v0", f"SVoT/{title}-4x4-OOD-v0"]


@pytest.mark.pddlgym
def test_type_hierarchy_steps_on_pddlgym(lamp_ids, caplog):
    """The compiled engine binds by exact type, so a subtype goes to PDDLGym (its CSP search), logged."""
    _plays_like_lamps(LampsTypedSpec, caplog, "a type hierarchy (cell - place, line 6)", steps=60)


@pytest.mark.pddlgym
@pytest.mark.skipif(shutil.which("swipl") is None, reason="PDDLGym runs disjunctions through SWI-Prolog: apt-get install swi-prolog-nox")
def test_disjunction_steps_on_pddlgym_through_prolog(lamp_ids, caplog):
    _plays_like_lamps(LampsOrSpec, caplog, "action 'light' uses 'or' (line 28)", steps=25)


@pytest.mark.pddlgym
def test_disjunction_without_prolog_is_refused_with_the_reason(monkeypatch):
    from svot.engine import make_engine
    from svot.errors import PDDLError

    monkeypatch.setattr(shutil, "which", lambda name: None)
    spec = LampsOrSpec()
    state = {"domain": spec.name, "size": 4, "player": [0, 0], "lamps": [[0, 1]], "lit": []}
    with pytest.raises(PDDLError, match=r"lamps_or.pddl: PDDLGym runs action 'light' uses 'or' \(line 28\) only through SWI-Prolog"):
        make_engine("grounded", load_domain(spec.pddl), spec.problem_from_state(state, "x"))


def test_conditional_effects_are_refused_with_their_line(tmp_path):
    from svot.errors import PDDLError

    text = Path(PDDL).read_text().replace("(lit ?to))", "(when (lamp ?to) (lit ?to)))")
    bad = tmp_path / "lamps_when.pddl"
    bad.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "(when" in row)
    with pytest.raises(PDDLError, match=rf"lamps_when.pddl:{line}: action 'light' uses conditional effects \('when'\)"):
        load_domain(str(bad))
