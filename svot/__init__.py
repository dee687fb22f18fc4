"""svot: PDDL grid domains as Gymnasium environments, datasets and scoring tools."""

__version__ = "0.1.0"
