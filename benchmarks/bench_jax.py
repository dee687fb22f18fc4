"""svot's JAX backend beside its numpy vector env and Jumanji's Sokoban and Maze, in one run.

    pip install -e '.[jax,bench]'                 # jax (CPU; CUDA: pip install "jax[cuda12]"), jumanji
    python benchmarks/bench_jax.py                # 1 s per cell, 2^10..2^16 envs, every domain
    python benchmarks/bench_jax.py --quick        # 0.3 s per cell
    python benchmarks/bench_jax.py --domains maze,sokoban --log2-envs 10,14

Rows (env-steps/s, one id per domain, the largest registered size):

* ``numpy``: ``gymnasium.make_vec(id, num_envs=N, pool_size=P)`` stepped with pre-drawn actions
  (NextStep autoreset, observations computed);
* ``jax``: ``svot.jax.make(id, pool_size=P)``: ``jax.jit`` of a ``lax.scan`` of 32 steps of
  ``jax.vmap(env.step)`` over N envs, actions drawn inside (NextStep autoreset), every step's
  observations and rewards returned; ``compile s`` is the first call's time (trace, compile
  and one run) at each N;
* ``jumanji``: Jumanji's Sokoban and Maze on svot's own levels (``bench_peers.py`` builds them),
  ``VmapAutoResetWrapper(env).step`` in the same scan, its observations returned likewise.

Each rate is the best of 3 bursts within the cell's budget (other processes on a shared
machine slow some bursts). The device JAX found is printed first; the script runs unchanged on a GPU. The summary
line gives, at 2^14 envs, the lowest jax/numpy ratio over the domains (target >= 1 on
a CPU) and jax/jumanji on the shared domains. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import svot  # noqa: F401  (registers the ids)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_peers import _SVOT_TO_JUMANJI_MOVE, _fmt, _jumanji_maze, _jumanji_sokoban, _levels  # noqa: E402

DOMAIN_IDS = {
    "maze": "SVoT/Maze-7x7-v0", "frozenlake": "SVoT/FrozenLake-6x6-v0", "sokoban": "SVoT/Sokoban-6x6-v0",
    "pacman": "SVoT/Pacman-6x6-v0", "gather": "SVoT/Gather-6x6-v0", "regularmaze": "SVoT/RegularMaze-4x4-v0",
    "questmaze": "SVoT/QuestMaze-4x4-v0", "openquestmaze": "SVoT/OpenQuestMaze-7x7-v0",
}
JUMANJI = {"sokoban": _jumanji_sokoban, "maze": _jumanji_maze}
SCAN = 32  # steps per jitted call
BURSTS = 3  # a cell's rate is the best of this many bursts (the machine may be shared)


def numpy_rate(eid: str, n: int, pool: int, seed: int, seconds: float) -> float:
    venv = gym.make_vec(eid, num_envs=n, pool_size=pool)
    venv.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(venv.single_action_space.n, size=(16, n))
    venv.step(actions[0])
    best = 0.0
    for _ in range(BURSTS):
        k, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / BURSTS:
            venv.step(actions[k & 15])
            k += 1
        best = max(best, k * n / (time.perf_counter() - start))
    venv.close()
    return best


def _scan_rate(jax, reset, step, n_actions, n: int, seed: int, seconds: float, action_of=None):
    """Steps/s of ``SCAN`` steps of ``step`` (batched) per jitted call; returns (rate, first-call seconds)."""
    @jax.jit
    def run(state, key):
        def body(s, k):
            a = jax.random.randint(k, (n,), 0, n_actions)
            if action_of is not None:
                a = action_of[a]
            s, ts = step(s, a)
            return s, (ts.observation, ts.reward)  # every env's observation, as the numpy env returns

        return jax.lax.scan(body, state, jax.random.split(key, SCAN))

    state, _ = jax.jit(reset)(jax.random.split(jax.random.PRNGKey(seed), n))
    t0 = time.perf_counter()
    state, r = run(state, jax.random.PRNGKey(seed + 1))
    jax.block_until_ready((state, r))
    first = time.perf_counter() - t0
    best = 0.0
    for b in range(BURSTS):
        k, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / BURSTS:
            state, r = run(state, jax.random.PRNGKey(k + 1000 * b))
            jax.block_until_ready((state, r))
            k += 1
        best = max(best, k * SCAN * n / (time.perf_counter() - start))
    return best, first


def jax_rate(jax, env, n: int, seed: int, seconds: float):
    return _scan_rate(jax, jax.vmap(env.reset), jax.vmap(env.step), env.num_actions, n, seed, seconds)


def jumanji_rate(jax, peer, n: int, seed: int, seconds: float):
    from jumanji.wrappers import VmapAutoResetWrapper  # bench extra

    env = VmapAutoResetWrapper(peer)
    moves = jax.numpy.asarray(_SVOT_TO_JUMANJI_MOVE, jax.numpy.int32)
    return _scan_rate(jax, env.reset, env.step, 4, n, seed, seconds, action_of=moves)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="0.3 s per cell")
    ap.add_argument("--seconds", type=float, default=None, help="budget per cell (default 1, quick 0.3)")
    ap.add_argument("--domains", default=",".join(DOMAIN_IDS), help="comma-separated (default: all)")
    ap.add_argument("--log2-envs", default="10,12,14,16", help="env counts as powers of two")
    ap.add_argument("--pool", type=int, default=1024, help="problems per pool (both backends)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-numpy", action="store_true", help="JAX rows only (e.g. on a GPU host)")
    ap.add_argument("--no-jumanji", action="store_true")
    args = ap.parse_args(argv)
    secs = args.seconds if args.seconds is not None else (0.3 if args.quick else 1.0)
    try:
        import jax  # jax extra

        import svot.jax  # needs jax
    except ImportError as exc:
        print(f"bench_jax needs the jax extra (pip install -e '.[jax]'): {exc}")
        return 1
    have_jumanji = not args.no_jumanji
    if have_jumanji:
        try:
            import jumanji  # noqa: F401  (bench extra)
        except ImportError:
            print("# jumanji is not installed (the bench extra): its rows are left out")
            have_jumanji = False
    dev = jax.devices()[0]
    counts = [1 << int(x) for x in args.log2_envs.split(",")]
    domains = [d.strip() for d in args.domains.split(",") if d.strip()]
    print(f"# bench_jax: JAX {jax.__version__} on {dev.platform} ({dev.device_kind}, {len(jax.devices())} device(s)); "
          f"{secs:g} s per cell, pool {args.pool}, {SCAN} steps per jitted scan")
    head = f"{'env':<22}{'envs':>7}{'numpy':>9}{'jax':>9}{'jax/np':>8}{'compile s':>10}{'jumanji':>9}{'jax/jum':>8}"
    print(head)
    print("-" * len(head))
    summary_np, summary_jum = [], []
    for d in domains:
        eid = DOMAIN_IDS[d]
        env = svot.jax.make(eid, pool_size=args.pool, seed=args.seed)
        peer = JUMANJI[d](_levels(eid, args.pool, args.seed)) if have_jumanji and d in JUMANJI else None
        for n in counts:
            npr = float("nan") if args.no_numpy else numpy_rate(eid, n, args.pool, args.seed, secs)
            jr, first = jax_rate(jax, env, n, args.seed, secs)
            jum = jumanji_rate(jax, peer, n, args.seed, secs)[0] if peer is not None else float("nan")
            if n == 1 << 14:
                if npr == npr:
                    summary_np.append((jr / npr, eid))
                if jum == jum:
                    summary_jum.append((jr / jum, eid))
            print(f"{eid.removeprefix('SVoT/'):<22}{n:>7}{_fmt(npr):>9}{_fmt(jr):>9}{jr / npr:>8.2f}{first:>10.1f}"
                  f"{_fmt(jum):>9}{jr / jum:>8.2f}", flush=True)
    parts = []
    if summary_np:
        lo = min(summary_np)
        parts.append(f"jax/numpy at 2^14 envs: lowest {lo[0]:.2f} ({lo[1]}) [>= 1 on a CPU]")
    if summary_jum:
        lo = min(summary_jum)
        parts.append(f"jax/jumanji at 2^14: lowest {lo[0]:.2f} ({lo[1]}) [> 1]")
    print("ratios, " + "; ".join(parts) if parts else "ratios: none at 2^14 envs in this run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
