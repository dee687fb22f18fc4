"""svot's version: a leaf module, so that reading it loads nothing else."""

__version__ = "0.3.0"

#: The export format, recorded as ``format_version`` in every export's ``manifest.json``: raised
#: whenever the bytes an export writes for a given seed and arguments change (CHANGELOG.md's
#: "Export bytes" sections). 0.1.0's exports, which carry no such key, are format 1.
EXPORT_FORMAT = 3
