"""QuestMaze in the datasets' words: its preconditions and what each move does.

Read through :class:`~svot.domains.questmaze.QuestMazeSpec` by :mod:`svot.dataset`; every other
wording hook keeps the generic default (:class:`~svot.kernel.DomainSpec`).
"""

from __future__ import annotations

from svot.kernel.phrases import PASSAGE, Phrase

PHRASES = {
    "open": PASSAGE,
    "free": Phrase(subject=0, pos="holds nothing to collect", pos_fail="{0} holds an item or a target"),
    "item-at": Phrase(subject=0, pos="holds the {1}", pos_fail="{0} holds no {1}"),
    "target-at": Phrase(subject=0, pos="is the {1}'s cell", pos_fail="{0} is not the {1}'s cell"),
    "ended": Phrase(subject=0, neg="the quest goes on", neg_fail="the quest has already reached its goal", reason="goal"),
}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {
    "walk": "the player moves to {to}",
    "collect": "the player moves to {to} and collects the {i}",
    "arrive": "the player moves to {to} and reaches the {t}, which ends the quest",
}

#: The state fields the goal g asks for: where the prince ends and which target he reached.
GOAL_FIELDS = ("player", "reached")
