"""svot: PDDL grid domains as Gymnasium environments, datasets and scoring tools.

``import svot`` registers every environment id with Gymnasium, e.g.
``gymnasium.make(svot.domains.registered_ids()[0])`` (``registered_ids`` lists them,
``svot.domains.env_id(domain, size)`` spells one). The registering waits until Gymnasium is imported
(:mod:`svot._after_import`), so that ``import svot.errors`` or ``import svot.pddl`` load neither
Gymnasium nor the envs and the engine.
"""

from svot._after_import import call_after_import
from svot._version import __version__


def _register_env_ids() -> None:
    # Function-level on purpose: the root package would otherwise load the envs layer (and Gymnasium)
    # for every `import svot.<module>`; this runs once Gymnasium is imported. Importing the two modules
    # registers the ids, at their end: so this also works when one of them is the module whose
    # `import gymnasium` runs it (it is then half-imported, and registers when it is done).
    import svot.domains.gym_ids  # noqa: F401 - the grid domains' ids, from the domain registry
    import svot.rulemaze.registration  # noqa: F401 - RuleMaze's ids


call_after_import("gymnasium", _register_env_ids)

__all__ = ["__version__"]
