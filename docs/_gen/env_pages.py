"""One documentation page per environment family, written from Gymnasium's registry at build time.

A *family* is every registered id ``<namespace>/<Name>-NxN[-OOD]-vK`` of the
``SVoT`` and ``RuleMaze`` namespaces that shares namespace and name. Its page
holds what the registry and the env itself say, so a domain registered with
:func:`svot.extend.register_domain` gets its page with no hand edit:

* an animation of a solved episode (the env's ``plan``, or the matched
  ``info["ground_truth"]``), written with :func:`svot.gif.save_episode_gif`;
* the first frame of every size and regime (ID / OOD);
* every id with its ``gym.make`` keyword arguments (``gym.spec(id).kwargs``), the
  observation and action spaces of a made env, and ``max_episode_steps``;
* the env class's docstring (Description, Action Space, Rewards, Episode End, ...);
* the keyword arguments the class takes (its signature);
* the sampling parameters (``svot.problem_gen.sampling_params`` of the env's domain object; Table 5 for the SVoT domains);
* a version history (the versions registered, and the docstring's own section if any).

Only public surfaces are read: ``gymnasium.registry``, ``gymnasium.spec``,
``gymnasium.make``, the env's ``unwrapped`` attributes, ``svot.problem_gen``.
"""

from __future__ import annotations

import inspect
import io
import re
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import gymnasium as gym
from gymnasium.envs.registration import parse_env_id
from PIL import Image

import svot  # noqa: F401 - registers the SVoT/... and RuleMaze/... ids
from svot import problem_gen
from svot.kernel import GridDomain
from svot._version import __version__
from svot.gif import save_episode_gif

NAMESPACES = ("SVoT", "RuleMaze")
ENVS_DIR = "envs"
FRAME_SIZE = 128  # px, the first frames
GIF_SIZE = 192  # px, the animation
_SIZE = re.compile(r"^(?P<name>.+?)-(?P<size>\d+)x\d+(?P<ood>-OOD)?$")


@dataclass
class EnvId:
    id: str
    namespace: str
    name: str
    size: int
    split: str  # "id" or "ood"
    version: int


@dataclass
class Family:
    namespace: str
    name: str
    ids: list[EnvId] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return f"{self.namespace}-{self.name}".lower()

    @property
    def title(self) -> str:
        return f"{self.namespace}/{self.name}"


def families() -> list[Family]:
    """Every family of the SVoT and RuleMaze namespaces, in registration order."""
    found: dict[tuple[str, str], Family] = {}
    for env_id in gym.registry:
        ns, rest, version = parse_env_id(env_id)
        m = _SIZE.match(rest or "")
        if ns not in NAMESPACES or not m:
            continue
        fam = found.setdefault((ns, m["name"]), Family(ns, m["name"]))
        fam.ids.append(EnvId(env_id, ns, m["name"], int(m["size"]), "ood" if m["ood"] else "id", version or 0))
    return list(found.values())


def _entry_class(env_id: str) -> type:
    entry = gym.spec(env_id).entry_point
    if isinstance(entry, str):
        module, _, name = entry.partition(":")
        return getattr(__import__(module, fromlist=[name]), name)
    return entry


_ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|obj):`~?([^`]+)`")


def _markdown(doc: str | None) -> str:
    """An env docstring (Gymnasium's ``## Section`` layout) as Markdown: Sphinx roles become code spans."""
    text = inspect.cleandoc(doc or "")
    text = _ROLE.sub(lambda m: f"`{m[1]}`", text)
    return text.replace("## ", "### ") if text.startswith("## ") or "\n## " in text else text


def _solution(env: gym.Env, info: dict) -> list:
    """A goal-reaching action list for the problem just reset: the env's plan, else the matched ground truth."""
    plan = getattr(env.unwrapped, "plan", None)
    if plan is None and info.get("ground_truth"):
        texts = {env.unwrapped.action_text(a).lower(): a for a in range(env.action_space.n)}
        plan = [next(a for t, a in texts.items() if t == w.lower() or t.endswith(" " + w.lower()))
                for w in info["ground_truth"]]
    return list(plan or [])


def _png(frame) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(frame).resize((FRAME_SIZE, FRAME_SIZE), Image.NEAREST).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _params(env: gym.Env, size: int, split: str) -> dict | None:
    domain = getattr(env.unwrapped, "domain", None)  # a grid domain's env holds its domain object
    if not isinstance(domain, GridDomain):
        return None
    return problem_gen.sampling_params(domain, size, split, allow_any_size=True)


CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"
_RELEASE = re.compile(r"^## \[(?P<name>[^\]]+)\]", re.M)


def changelog_entries(name: str) -> list[tuple[str, str]]:
    """(release, item) for every CHANGELOG.md item that names ``name`` (a family's name), newest first."""
    if not CHANGELOG.exists():
        return []
    text = CHANGELOG.read_text(encoding="utf-8")
    marks = list(_RELEASE.finditer(text))
    word = re.compile(rf"\b{re.escape(name)}\b")
    found = []
    for i, m in enumerate(marks):
        body = text[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        for item in re.split(r"\n(?=- )", body):
            item = " ".join(line.strip() for line in item.strip().splitlines() if not line.startswith("#"))
            if item.startswith("- ") and word.search(item):
                # links as their text: a changelog's relative links do not resolve from envs/
                found.append((m["name"], re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", item[2:])))
    return found


def _code(x) -> str:
    return "`" + str(x).replace("|", "\\|").replace("`", "'") + "`"


def family_page(fam: Family, write_bytes: Callable[[str, bytes], None]) -> str:
    """The Markdown of ``fam``'s page; its images go through ``write_bytes(path under docs, bytes)``."""
    ids = sorted(fam.ids, key=lambda e: (e.version, e.size, e.split))
    cls = _entry_class(ids[0].id)
    rows, frames, params = [], {}, {}
    for e in ids:
        spec = gym.spec(e.id)
        env = gym.make(e.id, render_mode="rgb_array")
        _, info = env.reset(seed=0)
        png_path = f"{ENVS_DIR}/img/{fam.slug}-{e.size}x{e.size}-{e.split}-v{e.version}.png"
        write_bytes(png_path, _png(env.render()))
        frames[(e.version, e.size, e.split)] = png_path.removeprefix(ENVS_DIR + "/")
        p = _params(env, e.size, e.split)
        if p is not None:
            params[(e.size, e.split)] = p
        rows.append((e, spec, env.observation_space, env.action_space))
        env.close()

    # the animation: the smallest ID id of the newest version, seed 0, its plan
    latest = max(e.version for e in ids)
    shown = min((e for e in ids if e.version == latest), key=lambda e: (e.split != "id", e.size))
    env = gym.make(shown.id, render_mode="rgb_array")
    _, info = env.reset(seed=0)
    plan = _solution(env, info)
    gif_rel = f"img/{fam.slug}-solved.gif"
    with tempfile.TemporaryDirectory() as tmp:
        gif = Path(tmp) / "episode.gif"
        summary = save_episode_gif(env, plan, gif, fps=2, seed=0, image_size=GIF_SIZE)
        write_bytes(f"{ENVS_DIR}/{gif_rel}", gif.read_bytes())
    env.close()

    out = [f"# {fam.title}", ""]
    summary_line = (f"`{shown.id}`, `reset(seed=0)`, its plan of {summary['steps']} steps "
                    f"(return {summary['return']:g}, terminated: {summary['terminated']})")
    rule = info.get("rule")  # a rule-constrained env: the rule the plan complies with
    out += [f"![{fam.title}: a solved episode]({gif_rel}){{ .svot-anim }}", "",
            f"*A solved episode: {summary_line}.*" + (f" The rule: *{rule}*" if rule else ""), ""]
    regimes = [s for s in ("id", "ood") if any(e.split == s for e in ids)]
    out += ["| | " + " | ".join(s.upper() for s in regimes) + " |", "|---" * (len(regimes) + 1) + "|"]
    for version, size in sorted({(e.version, e.size) for e in ids}):
        cells = []
        for split in regimes:
            path = frames.get((version, size, split))
            cells.append(f"![{size}x{size} {split}]({path})" if path else "")
        out.append(f"| {size}×{size} (v{version}) | " + " | ".join(cells) + " |")
    out += ["", "*First frames, `reset(seed=0)`, per size and regime.*", ""]

    out += ["## Ids", "", "| id | `gym.make` kwargs | observation space | action space | truncated after (steps) |",
            "|---|---|---|---|---|"]
    for e, spec, obs_space, act_space in rows:
        kw = ", ".join(f"{k}={v!r}" for k, v in spec.kwargs.items())
        out.append(f"| `{e.id}` | {_code(kw) if kw else ''} | {_code(obs_space)} | {_code(act_space)} | "
                   f"{spec.max_episode_steps} |")
    out += ["", "```python", "import gymnasium as gym", "import svot  # registers the ids", "",
            f'env = gym.make("{shown.id}", render_mode="rgb_array")',
            "obs, info = env.reset(seed=0)", "```", ""]

    body = _markdown(cls.__doc__)
    if body:
        out += [f"## The environment (`{cls.__module__}.{cls.__qualname__}`)", "", body, ""]

    sig = inspect.signature(cls.__init__)
    params_md = [f"| `{n}` | {_code(repr(p.default)) if p.default is not p.empty else 'required'} |"
                 for n, p in sig.parameters.items() if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if params_md:
        out += ["## Keyword arguments of `gym.make`", "",
                "Any of these can be passed to `gym.make(id, ...)`; the registered kwargs above are the defaults"
                " an id sets.", "", "| argument | class default |", "|---|---|", *params_md, ""]

    out += ["## Sampling parameters", ""]
    if params:
        keys = sorted({k for p in params.values() for k in p})
        out += ["| size | regime | " + " | ".join(keys) + " |", "|---|---|" + "---|" * len(keys)]
        for (size, split), p in sorted(params.items()):
            out.append(f"| {size}×{size} | {split.upper()} | " + " | ".join(_code(p[k]) if k in p else "" for k in keys)
                       + " |")
        out += ["", "From `svot.problem_gen.sampling_params(domain, size, split)`: the paper's Table 5 for the SVoT"
                " domains (see [Paper fidelity](../paper_fidelity.md)).", ""]
    else:
        out += ["This family draws its problems from its own generator (no row of Table 5).", ""]

    out += ["## Version history", ""]
    by_version = defaultdict(list)
    for e in ids:
        by_version[e.version].append(e.id)
    for version in sorted(by_version, reverse=True):
        out.append(f"* **v{version}**: {len(by_version[version])} id(s), "
                   + ", ".join(f"`{i}`" for i in by_version[version][:4])
                   + (", ..." if len(by_version[version]) > 4 else ""))
    entries = changelog_entries(fam.name)
    if entries:
        out += ["", f"Changelog entries that name {fam.name}:", ""]
        out += [f"* **{release}**: {item}" for release, item in entries]
    out += ["", f"Registered by svot {__version__}; every user-visible change is in the "
            "[changelog](../changelog.md).", ""]
    return "\n".join(out)


def overview(fams: list[Family]) -> str:
    out = ["# Environments", "",
           "Every family of ids registered under the `SVoT/` and `RuleMaze/` namespaces, generated from "
           "Gymnasium's registry when the site is built. [The overview](../environments.md) compares them.", "",
           "| family | ids | sizes | first frame |", "|---|---|---|---|"]
    for fam in fams:
        sizes = sorted({e.size for e in fam.ids})
        first = min(fam.ids, key=lambda e: (e.version, e.size, e.split))
        img = f"img/{fam.slug}-{first.size}x{first.size}-{first.split}-v{first.version}.png"
        out.append(f"| [{fam.title}]({fam.slug}.md) | {len(fam.ids)} | "
                   + ", ".join(f"{n}×{n}" for n in sizes) + f" | ![{fam.name}]({img}){{ width=64 }} |")
    return "\n".join(out) + "\n"


def write_all(write_text: Callable[[str, str], None], write_bytes: Callable[[str, bytes], None]) -> list[Family]:
    """Write ``envs/index.md`` and one ``envs/<slug>.md`` per family; returns the families."""
    fams = families()
    for fam in fams:
        write_text(f"{ENVS_DIR}/{fam.slug}.md", family_page(fam, write_bytes))
    write_text(f"{ENVS_DIR}/index.md", overview(fams))
    return fams
