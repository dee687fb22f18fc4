"""PPO on svot's JAX backend, PureJaxRL-style: rollout and update in one jitted function.

    pip install -e '.[jax]'
    python examples/ppo_jax.py                       # SVoT/Maze-5x5-v0, ~1M steps, ~3 min on 2 CPU cores
    python examples/ppo_jax.py --total-steps 500000 --env SVoT/FrozenLake-4x4-v0

Training envs play a pool of ``--pool`` mazes (seed 0); the success rate is measured on
held-out mazes: a pool drawn from another seed, minus any maze that is also in the
training pool, one episode each within the env's step limit. The headline number is the
greedy (argmax) policy's, as examples/train_ppo.py measures with SB3's deterministic
actions; the sampled policy's is printed beside it. The network sees the grid from the
player (``--encoding egocentric``, the jax.numpy twin of ``svot.wrappers.egocentric``, the
SB3 example's encoding); a two-layer MLP actor and critic and Adam (learning rate decayed
linearly to 0) are written in ``jax.numpy`` here, so nothing beyond jax is needed. Each
printed line is one jitted call of ``--updates-per-call`` updates (each ``--num-envs`` x
``--num-steps`` env steps, ``--epochs`` epochs of ``--minibatches`` minibatches).
"""

from __future__ import annotations

import argparse
import sys
import time

try:
    import jax  # the jax extra
    import jax.numpy as jnp  # the jax extra
except ImportError:  # pragma: no cover - the example says what to install
    sys.exit("this example needs the jax extra: pip install -e '.[jax]'")
import numpy as np

import svot.jax


# --- a small MLP and Adam, by hand ---------------------------------------------------------------
def init_mlp(key, sizes, last_scale):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for i, (k, a, b) in enumerate(zip(keys, sizes[:-1], sizes[1:])):
        scale = last_scale if i == len(sizes) - 2 else np.sqrt(2.0)
        w = jax.random.orthogonal(k, max(a, b))[:a, :b] * scale
        params.append((w, jnp.zeros(b)))
    return params


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def adam_init(params):
    zeros = jax.tree.map(jnp.zeros_like, params)
    return (zeros, zeros, jnp.int32(0))


def adam_update(params, grads, state, lr, b1=0.9, b2=0.999, eps=1e-5, max_norm=0.5):
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(grads)))
    grads = jax.tree.map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-8)), grads)
    m, v, t = state
    t = t + 1
    m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    mhat = jax.tree.map(lambda m_: m_ / (1 - b1**t), m)
    vhat = jax.tree.map(lambda v_: v_ / (1 - b2**t), v)
    params = jax.tree.map(lambda p, a, b: p - lr * a / (jnp.sqrt(b) + eps), params, mhat, vhat)
    return params, (m, v, t)


def onehot(obs, n_kinds):
    """Bit-flag grids (..., N, N) as one-hot planes, flattened: (..., N*N*K) float32."""
    bits = (obs[..., None].astype(jnp.int32) >> jnp.arange(n_kinds)) & 1
    return bits.reshape(obs.shape[:-2] + (-1,)).astype(jnp.float32)


def egocentric(obs, n_kinds):
    """Bit-flag grids (..., N, N) seen from the player, flattened: (..., (2N-1)**2 * K) float32.

    The jax.numpy twin of svot.wrappers.egocentric (the SB3 example's encoding): a 2N-1 window
    centred on the player (bit 0) over the K-1 other kinds, plus a channel that is 1 off the grid.
    """
    n = obs.shape[-1]
    border = jnp.pad(jnp.zeros((n, n)), n - 1, constant_values=1.0)[..., None]

    def one(grid):
        grid = grid.astype(jnp.int32)
        kinds = ((grid[..., None] >> jnp.arange(1, n_kinds)) & 1).astype(jnp.float32)
        padded = jnp.concatenate([jnp.pad(kinds, ((n - 1, n - 1), (n - 1, n - 1), (0, 0))), border], -1)
        r, c = jnp.divmod(jnp.argmax((grid & 1).reshape(-1)), n)
        return jax.lax.dynamic_slice(padded, (r, c, 0), (2 * n - 1, 2 * n - 1, n_kinds)).reshape(-1)

    flat = jax.vmap(one)(obs.reshape((-1, n, n)))
    return flat.reshape(obs.shape[:-2] + (-1,))


ENCODINGS = {"egocentric": (egocentric, lambda n: (2 * n - 1) ** 2), "onehot": (onehot, lambda n: n * n)}


# --- PPO -------------------------------------------------------------------------------------------
def make_train(env, args):
    n_kinds = env.host.n_kinds
    features, cells = ENCODINGS[args.encoding]
    n_act = env.num_actions
    E, T = args.num_envs, args.num_steps
    mb = E * T // args.minibatches
    per_call = E * T * args.updates_per_call
    total_grad_steps = max(1, -(-args.total_steps // per_call)) * args.updates_per_call * args.epochs * args.minibatches
    reset = jax.vmap(env.reset)
    step = jax.vmap(env.step)

    def policy(params, obs):
        x = features(obs, n_kinds)
        return mlp(params["pi"], x), mlp(params["v"], x)[..., 0]

    def loss_fn(params, batch):
        obs, act, logp_old, adv, ret = batch
        logits, value = policy(params, obs)
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, act[:, None], 1)[:, 0]
        ratio = jnp.exp(logp - logp_old)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - args.clip, 1 + args.clip) * adv).mean()
        vf = 0.5 * ((value - ret) ** 2).mean()
        ent = -(jnp.exp(logp_all) * logp_all).sum(-1).mean()
        return pg + args.vf_coef * vf - args.ent_coef * ent

    def update(carry, _):
        params, opt, state, obs, key = carry

        def env_step(c, _):
            state, obs, key = c
            key, k = jax.random.split(key)
            logits, value = policy(params, obs)
            act = jax.random.categorical(k, logits)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), act[:, None], 1)[:, 0]
            state, ts = step(state, act)
            done = ts.terminated | ts.truncated
            return (state, ts.observation, key), (obs, act, logp, value, ts.reward, ts.terminated, done,
                                                  ts.is_success)

        (state, obs, key), traj = jax.lax.scan(env_step, (state, obs, key), None, T)
        o, a, lp, val, rew, term, done, succ = traj
        _, last_v = policy(params, obs)

        # GAE; NextStep autoreset: the step after a done is a reset (its reward 0), so cut the trace at dones
        def gae(c, x):
            adv_next, v_next = c
            r, v, t, d = x
            delta = r + args.gamma * v_next * (1 - t) - v
            adv = delta + args.gamma * args.lam * (1 - d) * adv_next
            return (adv, v), adv

        _, adv = jax.lax.scan(gae, (jnp.zeros(E), last_v), (rew, val, term.astype(jnp.float32),
                                                             done.astype(jnp.float32)), reverse=True)
        ret = adv + val
        batch = jax.tree.map(lambda x: x.reshape((E * T,) + x.shape[2:]), (o, a, lp, adv, ret))

        def epoch(c, _):
            params, opt, key = c
            key, k = jax.random.split(key)
            perm = jax.random.permutation(k, E * T)

            def minibatch(c, idx):
                params, opt = c
                grads = jax.grad(loss_fn)(params, jax.tree.map(lambda x: x[idx], batch))
                # linear learning-rate decay to 0 over the run (PureJaxRL's anneal_lr)
                lr = args.lr * (1.0 - opt[2] / total_grad_steps) if args.anneal_lr else args.lr
                params, opt = adam_update(params, grads, opt, lr)
                return (params, opt), None

            (params, opt), _ = jax.lax.scan(minibatch, (params, opt), perm.reshape(args.minibatches, mb))
            return (params, opt, key), None

        (params, opt, key), _ = jax.lax.scan(epoch, (params, opt, key), None, args.epochs)
        stats = (rew.sum(), done.sum(), succ.sum())
        return (params, opt, state, obs, key), stats

    @jax.jit
    def train_chunk(carry):
        carry, stats = jax.lax.scan(update, carry, None, args.updates_per_call)
        return carry, jax.tree.map(jnp.sum, stats)

    def init(key):
        k_pi, k_v, k_env, key = jax.random.split(key, 4)
        d = cells(env.size) * n_kinds
        params = {"pi": init_mlp(k_pi, [d, args.hidden, args.hidden, n_act], 0.01),
                  "v": init_mlp(k_v, [d, args.hidden, args.hidden, 1], 1.0)}
        state, ts = reset(jax.random.split(k_env, E))
        return params, adam_init(params), state, ts.observation, key

    return init, train_chunk, policy


def evaluate(eval_env, policy, params, problems, key, greedy: bool):
    """Success rate over ``problems`` (indices into eval_env's pool), one episode each."""
    n = len(problems)
    keys = jax.random.split(key, n + 1)
    state, ts = jax.vmap(eval_env.reset_to)(keys[1:], jnp.asarray(problems, jnp.int32))

    @jax.jit
    def run(state, obs, key):
        def body(c, _):
            state, obs, won, live, key = c
            key, k = jax.random.split(key)
            logits, _ = policy(params, obs)
            act = jnp.argmax(logits, -1) if greedy else jax.random.categorical(k, logits)
            state, ts = jax.vmap(eval_env.step)(state, act)
            won = won | (live & ts.is_success)
            live = live & ~(ts.terminated | ts.truncated)
            return (state, ts.observation, won, live, key), None

        init = (state, obs, jnp.zeros(n, bool), jnp.ones(n, bool), key)
        (_, _, won, _, _), _ = jax.lax.scan(body, init, None, eval_env.max_episode_steps)
        return won.mean()

    return float(run(state, ts.observation, keys[0]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--env", default="SVoT/Maze-5x5-v0")
    ap.add_argument("--total-steps", type=int, default=1_000_000)
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--num-steps", type=int, default=128)
    ap.add_argument("--updates-per-call", type=int, default=5)
    ap.add_argument("--pool", type=int, default=16384, help="training mazes")
    ap.add_argument("--eval-pool", type=int, default=512, help="held-out mazes drawn (those also in training are dropped)")
    ap.add_argument("--encoding", choices=tuple(ENCODINGS), default="egocentric",
                    help="egocentric: the grid seen from the player (as examples/train_ppo.py); onehot: the grid as is")
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--gamma", type=float, default=0.95)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--anneal-lr", action=argparse.BooleanOptionalAction, default=True,
                    help="decay the learning rate linearly to 0 over --total-steps")
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatches", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    t_start = time.perf_counter()
    env = svot.jax.make(args.env, pool_size=args.pool, seed=args.seed)
    # NextStep autoreset in training; Disabled in evaluation (one episode per held-out maze)
    eval_env = svot.jax.make(args.env, pool_size=args.eval_pool, seed=args.seed + 1_000_003, autoreset_mode="Disabled")
    train_rows = {bytes(r) for r in np.asarray(env.tables.pool_init)}
    held_out = [i for i, r in enumerate(np.asarray(eval_env.tables.pool_init)) if bytes(r) not in train_rows]
    init, train_chunk, policy = make_train(env, args)
    carry = init(jax.random.PRNGKey(args.seed))
    per_call = args.num_envs * args.num_steps * args.updates_per_call
    calls = max(1, -(-args.total_steps // per_call))
    print(f"# ppo_jax on {args.env}: {calls * per_call:,} env steps, {args.num_envs} envs, JAX {jax.__version__} on "
          f"{jax.devices()[0].platform}; {len(held_out)} held-out mazes (of {args.eval_pool} drawn)")
    print(f"{'steps':>10}{'wall s':>8}{'episodes':>10}{'train succ':>11}{'held-out greedy':>17}{'(sampled)':>11}")
    steps = 0
    for c in range(calls):
        carry, (rew, dones, succ) = train_chunk(carry)
        steps += per_call
        params = carry[0]
        evg = evaluate(eval_env, policy, params, held_out, jax.random.PRNGKey(c), greedy=True)
        ev = evaluate(eval_env, policy, params, held_out, jax.random.PRNGKey(c), greedy=False)
        print(f"{steps:>10,}{time.perf_counter() - t_start:>8.1f}{int(dones):>10}{float(succ) / max(1, int(dones)):>11.2f}"
              f"{evg:>17.3f}{ev:>11.3f}", flush=True)
    print(f"final held-out success (greedy, argmax actions): {evg:.3f}; with sampled actions: {ev:.3f}; "
          f"wall time {time.perf_counter() - t_start:.1f} s (env making, compile, training and evaluation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
