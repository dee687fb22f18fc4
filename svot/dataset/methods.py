"""The methods the SVoT paper compares, each as training / evaluation samples of an instance.

A *method view* turns one :class:`~svot.dataset.instance.Instance` into the
samples a method trains on and is evaluated with. Every sample is a prompt
(text with ``<image>`` placeholders, see :mod:`svot.dataset.prompts`), the
prompt's images in placeholder order, a text completion, and, where the method
draws, the image it must draw (``target_image``). :mod:`svot.dataset.chat`
turns samples into TRL's conversational records.

Methods (Table 1, Table 4 / A.9; what each row trains on):

``svot``
    SVoT (§3): per step a *state* sample (Eq. 3: X and the ground-truth
    prefix z_<i, v_<i → c_i^z, z_i) and a *visualization* sample (Eq. 4: the
    prefix and z_i → c_i^v, then v_i), and one *goal* sample (Eq. 5). Trains
    SVoT_o and SVoT_p (SFT then GRPO with ORM / PRM rewards) and w/o-RL (the
    same data, SFT only).
``wo-v``
    w/o-V (Table 4: "SVoT_p without visualizations"): the state and goal
    samples of ``svot`` with no image anywhere (the prefix is z_<i as text and
    the task keeps the initial state's text description, not v0); no
    visualization samples.
``wo-rl-c``
    w/o-RL-C (Table 4: "SFT with only state representations and
    visualizations without transition reasoning chains"): ``svot``'s samples
    with the chains removed: state completions are z_i alone, visualization
    completions the lead-in ``Image after step i:`` before v_i.
``mvot``
    MVoT (§3, Fig. 3: "the intermediate state z_i is typically reduced to an
    isolated action, z_i = a_i"): per step one sample, X and the interleaved
    prefix a_<i, v_<i → ``Action i: <a_i>`` then v_i; and one goal sample.
    No state descriptions in prefixes or completions, no chains. As §4 says,
    "all baselines are provided with the same initial state description as
    SVoT", so X is the same as in ``svot``.
``tcot``
    T-CoT (§4: Anole "instruction-tuned to reason step by step by explicitly
    describing coordinates and the environment layout in text before producing
    the final answer"): one sample per instance, X (with v0) → the text chain
    z_1 … z_n followed by ``Final answer:`` and g. No intermediate images.
``stepwise``
    SVoT's state and goal samples with one image each: the image of the state
    the step starts from (v_{i-1}; v_n for the goal), the earlier steps as text.
    For models or pipelines that take a single image per sample.

Goal samples carry both goal forms: the free-response prompt and answer as the
sample, and the four-choice prompt (``prompt_classification``) with its letter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from svot.dataset import prompts
from svot.dataset.choices import LETTERS, choice_texts
from svot.dataset.prompts import IMAGE
from svot.errors import ConfigError, DatasetError

METHODS = ("svot", "wo-v", "wo-rl-c", "mvot", "tcot", "stepwise")
#: Methods whose samples hold no image at all (their records have no ``images`` column).
TEXT_ONLY = frozenset({"wo-v"})
#: Methods with visualization targets (their records have a ``target_image`` column).
DRAWS = frozenset({"svot", "wo-rl-c", "mvot"})

MVOT_TRACKING = (
    "Track the state after every action: for each action, give the action and then draw the image of the "
    "new state."
)
TCOT_TRACKING = (
    "Reason step by step in text: for each action, give the action and describe the resulting state in the "
    "same format as the initial state; then give the final answer."
)
FINAL = "Final answer:"


@dataclass
class Sample:
    """One training / evaluation sample; ``prompt`` holds one ``<image>`` per entry of ``images``."""

    id: str
    kind: str  # state | visualization | goal | trajectory (tcot)
    step: int  # 1-based; 0 for goal and trajectory samples
    prompt: str
    images: list  # per placeholder: an index into the instance's states (0 = v0)
    completion: str
    target_image: int | None = None  # index of the state to draw
    reasoning: str = ""
    keywords: list = field(default_factory=list)
    state: dict | None = None
    prompt_classification: str = ""


def check_method(method: str) -> str:
    if method not in METHODS:
        raise ConfigError(f"unknown method view {method!r}; choose one of {', '.join(METHODS)}")
    return method


def text_task(task: str) -> str:
    """X without its image placeholder (views that show no image)."""
    marker = f" (image: {IMAGE})"
    if task.count(marker) != 1:
        raise DatasetError(f"the task text has {task.count(marker)} initial-image markers, expected 1")
    return task.replace(marker, "", 1)


def _text_prefix(zs: list[str]) -> str:
    return "\n\n".join(f"Step {j}:\n{z}" for j, z in enumerate(zs, 1))


def _join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _state_ask(step: int, action_text: str, chains: bool) -> str:
    if chains:
        return (f"Step {step}: reason about action {step} ({action_text}), checking its preconditions and "
                f"stating its effects; then give the action and the resulting state.")
    return f"Step {step}: give action {step} ({action_text}) and the resulting state."


def _visual_ask(step: int, chains: bool) -> str:
    if chains:
        return f"Draw the image after step {step}: first say which cells of the image change, then draw the new image."
    return f"Draw the image after step {step}."


def _goal(inst, prompt_for, sid: str, images: list, state: dict) -> Sample:
    d = inst.domain
    return Sample(
        id=sid, kind="goal", step=0,
        prompt=prompt_for(prompts.free_question(d)), images=images, completion=inst.answer,
        state=state, prompt_classification=prompt_for(prompts.choice_question(d, inst.choices)),
    )


def _svot_like(inst, chains: bool, visuals: bool, images: bool) -> list[Sample]:
    task = inst.task if images else text_task(inst.task)
    head = [task, prompts.TRACKING]
    prefix = prompts.prefix_text if images else _text_prefix
    out, zs = [], []
    for s in inst.steps:
        i = s.index
        before = prefix(zs) if zs else ""
        seen = list(range(i)) if images else []
        out.append(Sample(
            id=f"{inst.id}/state/{i}", kind="state", step=i,
            prompt=_join(*head, before, _state_ask(i, s.action_text, chains)), images=seen,
            completion=f"{s.reasoning}\n{s.z_text}" if chains else s.z_text,
            reasoning=s.reasoning, keywords=s.keywords, state=s.state,
        ))
        if visuals:
            out.append(Sample(
                id=f"{inst.id}/visualization/{i}", kind="visualization", step=i,
                prompt=_join(*head, before, f"Step {i}:\n{s.z_text}", _visual_ask(i, chains)), images=seen,
                completion=s.reasoning_visual if chains else f"Image after step {i}:", target_image=i,
                reasoning=s.reasoning_visual if chains else "", state=s.state,
            ))
        zs.append(s.z_text)
    n = inst.n_steps
    out.append(_goal(inst, lambda q: _join(*head, prefix(zs) if zs else "", q), f"{inst.id}/goal",
                     list(range(n + 1)) if images else [], inst.final_state))
    return out


def _mvot(inst) -> list[Sample]:
    head = [inst.task, MVOT_TRACKING]
    out, done = [], []
    for s in inst.steps:
        i = s.index
        prefix = "\n\n".join(done)
        action = f"Action {i}: {s.action_text}"
        out.append(Sample(
            id=f"{inst.id}/visualization/{i}", kind="visualization", step=i,
            prompt=_join(*head, prefix, f"Step {i}: give action {i} and draw the image after it."),
            images=list(range(i)), completion=action, target_image=i, state=s.state,
        ))
        done.append(f"Step {i}:\n{action}\nImage after step {i}: {IMAGE}")
    out.append(_goal(inst, lambda q: _join(*head, "\n\n".join(done), q), f"{inst.id}/goal",
                     list(range(inst.n_steps + 1)), inst.final_state))
    return out


def _tcot(inst) -> list[Sample]:
    chain = "\n\n".join(f"Step {s.index}:\n{s.z_text}" for s in inst.steps)
    d = inst.domain
    return [Sample(
        id=f"{inst.id}/trajectory", kind="goal", step=0,
        prompt=_join(inst.task, TCOT_TRACKING, prompts.free_question(d)), images=[0],
        completion=_join(chain, f"{FINAL}\n{inst.answer}"), state=inst.final_state,
        prompt_classification=_join(inst.task, TCOT_TRACKING, prompts.choice_question(d, inst.choices)),
    )]


def _stepwise(inst) -> list[Sample]:
    head = [text_task(inst.task), prompts.TRACKING]
    out, zs = [], []
    for s in inst.steps:
        i = s.index
        now = f"The image of the state before step {i}: {IMAGE}"
        out.append(Sample(
            id=f"{inst.id}/state/{i}", kind="state", step=i,
            prompt=_join(*head, _text_prefix(zs) if zs else "", now, _state_ask(i, s.action_text, True)),
            images=[i - 1], completion=f"{s.reasoning}\n{s.z_text}",
            reasoning=s.reasoning, keywords=s.keywords, state=s.state,
        ))
        zs.append(s.z_text)
    n = inst.n_steps
    last = f"The image of the final state: {IMAGE}"
    out.append(_goal(inst, lambda q: _join(*head, _text_prefix(zs) if zs else "", last, q), f"{inst.id}/goal",
                     [n], inst.final_state))
    return out


def method_samples(inst, method: str = "svot") -> list[Sample]:
    """The samples of one instance under a method view (see the module docstring)."""
    check_method(method)
    if method == "svot":
        out = _svot_like(inst, chains=True, visuals=True, images=True)
    elif method == "wo-v":
        out = _svot_like(inst, chains=True, visuals=False, images=False)
    elif method == "wo-rl-c":
        out = _svot_like(inst, chains=False, visuals=True, images=True)
    elif method == "mvot":
        out = _mvot(inst)
    elif method == "tcot":
        out = _tcot(inst)
    else:
        out = _stepwise(inst)
    for s in out:  # the invariant every consumer relies on
        if s.prompt.count(IMAGE) != len(s.images) or s.prompt_classification.count(IMAGE) not in (0, len(s.images)):
            raise DatasetError(f"{s.id}: {s.prompt.count(IMAGE)} image placeholders for {len(s.images)} images")
    return out


def goal_letter(inst) -> str:
    return LETTERS[inst.correct]


def goal_choices(inst) -> list[str]:
    return choice_texts(inst.domain, inst.choices)
