"""svot beside its peers on the same levels, in one process: Jumanji (JAX) Sokoban and Maze, gym-sokoban.

    pip install -e '.[bench]'                   # jax[cpu], jumanji, gym-sokoban
    python benchmarks/bench_peers.py            # 3 s per cell
    python benchmarks/bench_peers.py --quick    # 0.5 s per cell

The levels are svot's: the ``pool_size`` problems that ``gymnasium.make(id,
pool_size=P).reset(seed=S)`` draws (Sokoban 6x6, Maze 7x7), written into each
peer's own state format and replayed there, so every engine steps the same
boards. Each loop replays actions pre-drawn from one seed and resets when an
episode ends. Rows (env-steps/s):

* ``svot rl``: ``gymnasium.make(id, info_level="minimal", pool_size=P)`` (the
  RL configuration; problems drawn from the pool of the same levels);
* ``svot vec``: ``gymnasium.make_vec(id, num_envs=N, pool_size=P)``;
* ``jumanji jit``: ``jax.jit(env.step)`` of one env behind Jumanji's
  ``AutoResetWrapper``, a generator that draws one of the levels per reset;
* ``jumanji jit(vmap)``: ``jax.jit`` of ``VmapAutoResetWrapper(env).step`` over N envs;
* ``gym-sokoban``: ``gym_sokoban``'s ``SokobanEnv.step(a, "tiny_rgb_array")`` (its
  cheapest observation) with ``room_fixed``/``room_state`` set from the levels.

Differences that stay: Jumanji's Sokoban board is 10x10 (svot's 6x6 boards are
placed in its corner, walled in) and counts a level solved at 4 boxes on
targets, so its episodes end at its time limit (120 steps) rather than at the
goal; gym-sokoban's board is the 6x6 board in a wall ring (8x8). The printed
ratios are svot's rate over the peer's; nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium as gym
import numpy as np

import svot  # noqa: F401  (registers the ids)


def _levels(eid: str, pool: int, seed: int) -> list[dict]:
    env = gym.make(eid, pool_size=pool)
    env.reset(seed=seed)
    return [g.state for g in env.unwrapped._pool]


def _svot_single(eid: str, pool: int, seed: int, seconds: float) -> float:
    env = gym.make(eid, info_level="minimal", pool_size=pool)
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(env.action_space.n, size=1 << 16).tolist()
    n = 0
    for phase in ("warm", "timed"):
        start = time.perf_counter()
        n = 0
        while time.perf_counter() - start < seconds:
            for _ in range(256):
                _, _, term, trunc, _ = env.step(actions[n & 0xFFFF])
                n += 1
                if term or trunc:
                    env.reset()
    return n / (time.perf_counter() - start)


def _svot_vec(eid: str, pool: int, seed: int, num_envs: int, seconds: float) -> float:
    venv = gym.make_vec(eid, num_envs=num_envs, pool_size=pool)
    venv.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(venv.single_action_space.n, size=(64, num_envs))
    for a in actions[:4]:
        venv.step(a)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step(actions[n & 63])
        n += 1
    rate = n * num_envs / (time.perf_counter() - start)
    venv.close()
    return rate


# --- Jumanji -------------------------------------------------------------------------------
_SVOT_TO_JUMANJI_MOVE = (0, 2, 3, 1)  # svot up, down, left, right -> Jumanji's up 0, right 1, down 2, left 3


def _jumanji_sokoban(levels: list[dict]):
    import jax.numpy as jnp  # bench extra
    from jumanji.environments.routing.sokoban import Sokoban  # bench extra
    from jumanji.environments.routing.sokoban import constants as K  # bench extra
    from jumanji.environments.routing.sokoban.generator import Generator  # bench extra
    from jumanji.environments.routing.sokoban.types import State  # bench extra
    import jax  # bench extra

    fixed = np.full((len(levels), K.GRID_SIZE, K.GRID_SIZE), K.WALL, np.uint8)
    var = np.zeros_like(fixed)
    agents = np.zeros((len(levels), 2), np.int32)
    for i, s in enumerate(levels):
        n = s["size"]
        fixed[i, :n, :n] = K.EMPTY
        for r, c in s["walls"]:
            fixed[i, r, c] = K.WALL
        for r, c in s["goals"]:
            fixed[i, r, c] = K.TARGET
        for r, c in s["blocks"]:
            var[i, r, c] = K.BOX
        var[i, s["player"][0], s["player"][1]] = K.AGENT
        agents[i] = s["player"]
    fixed_j, var_j, agents_j = jnp.asarray(fixed), jnp.asarray(var), jnp.asarray(agents)

    class Levels(Generator):
        def __call__(self, key):
            key, pick = jax.random.split(key)
            i = jax.random.randint(pick, (), 0, fixed_j.shape[0])
            return State(key=key, fixed_grid=fixed_j[i], variable_grid=var_j[i], agent_location=agents_j[i],
                         step_count=jnp.array(0, jnp.int32))

    return Sokoban(generator=Levels())


def _jumanji_maze(levels: list[dict]):
    import jax  # bench extra
    import jax.numpy as jnp  # bench extra
    from jumanji.environments.routing.maze import Maze  # bench extra
    from jumanji.environments.routing.maze.generator import Generator  # bench extra
    from jumanji.environments.routing.maze.types import Position, State  # bench extra

    n = levels[0]["size"]
    walls = np.zeros((len(levels), n, n), bool)
    agent = np.array([s["player"] for s in levels], np.int32)
    target = np.array([s["goal"] for s in levels], np.int32)
    for i, s in enumerate(levels):
        for r, c in s["walls"]:
            walls[i, r, c] = True
    walls_j, agent_j, target_j = jnp.asarray(walls), jnp.asarray(agent), jnp.asarray(target)

    class Levels(Generator):
        def __call__(self, key):
            key, pick = jax.random.split(key)
            i = jax.random.randint(pick, (), 0, walls_j.shape[0])
            return State(
                agent_position=Position(row=agent_j[i, 0], col=agent_j[i, 1]),
                target_position=Position(row=target_j[i, 0], col=target_j[i, 1]),
                walls=walls_j[i], action_mask=None, step_count=jnp.array(0, jnp.int32), key=key,
            )

    # Maze.reset computes the action mask from the walls; the time limit as svot's (4·N²)
    return Maze(generator=Levels(n, n), time_limit=4 * n * n)


def _jumanji_rates(env, seed: int, num_envs: int, seconds: float) -> tuple[float, float]:
    import jax  # bench extra
    import jax.numpy as jnp  # bench extra
    from jumanji.wrappers import AutoResetWrapper, VmapAutoResetWrapper  # bench extra

    single = AutoResetWrapper(env)
    reset, step = jax.jit(single.reset), jax.jit(single.step)
    state, ts = reset(jax.random.PRNGKey(seed))
    moves = np.random.default_rng(seed).integers(4, size=1 << 12)
    acts = [jnp.asarray(_SVOT_TO_JUMANJI_MOVE[a], jnp.int32) for a in moves]
    state, ts = step(state, acts[0])
    jax.block_until_ready(state)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(256):
            state, ts = step(state, acts[n & 0xFFF])
            n += 1
    jax.block_until_ready(state)
    single_rate = n / (time.perf_counter() - start)

    batched = VmapAutoResetWrapper(env)
    vreset, vstep = jax.jit(batched.reset), jax.jit(batched.step)
    state, ts = vreset(jax.random.split(jax.random.PRNGKey(seed), num_envs))
    table = np.asarray(_SVOT_TO_JUMANJI_MOVE, np.int32)
    vacts = [jnp.asarray(table[a]) for a in np.random.default_rng(seed).integers(4, size=(64, num_envs))]
    state, ts = vstep(state, vacts[0])
    jax.block_until_ready(state)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, ts = vstep(state, vacts[n & 63])
        n += 1
    jax.block_until_ready(state)
    return single_rate, n * num_envs / (time.perf_counter() - start)


# --- gym-sokoban ------------------------------------------------------------------------------
def _gym_sokoban_rate(levels: list[dict], seed: int, seconds: float) -> float:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from gym_sokoban.envs.sokoban_env import SokobanEnv  # bench extra

    n = levels[0]["size"] + 2  # the board in a ring of walls
    rooms = []
    for s in levels:
        fixed = np.zeros((n, n), np.uint8)  # 0 wall, 1 floor, 2 target
        fixed[1:-1, 1:-1] = 1
        for r, c in s["walls"]:
            fixed[r + 1, c + 1] = 0
        for r, c in s["goals"]:
            fixed[r + 1, c + 1] = 2
        state = fixed.copy()  # + 3 box on target, 4 box, 5 player
        for r, c in s["blocks"]:
            state[r + 1, c + 1] = 3 if fixed[r + 1, c + 1] == 2 else 4
        state[s["player"][0] + 1, s["player"][1] + 1] = 5
        rooms.append((fixed, state, len(s["blocks"])))
    env = SokobanEnv(dim_room=(n, n), max_steps=4 * (n - 2) ** 2, num_boxes=1, reset=False)
    pick = np.random.default_rng(seed)

    def reset():
        fixed, state, boxes = rooms[int(pick.integers(len(rooms)))]
        env.room_fixed, env.room_state, env.num_boxes = fixed, state.copy(), boxes
        env.box_mapping = {}
        env.player_position = np.argwhere(env.room_state == 5)[0]
        env.num_env_steps = env.reward_last = 0
        env.boxes_on_target = int((state == 3).sum())

    reset()
    # gym-sokoban's push actions 1-4 are up, down, left, right (a push moves when there is no box)
    acts = (np.random.default_rng(seed).integers(4, size=1 << 16) + 1).tolist()
    n_steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(64):
            _, _, done, _ = env.step(acts[n_steps & 0xFFFF], observation_mode="tiny_rgb_array")
            n_steps += 1
            if done:
                reset()
    return n_steps / (time.perf_counter() - start)


def _fmt(x: float) -> str:
    if x != x:
        return "-"
    return f"{x / 1e6:.2f}M" if x >= 1e6 else (f"{x / 1e3:.1f}k" if x >= 1e3 else f"{x:.0f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="0.5 s per cell")
    ap.add_argument("--seconds", type=float, default=None, help="budget per cell (default 3, quick 0.5)")
    ap.add_argument("--pool", type=int, default=64, help="levels (svot's pool_size; default 64)")
    ap.add_argument("--num-envs", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    secs = args.seconds if args.seconds is not None else (0.5 if args.quick else 3.0)
    try:
        import jax  # noqa: F401  (bench extra)
        import jumanji  # noqa: F401  (bench extra)
    except ImportError as exc:
        print(f"bench_peers needs the bench extra (pip install -e '.[bench]'): {exc}")
        return 1

    print(f"# bench_peers: {args.pool} svot levels per domain (seed {args.seed}), {secs:g} s per cell, vector at {args.num_envs} envs")
    head = (f"{'levels':<18}{'svot rl':>9}{'jumanji jit':>12}{'rl/jit':>8}{'svot vec':>10}{'jit(vmap)':>11}"
            f"{'vec/vmap':>9}{'gym-sokoban':>12}{'rl/gym-sok':>11}")
    print(head)
    print("-" * len(head))
    ratios = []
    for eid, make_peer, has_gym in (("SVoT/Sokoban-6x6-v0", _jumanji_sokoban, True), ("SVoT/Maze-7x7-v0", _jumanji_maze, False)):
        levels = _levels(eid, args.pool, args.seed)
        rl = _svot_single(eid, args.pool, args.seed, secs)
        vec = _svot_vec(eid, args.pool, args.seed, args.num_envs, secs)
        jit_single, jit_vmap = _jumanji_rates(make_peer(levels), args.seed, args.num_envs, secs)
        gs = _gym_sokoban_rate(levels, args.seed, secs) if has_gym else float("nan")
        name = eid.removeprefix("SVoT/")
        ratios.append((name, rl / jit_single, vec / jit_vmap, rl / gs))
        print(f"{name:<18}{_fmt(rl):>9}{_fmt(jit_single):>12}{rl / jit_single:>8.1f}{_fmt(vec):>10}{_fmt(jit_vmap):>11}"
              f"{vec / jit_vmap:>9.2f}{_fmt(gs):>12}{rl / gs if gs == gs else float('nan'):>11.1f}", flush=True)
    worst = [min((r[i], r[0]) for r in ratios if r[i] == r[i]) for i in (1, 2, 3)]
    print(f"ratios, lowest of this run: rl/jit {worst[0][0]:.1f} ({worst[0][1]}) [> 1]; "
          f"vec/vmap {worst[1][0]:.2f} ({worst[1][1]}) [> 1]; rl/gym-sokoban {worst[2][0]:.1f} ({worst[2][1]}) [> 1]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
