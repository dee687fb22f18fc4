"""Prompt texts: the task X = ⟨d, s0, v0, A⟩, the step prefixes, and the questions.

Images are written as the placeholder :data:`IMAGE` (``<image>``) at the place
they belong; every record lists its images in the same order as its
placeholders, so a pipeline substitutes them one for one.
"""

from __future__ import annotations

from svot.dataset.choices import format_choices
from svot.dataset.wording import answer_format, describe_domain, question

IMAGE = "<image>"

TRACKING = (
    "Track the state after every action. For each action, first reason about it: say where the player is, "
    "check the action's preconditions and state its effects; then give the action and the resulting state "
    "in the same format as the initial state, and draw the image of the new state."
)


def task_text(domain: str, size: int, initial_text: str, action_texts: list[str], colours: tuple = ()) -> str:
    """X: the domain description, the initial state (text and image) and the action sequence."""
    actions = "\n".join(f"{i}. {a}" for i, a in enumerate(action_texts, 1))
    return (
        f"{describe_domain(domain, size, colours)}\n\n"
        f"Initial state (image: {IMAGE}):\n{initial_text}\n\n"
        f"Actions ({len(action_texts)}):\n{actions}"
    )


def z_text(step: int, action_text: str, state_text: str) -> str:
    """z_i = ⟨a_i, s_i⟩ as text."""
    return f"Action {step}: {action_text}\n{state_text}"


def prefix_text(zs: list[str]) -> str:
    """The ground-truth trajectory prefix: each z_j followed by its image."""
    return "\n\n".join(f"Step {j}:\n{z}\nImage after step {j}: {IMAGE}" for j, z in enumerate(zs, 1))


def free_question(domain: str) -> str:
    return f"{question(domain)}\nAnswer in the form: {answer_format(domain)}"


def choice_question(domain: str, choices: list[dict]) -> str:
    return f"{question(domain)}\nChoose one of:\n{format_choices(domain, choices)}\nAnswer with the letter only."


def instance_prompt(task: str, question: str) -> str:
    """The whole task for direct goal prediction (one image: v0)."""
    return f"{task}\n\n{question}"


def state_prompt(task: str, zs_before: list[str], step: int, action_text: str) -> str:
    """Eq. (3): predict c_i^z and z_i from X and the ground-truth prefix z_<i, v_<i."""
    parts = [task, TRACKING]
    if zs_before:
        parts.append(prefix_text(zs_before))
    parts.append(
        f"Step {step}: reason about action {step} ({action_text}), checking its preconditions and stating its "
        f"effects; then give the action and the resulting state."
    )
    return "\n\n".join(parts)


def visual_prompt(task: str, zs_before: list[str], step: int, z_now: str) -> str:
    """Eq. (4): predict c_i^v and v_i from X, the prefix, and z_i."""
    parts = [task, TRACKING]
    if zs_before:
        parts.append(prefix_text(zs_before))
    parts.append(f"Step {step}:\n{z_now}")
    parts.append(
        f"Draw the image after step {step}: first say which cells of the image change, then draw the new image."
    )
    return "\n\n".join(parts)


def goal_prompt(task: str, zs: list[str], question: str) -> str:
    """Eq. (5): predict g from X and the whole trajectory."""
    parts = [task, TRACKING]
    if zs:
        parts.append(prefix_text(zs))
    parts.append(question)
    return "\n\n".join(parts)
