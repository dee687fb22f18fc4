"""svot's verifiers environment under the top-level name verifiers resolves a taskset id to
(``vf-eval svot-verifiers``: verifiers imports ``svot_verifiers``; a dotted id does not resolve): the taskset,
the env, and the taskset's own harness (``--env.player.harness.id svot-verifiers``: the in-process chat loop).
The code is :mod:`svot.agents.verifiers_env`; this package needs the ``verifiers`` extra."""

from svot.agents.verifiers_env import (SVoTChatHarness, SVoTChatHarnessConfig, SVoTEnv, SVoTEnvConfig, SVoTTask,
                                       SVoTTaskset, SVoTTasksetConfig, load_environment)

__all__ = ["SVoTChatHarness", "SVoTChatHarnessConfig", "SVoTEnv", "SVoTEnvConfig", "SVoTTask", "SVoTTaskset",
           "SVoTTasksetConfig", "load_environment"]
