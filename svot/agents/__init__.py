"""svot in the training loop of LLM and VLM agents: one episode core and its adapters.

* :mod:`svot.agents.episode`: :class:`AgentEpisode` (rows, turns, observations, reward, JSON) over every id.
* :mod:`svot.agents.trl_env`: classes for TRL's ``GRPOTrainer(environment_factory=...)``, the prompt dataset and a
  tool-calling chat template (the ``train`` extra).
* :mod:`svot.agents.openenv_env`: an OpenEnv environment, served by ``svot serve`` (the ``agents`` extra).
* :mod:`svot.agents.ragen`: RAGEN's and VAGEN's observation and info shapes.
* :mod:`svot.agents.verifiers_env`: a verifiers environment (the ``verifiers`` extra).

See docs/agents.md.
"""

from svot.agents.episode import AgentEpisode, EpisodeConfig, Turn, resolve_row
from svot.agents.parsing import parse_turn

__all__ = ["AgentEpisode", "EpisodeConfig", "Turn", "parse_turn", "resolve_row"]
