"""The ``inspect_ai`` entry point: importing this registers svot's tasks, model providers and run summary."""

from svot.inspect.providers import svot_reference  # noqa: F401
from svot.inspect.summary import SvotTables  # noqa: F401
from svot.inspect.tasks import goal, play, rulemaze_direct, rulemaze_dmp, state  # noqa: F401
