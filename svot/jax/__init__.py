"""SVoT on JAX: functional envs (``reset``/``step`` under ``jit``, ``vmap`` and ``scan``) from the same
compiled PDDL tables as the numpy vector engine. Needs the ``jax`` extra (``pip install svot[jax]``);
nothing in the core imports this package. See ``docs/jax.md``.
"""

from svot.jax.env import AUTORESET_MODES, State, SVoTJaxEnv, TimeStep, make
from svot.jax.gym_bridge import JaxVectorEnv, SVoTFuncEnv, make_vec, vector_spec

__all__ = ["AUTORESET_MODES", "JaxVectorEnv", "SVoTFuncEnv", "SVoTJaxEnv", "State", "TimeStep", "make", "make_vec",
           "vector_spec"]
