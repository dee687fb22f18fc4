"""Same seed, same bytes: env resets in fresh processes under different PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = r"""
import hashlib, json
import gymnasium as gym
import svot
h = hashlib.sha256()
for eid in svot.domains.registered_ids():
    env = gym.make(eid, render_mode="rgb_array")
    for seed in (0, 1):
        obs, info = env.reset(seed=seed)
        h.update(json.dumps(info, sort_keys=True).encode())
        h.update(obs.tobytes())
        h.update(env.render().tobytes())
        for a in range(min(4, env.action_space.n)):
            obs, r, term, trunc, info = env.step(a)
            h.update(json.dumps([info, r, term], sort_keys=True).encode())
print(h.hexdigest())
"""


def _run(hashseed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_env_resets_identical_across_processes_and_hash_seeds():
    first = _run("0")
    assert len(first) == 64
    assert _run("12345") == first
    assert _run("random") == first
