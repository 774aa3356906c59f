"""Simulating games as Ray tasks (``mtgk sim --backend ray``), on one machine or a cluster.

Ray (https://www.ray.io) is an optional extra: ``pip install "mtgk[ray]"``.  The run is
the one :func:`mtgk.tools.sim.plan` makes: the same headers, so the same seeds and the same,
byte-identical logs as the process pool of :mod:`mtgk.tools.sim` (or ``--workers 1``).  Each
game is one Ray task that plays a header with :func:`mtgk.tools.sim.play_header` in a Ray
worker process, which loads the card registry once (it must hold the same card sets, at
the same versions, as the driver's: otherwise the run stops, as with the process pool).

:func:`ray_backend` gives a :data:`mtgk.tools.sim.Backend` for :func:`mtgk.tools.sim.run_sim`.  It
keeps at most ``workers`` tasks running and yields the results **in game order**, each as
soon as it and every game before it have ended (a result that arrives early waits in a
bounded buffer; while the buffer is full no new game is started), so that the library's
ids follow the game order whatever order the tasks end in.  A task that fails -- its
worker process dies (a card calling ``os._exit``, a crash, the out-of-memory killer, a
node that goes away) or it raises -- is run once more; if it fails again, the game is
recorded as failed (:func:`mtgk.tools.sim.failed_result`) with the reason, and the run goes
on.  A game that was played again says why in :attr:`mtgk.tools.sim.SimResult.retried` (the
first failure's reason, in one line; ``mtgk sim`` reports it in ``--json`` and its summary).

A game still being played after ``timeout`` seconds is stopped and recorded as timed out,
without a retry (as with the process pool).  Its clock is the task's own
(:func:`play_timed`: :class:`mtgk.tools.sim.TimeLimit`, as ``mtgk play --timeout``), started
when the task begins to play, after its worker process has started and loaded the card sets
and however long the task waited for a CPU of a busy cluster: only the game's time counts.
The driver keeps a backstop for a game that its own clock cannot stop (no ``SIGALRM``):
a task still unfinished :data:`GRACE` seconds past its ``timeout``, counted from when it was
handed to Ray, is cancelled (its worker killed) and recorded as timed out too.

Without an ``address`` a new local Ray instance is started with ``workers`` CPUs and shut
down at the end (``RAY_ADDRESS`` and a cluster ``ray start`` left on this machine are not
joined: that is ``address="auto"``); with one (``auto``, ``ray://host:10001``, ``host:6379``) the driver
connects to that cluster and only disconnects at the end.  If Ray is initialised already
in this process (a notebook, a test), that instance is used and left running.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Generator, Sequence
from typing import Any

import msgspec

from mtgk.cards.definitions import Registry
from mtgk.log.logfile import LogHeader
from mtgk.tools.sim import (
    START_TIMEOUT,
    Backend,
    GameTimeout,
    SimError,
    SimResult,
    TimeLimit,
    failed_result,
    play_header,
)

__all__ = ["GRACE", "RAY_MISSING", "RayMissing", "play_timed", "ray_backend", "timed_out"]

RAY_MISSING = 'the ray backend needs Ray: install mtgk[ray] (pip install "mtgk[ray]")'
"""What is said when Ray is not installed."""

BUFFER_PER_WORKER = 8
"""How many ended games per worker may wait for an earlier game before no new one starts."""


GRACE = START_TIMEOUT
"""Seconds past its ``timeout`` (counted from when it was handed to Ray) after which the
driver cancels a task whose own clock did not stop its game: room for a worker to start."""

class RayMissing(SimError):
    """Ray is not installed (:data:`RAY_MISSING`)."""


def _ray() -> Any:
    """The ``ray`` module, or :class:`RayMissing`."""
    try:
        import ray
    except ImportError:
        raise RayMissing(RAY_MISSING) from None
    return ray


# --------------------------------------------------------------------------
# in a Ray worker process

_registry: Registry | None = None
_header_dec = msgspec.msgpack.Decoder(LogHeader)


def timed_out(timeout: float) -> str:
    """A timed-out game's reason (the process pool's words)."""
    return f"timed out: the game was still being played after {timeout:g} s (--timeout)"


def play_timed(registry: Registry, header: LogHeader, timeout: float | None
               ) -> tuple[str, SimResult | None]:
    """Play ``header``'s game on its own clock: ``("done", result)``, or ``("timedout",
    None)`` when it was still being played ``timeout`` seconds after this call (none or 0:
    no limit).  The clock is :class:`mtgk.tools.sim.TimeLimit` (``SIGALRM``, in the main
    thread: where a Ray task runs)."""
    try:
        with TimeLimit(timeout or 0):
            result = play_header(registry, header)
    except GameTimeout:
        return "timedout", None
    return "done", result


def _play_task(header: bytes, strict: bool, sets: list[list[str]], timeout: float | None
               ) -> tuple[str, SimResult | str | None]:
    """The Ray task: play one encoded header (:func:`play_timed`).  ``("done", result)``,
    ``("timedout", None)``, or ``("refused", why)`` when this worker cannot load the card
    sets or loads others than the driver's."""
    global _registry
    if _registry is None:
        import structlog

        # the driver has reported any plugin failures already: keep workers quiet
        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
        try:
            from mtgk.cards.loading import load_registry

            reg = load_registry(strict=strict)
        except Exception as exc:  # noqa: BLE001 - told to the driver, which stops the run
            return "refused", (f"a Ray worker could not load the card sets: "
                               f"{type(exc).__name__}: {exc}")
        mine = sorted([name, reg.sets[name].version] for name in reg.sets)
        if mine != sorted(list(s) for s in sets):
            import socket

            return "refused", (f"a Ray worker on {socket.gethostname()} loaded other card sets "
                               f"({mine}) than the driver ({sets}); install the same card sets "
                               "on every node")
        _registry = reg
    return play_timed(_registry, _header_dec.decode(header), timeout)


# --------------------------------------------------------------------------
# in the driver


def _reason(exc: BaseException) -> str:
    """A failed task's reason, in one line."""
    ray = _ray()
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            return f"{type(cause).__name__}: {' '.join(str(cause).split())}"[:300]
    if isinstance(exc, ray.exceptions.WorkerCrashedError):
        return ("the Ray worker process playing the game died (WorkerCrashedError; a card or "
                "plugin may have called os._exit, or the out-of-memory killer)")
    if isinstance(exc, ray.exceptions.NodeDiedError | ray.exceptions.LocalRayletDiedError):
        return f"the Ray node playing the game went away ({type(exc).__name__})"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:300]


def ray_backend(workers: int, address: str | None = None, strict: bool = False,
                timeout: float | None = None) -> Backend:
    """A :data:`mtgk.tools.sim.Backend` that plays the games as Ray tasks (see the module docs).

    Raises :class:`RayMissing` (a :class:`mtgk.tools.sim.SimError`) at once if Ray is not
    installed; connecting or starting Ray happens when the games are played.
    """
    _ray()

    def play(registry: Registry, headers: Sequence[LogHeader]
             ) -> Generator[SimResult, None, None]:
        return _in_ray(registry, headers, max(1, workers), address, strict, timeout)

    return play


AUTH_MODE = "RAY_AUTH_MODE"
"""The environment variable that makes a Ray driver given an explicit address send its
token (``token``); without it, such a driver cannot join a cluster that wants one."""

PROBE_SECONDS = 5.0
"""How long the driver waits for a ``HOST:PORT`` cluster address to answer at all (Ray
itself keeps retrying for minutes, printing warnings)."""


def _probe(address: str) -> None:
    """Raise :class:`SimError` at once if nothing listens at a ``HOST:PORT`` address (other
    forms -- ``auto``, ``ray://...`` -- are left to Ray)."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or "/" in address or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)),
                                      timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise SimError(f"cannot connect to the Ray cluster at {address}: nothing answers "
                       f"there ({exc.strerror or type(exc).__name__})") from None


def _start(workers: int, address: str | None) -> bool:
    """Start or join Ray; whether this call did (and so must shut it down)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    if address:
        _probe(address)
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:  # "local": a new instance, even if RAY_ADDRESS is set or `ray start` ran here
            ray.init(address="local", num_cpus=workers, include_dashboard=False, **quiet)
    except Exception as exc:  # noqa: BLE001 - Ray raises many kinds; one line for the user
        where = f"connect to the Ray cluster at {address}" if address else "start Ray"
        hint = ""
        if address and isinstance(exc, ConnectionError) and not os.environ.get(AUTH_MODE):
            hint = (f" (a cluster with token authentication, the default of recent Ray "
                    f"versions, needs {AUTH_MODE}=token in this environment)")
        raise SimError(f"cannot {where}: {type(exc).__name__}: "
                       f"{' '.join(str(exc).split())[:300]}{hint}") from None
    return True


def _in_ray(registry: Registry, headers: Sequence[LogHeader], workers: int,
            address: str | None, strict: bool, timeout: float | None
            ) -> Generator[SimResult, None, None]:
    ray = _ray()
    if not headers:
        return
    started = _start(workers, address)
    # the raylet prints its own note of every worker that dies on the driver's standard
    # output; the failed game says it already.  (Ray's own debugger sets this flag too.)
    printing = getattr(ray._private.worker, "_worker_logs_enabled", True)
    ray._private.worker._worker_logs_enabled = False
    try:
        sets = sorted([name, registry.sets[name].version] for name in registry.sets)
        task = ray.remote(max_retries=0, num_cpus=1)(_play_task)
        enc = msgspec.msgpack.Encoder()
        running: dict[Any, tuple[int, int, float]] = {}  # ref -> (game, attempt, since)
        done: dict[int, SimResult] = {}
        first: dict[int, str] = {}  # game -> why its first attempt failed
        after = 0  # the next game to start
        head = 0  # the next game to yield
        room = workers * BUFFER_PER_WORKER
        # the task keeps the game's clock; the driver's, from submission, is a backstop
        backstop = None if timeout is None else timeout + GRACE

        def submit(i: int, attempt: int) -> None:
            ref = task.remote(enc.encode(headers[i]), strict, sets, timeout)
            running[ref] = (i, attempt, time.monotonic())

        def finish(i: int, result: SimResult) -> None:
            result.retried = first.pop(i, None)
            done[i] = result

        try:
            while head < len(headers):
                while after < len(headers) and len(running) < workers and len(done) < room:
                    submit(after, 0)
                    after += 1
                if head in done:
                    yield done.pop(head)
                    head += 1
                    continue
                left = None
                if backstop is not None:
                    now = time.monotonic()
                    left = max(0.0, min(since + backstop - now for _, _, since in
                                        running.values()))
                ready, _ = ray.wait(list(running), num_returns=1, timeout=left)
                for ref in ready:
                    i, attempt, _since = running.pop(ref)
                    try:
                        kind, value = ray.get(ref)
                    except Exception as exc:  # noqa: BLE001 - any failure: retry once
                        if attempt == 0:
                            first[i] = _reason(exc)
                            submit(i, 1)
                        else:
                            finish(i, failed_result(headers[i], f"{_reason(exc)}; the game "
                                                    "was tried twice"))
                        continue
                    if kind == "refused":
                        raise SimError(str(value))
                    if kind == "timedout":
                        assert timeout is not None
                        finish(i, failed_result(headers[i], timed_out(timeout)))
                        continue
                    assert isinstance(value, SimResult)
                    finish(i, value)
                if backstop is not None:
                    assert timeout is not None
                    now = time.monotonic()
                    for ref, (i, _attempt, since) in list(running.items()):
                        if now - since >= backstop:
                            del running[ref]
                            ray.cancel(ref, force=True)
                            finish(i, failed_result(headers[i], timed_out(timeout)))
        finally:
            for ref in running:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()  # (which prints what it held back: still not)
        ray._private.worker._worker_logs_enabled = printing
