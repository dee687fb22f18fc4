"""Every registered svot id (grid domains and RuleMaze) plus the toy lamps domain, for the agent adapters' tests."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import gymnasium as gym
import pytest

import svot  # noqa: F401 - registers the ids
from svot.extend import register_domain, unregister_domain

from tests.toy_domain.lamps import LampsGenerator, LampsSpec

SVOT_IDS = sorted(i for i in gym.registry if i.startswith(("SVoT/", "RuleMaze/")))
ROOT = Path(__file__).resolve().parents[2]
LAMPS_IDS = ["SVoT/Lamps-4x4-v0", "SVoT/Lamps-5x5-OOD-v0"]


@pytest.fixture(scope="session")
def lamps():
    ids = register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield ids
    unregister_domain("lamps")


@pytest.fixture(params=SVOT_IDS + LAMPS_IDS)
def any_id(request):
    """Each registered id; the lamps ids register the toy domain first."""
    if "Lamps" in request.param:
        request.getfixturevalue("lamps")
    return request.param


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# `svot serve` in a process that registered the toy domain first, as a user serves a domain of their own
LAMPS_SERVE = ("import sys; from svot.cli import main; from svot.extend import register_domain; "
               "from tests.toy_domain.lamps import LampsGenerator, LampsSpec; "
               "register_domain(LampsSpec(), LampsGenerator(LampsSpec())); sys.exit(main(sys.argv[1:]))")


@contextlib.contextmanager
def serve_in_subprocess(lifetime: float):
    """``svot serve`` in a subprocess on 127.0.0.1, the toy lamps domain registered too (it stops itself after
    ``lifetime`` s; killed on exit): yields its base URL."""
    port = _free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-c", LAMPS_SERVE, "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--lifetime", str(lifetime)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"the server did not start: {log.read().decode()[-2000:]}")
            time.sleep(0.2)
        yield url
    finally:
        proc.kill()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def server():
    """``svot serve`` with the toy lamps registered too (see :func:`serve_in_subprocess`), one per test process:
    the OpenEnv tests and the conformance test's trajectories share it. Killed at teardown; its lifetime only
    bounds a server whose test run was killed."""
    pytest.importorskip("openenv.core", reason="the agents extra (openenv-core) is not installed")
    with serve_in_subprocess(3600) as url:
        yield url
