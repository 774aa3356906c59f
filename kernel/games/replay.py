"""Starting games from a log header, seeking into logs, and verifying logs.

A log header (:class:`~mtgk.log.logfile.LogHeader`) says everything needed to
play a game again besides the players' decisions: players, seed, rules
profile, deck lines and the options of the run (``meta["max_turns"]``).
:func:`start_game` and :func:`run_from_header` turn a header into a game; the
``mtgk play`` command and :func:`verify` both go through them, so the way a
game is started cannot drift between recording and checking.

Reading a log back:

* :func:`replay_to` -- the state right after event ``n`` (a plain fold);
* :class:`Seeker` -- the same, fast, for many seeks into a long log: it keeps
  encoded snapshots of the state (every ``every`` events, or further apart for a
  large state; a disposable cache) and replays forward from the nearest one;
* :func:`verify` -- re-runs the engine from the header, answering every
  decision from the log (:class:`~mtgk.agents.ReplayAgent`), and compares
  the event stream it produces with the recorded one, event by event; then
  checks that folding the log gives the state the engine ended with.

The verdict is kept apart from how the re-run is driven: :func:`compare_envelopes`
(one recorded event against one re-run event) and :func:`compare_streams` (two event
streams) are the comparison, :func:`judge` turns a divergence into a verdict by the
versions that wrote the log (:mod:`mtgk.games.versions`): a log whose header names the
rules running now and whose re-run differs is damaged or edited (``failed``); an intact
one written by other rules is ``other-rules`` (:data:`EXIT_STATUS`).

Logs of other kinds are re-run by the function registered for their kind
with :func:`register_rerunner`: scenario logs (``meta["scenario"]``) by
:func:`mtgk.scenario.rerun.run_setup_log` (registered when :mod:`mtgk.scenario` is
imported), which emits the recorded setup again and plays on from there.  A log of a kind with none registered cannot be verified: :func:`verify`
checks its integrity and fold and reports it as not verified.

What :func:`verify` trusts, by kind:

* a **game** log's header says everything (decks, seed, rules): the whole log
  is re-derived;
* a **scenario** log sets its position up by events (it has no decks), and
  those setup events can't be re-derived without the scenario file; so the
  header must have a scenario's shape (no decks, ``meta["scenario"]``) and the
  events before play starts (up to the first ``StepBegan``) must be only
  setup events (:data:`mtgk.scenario.rerun.SETUP_EVENTS`, ``TurnBegan`` first, each with no
  cause); everything after them is re-derived.  A game log relabelled as a
  scenario fails both checks (it has decks, and its pre-game events are
  library cards, shuffles and draws).

A log is *complete* when it reaches the game's end; a scenario log also when
it reaches the end of the scenario (``meta["scenario_end"]``, the number of
events the scenario produced; for older logs without it: the log ends where
the engine asks for the next decision, which is where a scenario stops).

>>> from mtgk.cards.loading import load_registry
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> game = run_from_header(reg, header)
>>> report = verify(header, game.log, reg)
>>> report.ok, report.events == len(game.log)
(True, True)
>>> replay_to(game.log, 0).players[1].name
'Bob'
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

import mtgk
from mtgk.agents import ReplayAgent, ReplayExhausted
from mtgk.cards.decks import DeckError
from mtgk.games.start import (  # (re-exported: games were started from here before)
    DEFAULT_MAX_TURNS,
    SetupError,
    Watch,
    header_decks,
    header_variant,
    new_header,
    run_from_header,
    start_game,
)
from mtgk.games.versions import Versions, differences, of_header, running
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, UnknownEvent, event_tag
from mtgk.rules.definitions import Registry
from mtgk.rules.engine import Agent, Game, RulesError
from mtgk.rules.state import State, apply, copy_state, encode_state, fold, new_state
from mtgk.stepper import Stepper

_decode_state = msgspec.msgpack.Decoder(State).decode


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No garbage collection inside: decoding a state makes tens of thousands of
    objects (a 100,000-event game's 6,800 objects and their lists and dicts), all of
    them kept, and collecting while they are made only walks them (and the rest of
    the heap) again and again -- two thirds of a seek's time.  They are looked at
    once, by the next collection after the seek."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()



__all__ = [
    "Watch",
    "header_decks",
    "header_variant",
    "DEFAULT_MAX_TURNS",
    "EXIT_STATUS",
    "Divergence",
    "SetupError",
    "Seeker",
    "VerifyReport",
    "compare_envelopes",
    "compare_streams",
    "judge",
    "log_kind",
    "new_header",
    "register_rerunner",
    "replay_to",
    "rerun_log",
    "rerunner_for",
    "run_from_header",
    "start_game",
    "verify",
]


class Rerunner(Protocol):
    """Re-runs a log of some kind: like :func:`run_from_header`.

    Called as ``fn(registry, header, agents, watch)``; must call
    ``watch(game)`` as soon as the game exists and return the game.  A
    re-runner that needs the recorded events too (because the log's setup is
    recorded as events, not described by the header) has an attribute
    ``wants_log = True`` and is called with the keyword argument ``log``.

    :func:`verify` also uses two optional methods: ``problems(header, log)``, the reasons
    (complete sentences) the log is not one of this kind, checked before re-running; and
    ``headers(header)``, the ``(header, note)`` pairs to re-run with in turn until one
    doesn't diverge (the note goes into the report), for logs whose header leaves open
    which writer made them.
    """

    def __call__(self, registry: Registry, header: LogHeader, agents: Sequence[Agent],
                 watch: Watch) -> Game: ...


_RERUNNERS: dict[str, Rerunner] = {"game": run_from_header}



def register_rerunner(kind: str, fn: Rerunner) -> None:
    """Let :func:`verify` re-run logs of ``kind`` (see :func:`log_kind`) with ``fn``.

    The scenario runner registers ``"scenario"`` here, for instance.  A
    later registration for the same kind replaces the earlier one.
    """
    _RERUNNERS[kind] = fn


def rerunner_for(header: LogHeader) -> Rerunner | None:
    """The function that re-runs logs of ``header``'s kind, if one is registered."""
    return _RERUNNERS.get(log_kind(header))


def rerun_log(rerun: Rerunner, registry: Registry, header: LogHeader, agents: Sequence[Agent],
              watch: Watch, log: Sequence[Envelope]) -> Game:
    """Call ``rerun`` on a log, passing the recorded events if it wants them."""
    if getattr(rerun, "wants_log", False):
        return rerun(registry, header, agents, watch, log=log)  # type: ignore[call-arg]
    return rerun(registry, header, agents, watch)


def log_kind(header: LogHeader) -> str:
    """``"scenario"`` for scenario logs, ``meta["kind"]`` if given, else ``"game"``."""
    kind = header.meta.get("kind")
    if isinstance(kind, str) and kind:
        return kind
    return "scenario" if "scenario" in header.meta else "game"


# --------------------------------------------------------------------------
# Seeking


def replay_to(envelopes: Sequence[Envelope], n: int) -> State:
    """The state right after event ``n`` (``-1``: before any event).

    >>> from mtgk.log.events import GameStarted
    >>> envs = [Envelope(0, -1, GameStarted(players=("A", "B"), seed=1))]
    >>> replay_to(envs, 0).seed, replay_to(envs, -1).players
    (1, [])
    """
    _check_index(n, len(envelopes))
    return fold(list(envelopes[: n + 1]))


def _check_index(n: int, size: int) -> None:
    if not -1 <= n < size:
        raise IndexError(f"event {n} is not in the log (it has events 0 to {size - 1})")


class Seeker:
    """Fast random access to the states of a log.

    Keeps snapshots of the state, each the msgspec encoding of the state before
    some event (bytes: compact, and nothing for the garbage collector to walk),
    and replays forward from the nearest one.  A snapshot is taken every
    ``every`` events as seeks fold past them, or less often when the state is
    large: the snapshots are at least ``size / SNAPSHOT_BYTES_PER_EVENT`` events
    apart (rounded up to a multiple of ``every``), so that encoding them costs
    a small part of the folding and they take little memory (a 100,000-event
    log of 6,800 objects: about 40 snapshots of 1.3 MB).  The snapshots are a
    disposable cache, built lazily as far as seeks need; the state reached by
    the last forward fold is kept too, so seeking forward goes on from it.
    :meth:`state_at` always returns a new state the caller may change.

    >>> from mtgk.log.events import GameStarted, LifeLost
    >>> envs = [Envelope(0, -1, GameStarted(players=("A", "B"), seed=1))]
    >>> envs += [Envelope(i, -1, LifeLost(player=0, n=1)) for i in range(1, 6)]
    >>> s = Seeker(envs, every=2)
    >>> s.state_at(3).players[0].life, s.state_at(1).players[0].life, len(s)
    (17, 19, 6)
    """

    SNAPSHOT_BYTES_PER_EVENT = 512
    """Snapshots of a state of ``B`` encoded bytes are at least ``B / 512`` events apart."""

    def __init__(self, envelopes: Sequence[Envelope], every: int = 1000) -> None:
        if every < 1:
            raise ValueError("snapshots must be at least 1 event apart")
        self.envelopes = envelopes
        self.every = every
        self._at: list[int] = [0]  # _at[i]: events folded into snapshot i (ascending)
        self._snaps: list[bytes] = [encode_state(new_state())]
        self._live = new_state()  # the state the forward folds go on from
        self._live_at = 0  # number of events folded into _live

    def __len__(self) -> int:
        return len(self.envelopes)

    def _fold_live(self, count: int) -> None:
        """Fold ``_live`` forward to ``count`` events, snapshotting on the way."""
        envs = self.envelopes
        s = self._live
        at = self._live_at
        while at < count:
            # snapshots are only taken here, so the last one is at most one spacing back
            next_snap = self._at[-1] + self._spacing()
            stop = min(count, next_snap)
            for env in envs[at:stop]:
                apply(s, env.event)
            at = stop
            if at == next_snap:
                self._at.append(at)
                self._snaps.append(encode_state(s))
        self._live_at = at

    def _spacing(self) -> int:
        """Events between the last snapshot and the next one (a multiple of ``every``)."""
        size = len(self._snaps[-1])
        every = self.every
        want = -(-size // self.SNAPSHOT_BYTES_PER_EVENT)
        return max(1, -(-want // every)) * every

    def state_at(self, n: int) -> State:
        """The state right after event ``n`` (``-1``: before any event)."""
        _check_index(n, len(self.envelopes))
        with _gc_paused():
            return self._state_at(n + 1)

    def _state_at(self, count: int) -> State:
        if count >= self._live_at:  # the live state is the nearest one before ``count``
            self._fold_live(count)
            if self._at[-1] == count:
                return _decode_state(self._snaps[-1])
            return _decode_state(encode_state(self._live))
        i = bisect_right(self._at, count) - 1
        s = _decode_state(self._snaps[i])
        for env in self.envelopes[self._at[i]:count]:
            apply(s, env.event)
        return s

    seek = state_at

    def snapshots(self) -> int:
        """How many snapshots are held (the empty initial state included)."""
        return len(self._snaps)

    def snapshot_bytes(self) -> int:
        """The size of the snapshots held, in bytes."""
        return sum(map(len, self._snaps))


# --------------------------------------------------------------------------
# Verifying


@dataclass
class Divergence:
    """Where a re-run first differs from the log.

    ``expected`` is the recorded envelope (``None``: the log ended there),
    ``got`` the re-run's (``None``: the engine stopped there); ``reason``
    says how they differ.
    """

    seq: int
    expected: Envelope | None
    got: Envelope | None
    reason: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.reason}"


EXIT_STATUS: dict[str, int] = {"ok": 0, "failed": 1, "not-verified": 1, "incomplete": 3,
                               "other-rules": 4}
"""``mtgk verify``'s exit status for each :attr:`VerifyReport.verdict` (2 is bad usage)."""


@dataclass
class VerifyReport:
    """The outcome of :func:`verify`.

    ``ok``: nothing in the log contradicts a re-run of the engine (integrity,
    every event, the fold).  ``mode`` is ``"rerun"`` (the engine re-ran the log)
    or ``"integrity"`` (it could not be re-run: only sequence, causes and fold
    were checked, ``ok`` is false, and ``rerunnable`` is false if no re-runner is
    registered for the log's kind).  ``complete`` is false when the log
    stops before the game's end (or the scenario's): a log cut off, or repaired
    after a crash; ``incomplete`` then says where it stops.  A log is fully
    verified when it is ``ok`` and ``complete`` (:attr:`verified`).

    ``written`` and ``now`` are the versions that wrote the log and that run now
    (:mod:`mtgk.games.versions`); ``other_rules`` is true when the re-run differs
    (``divergence``) from an intact log written by other rules (:func:`judge`): not a
    failure of the log.  :attr:`verdict` names the outcome.
    """

    ok: bool
    events: int
    mode: str
    kind: str = "game"
    divergence: Divergence | None = None
    fold_ok: bool | None = None
    complete: bool = True
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    incomplete: str = ""
    rerunnable: bool = True
    written: Versions | None = None
    now: Versions | None = None
    other_rules: bool = False
    rules_differ: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """Whether the log verified from its start to its end."""
        return self.ok and self.complete

    @property
    def verdict(self) -> str:
        """``ok``, ``incomplete``, ``other-rules`` (intact, written by other rules, its
        re-run differs), ``failed`` (damaged, edited, or not this kernel's game) or
        ``not-verified`` (a kind of log this kernel cannot re-run); see
        :data:`EXIT_STATUS`."""
        if self.ok:
            return "ok" if self.complete else "incomplete"
        if self.other_rules:
            return "other-rules"
        return "failed" if self.rerunnable else "not-verified"

    @property
    def exit_status(self) -> int:
        """``mtgk verify``'s exit status for this report."""
        return EXIT_STATUS[self.verdict]

    def summary(self) -> str:
        """One line: ``OK: N events verified``, ``INCOMPLETE: ...``, ``OTHER RULES: ...``
        or what went wrong first."""
        if self.ok and self.complete:
            return f"OK: {self.events} events verified"
        if self.ok:
            if self.events == 0:
                return ("INCOMPLETE: the log has no events, only its header: the game stopped "
                        "before it began")
            return (f"INCOMPLETE: the {self.events} events verified, but the log stops before "
                    f"the {'scenario' if self.kind == 'scenario' else 'game'}'s end"
                    + (f" ({self.incomplete})" if self.incomplete else ""))
        if self.other_rules and self.divergence is not None:
            return ("OTHER RULES: the log is intact but was written by other rules ("
                    + "; ".join(self.rules_differ) + f"); re-run under these rules, it first "
                    f"differs at {self.divergence}")
        if self.divergence is not None:
            return f"FAILED: diverges at {self.divergence}"
        if not self.rerunnable:
            return "NOT VERIFIED: " + "; ".join(self.problems or ["unknown reason"])
        return "FAILED: " + (self.problems[0] if self.problems else "unknown reason")

    def as_json(self) -> dict[str, Any]:
        """The report as JSON values: ``verdict``, ``exit``, ``events``, ``complete``,
        ``written_by`` and ``running`` (versions), ``rules_differ``, ``divergence``
        (``{"seq", "reason"}`` or ``null``), ``problems``, ``notes``."""
        div = self.divergence
        return {"verdict": self.verdict, "exit": self.exit_status, "events": self.events,
                "complete": self.complete,
                "written_by": self.written.as_json() if self.written else None,
                "running": self.now.as_json() if self.now else None,
                "rules_differ": list(self.rules_differ),
                "divergence": None if div is None else {"seq": div.seq, "reason": div.reason},
                "problems": list(self.problems), "notes": list(self.notes)}


_enc = msgspec.msgpack.Encoder()


def same_event(a: ev.Event, b: ev.Event) -> bool:
    """Whether two events are the same (type and field values; tuples equal lists)."""
    return type(a) is type(b) and (a == b or _enc.encode(a) == _enc.encode(b))


def _describe(e: ev.Event) -> str:
    if isinstance(e, UnknownEvent):
        return f"{e.tag} v{e.version} (unknown to this kernel)"
    return repr(e)


def compare_envelopes(expected: Envelope, got: Envelope) -> str | None:
    """How a re-run's event ``got`` differs from the recorded ``expected`` (``None``: they
    are the same event with the same cause).  The one comparison :func:`verify`, ``mtgk
    upgrade`` and any other driver of a re-run make, event by event."""
    if not same_event(expected.event, got.event):
        return f"expected {_describe(expected.event)}, got {_describe(got.event)}"
    if expected.cause != got.cause:
        return (f"{event_tag(expected.event)} has cause {expected.cause} in the log, the engine "
                f"gives cause {got.cause}")
    return None


def compare_streams(recorded: Sequence[Envelope], produced: Iterable[Envelope]
                    ) -> Divergence | None:
    """Where a produced event stream first differs from a recorded one (``None``: the
    produced stream is the recorded one, event for event).  ``produced`` is consumed only
    as far as the first difference; a stream that ends early, or goes on past the
    recorded one, differs where the shorter one ends."""
    n = 0
    for n, got in enumerate(produced, 1):
        seq = n - 1
        if seq >= len(recorded):
            return Divergence(seq, None, got, "the log ends before this event")
        why = compare_envelopes(recorded[seq], got)
        if why is not None:
            return Divergence(seq, recorded[seq], got, why)
    if n < len(recorded):
        return Divergence(n, recorded[n], None, "the re-run ends before this event; the log "
                          f"goes on with {_describe(recorded[n].event)}")
    return None


class _Comparer:
    """Compares a re-run's events with the log's as they are emitted: notes the first
    difference (:attr:`divergence`), or that the re-run went past the log's end."""

    def __init__(self, recorded: Sequence[Envelope]) -> None:
        self.recorded = recorded
        self.matched = 0
        self.state_at_end: State | None = None
        self.divergence: Divergence | None = None
        self.past_end = False

    @property
    def done(self) -> bool:
        """Whether the comparison is over (the driver stops answering)."""
        return self.divergence is not None or self.past_end

    def watch(self, game: Game) -> None:
        for env in game.log:
            self.check(game, env)
        game.listeners.append(lambda env: self.check(game, env))

    def check(self, game: Game, got: Envelope) -> None:
        if self.done:
            return
        rec = self.recorded
        seq = got.seq
        if seq >= len(rec):
            self.past_end = True  # the log ends here; the game goes on
            return
        exp = rec[seq]
        why = compare_envelopes(exp, got)
        if why is not None:
            self.divergence = Divergence(seq, exp, got, why)
            return
        self.matched = seq + 1
        if seq == len(rec) - 1:
            self.state_at_end = copy_state(game.state)


def _integrity(header: LogHeader, envelopes: Sequence[Envelope]) -> list[str]:
    """Problems that make a re-run pointless: gaps, bad causes, a wrong first event."""
    problems: list[str] = []
    for i, env in enumerate(envelopes):
        if env.seq != i:
            problems.append(f"event {i}: has sequence number {env.seq}")
            break
        if not -1 <= env.cause < i:
            problems.append(f"event {i}: cause {env.cause} is not an earlier event")
            break
    if envelopes:
        first = envelopes[0].event
        if not isinstance(first, ev.GameStarted):
            problems.append(f"event 0: expected GameStarted, found {first.TAG}")
        elif list(first.players) != list(header.players) or first.seed != header.seed \
                or first.profile != header.profile:
            problems.append(
                f"event 0: GameStarted(players={list(first.players)}, seed={first.seed}, "
                f"profile={first.profile!r}) does not match the header (players="
                f"{header.players}, seed={header.seed}, profile={header.profile!r})")
    return problems


def _set_notes(header: LogHeader, registry: Registry) -> list[str]:
    notes: list[str] = []
    for name, version in header.cardsets:
        info = registry.sets.get(name)
        if info is None:
            notes.append(f"card set {_short(name)} (version {_short(version)}) used by the log "
                         "is not loaded")
        elif info.version != version:
            notes.append(f"card set {_short(name)} is version {info.version}, the log was "
                         f"written with version {_short(version)}")
    if header.kernel_version != mtgk.__version__:
        notes.append(f"the log was written by kernel {_short(header.kernel_version)}, this is "
                     f"{mtgk.__version__}")
    return notes


def verify(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry
           ) -> VerifyReport:
    """Check a log: integrity, a re-run of the engine against it, its fold; and judge a
    re-run that differs by the versions that wrote the log (:func:`judge`)."""
    return judge(_verify(header, envelopes, registry), header, envelopes, registry)


def judge(report: VerifyReport, header: LogHeader, envelopes: Sequence[Envelope],
          registry: Registry) -> VerifyReport:
    """Fill in ``report``'s versions, and tell a log written by other rules from a damaged
    one: a re-run that differs (``report.divergence``) from a log whose integrity held
    (``mode == "rerun"``) and that folds cleanly is *other rules* when the rules the
    log's header names (:mod:`mtgk.games.versions`) are not those running now; when they
    are the same, the log is damaged or edited (``failed``).  Only the outcome of the
    comparison is used, not how the re-run was driven.  Returns ``report``."""
    written = of_header(header)
    now = running(registry, [name for name, _ in written.cardsets])
    report.written, report.now = written, now
    report.rules_differ = differences(written, now)
    if report.divergence is None and report.ok and report.rules_differ:
        report.notes.append("the log was written by other rules ("
                            + "; ".join(report.rules_differ) + "), and re-runs identically "
                            "under these")
    if report.divergence is None or report.mode != "rerun" or not report.rules_differ:
        return report
    unknown = [env.seq for env in envelopes if isinstance(env.event, UnknownEvent)]
    if unknown:  # (events of other rules this kernel can't read: their fold can't be judged)
        report.notes.append(f"{len(unknown)} event(s) of the log are of types or versions "
                            f"this kernel does not know (the first is event {unknown[0]}): "
                            "the fold of the log was not checked")
        report.other_rules = True
        return report
    broken = _fold_problem(envelopes)
    if broken:
        report.problems.append(broken)
        report.divergence = None  # the log itself is broken: that is the verdict
        return report
    report.other_rules = True
    return report


def _fold_problem(envelopes: Sequence[Envelope]) -> str:
    """Why folding the log fails (``""``: it folds)."""
    s = new_state()
    for env in envelopes:
        try:
            apply(s, env.event)
        except Exception as exc:  # noqa: BLE001 - any failure of the fold is the finding
            return (f"the log does not fold: event {env.seq} ({event_tag(env.event)}) fails: "
                    f"{type(exc).__name__}: {exc}")
    return ""


def _verify(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry
            ) -> VerifyReport:
    """Check a log: integrity, a re-run of the engine against it, and its fold.

    The re-run starts the game from ``header`` exactly as it was started
    (through the re-runner registered for the log's kind: :func:`run_from_header`
    for games, :func:`mtgk.scenario.rerun.run_setup_log` for scenarios, whose header
    and setup are checked first: a re-runner's ``problems(header, log)``) and answers every decision with the recorded one; the first
    event where the engine's output differs from the log is reported.  A log
    that stops before the game's end (cut off by a crash, then repaired) is
    verified as far as it goes (``complete=False``).  A log of a kind no
    re-runner is registered for is not verified (``ok=False``).
    """
    kind = log_kind(header)
    notes = _set_notes(header, registry)
    n = len(envelopes)
    problems = _integrity(header, envelopes)
    if problems:
        return VerifyReport(False, n, "integrity", kind, problems=problems, notes=notes)
    unknown = [env.seq for env in envelopes if isinstance(env.event, UnknownEvent)]
    rerun = _RERUNNERS.get(kind)
    if rerun is None:
        problems.append(f"no re-runner is registered for {_short(kind)} logs, so this log "
                        "cannot be verified (only its integrity and fold were checked)")
        if unknown:
            problems.append(f"{len(unknown)} event(s) unknown to this kernel, the first is "
                            f"event {unknown[0]}: the fold cannot be trusted")
        return VerifyReport(False, n, "integrity", kind, fold_ok=not unknown,
                            problems=problems, notes=notes, rerunnable=False)
    check = getattr(rerun, "problems", None)
    if check is not None:
        problems = list(check(header, envelopes))
        if problems:
            return VerifyReport(False, n, "integrity", kind, problems=problems, notes=notes)
    tries = getattr(rerun, "headers", None)
    attempts: Sequence[tuple[LogHeader, str]] = tries(header) if tries else [(header, "")]
    first: VerifyReport | None = None
    for tried, note in attempts:
        report = _rerun_report(rerun, registry, tried, envelopes, kind,
                               notes if first is None else list(notes))
        if report.divergence is None:
            if note:
                report.notes.append(note)
            return report
        first = first or report
    assert first is not None, "a re-runner's headers() names at least one header"
    return first


def _rerun_report(rerun: Rerunner, registry: Registry, header: LogHeader,
                  envelopes: Sequence[Envelope], kind: str, notes: list[str]) -> VerifyReport:
    """Re-run a log whose integrity holds, and compare (the part of :func:`verify` after
    the integrity checks)."""
    n = len(envelopes)
    problems: list[str] = []
    cmp = _Comparer(envelopes)
    replay = ReplayAgent(envelopes)
    game: Game | None = None
    div: Divergence | None = None
    past_end = False
    asked_at_end = False  # the re-run asked for a decision the log ends before

    def run(agents: Sequence[Agent], watch: Watch) -> Any:
        return rerun_log(rerun, registry, header, agents, watch, envelopes)

    try:
        stepper = Stepper.driving(run, registry, header, watch=cmp.watch)
        game = stepper.game
        while stepper.decision is not None and not cmp.done:
            if len(stepper.log) >= n:  # a decision the log ends before: no answer invented
                past_end = asked_at_end = True
                break
            stepper.answer(replay.decide(stepper.game, stepper.decision))
        div = cmp.divergence
        past_end = past_end or cmp.past_end
    except ReplayExhausted as exc:
        if exc.seq >= n:
            past_end = asked_at_end = True
        else:
            has = f"the log has {_describe(envelopes[exc.seq].event)} there"
            div = Divergence(exc.seq, envelopes[exc.seq], None,
                             f"the engine asks for a decision the log does not record ({has})")
    except DeckError as exc:
        return VerifyReport(False, n, "rerun", kind, problems=[f"bad deck in the header: {exc}"],
                            notes=notes)
    except SetupError as exc:
        return VerifyReport(False, n, "integrity", kind, problems=[f"not a scenario log: {exc}"],
                            notes=notes)
    except Exception as exc:  # noqa: BLE001 - an engine error is a verification failure
        if cmp.divergence is not None:  # (the engine went on past a difference, and failed)
            return VerifyReport(False, n, "rerun", kind, divergence=cmp.divergence,
                                notes=notes)
        exp = envelopes[cmp.matched] if cmp.matched < n else None
        if isinstance(exc, RulesError) and exp is not None \
                and isinstance(exp.event, ev.DecisionMade):
            why = f"the recorded decision is illegal: {exc}"
        else:
            why = f"the engine failed: {type(exc).__name__}: {exc}"
        div = Divergence(cmp.matched, exp, None, why)
    if div is None and not past_end and cmp.matched < n:
        div = Divergence(cmp.matched, envelopes[cmp.matched], None,
                         "the re-run game ended before this event; the log goes on with "
                         f"{_describe(envelopes[cmp.matched].event)}")
    if div is not None:
        return VerifyReport(False, n, "rerun", kind, divergence=div, notes=notes)
    if n == 0:
        return VerifyReport(True, 0, "rerun", kind, fold_ok=True, complete=False, notes=notes,
                            incomplete="it has no events")
    end_state = cmp.state_at_end if cmp.state_at_end is not None else (
        game.state if game is not None else None)
    fold_ok = end_state is not None and encode_state(fold(list(envelopes))) == encode_state(
        end_state)
    if not fold_ok:
        problems.append("folding the log does not give the state the engine reached "
                        "(something changed the state outside an event)")
    complete, why = _completeness(kind, header, n, past_end, asked_at_end)
    return VerifyReport(fold_ok, n, "rerun", kind, fold_ok=fold_ok, complete=complete,
                        problems=problems, notes=notes, incomplete=why)


def _completeness(kind: str, header: LogHeader, n: int, past_end: bool, asked_at_end: bool
                  ) -> tuple[bool, str]:
    """Whether a log that re-ran as far as it goes is complete, and if not, why not."""
    if not past_end:
        return True, ""  # the re-run game ended where the log ends
    if kind != "scenario" and "scenario" not in header.meta:  # (or a scenario log's own kind)
        return False, f"the re-run goes on after event {n - 1}"
    end = header.meta.get("scenario_end")
    if type(end) is int:
        if n == end:
            return True, ""
        return False, (f"the header says the scenario ended after {end} events, the log "
                       f"has {n}" if n < end else f"it goes on past the scenario's end "
                       f"(event {end}) and stops before the game's")
    if asked_at_end:
        return True, ""  # an older scenario log: it stops where a decision is asked
    return False, f"the re-run goes on after event {n - 1} before any decision is asked"


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
