"""The domain contract: every registered domain, the toy ``lamps`` included, goes through every layer.

Issue 17 asks for one test, parametrized over the registry in the style of pgx's API test, that a
domain registered from ``tests/`` (``tests/toy_domain/lamps.py``, no svot file edited) passes exactly
as the built-ins do:

- the env (Gymnasium's ``check_env``; the plan reaches the goal) and the vector env;
- render -> perceive and state text -> parse round trips;
- generation and solving;
- ``svot export`` of a small split, then ``svot evaluate`` of its ground truth, which scores 100 %.
"""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pyarrow.parquet as pq
import pytest
from gymnasium.utils.env_checker import check_env

from svot.cli import main as cli_main
from svot.domains import DOMAINS, env_id, generate, get_spec, solve
from svot.extend import register_domain, unregister_domain
from svot.render import describe, label_grid, parse, read_labels

from tests.metrics.metrics_helpers import truth_predictions, write_jsonl
from tests.toy_domain.lamps import LampsGenerator, LampsSpec

TOY = "lamps"
UNDER_TEST = [*DOMAINS, TOY]


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield
    unregister_domain(TOY)


def smallest(domain: str) -> int:
    return min(get_spec(domain).sizes)


@pytest.mark.parametrize("domain", UNDER_TEST)
def test_env_passes_the_checker_and_its_plan_reaches_the_goal(domain):
    env = gym.make(env_id(domain, smallest(domain)), render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    plan = env.unwrapped.plan
    assert plan, "the env solves the problem it samples"
    for a in plan:
        obs, reward, terminated, truncated, info = env.step(a)
    assert terminated and not truncated and reward > 0 and info["is_success"] is True


@pytest.mark.parametrize("domain", UNDER_TEST)
def test_vector_env_steps_like_the_single_env(domain):
    eid, n = env_id(domain, smallest(domain)), 3
    venv = gym.make_vec(eid, num_envs=n)
    single = gym.make(eid)
    obs, _ = venv.reset(seed=11)
    assert obs.shape == (n, *single.observation_space.shape)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, reward, terminated, truncated, _ = venv.step(rng.integers(single.action_space.n, size=n))
        assert obs.shape[0] == reward.shape[0] == terminated.shape[0] == n
        assert all(single.observation_space.contains(o) for o in obs)
    venv.close()


@pytest.mark.parametrize("domain", UNDER_TEST)
def test_render_perceive_and_text_round_trips(domain):
    size = smallest(domain)
    env = gym.make(env_id(domain, size), render_mode="rgb_array").unwrapped
    spec = env.dspec
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(25):
        assert read_labels(spec, env.render(), size) == label_grid(spec, info["state"])
        assert parse(spec, describe(spec, info["state"])) == info["state"]
        _, _, terminated, _, info = env.step(int(rng.integers(env.action_space.n)))
        if terminated:
            _, info = env.reset()


@pytest.mark.parametrize("domain", UNDER_TEST)
def test_generated_problems_are_solved_by_solve(domain):
    size, spec = smallest(domain), get_spec(domain)
    rng = np.random.default_rng(7)
    for split in ("id", "ood"):
        g = generate(domain, size, split, rng)
        plan = solve(domain, g.problem)
        assert plan is not None and len(plan) == len(g.plan)
        engine = spec.make_engine(g.problem)
        s = engine.initial()
        for a in plan:
            s, applied = engine.step(s, spec.action_key(a, size))
            assert applied
        assert engine.is_goal(s)


@pytest.mark.parametrize("domain", UNDER_TEST)
def test_export_then_evaluate_the_ground_truth_scores_100_percent(domain, tmp_path):
    size = smallest(domain)
    out = tmp_path / "data"
    assert cli_main(["export", "--quiet", "--domains", domain, "--sizes", str(size), "--splits", "test_id",
                     "--maps-per-split", "2", "--image-size", "96", "--out", str(out)]) == 0
    rows = [r for p in sorted(out.rglob("*.parquet")) for r in pq.read_table(p).to_pylist()]
    assert rows and {r["domain"] for r in rows} == {domain}
    for r in rows:
        assert len(r["choices"]) == 4 and len(set(map(str, r["choices"]))) == 4
        assert r["answer"] and all(s["z_text"] and s["reasoning"] for s in r["steps"])
    preds = write_jsonl(tmp_path / "preds.jsonl", truth_predictions(rows, tmp_path))
    report = tmp_path / "report.json"
    assert cli_main(["evaluate", "--data", str(out), "--predictions", str(preds), "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["issues"] == [] and data["scored"] == len(rows)
    for g in data["groups"]:
        assert g["classification"]["accuracy"] == 1.0 and g["free_response"]["accuracy"] == 1.0
        assert g["state"]["r_z"] == 1.0 and g["reasoning"]["r_c"] == 1.0
        assert g["images"]["full_acc"] == 1.0 and g["images"]["bkg_err"] == 0.0
