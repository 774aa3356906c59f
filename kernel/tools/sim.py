"""Simulating many games in parallel processes, into the game library.

:func:`plan` turns a run's settings into one log header per game: game ``i``
of a run with seed ``S`` has the seed :func:`game_seed(S, i) <game_seed>`
(a hash of both, so runs with nearby seeds share no games) and its agents
are seeded from that, exactly as ``mtgk play`` seeds them.  A game is
therefore fully determined by its header, and a run by ``S`` and its
settings: the same logs come out whatever the number of worker processes.

:func:`simulate` plays the games -- in this process, or in *spawned* worker
processes (each loads the card registry once) -- and yields every game as it
ends, as a :class:`SimResult` holding the binary log and the facts the
library indexes (:func:`mtgk.tools.store.game_facts`, computed in the worker).
A game goes wrong in one of three ways, none of which stops the run: the
engine fails (the log so far is kept, with the error), the game reaches its
event budget (:attr:`mtgk.rules.engine.Game.max_events`, recorded in the header:
the engine ends it), or -- in a worker process only -- the process dies (a
card calling ``os._exit``, a crash, the out-of-memory killer) or the game
outlives its wall-clock ``timeout`` (the worker is killed).  Then the game is
a failure without events, the reason in its error, and a new worker takes
the next game.  :func:`run_sim` does the whole ``mtgk sim`` job: plan, play,
store (each game as soon as it ends), with a text progress bar
(:class:`Progress`) on standard error.

>>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
True
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import IO, Any

import msgspec
import structlog

from mtgk.cards.decks import deck_lines
from mtgk.cards.definitions import Registry
from mtgk.games.replay import DEFAULT_MAX_TURNS, new_header, run_from_header
from mtgk.log.logfile import LogHeader, encode_log
from mtgk.rules.engine import DEFAULT_MAX_EVENTS
from mtgk.rules.seats import attack_meta
from mtgk.search import AGENTS
from mtgk.stepper import Stepper
from mtgk.tools.store import GameFacts, GameStore, StoreError, game_facts

__all__ = [
    "DEFAULT_TIMEOUT",
    "Backend",
    "GameTimeout",
    "Progress",
    "SimError",
    "SimResult",
    "SimRun",
    "TimeLimit",
    "agent_kinds",
    "failed_result",
    "game_seed",
    "id_ranges",
    "plan",
    "play_header",
    "retried_note",
    "run_sim",
    "simulate",
]

DEFAULT_TIMEOUT = 300.0
"""Seconds a game may take in a worker process before it is killed (``mtgk sim
--timeout``).  The longest reference games take a fraction of a second, and the event
budget stops a game that keeps emitting events well before this (a million events take
a few seconds to a minute); the clock is for a card that loops without emitting any."""


START_TIMEOUT = 120.0
"""Seconds a new worker process may take to load the card sets before the run stops."""


class SimError(Exception):
    """A run cannot go on: its worker processes cannot start."""


class GameTimeout(BaseException):
    """A game played in this process outlived its wall-clock limit (:class:`TimeLimit`).
    Like ``KeyboardInterrupt``, not an ``Exception``: what catches a card's failure
    must not catch this."""


class TimeLimit:
    """A wall-clock limit on what runs in its ``with`` block, in this process (``mtgk play
    --timeout``): after ``seconds`` (0: no limit) :class:`GameTimeout` is raised in the main
    thread, wherever it is -- even in a card that loops without emitting events.  It uses
    ``SIGALRM``; where there is none (Windows) or off the main thread, it does nothing.
    :meth:`call` runs something that must not be cut in the middle (writing a log record):
    a limit reached meanwhile is raised as it returns."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._holding = 0
        self._due = False
        self._old: Any = None
        self._armed = False

    def _ring(self, signum: int, frame: Any) -> None:
        if self._holding:
            self._due = True
        else:
            self._raise()

    def _raise(self) -> None:
        self._due = False
        raise GameTimeout(f"the game was still being played after {self.seconds:g} s "
                          "(--timeout)")

    def __enter__(self) -> TimeLimit:
        import threading

        if self.seconds > 0 and hasattr(signal, "setitimer") \
                and threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
            self._armed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
            self._armed = False

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``, not interrupted by the limit."""
        self._holding += 1
        try:
            return fn(*args)
        finally:
            self._holding -= 1
            if self._due and not self._holding:
                self._raise()


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``seed`` (a 31-bit number)."""
    digest = hashlib.sha256(f"mtgk-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def agent_kinds() -> dict[str, Callable[[int], Any]]:
    """The agent kinds games can be played by (``mtgk play --agents``): name -> class."""
    return dict(AGENTS)


def plan(registry: Registry, decks: Sequence[Sequence[str]], deck_names: Sequence[str],
         games: int, seed: int, agents: Sequence[str] = ("heuristic",),
         players: Sequence[str] = ("Alice", "Bob"),
         max_turns: int = DEFAULT_MAX_TURNS, max_events: int = DEFAULT_MAX_EVENTS,
         variant: str = "", teams: Sequence[Sequence[int]] = (), attack: str = ""
         ) -> list[LogHeader]:
    """One log header per game of a run (see the module docs).

    ``decks`` are card lists, ``deck_names`` their names and ``agents`` agent kinds, each
    dealt round the seats (one of them: every player's); ``players`` two to four names,
    ``variant`` and ``teams`` a multiplayer game's (:func:`mtgk.games.replay.new_header`),
    ``attack`` a free-for-all game's attack option (``meta["attack"]`` unless the default,
    :func:`mtgk.rules.seats.attack_meta`).
    The header's ``meta`` holds what ``mtgk play`` puts there (agents with their seeds,
    deck names, the turn limit, the event budget) plus ``sim: {"seed": seed, "game": i}``.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    n = len(players)
    ds = [list(decks[i % len(decks)]) for i in range(n)]  # dealt round the seats
    names = [deck_names[i % len(deck_names)] for i in range(n)]
    kinds = [agents[i % len(agents)] for i in range(n)]
    known = agent_kinds()
    for k in kinds:
        if k not in known:
            raise ValueError(f"unknown agent kind {k!r} (known: {', '.join(sorted(known))})")
    lines = [deck_lines(d) for d in ds]
    option = attack_meta(attack, n, variant)
    out = []
    for i in range(games):
        s = game_seed(seed, i)
        agent_seeds = [s * 2 + seat for seat in range(len(kinds))]
        meta = {"agents": [{"kind": k, "seed": a} for k, a in zip(kinds, agent_seeds,
                                                                    strict=True)],
                "deck_names": names, "max_turns": max_turns, "max_events": max_events,
                "sim": {"seed": seed, "game": i}, **option}
        out.append(new_header(registry, list(players), lines, s, meta=meta, variant=variant,
                              teams=teams))
    return out


@dataclass
class SimResult:
    """One simulated game: its index in the run, its binary log and its facts."""

    index: int
    log: bytes
    facts: GameFacts
    retried: str | None = None
    """Why the game's first attempt failed, in one line, when it was played again (the Ray
    backend runs a failed task once more: :mod:`mtgk.tools.sim_ray`)."""

    @property
    def error(self) -> str | None:
        """What stopped the game early (an engine failure, the event budget, a dead or
        timed-out worker), if anything."""
        return self.facts.error


def _game_index(header: LogHeader) -> int:
    sim = header.meta.get("sim")
    game = sim.get("game") if isinstance(sim, dict) else None
    return game if isinstance(game, int) else 0


def play_header(registry: Registry, header: LogHeader) -> SimResult:
    """Play the game ``header`` describes (its agents from ``meta["agents"]``).

    An engine failure does not raise, nor does a card calling ``sys.exit``: the
    log so far is kept and the result's ``error`` says what happened.
    """
    kinds = agent_kinds()
    agents = [kinds[a["kind"]](a["seed"]) for a in header.meta.get("agents", [])]
    game_ref: list[Any] = []
    error: str | None = None
    try:
        if agents:  # the stepper asks the seats' agents (mtgk.stepper)
            Stepper(registry, header, agents, watch=game_ref.append)
        else:  # (every seat passes: the engine's default agent)
            run_from_header(registry, header, None, game_ref.append)
    except SystemExit as exc:  # a card or plugin asked to end the program
        error = f"SystemExit: something in the game called sys.exit({exc.code!r})"
    except Exception as exc:  # noqa: BLE001 - a failed game is recorded, not fatal
        error = f"{type(exc).__name__}: {exc}"
    log = list(game_ref[0].log) if game_ref else []
    return SimResult(_game_index(header), encode_log(header, log),
                     game_facts(header, log, error))


def failed_result(header: LogHeader, error: str) -> SimResult:
    """The result of a game whose process died or timed out: no events, the reason."""
    return SimResult(_game_index(header), encode_log(header, []), game_facts(header, [], error))


# --------------------------------------------------------------------------
# worker processes

_header_dec = msgspec.msgpack.Decoder(LogHeader)


def _worker_main(conn: Connection, strict: bool, sets: list[list[str]]) -> None:
    """A worker process: load the registry (it must match the parent's), say
    ``("ready", None)`` or ``("failed", why)``, then play each header sent (encoded)
    until an empty message or the end of the pipe, answering ``("done", result)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the main process stops workers
    # the parent has reported any plugin failures already: keep workers quiet
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    try:
        from mtgk.cards.loading import load_registry

        reg = load_registry(strict=strict)
        mine = sorted([name, reg.sets[name].version] for name in reg.sets)
        if mine != sorted(list(s) for s in sets):
            conn.send(("failed", f"a worker process loaded other card sets ({mine}) than "
                                 f"the main process ({sets})"))
            return
    except BaseException as exc:  # noqa: BLE001 - told to the parent, which stops the run
        conn.send(("failed", f"a worker process could not load the card sets: "
                             f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv_bytes()
        except (EOFError, OSError):
            return
        if not job:
            return
        r = play_header(reg, _header_dec.decode(job))
        conn.send(("done", r))


@dataclass
class _Worker:
    """A worker process, its end of the pipe, and the game it plays (a position in
    the run's headers) since when (before it is ready: since when it was started)."""

    proc: BaseProcess
    conn: Connection
    ready: bool = False
    job: int | None = None
    since: float = 0.0


def _death(code: int | None) -> str:
    """How a worker process ended, in words."""
    if code is None:
        return "for an unknown reason"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}" + ("; the out-of-memory killer?"
                                       if -code == signal.SIGKILL else "")
    return f"exit status {code}; a card or plugin may have called os._exit"


def _in_workers(registry: Registry, headers: Sequence[LogHeader], workers: int, strict: bool,
                timeout: float | None) -> Iterator[SimResult]:
    """Play the games in ``workers`` spawned processes; yield each as it ends (see
    :func:`simulate`)."""
    sets = sorted([name, registry.sets[name].version] for name in registry.sets)
    ctx = multiprocessing.get_context("spawn")
    enc = msgspec.msgpack.Encoder()
    todo = deque(range(len(headers)))
    crew: list[_Worker] = []

    def hire() -> None:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker_main, args=(child, strict, sets), daemon=True,
                           name="mtgk-sim-worker")
        proc.start()
        child.close()
        crew.append(_Worker(proc, parent, since=time.monotonic()))

    def fire(w: _Worker, kill: bool) -> int | None:
        crew.remove(w)
        if kill:
            w.proc.kill()
        w.proc.join(5)
        w.conn.close()
        return w.proc.exitcode

    try:
        for _ in range(min(workers, len(headers))):
            hire()
        while todo or any(w.job is not None for w in crew):
            now = time.monotonic()
            for w in crew:
                if w.ready and w.job is None and todo:
                    w.job, w.since = todo.popleft(), now
                    w.conn.send_bytes(enc.encode(headers[w.job]))
            ends = [w.since + START_TIMEOUT - now for w in crew if not w.ready]
            if timeout is not None:
                ends += [w.since + timeout - now for w in crew if w.job is not None]
            left = max(0.0, min(ends)) if ends else None
            ready = set(wait([w.conn for w in crew] + [w.proc.sentinel for w in crew], left))
            for w in list(crew):
                if w.conn in ready:
                    try:
                        kind, value = w.conn.recv()
                    except (EOFError, OSError):
                        kind, value = "died", None
                elif w.proc.sentinel in ready:
                    kind, value = "died", None
                else:
                    continue
                if kind == "ready":
                    w.ready = True
                elif kind == "done":
                    w.job = None
                    yield value
                elif kind == "failed":
                    raise SimError(str(value))
                else:
                    job, code = w.job, fire(w, kill=False)
                    if not w.ready:
                        raise SimError(f"a worker process died before it could play a game "
                                       f"({_death(code)})")
                    if job is not None:
                        yield failed_result(headers[job], f"the worker process playing the "
                                                          f"game died ({_death(code)})")
                    if todo:
                        hire()
            now = time.monotonic()
            if any(not w.ready and now - w.since >= START_TIMEOUT for w in crew):
                raise SimError(f"a worker process was not ready to play after "
                               f"{START_TIMEOUT:g} s (loading the card sets)")
            if timeout is not None:
                for w in [w for w in crew if w.job is not None and now - w.since >= timeout]:
                    job = w.job
                    assert job is not None
                    fire(w, kill=True)
                    yield failed_result(headers[job], f"timed out: the game was still being "
                                                      f"played after {timeout:g} s (--timeout)")
                    if todo:
                        hire()
    finally:
        for w in list(crew):
            if w.job is None:
                try:
                    w.conn.send_bytes(b"")
                except OSError:
                    pass
            else:
                w.proc.kill()
        for w in list(crew):
            w.proc.join(5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()


Backend = Callable[[Registry, Sequence[LogHeader]], Generator[SimResult, None, None]]
"""Another way to play a run's games (``mtgk sim --backend``): given the registry and the
headers, yield every game's result as it ends (:func:`simulate` is the default;
:func:`mtgk.tools.sim_ray.ray_backend` makes one for Ray)."""


def simulate(registry: Registry, headers: Sequence[LogHeader], workers: int = 1,
             strict: bool = False, timeout: float | None = None,
             isolate: bool | None = None) -> Generator[SimResult, None, None]:
    """Play every header's game; yield each result as its game ends.

    With ``workers > 1``, a ``timeout`` or ``isolate``, the games are played in
    ``workers`` spawned processes (games end in any order): a process that dies
    takes only its game with it, and a game that takes longer than ``timeout``
    seconds is stopped by killing its process (see :func:`failed_result`).
    Otherwise they are played in this process, in order.  The logs do not depend
    on ``workers``.  Raises :class:`SimError` if the worker processes cannot
    start or load the card sets.
    """
    if isolate is None:
        isolate = workers > 1 or timeout is not None
    if not isolate:
        for h in headers:
            yield play_header(registry, h)
        return
    yield from _in_workers(registry, headers, max(1, workers), strict, timeout)


# --------------------------------------------------------------------------
# progress


class Progress:
    """A one-line text progress bar (``[#####-----] 5/10 games  2.1/s  ETA 0:02``).

    Drawn on ``stream`` (standard error) only when ``enabled``; redrawn at
    most ten times a second, and always for the last item.
    """

    def __init__(self, total: int, stream: IO[str] | None = None, enabled: bool = True,
                 width: int = 30, unit: str = "games") -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.width = width
        self.unit = unit
        self.done = 0
        self.start = time.monotonic()
        self._drawn = 0.0

    def line(self, now: float | None = None) -> str:
        """The bar as it reads now."""
        t = (now if now is not None else time.monotonic()) - self.start
        frac = self.done / self.total if self.total else 1.0
        fill = int(round(frac * self.width))
        rate = self.done / t if t > 0 else 0.0
        eta = ""
        if rate > 0 and self.done < self.total:
            left = int((self.total - self.done) / rate)
            eta = f"  ETA {left // 60}:{left % 60:02d}"
        return (f"[{'#' * fill}{'-' * (self.width - fill)}] {self.done}/{self.total} "
                f"{self.unit}  {rate:.1f}/s{eta}")

    def advance(self, n: int = 1, note: str = "") -> None:
        """Count ``n`` more items done (and redraw, if it is time)."""
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if self.done >= self.total or now - self._drawn >= 0.1:
            self._drawn = now
            text = self.line(now) + (f"  {note}" if note else "")
            self.stream.write("\r" + text + "\x1b[K")
            self.stream.flush()

    def finish(self) -> None:
        """End the bar's line."""
        if self.enabled and self.total:
            self.stream.write("\n")
            self.stream.flush()


# --------------------------------------------------------------------------
# the whole job


def id_ranges(ids: Sequence[int], most: int = 4) -> str:
    """Game ids in few words: ``game ids 1–75, 77–150``; more than ``most`` ranges (games
    of runs into the same library at the same time in between) as ``150 games, ids 11 to
    300, between other games``."""
    spans: list[list[int]] = []
    for i in sorted(ids):
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    if len(spans) > most:
        return f"{len(ids)} games, ids {spans[0][0]} to {spans[-1][1]}, between other games"
    text = ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)
    return f"game id{'s' if len(ids) != 1 else ''} {text}"


@dataclass
class SimRun:
    """What :func:`run_sim` did: the ids of the games it stored, of the identical games
    the library held already (``duplicates``), the results of its games, their
    failures (game index, reason), the time taken, and the games that were played again
    (``retried``: game index, why the first attempt failed; the Ray backend's)."""

    ids: list[int]
    wins: list[int]
    draws: int
    unfinished: int
    errors: list[tuple[int, str]]
    seconds: float
    events: int
    duplicates: list[int] = field(default_factory=list)
    retried: list[tuple[int, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ids": self.ids, "duplicates": self.duplicates, "wins": self.wins,
                "draws": self.draws, "unfinished": self.unfinished,
                "errors": [{"game": i, "error": e} for i, e in self.errors],
                "retried": [{"game": i, "reason": r} for i, r in self.retried],
                "seconds": round(self.seconds, 3), "events": self.events}


def retried_note(retried: Sequence[tuple[int, str]]) -> str:
    """The summary's line of the games played again, with why their first attempt failed
    (games of one reason together, in game order), or ``""`` when there were none.

    >>> retried_note([(3, "worker died")])
    '1 game re-run: game 3 (worker died)'
    >>> retried_note([(4, "worker died"), (1, "worker died"), (2, "node gone")])
    '3 games re-run: games 1, 4 (worker died), game 2 (node gone)'
    """
    if not retried:
        return ""
    why: dict[str, list[int]] = {}
    for i, reason in sorted(retried):
        why.setdefault(reason, []).append(i)
    games = ", ".join(f"game{'s' if len(ids) != 1 else ''} {', '.join(map(str, ids))} "
                      f"({reason})" for reason, ids in why.items())
    return f"{len(retried)} game{'s' if len(retried) != 1 else ''} re-run: {games}"


def run_sim(registry: Registry, headers: Sequence[LogHeader], store: GameStore,
            workers: int = 1, progress: Progress | None = None, strict: bool = False,
            timeout: float | None = None, isolate: bool | None = None,
            allow_duplicates: bool = False, backend: Backend | None = None) -> SimRun:
    """Play ``headers`` (see :func:`simulate`, or with ``backend``) and add every game to
    ``store``.

    Each game is added (and durable) as soon as it ends, so a run that is
    interrupted or killed loses only the games being played.  A game identical
    to a stored one (the same log bytes: the same settings and seed) is not added
    again unless ``allow_duplicates``.  A :class:`~mtgk.tools.store.StoreError` stops
    the run (the games stored before it stay).
    """
    start = time.monotonic()
    ids: list[int] = []
    duplicates: list[int] = []
    wins = [0] * max((len(h.players) for h in headers), default=2)
    draws = unfinished = events = 0
    errors: list[tuple[int, str]] = []
    retried: list[tuple[int, str]] = []
    try:
        played = (backend(registry, headers) if backend is not None else
                  simulate(registry, headers, workers, strict, timeout, isolate))
        with closing(played) as games:
            for res in games:
                try:
                    added = store.add(res.log, res.facts, allow_duplicates=allow_duplicates)
                except StoreError as exc:
                    raise StoreError(f"{exc} (the run stopped; {len(ids)} of its games were "
                                     "stored before)") from None
                (duplicates if added.duplicate else ids).append(added.id)
                f = res.facts
                events += f.events
                if f.winner is None:
                    unfinished += 1
                elif f.winner < 0:
                    draws += 1
                else:
                    for seat in f.winners:  # (every player of a winning team)
                        wins[seat] += 1
                if res.error:
                    errors.append((res.index, res.error))
                if res.retried:
                    retried.append((res.index, res.retried))
                if progress is not None:
                    progress.advance(note=f"{len(errors)} failed" if errors else "")
    finally:
        if progress is not None:
            progress.finish()
    errors.sort()
    retried.sort()
    return SimRun(ids, wins, draws, unfinished, errors, time.monotonic() - start, events,
                  duplicates, retried)


def default_workers(games: int) -> int:
    """Worker processes to use by default: one per CPU, no more than games."""
    return max(1, min(games, os.cpu_count() or 1))
