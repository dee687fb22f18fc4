"""``python -m svot``: the same command line as ``svot``."""

import sys

from svot.cli import main

sys.exit(main())
