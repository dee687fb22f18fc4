"""svot in the training loop of LLM and VLM agents: one episode core and its adapters.

* :mod:`svot.agents.episode`: :class:`AgentEpisode` (rows, turns, observations, reward, JSON) over every id.
* :mod:`svot.agents.trl`: classes for TRL's ``GRPOTrainer(environment_factory=...)``, the prompt dataset and a
  tool-calling chat template (the ``train`` extra).

See docs/agents.md.
"""

from svot.agents.episode import AgentEpisode, EpisodeConfig, Turn, resolve_row
from svot.agents.parsing import parse_turn

__all__ = ["AgentEpisode", "EpisodeConfig", "Turn", "parse_turn", "resolve_row"]
