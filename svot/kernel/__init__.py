"""The types every layer below the domain folders reads: the domain spec protocol and the grid.

``spec`` (:class:`DomainSpec`, :class:`Field`), ``domain`` (:class:`GridDomain`: a spec with
its sampler and solver), ``grid`` (cells, directions, adjacency), ``phrases`` and ``keywords``
(the words of transitions and of their scoring), ``distractors`` (the building blocks of
four-choice answers). No module here names a domain or a registry: the layers above are
handed spec and domain objects.
"""

from svot.kernel.domain import GridDomain
from svot.kernel.spec import DomainSpec, Field, check_spec

__all__ = ["DomainSpec", "Field", "GridDomain", "check_spec"]
