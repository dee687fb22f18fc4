"""The version commands a user reaches for first: ``svot --version`` and ``python -m svot``."""

from __future__ import annotations

import subprocess
import sys

from svot._version import __version__


def test_python_dash_m_svot_prints_the_version():
    done = subprocess.run([sys.executable, "-m", "svot", "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"svot {__version__}"


def test_package_metadata_carries_the_same_version():
    from importlib.metadata import version

    assert version("svot") == __version__
