"""Re-running scenario logs: logs whose position is set up by events, not by decks.

A scenario's log (``meta["scenario"]``) has no decks; the scenario runner emits its
setup -- the turn, life totals, every object put directly into its zone, counters,
attachments -- as events, then plays on.  :func:`run_setup_log` re-runs such a log for
:func:`mtgk.games.replay.verify`: the recorded setup again, then the game from there.
Importing :mod:`mtgk.scenario` registers it for the ``"scenario"`` kind
(:func:`mtgk.games.replay.register_rerunner`).

What verify trusts of a scenario log: the header must have a scenario's shape (no decks,
``meta["scenario"]``) and the events before play starts (up to the first ``StepBegan``)
must be only setup events (:data:`SETUP_EVENTS`, ``TurnBegan`` first, each with no
cause): :func:`setup_problems`.  A game log relabelled as a scenario fails both checks
(it has decks, and its pre-game events are library cards, shuffles and draws).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

import msgspec

from mtgk.games.replay import register_rerunner
from mtgk.games.start import DEFAULT_MAX_TURNS, SetupError, Watch, start_game
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, event_tag
from mtgk.rules.definitions import Registry
from mtgk.rules.engine import Agent, Game, GameOver
from mtgk.rules.seats import next_turn

__all__ = ["SCENARIO_SETUP", "SETUP_EVENTS", "ScenarioRerunner", "run_setup_log",
           "setup_problems"]


SCENARIO_SETUP = 2
"""``meta["scenario_setup"]`` of the logs the scenario runner writes now: the setup
triggers nothing and play resumes inside the scenario's step (see :func:`run_setup_log`)."""

SETUP_EVENTS: tuple[type[ev.Event], ...] = (
    ev.TurnBegan, ev.LifeGained, ev.LifeLost, ev.ObjectCreated, ev.CounterPlaced, ev.Attached,
    ev.ObjectFlagged, ev.DamageMarked)
"""The event types a scenario's setup is made of (what the scenario runner emits
before play starts); a scenario log's events before its first ``StepBegan`` must
be of these types."""


def setup_problems(header: LogHeader, log: Sequence[Envelope]) -> list[str]:
    """What makes ``header`` and ``log`` not a scenario log's (empty if nothing does).

    A scenario log's header lists no decks and names the scenario
    (``meta["scenario"]``); its events are ``GameStarted``, then the setup:
    ``TurnBegan`` and other :data:`SETUP_EVENTS`, none with a cause, up to the
    first ``StepBegan``, where play starts.
    """
    problems: list[str] = []
    if any(header.decks):
        problems.append("the header lists decks, as a game log's does; a scenario log's "
                        "position is set up by events and its header has no decks")
    name = header.meta.get("scenario")
    if not isinstance(name, str) or not name:
        problems.append("the header names no scenario (meta.scenario)")
    start = 2 if len(log) > 1 and isinstance(log[1].event, ev.GameVariant) else 1
    for env in log[start:]:
        e = env.event
        if isinstance(e, ev.StepBegan):
            break
        if env.seq == start and not isinstance(e, ev.TurnBegan):
            problems.append(f"event {start}: a scenario's setup starts with TurnBegan, found "
                            f"{event_tag(e)}")
            break
        if env.seq > start and isinstance(e, ev.TurnBegan):
            problems.append(f"event {env.seq}: a second TurnBegan in the setup")
            break
        if not isinstance(e, SETUP_EVENTS):
            problems.append(f"event {env.seq}: {event_tag(e)} before play starts (the first "
                            "StepBegan); a scenario's setup is made only of "
                            + ", ".join(t.TAG for t in SETUP_EVENTS))
            break
        if env.cause != -1:
            problems.append(f"event {env.seq}: the setup event {event_tag(e)} has cause "
                            f"{env.cause}; setup events have none")
            break
    return problems



def _run_setup_log(registry: Registry, header: LogHeader, agents: Sequence[Agent],
                  watch: Watch, log: Sequence[Envelope] = ()) -> Game:
    """Re-run a log whose position is set up by events: a scenario's log.

    The events before the log's first ``StepBegan`` (after ``GameStarted``)
    are the setup: the turn, life totals, every object put directly into its
    zone, counters, attachments.  They are emitted again as recorded, and, as
    the scenario runner does, trigger nothing; then the game goes on in that
    step of that turn (:meth:`~mtgk.rules.engine.Game.turn_from` with ``resume``,
    then the following turns), with ``agents`` answering the decisions.
    Raises :class:`SetupError` if the header or the setup is not a scenario's
    (:func:`setup_problems`).

    ``meta["scenario_setup"]`` says which runner wrote the log: ``2`` (the
    current one) as just described; absent, an older one, whose setup could
    trigger abilities and whose scenario began its step afresh (turn-based
    actions, "at the beginning of" triggers): such logs re-run that way.
    """
    problems = setup_problems(header, log)
    if problems:
        raise SetupError(problems[0])
    current = header.meta.get("scenario_setup") == SCENARIO_SETUP
    game = start_game(registry, header, agents)
    watch(game)
    turn: int | None = None
    active = 0
    step: str | None = None
    with game.setting_up() if current else nullcontext():
        for env in log[len(game.log):]:  # (after GameStarted and a GameVariant)
            e = env.event
            if isinstance(e, ev.StepBegan):
                step = e.step
                break
            if isinstance(e, ev.TurnBegan):
                turn, active = e.turn, e.active
            game.emit(e)
    if step is None or turn is None:
        return game
    max_turns = int(header.meta.get("max_turns", DEFAULT_MAX_TURNS))
    try:
        game.turn_from(step, turn, active, resume=current)
        game.run(first=next_turn(game.state, active), turn=turn + 1, max_turns=max_turns)
    except GameOver:
        pass
    return game


class ScenarioRerunner:
    """The re-runner of scenario logs (a :class:`mtgk.games.replay.Rerunner`): called like
    :func:`_run_setup_log`; :meth:`problems` is :func:`setup_problems` worded for a
    report, and :meth:`headers` tries a log whose header doesn't say which runner wrote it
    (no ``meta["scenario_setup"]``) the older way first, then the current way."""

    wants_log = True

    def __call__(self, registry: Registry, header: LogHeader, agents: Sequence[Agent],
                 watch: Watch, log: Sequence[Envelope] = ()) -> Game:
        return _run_setup_log(registry, header, agents, watch, log)

    def problems(self, header: LogHeader, log: Sequence[Envelope]) -> list[str]:
        """Why ``header`` and ``log`` are not a scenario log's, as a report says it."""
        return [f"not a scenario log: {p}" for p in setup_problems(header, log)]

    def headers(self, header: LogHeader) -> list[tuple[LogHeader, str]]:
        """The headers to re-run the log with in turn, each with the note a success adds."""
        if "scenario_setup" in header.meta:
            return [(header, "")]
        # written by an older runner (setup semantics 1) -- or, unmarked, by the current
        # one: re-run it the older way, and if that diverges, the current way
        marked = msgspec.structs.replace(
            header, meta={**header.meta, "scenario_setup": SCENARIO_SETUP})
        return [(header, ""),
                (marked, "the header does not say which scenario runner wrote the log "
                         "(meta.scenario_setup): it re-ran as a log of the current one")]


run_setup_log = ScenarioRerunner()
"""Re-run a scenario's log (see :func:`_run_setup_log`); registered for ``"scenario"``."""

register_rerunner("scenario", run_setup_log)
