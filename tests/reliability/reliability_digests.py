"""Print sha256 digests of every generator's output as JSON (run in fresh processes by the determinism tests).

Usage: ``python reliability_digests.py <part>[,<part>...]`` with parts
``problems`` (problem_gen: every domain x Table 5 size x split), ``pool``
(RuleMaze pools, 1 and 2 workers), ``env`` (single-env reset sequences) and
``vector`` (vector-env resets and steps).
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np


def _h() -> hashlib._Hash:
    return hashlib.sha256()


def problems() -> dict:
    from svot.domains import PARAMS, generate

    out = {}
    for domain, params in PARAMS.items():
        for size in params["sizes"]:
            for split in ("id", "ood"):
                h = _h()
                for seed in (0, 1):
                    rng = np.random.default_rng(seed)
                    for _ in range(2):
                        g = generate(domain, size, split, rng)
                        h.update(g.problem.to_pddl().encode())
                        h.update(json.dumps([list(g.plan), g.state, g.params], sort_keys=True, default=str).encode())
                out[f"problems/{domain}-{size}-{split}"] = h.hexdigest()
    return out


def pool() -> dict:
    from svot.rulemaze.pool import generate_pool

    out = {}
    for scenario in ("RegularMaze", "QuestMaze"):
        for workers in (1, 2):
            mazes = generate_pool(scenario, 3, 40, seed=5, workers=workers)
            text = "\n".join(json.dumps(m.to_dict(), sort_keys=True) for m in mazes)
            out[f"pool/{scenario}"] = out.get(f"pool/{scenario}") or hashlib.sha256(text.encode()).hexdigest()
            assert out[f"pool/{scenario}"] == hashlib.sha256(text.encode()).hexdigest(), "pool differs by workers"
    return out


def env() -> dict:
    import gymnasium as gym

    import svot  # noqa: F401
    from svot.domains import SPECS
    from svot.domains import env_id

    out = {}
    for domain, spec in SPECS.items():
        for size in (spec.sizes[0], spec.sizes[-1]):
            h = _h()
            e = gym.make(env_id(domain, size, "ood"))
            obs, info = e.reset(seed=7)
            for k in range(3):  # later resets continue the env's own generator
                h.update(obs.tobytes() + json.dumps(info, sort_keys=True).encode())
                for a in range(min(3, e.action_space.n)):
                    obs, r, term, trunc, info = e.step(a)
                    h.update(obs.tobytes() + json.dumps([r, term, trunc, info], sort_keys=True).encode())
                obs, info = e.reset()
            out[f"env/{domain}-{size}"] = h.hexdigest()
    return out


def vector() -> dict:
    import gymnasium as gym

    import svot  # noqa: F401
    from svot.domains import SPECS
    from svot.domains import env_id

    out = {}
    for domain, spec in SPECS.items():
        for split in ("id", "ood"):
            h = _h()
            venv = gym.make_vec(env_id(domain, spec.sizes[0], split), num_envs=4, pool_size=8, info_level="state")
            obs, info = venv.reset(seed=3)
            h.update(obs.tobytes() + json.dumps(list(info["state"]), sort_keys=True).encode())
            rng = np.random.default_rng(0)
            for _ in range(6):
                actions = rng.integers(venv.single_action_space.n, size=4)
                obs, r, term, trunc, info = venv.step(actions)
                h.update(obs.tobytes() + r.tobytes() + term.tobytes() + trunc.tobytes())
                h.update(json.dumps(list(info["state"]), sort_keys=True).encode())
            out[f"vector/{domain}-{split}"] = h.hexdigest()
            venv.close()
    return out


PARTS = {"problems": problems, "pool": pool, "env": env, "vector": vector}

if __name__ == "__main__":
    result = {}
    for part in sys.argv[1].split(","):
        result.update(PARTS[part]())
    print(json.dumps(result, sort_keys=True))
