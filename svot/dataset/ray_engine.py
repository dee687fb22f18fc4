"""The Ray engine of :func:`svot.dataset.export`: the same work units as Ray tasks.

``export(cfg, engine="ray")`` (``svot export --engine ray``) hands every chunk
of every split (see :mod:`svot.dataset.export`) to Ray instead of to worker
processes. A task runs the very function the local engine runs,
``_chunk_task``, writes its Arrow part to a scratch file on whichever node it
lands, and ships the part's bytes back; the driver writes them under the
export's ``.parts/`` (``.tmp`` then ``os.replace``) and merges splits exactly
as the local engine does. So:

* the output is the same bytes as ``engine="local"`` for any number of
  workers or nodes (chunks are pure functions of the arguments and their index);
* the nodes of a cluster need ``svot`` installed (the same version) but no
  shared file system: only the driver touches the output directory;
* ``resume`` works the same, across engines: parts finished by either engine
  are reused.

**Where Ray runs.** ``address=None``: a local instance is started for the
export and stopped after it (``num_cpus`` = ``workers`` when that is above 1,
else every core; no dashboard; worker logs not forwarded; usage statistics off
unless ``RAY_USAGE_STATS_ENABLED`` says otherwise; a single node on this
machine, talking to nothing else). ``address="auto"`` or ``"host:port"``: connect to a
running cluster (``ray start --head``) and leave it running. If this process
already called ``ray.init()``, that session is used as it is.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import tempfile
from concurrent.futures import Future
from pathlib import Path

from svot.errors import ConfigError
from svot.numbers import small_int
from svot.dataset.writers import atomic_write_bytes

ENGINES = ("local", "ray")


def _import_ray():
    try:
        import ray  # optional: the 'ray' extra
    except ImportError:
        raise ConfigError(
            "--engine ray needs Ray: pip install 'svot[ray]' (or pip install 'ray>=2.9')"
        ) from None
    return ray


def _run_and_ship(fn, task: tuple) -> tuple:
    """(On a Ray worker.) Run a chunk task into a scratch file; return (its result, the part's bytes)."""
    scratch = tempfile.mkdtemp(prefix="svot-chunk-")
    try:
        part = Path(scratch) / Path(task[-1]).name
        result = fn(task[:-1] + (str(part),))
        return result, part.read_bytes()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast, in one line, when ``host:port`` does not answer (Ray itself retries for minutes)."""
    if "://" in address or address == "auto":
        return
    host, sep, port = address.rpartition(":")
    number = small_int(port, 5) if sep else None  # ASCII digits only (svot.numbers)
    if number is None:
        raise ConfigError(f"--address: expected host:port (or auto), got {address!r}")
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", number), timeout=timeout).close()
    except OSError as exc:
        raise ConfigError(
            f"no Ray cluster answers at {address!r} ({exc.strerror or exc}); start one with `ray start --head` "
            "or leave out --address to run a local instance"
        ) from None


class RayPool:
    """The slice of ``concurrent.futures.Executor`` that the export loop uses, over Ray tasks.

    ``submit(fn, task)`` returns a ``concurrent.futures.Future`` that completes
    once the task's part is written at ``task[-1]`` on this machine, with the
    task's own result (so ``wait``/``result`` work exactly as with processes).
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None):
        ray = _import_ray()
        self._ray = ray
        self._owner = False
        if not ray.is_initialized():
            kwargs = {"log_to_driver": False, "logging_level": logging.WARNING}
            if address:
                try:
                    ray.init(address=address, **kwargs)
                except ConnectionError as exc:
                    raise ConfigError(f"cannot join the Ray cluster at {address!r}: {exc}") from None
            else:
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                ray.init(
                    num_cpus=num_cpus or os.cpu_count() or 1,
                    include_dashboard=False,
                    **kwargs,
                )
            self._owner = True
        self._remote = ray.remote(num_cpus=1)(_run_and_ship)
        self._refs: list = []

    def submit(self, fn, task: tuple) -> Future:
        ref = self._remote.remote(fn, task)
        self._refs.append(ref)
        out: Future = Future()
        out.set_running_or_notify_cancel()

        def done(f: Future) -> None:
            try:
                result, data = f.result()
                atomic_write_bytes(Path(task[-1]), data)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting export loop
                out.set_exception(exc)
            else:
                out.set_result(result)

        ref.future().add_done_callback(done)
        return out

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        ray = self._ray
        if cancel_futures:
            for ref in self._refs:
                with contextlib.suppress(Exception):  # finished or already gone
                    ray.cancel(ref)
        self._refs = []
        if self._owner and ray.is_initialized():
            ray.shutdown()
        self._owner = False


def check_engine(engine: str, address: str | None) -> None:
    """Reject an unknown engine, a stray address, a missing Ray or a cluster that does not answer."""
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if address is not None and engine != "ray":
        raise ConfigError("--address names a Ray cluster: use it with --engine ray")
    if engine == "ray":  # before the export touches its output directory
        _import_ray()
        if address:
            _check_reachable(address)
