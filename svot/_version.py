"""svot's version: a leaf module, so that reading it loads nothing else."""

__version__ = "0.1.0"
