"""Every registered svot id (grid domains and RuleMaze) plus the toy lamps domain, for the agent adapters' tests."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def server():
    """svot's OpenEnv server in a subprocess on 127.0.0.1 (it stops itself after 300 s; killed at teardown)."""
    pytest.importorskip("openenv.core", reason="the agents extra (openenv-core) is not installed")
    port = _free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "svot", "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--lifetime", "300"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.seek(0)
            pytest.fail(f"the server did not start: {log.read().decode()[-2000:]}")
        time.sleep(0.2)
    yield url
    proc.kill()
    proc.wait(timeout=10)
    log.close()
