"""Env-side overhead of an agent turn, beside a plain ``env.step`` in the same run (issue 46).

    python benchmarks/bench_agents.py            # every grid domain at its largest size and RuleMaze
    python benchmarks/bench_agents.py --quick    # two ids, short budget

Per id, per action (random actions pre-drawn from ``numpy.random.default_rng(0)``, resets included when an
episode ends, each reset with its own seed as the adapters do; time in reset() left out of every column):

* ``step us``: ``gymnasium.make(id)`` stepped with action indices (info as the core reads it: state text);
* ``turn-text us``: :meth:`svot.agents.AgentEpisode.act` on the action's text: parse + step + state text +
  per-turn info (state hash, effective);
* ``turn-png us``: the same with ``observation="both"``: plus the frame as a 128-px PNG;
* ``png us``: the PNG alone (the frame encoded), the share of the turn an image costs;
* ``x step``: turn-png over step.

* ``server us`` (``--server``, the agents extra): the text turn through svot's OpenEnv server on 127.0.0.1
  (``svot serve`` in a subprocess) and its WebSocket client, round trip included.

Goal (issue 46): under 1 ms (1000 us) per turn in-process, so the env is never the bottleneck of a model loop.
No threshold is asserted: this prints numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import time
import urllib.request

import gymnasium as gym
import numpy as np

import svot  # noqa: F401 - registers the ids
from svot.agents import AgentEpisode, EpisodeConfig

FULL = ["SVoT/Maze-7x7-v0", "SVoT/FrozenLake-6x6-v0", "SVoT/Sokoban-6x6-v0", "SVoT/Pacman-6x6-v0",
        "SVoT/Gather-6x6-v0", "SVoT/OpenQuestMaze-7x7-v0", "RuleMaze/QuestMaze-5x5-v1", "RuleMaze/RegularMaze-3x3-v0"]
QUICK = ["SVoT/Maze-7x7-v0", "RuleMaze/RegularMaze-3x3-v0"]


def _plain_step(eid: str, actions: np.ndarray, seconds: float) -> float:
    env = gym.make(eid)
    seed = 0
    env.reset(seed=seed)
    n, t_reset, t0 = 0, 0.0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _o, _r, term, trunc, info = env.step(int(actions[n % len(actions)]))
        info.get("state_text")  # what the agent core reads each turn
        n += 1
        if term or trunc:
            seed += 1
            r0 = time.perf_counter()
            env.reset(seed=seed)
            t_reset += time.perf_counter() - r0
    return (time.perf_counter() - t0 - t_reset) / n * 1e6


def _turns(eid: str, actions: np.ndarray, seconds: float, observation: str) -> tuple[float, float]:
    ep = AgentEpisode(EpisodeConfig(observation=observation, image_size=128))
    seed = 0
    ep.reset(id=eid, seed=seed)
    words = ep.driver.action_words()
    texts = [words[int(a) % len(words)] for a in actions]
    n, t_reset, t0 = 0, 0.0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        ep.act(texts[n % len(texts)])
        n += 1
        if ep.done:
            seed += 1
            r0 = time.perf_counter()
            ep.reset(id=eid, seed=seed)
            t_reset += time.perf_counter() - r0
    return (time.perf_counter() - t0 - t_reset) / n * 1e6, t_reset


def _png(eid: str, seconds: float) -> float:
    ep = AgentEpisode(EpisodeConfig(observation="both", image_size=128))
    ep.reset(id=eid, seed=0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        ep.png()
        n += 1
    return (time.perf_counter() - t0) / n * 1e6


def _serve() -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "svot", "serve", "--port", str(port), "--lifetime", "600"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the OpenEnv server did not start")


def _server_turns(url: str, eid: str, actions: np.ndarray, seconds: float) -> float:
    from svot.agents.openenv_env import SVoTAction, SVoTEnvClient  # the agents extra

    ep = AgentEpisode()
    ep.reset(id=eid, seed=0)
    words = ep.driver.action_words()

    async def run() -> float:
        async with SVoTEnvClient(base_url=url) as c:
            seed = 0
            await c.reset(id=eid, seed=seed)
            n, t_reset, t0 = 0, 0.0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                r = await c.step(SVoTAction(text=words[int(actions[n % len(actions)]) % len(words)], kind="act"))
                n += 1
                if r.done:
                    seed += 1
                    r0 = time.perf_counter()
                    await c.reset(id=eid, seed=seed)
                    t_reset += time.perf_counter() - r0
            return (time.perf_counter() - t0 - t_reset) / n * 1e6

    return asyncio.run(run())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seconds", type=float, default=None, help="budget per cell")
    ap.add_argument("--ids", default=None, help="comma-separated ids")
    ap.add_argument("--server", action="store_true", help="also through the OpenEnv server (the agents extra)")
    a = ap.parse_args(argv)
    seconds = a.seconds if a.seconds is not None else (0.3 if a.quick else 1.5)
    ids = a.ids.split(",") if a.ids else (QUICK if a.quick else FULL)
    actions = np.random.default_rng(0).integers(0, 64, 4096)
    server = _serve() if a.server else None
    print(f"{'env':32s} {'step us':>9s} {'turn-text us':>13s} {'turn-png us':>12s} {'png us':>8s} {'x step':>7s}"
          + (f" {'server us':>10s}" if server else ""))
    worst = 0.0
    for eid in ids:
        n = gym.make(eid).unwrapped.action_space.n
        acts = actions % n
        step = _plain_step(eid, acts, seconds)
        text, _ = _turns(eid, acts, seconds, "text")
        png_turn, _ = _turns(eid, acts, seconds, "both")
        png = _png(eid, seconds)
        worst = max(worst, png_turn)
        remote = f" {_server_turns(server[1], eid, acts, seconds):10.1f}" if server else ""
        print(f"{eid:32s} {step:9.1f} {text:13.1f} {png_turn:12.1f} {png:8.1f} {png_turn / step:7.1f}{remote}")
    if server:
        server[0].kill()
    print(f"goal: under 1000 us per turn in-process (parse + step + text + 128-px PNG); slowest this run: "
          f"{worst:.0f} us")


if __name__ == "__main__":
    main()
