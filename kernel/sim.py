"""Simulating many games in parallel processes, into the game library.

:func:`plan` turns a run's settings into one log header per game: game ``i``
of a run with seed ``S`` has the seed :func:`game_seed(S, i) <game_seed>`
(a hash of both, so runs with nearby seeds share no games) and its agents
are seeded from that, exactly as ``mtgk play`` seeds them.  A game is
therefore fully determined by its header, and a run by ``S`` and its
settings: the same logs come out whatever the number of worker processes.

:func:`simulate` plays the games -- in this process (``workers=1``) or in a
pool of *spawned* worker processes (each loads the card registry once) --
and hands every finished game to a callback in game order, as a
:class:`SimResult` holding the binary log and the facts the library indexes
(:func:`kernel.store.game_facts`, computed in the worker).  :func:`run_sim`
does the whole ``mtgk sim`` job: plan, play, store, with a text progress bar
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

import msgspec
import structlog

from kernel.cards import Registry
from kernel.decks import deck_lines
from kernel.logfile import LogHeader, encode_log
from kernel.replay import DEFAULT_MAX_TURNS, new_header, run_from_header
from kernel.store import GameFacts, GameStore, game_facts

__all__ = [
    "Progress",
    "SimResult",
    "SimRun",
    "agent_kinds",
    "game_seed",
    "plan",
    "play_header",
    "run_sim",
    "simulate",
]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``seed`` (a 31-bit number)."""
    digest = hashlib.sha256(f"mtgk-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def agent_kinds() -> dict[str, Callable[[int], Any]]:
    """The agent kinds games can be played by (``mtgk play --agents``): name -> class."""
    from kernel.cli import AGENTS  # late: kernel.cli imports this module's command

    return dict(AGENTS)


def plan(registry: Registry, decks: Sequence[Sequence[str]], deck_names: Sequence[str],
         games: int, seed: int, agents: Sequence[str] = ("heuristic",),
         players: Sequence[str] = ("Alice", "Bob"),
         max_turns: int = DEFAULT_MAX_TURNS) -> list[LogHeader]:
    """One log header per game of a run (see the module docs).

    ``decks`` are card lists (one per seat, or one for both); ``agents`` one
    or two agent kinds.  The header's ``meta`` holds what ``mtgk play`` puts
    there (agents with their seeds, deck names, the turn limit) plus
    ``sim: {"seed": seed, "game": i}``.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    ds = [list(d) for d in decks] * (2 if len(decks) == 1 else 1)
    names = list(deck_names) * (2 if len(deck_names) == 1 else 1)
    kinds = list(agents) * (2 if len(agents) == 1 else 1)
    known = agent_kinds()
    for k in kinds:
        if k not in known:
            raise ValueError(f"unknown agent kind {k!r} (known: {', '.join(sorted(known))})")
    lines = [deck_lines(d) for d in ds]
    out = []
    for i in range(games):
        s = game_seed(seed, i)
        agent_seeds = [s * 2 + seat for seat in range(len(kinds))]
        meta = {"agents": [{"kind": k, "seed": a} for k, a in zip(kinds, agent_seeds,
                                                                    strict=True)],
                "deck_names": names, "max_turns": max_turns,
                "sim": {"seed": seed, "game": i}}
        out.append(new_header(registry, list(players), lines, s, meta=meta))
    return out


@dataclass
class SimResult:
    """One simulated game: its index in the run, its binary log and its facts."""

    index: int
    log: bytes
    facts: GameFacts

    @property
    def error(self) -> str | None:
        """The engine failure that stopped the game early, if any."""
        return self.facts.error


def play_header(registry: Registry, header: LogHeader) -> SimResult:
    """Play the game ``header`` describes (its agents from ``meta["agents"]``).

    An engine failure does not raise: the log so far is kept and the result's
    ``error`` says what happened.
    """
    kinds = agent_kinds()
    agents = [kinds[a["kind"]](a["seed"]) for a in header.meta.get("agents", [])]
    game_ref: list[Any] = []
    error: str | None = None
    try:
        run_from_header(registry, header, agents or None, game_ref.append)
    except Exception as exc:  # noqa: BLE001 - a failed game is recorded, not fatal
        error = f"{type(exc).__name__}: {exc}"
    log = list(game_ref[0].log) if game_ref else []
    index = int(header.meta.get("sim", {}).get("game", 0))
    return SimResult(index, encode_log(header, log), game_facts(header, log, error))


# --------------------------------------------------------------------------
# worker processes

_WORKER_REGISTRY: Registry | None = None
_WORKER_ERROR = "worker not initialised"
_header_dec = msgspec.msgpack.Decoder(LogHeader)


def _init_worker(strict: bool, sets: list[list[str]]) -> None:
    """Load the registry once per worker process; it must match the parent's.

    Never raises (a pool would start failing workers again and again): a
    problem is raised by the worker's first job instead.
    """
    global _WORKER_REGISTRY, _WORKER_ERROR
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the main process stops the pool
    # the parent has reported any plugin failures already: keep workers quiet
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    try:
        from kernel.plugins import load_registry

        reg = load_registry(strict=strict)
    except Exception as exc:  # noqa: BLE001 - reported by the first job
        _WORKER_ERROR = f"a worker process could not load the card sets: {exc}"
        return
    mine = sorted([name, reg.sets[name].version] for name in reg.sets)
    if mine != sorted(list(s) for s in sets):
        _WORKER_ERROR = (f"a worker process loaded other card sets ({mine}) than the main "
                         f"process ({sets})")
        return
    _WORKER_REGISTRY = reg


def _play_job(job: bytes) -> tuple[int, bytes, GameFacts]:
    if _WORKER_REGISTRY is None:
        raise RuntimeError(_WORKER_ERROR)
    r = play_header(_WORKER_REGISTRY, _header_dec.decode(job))
    return r.index, r.log, r.facts


def simulate(registry: Registry, headers: Sequence[LogHeader], workers: int = 1,
             strict: bool = False) -> Iterator[SimResult]:
    """Play every header's game; yield the results in the headers' order.

    ``workers > 1`` plays them in that many spawned processes (games finish in
    any order; results are held back until every earlier game is yielded).
    The results do not depend on ``workers``.
    """
    if workers <= 1 or len(headers) <= 1:
        for h in headers:
            yield play_header(registry, h)
        return
    sets = sorted([name, registry.sets[name].version] for name in registry.sets)
    ctx = multiprocessing.get_context("spawn")
    enc = msgspec.msgpack.Encoder()
    jobs = [enc.encode(h) for h in headers]
    position = {int(h.meta.get("sim", {}).get("game", i)): i for i, h in enumerate(headers)}
    waiting: dict[int, SimResult] = {}
    nxt = 0
    with ctx.Pool(min(workers, len(headers)), initializer=_init_worker,
                  initargs=(strict, sets)) as pool:
        for index, log, facts in pool.imap_unordered(_play_job, jobs):
            waiting[position[index]] = SimResult(index, log, facts)
            while nxt in waiting:
                yield waiting.pop(nxt)
                nxt += 1


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


@dataclass
class SimRun:
    """What :func:`run_sim` did: the stored game ids, results, failures, time taken."""

    ids: list[int]
    wins: list[int]
    draws: int
    unfinished: int
    errors: list[tuple[int, str]]
    seconds: float
    events: int

    def to_json(self) -> dict[str, Any]:
        return {"ids": self.ids, "wins": self.wins, "draws": self.draws,
                "unfinished": self.unfinished,
                "errors": [{"game": i, "error": e} for i, e in self.errors],
                "seconds": round(self.seconds, 3), "events": self.events}


def run_sim(registry: Registry, headers: Sequence[LogHeader], store: GameStore,
            workers: int = 1, progress: Progress | None = None, strict: bool = False,
            commit_every: int = 50) -> SimRun:
    """Play ``headers`` (see :func:`simulate`) and add every game to ``store``.

    Games are added in game order (so their ids follow it) and committed every
    ``commit_every`` games when the store can commit; an interrupted run
    keeps the games finished before it.
    """
    start = time.monotonic()
    ids: list[int] = []
    wins = [0] * max((len(h.players) for h in headers), default=2)
    draws = unfinished = events = 0
    errors: list[tuple[int, str]] = []
    commit = getattr(store, "commit", None)
    try:
        for res in simulate(registry, headers, workers, strict):
            ids.append(store.add(res.log, res.facts))
            f = res.facts
            events += f.events
            if f.winner is None:
                unfinished += 1
            elif f.winner < 0:
                draws += 1
            else:
                wins[f.winner] += 1
            if res.error:
                errors.append((res.index, res.error))
            if commit is not None and len(ids) % commit_every == 0:
                commit()
            if progress is not None:
                progress.advance(note=f"{len(errors)} failed" if errors else "")
    finally:
        if commit is not None:
            commit()
        if progress is not None:
            progress.finish()
    return SimRun(ids, wins, draws, unfinished, errors, time.monotonic() - start, events)


def default_workers(games: int) -> int:
    """Worker processes to use by default: one per CPU, no more than games."""
    return max(1, min(games, os.cpu_count() or 1))
