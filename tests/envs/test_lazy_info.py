"""The lazy ``info`` dict (svot.envs.info): computed on read, yet a dict to every consumer.

Gymnasium's contract is that ``step``/``reset`` return ``info`` as a ``dict``
(its env checker asserts ``isinstance(info, dict)``); its wrappers add keys to
it (``RecordEpisodeStatistics`` writes ``info["episode"]``) and its vector envs
merge per-env infos by iterating ``items()`` (``SyncVectorEnv``) or pickle them
through a pipe (``AsyncVectorEnv``). These tests run those real consumers.
"""

from __future__ import annotations

import copy
import json
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.wrappers import RecordEpisodeStatistics

import svot  # noqa: F401  (registers the ids)
from svot.envs.info import PENDING, LazyInfo
from svot.render.text import describe

IDS = ["SVoT/Maze-5x5-v0", "SVoT/FrozenLake-4x4-v0", "SVoT/Sokoban-6x6-v0", "SVoT/Pacman-5x5-v0", "SVoT/Gather-5x5-v0"]


def _eager(env) -> dict:
    """What the info fields must hold for the env's current state, built without the lazy path."""
    u = env.unwrapped
    atoms = sorted("(" + " ".join(a) + ")" for a in u.engine.true_atoms(u._state))
    return {"state": u.state, "state_text": describe(u.dspec, u.state), "atoms": atoms}


@pytest.mark.parametrize("env_id", IDS)
def test_fields_are_those_of_the_state_the_info_was_returned_for(env_id):
    env = gym.make(env_id, disable_env_checker=True)  # the checker reads the first infos (it compares them)
    _, info0 = env.reset(seed=5)
    want0 = _eager(env)
    infos, wants = [], []
    rng = np.random.default_rng(0)
    for _ in range(12):
        _, _, term, trunc, info = env.step(int(rng.integers(env.action_space.n)))
        infos.append(info)
        wants.append(_eager(env))
        if term or trunc:
            break
    # read only now, after the env moved on: each info still describes its own step's state
    for info, want in zip([info0] + infos, [want0] + wants):
        assert isinstance(info, dict)
        assert dict.__getitem__(info, "state") is PENDING  # nothing was built before the read
        assert {k: info[k] for k in want} == want
    assert set(info0) == {"applicable", "state", "state_text", "atoms"}


def test_each_info_owns_its_state():
    env = gym.make("SVoT/Maze-5x5-v0")
    _, a = env.reset(seed=1)
    b = env.unwrapped._info(applicable=True)  # a second info of the same state
    a["state"]["player"][0] = 99
    assert b["state"]["player"][0] != 99
    assert env.unwrapped.state["player"][0] != 99


def test_mapping_protocol_sees_values_never_placeholders():
    env = gym.make("SVoT/Gather-4x4-v0")
    _, info = env.reset(seed=2)
    want = _eager(env) | {"applicable": True}
    assert dict(info) == want
    assert {**info} == want
    merged = {}
    merged.update(info)
    assert merged == want
    assert info == want and want == info
    assert dict(info.items()) == want and list(info.values()) == [want[k] for k in info]
    assert json.loads(json.dumps(info)) == json.loads(json.dumps(want))
    for clone in (copy.copy(info), copy.deepcopy(info), pickle.loads(pickle.dumps(info)), info.copy(), info | {}):
        assert type(clone) is dict and clone == want
    assert info.get("state_text") == want["state_text"] and info.get("nope", 3) == 3
    assert "PENDING" not in repr(info) and "<pending>" not in repr(info)
    assert info.pop("atoms") == want["atoms"] and "atoms" not in info
    info["extra"] = 1
    assert info["extra"] == 1 and len(info) == 4


def test_minimal_and_state_levels():
    env = gym.make("SVoT/Maze-5x5-v0", info_level="minimal")
    _, info = env.reset(seed=0)
    assert type(info) is dict and set(info) == {"applicable"}
    env = gym.make("SVoT/Maze-5x5-v0", info_level="state")
    _, info = env.reset(seed=0)
    assert set(info) == {"applicable", "state"} and info["state"] == env.unwrapped.state


def test_record_episode_statistics_adds_its_episode_key():
    env = RecordEpisodeStatistics(gym.make("SVoT/FrozenLake-4x4-v0"))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        _, _, term, trunc, info = env.step(int(rng.integers(4)))
        if term or trunc:
            assert info["episode"]["l"] >= 1 and "state" in info and info["state"]["size"] == 4
            episodes += 1
            env.reset()
    assert episodes > 0


@pytest.mark.parametrize("vector_cls", [gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv])
def test_vector_info_merging(vector_cls):
    env_id = "SVoT/Pacman-4x4-v0"
    fns = [lambda: gym.make(env_id) for _ in range(2)]
    venv = vector_cls(fns)
    try:
        _, infos = venv.reset(seed=[3, 4])
        singles = []
        for s in (3, 4):
            e = gym.make(env_id)
            e.reset(seed=s)
            singles.append(_eager(e))
        for i in range(2):
            assert infos["_state"][i] and infos["state"]["player"][i] == singles[i]["state"]["player"]
            assert infos["state_text"][i] == singles[i]["state_text"]
            assert list(infos["atoms"][i]) == singles[i]["atoms"]
        _, _, _, _, infos = venv.step(np.array([0, 1]))
        assert set(infos) >= {"applicable", "state", "state_text", "atoms"}
    finally:
        venv.close()


def test_lazy_info_standalone():
    calls = []

    def fill(key):
        calls.append(key)
        return key.upper()

    info = LazyInfo({"applicable": True}, ("a", "b"), fill)
    assert len(info) == 3 and calls == []
    assert info["a"] == "A" and info["a"] == "A" and calls == ["a"]
    assert info.setdefault("b", 0) == "B" and info.setdefault("c", 0) == 0
    assert info.popitem() == ("c", 0)
    with pytest.raises(KeyError):
        info.pop("zz")


def test_lazy_info_from_template_is_the_constructed_info():
    from svot.envs.info import PENDING

    def fill(key):
        return key * 2

    built = LazyInfo({"applicable": True}, ("a", "b"), fill)
    templ = LazyInfo.from_template({"applicable": True, "a": PENDING, "b": PENDING}, fill)
    assert type(templ) is LazyInfo and list(templ) == list(built) and templ == built
    assert templ["a"] == "aa" and dict(templ) == {"applicable": True, "a": "aa", "b": "bb"}
