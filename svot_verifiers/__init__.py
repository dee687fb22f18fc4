"""svot's verifiers environment under the top-level name verifiers resolves a taskset id to
(``vf-eval svot-verifiers``: verifiers imports ``svot_verifiers``; a dotted id does not resolve).
The code is :mod:`svot.agents.verifiers_env`; this package needs the ``verifiers`` extra."""

from svot.agents.verifiers_env import (SVoTEnv, SVoTEnvConfig, SVoTTask, SVoTTaskset, SVoTTasksetConfig,
                                       load_environment)

__all__ = ["SVoTEnv", "SVoTEnvConfig", "SVoTTask", "SVoTTaskset", "SVoTTasksetConfig", "load_environment"]
