"""The Inspect tasks (``inspect eval svot/<name> -T key=value``; Python: ``inspect_ai.eval(goal(...))``).

Every task starts with :func:`~svot.inspect._truth.expose_truth` (the reference
models' side channel; it changes nothing a real model sees).
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.solver import generate

from svot.dataset.spec import SPLIT_NAMES
from svot.domains import DOMAINS, get_spec
from svot.errors import ConfigError
from svot.inspect import play as _play
from svot.inspect import rulemaze as _rm
from svot.inspect import scorers as _sc
from svot.inspect import svot_samples as _sv
from svot.inspect._truth import expose_truth


DEFAULT_DOMAIN = DOMAINS[0]  # the first built-in domain


def _size(domain: str, size) -> int:
    return get_spec(domain).sizes[0] if size is None else int(size)


def _domain(domain: str) -> str:
    return get_spec(domain).name  # ConfigError naming the known domains


def _split(split: str) -> str:
    if split not in SPLIT_NAMES:
        raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLIT_NAMES)}")
    return split


def _flag(v) -> bool:
    return v if isinstance(v, bool) else str(v).strip().lower() in ("1", "true", "yes", "on")


def _opt_int(v):
    return None if v is None else int(v)


@task
def goal(domain: str = DEFAULT_DOMAIN, size: int | None = None, split: str = "test_id", form: str = "C",
         data: str | None = None, seed: int = 0, maps: int | None = None, limit: int | None = None,
         images: bool = True) -> Task:
    """Table 1: goal prediction, four-choice (``form=C``) or free response (``form=F``).

    ``data``: an export (``svot export --view instances``); without it the split is
    built from ``seed`` (``maps`` maps instead of the paper's count; ``limit`` instances).
    ``images=false`` for text-only models (the prompts give every state as text too).
    """
    domain = _domain(domain)
    n = _size(domain, size)
    form = str(form).upper()
    if form not in _sv.FORMS:
        raise ConfigError(f"unknown goal form {form!r}; choose C (four-choice) or F (free response)")
    ds = _sv.goal_dataset(domain, n, _split(split), form, data=data, seed=int(seed),
                          maps=_opt_int(maps), limit=_opt_int(limit), images=_flag(images))
    return Task(dataset=ds, solver=[expose_truth(), generate()], scorer=_sc.goal_scorer(),
                metadata={"svot_task": "goal", "domain": domain, "size": n, "split": split, "form": form})


@task
def state(domain: str = DEFAULT_DOMAIN, size: int | None = None, split: str = "test_id", data: str | None = None,
          seed: int = 0, maps: int | None = None, limit: int | None = None, steps: int | None = None,
          images: bool = True) -> Task:
    """Table 2: single-step state prediction (Eq. 3 prompt; r_z and r_c per field).

    ``limit``: instances; ``steps``: at most this many step samples.
    """
    domain = _domain(domain)
    n = _size(domain, size)
    ds = _sv.state_dataset(domain, n, _split(split), data=data, seed=int(seed), maps=_opt_int(maps),
                           limit=_opt_int(limit), steps_limit=_opt_int(steps), images=_flag(images))
    return Task(dataset=ds, solver=[expose_truth(), generate()],
                scorer=[_sc.state_scorer(), _sc.reasoning_scorer()],
                metadata={"svot_task": "state", "domain": domain, "size": n, "split": split})


@task
def play(domain: str = DEFAULT_DOMAIN, size: int | None = None, split: str = "id", episodes: int = 20, seed: int = 0,
         max_moves: int | None = None, images: bool = True) -> Task:
    """Interactive: the model plays ``episodes`` env episodes with a ``move`` tool (``split``: id / ood)."""
    if split not in _play.ENV_SPLITS:
        raise ConfigError(f"unknown env split {split!r}; choose id or ood")
    domain = _domain(domain)
    n = _size(domain, size)
    ds = _play.episode_dataset(domain, n, split, episodes=int(episodes), seed=int(seed),
                               max_moves=_opt_int(max_moves), images=_flag(images))
    return Task(dataset=ds, solver=[expose_truth(), _play.play_episode()], scorer=_sc.episode_scorer(),
                metadata={"svot_task": "play", "domain": domain, "size": n, "split": split})


def _rulemaze(scenario: str, mode: str, data, seed, per_group, pool_size) -> Task:
    ds = _rm.dataset(scenario, mode, data=data, seed=int(seed), per_group=int(per_group), pool_size=int(pool_size))
    solver = [expose_truth(), _rm.dmp_agent() if mode == "dmp" else generate()]
    return Task(dataset=ds, solver=solver, scorer=_sc.rulemaze_scorer(),
                metadata={"svot_task": "rulemaze", "scenario": scenario, "mode": mode})


@task
def rulemaze_dmp(scenario: str = "regular", data: str | None = None, seed: int = 0, per_group: int = 100,
                 pool_size: int = 20_000) -> Task:
    """RuleMaze with the five DMP tools; EM / PR per seen / unseen-easy / -medium / -hard."""
    return _rulemaze(scenario, "dmp", data, seed, per_group, pool_size)


@task
def rulemaze_direct(scenario: str = "regular", cot: bool = False, data: str | None = None, seed: int = 0,
                    per_group: int = 100, pool_size: int = 20_000) -> Task:
    """RuleMaze without tools: the move list directly (``cot=false``) or after reasoning (``cot=true``)."""
    mode = "cot" if _flag(cot) else "direct"
    return _rulemaze(scenario, mode, data, seed, per_group, pool_size)
