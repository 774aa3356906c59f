"""Upgrading a saved game: re-run an old log's decisions under today's rules.

``mtgk upgrade OLD --out NEW`` (docs/debugging.md, "Upgrading a saved game") starts the
game of an old log again, as its header describes it, under the rules running now, and
answers every decision with the old log's decisions, in order (those the game made from
its seed, such as who plays first, are made again from the seed).  A recorded decision
that no longer applies -- the engine asks another player, or for another kind of
decision, or refuses the recorded answer -- is where the games part for good: from
there the players' agents play on, as ``mtgk branch`` does.  A scenario's log stops
where its recorded decisions end, as its scenario did.

The result says where the two games' events first differ (:func:`compare_streams`, the
comparison ``mtgk verify`` makes) and which decisions no longer applied.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.games.replay import new_header, run_from_header
>>> from mtgk.agents import HeuristicAgent
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> old = run_from_header(reg, header, [HeuristicAgent(1), HeuristicAgent(2)])
>>> res = upgrade(reg, header, list(old.log), agents=[HeuristicAgent(1), HeuristicAgent(2)])
>>> res.divergence is None, res.applied == res.recorded, res.dropped is None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.games.replay import (
    Divergence,
    compare_streams,
    log_kind,
    new_header,
    rerun_log,
    rerunner_for,
)
from mtgk.games.versions import Versions, of_header, running
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader
from mtgk.rules.engine import Agent, Decision, Game, GameOver, RulesError

__all__ = ["UpgradeError", "UpgradeResult", "upgrade"]


class UpgradeError(Exception):
    """The log cannot be upgraded (a kind of log this kernel cannot re-run)."""


@dataclass
class Dropped:
    """The first recorded decision that no longer applied: the old log's event ``seq``
    (``-1``: the engine asked for a decision after the old log's last one), the new
    log's event number where it was asked, and why."""

    seq: int
    at: int
    why: str


@dataclass
class UpgradeResult:
    """An upgraded game: the new game and its header; ``divergence``: where the new log
    first differs from the old one (``None``: identical); ``recorded`` and ``applied``:
    the old log's player decisions and how many of them were answered as recorded;
    ``dropped``: the first that no longer applied (the agents played on from there)."""

    game: Game
    header: LogHeader
    divergence: Divergence | None
    recorded: int
    applied: int
    dropped: Dropped | None
    written: Versions
    now: Versions


class _Exhausted(Exception):
    """Internal: a scenario's recorded decisions are used up (the scenario ended there)."""


class _UpgradeAgent:
    """Answers with the old log's player decisions in order; once one no longer applies
    (or, in a game, they are used up), the players' agents answer."""

    def __init__(self, envelopes: Sequence[Envelope], agents: Sequence[Agent],
                 scenario: bool, end: int = 0) -> None:
        self.queue = [env for env in envelopes if isinstance(env.event, ev.DecisionMade)
                      and env.event.player >= 0]
        self.agents = agents
        self.scenario = scenario
        self.end = end  # a scenario: the number of events it produced
        self.next = 0
        self.dropped: Dropped | None = None
        self.last: Envelope | None = None

    def decide(self, game: Game, d: Decision) -> Any:
        if self.dropped is None:
            rec = self.queue[self.next] if self.next < len(self.queue) else None
            single = d.options is not None and len(d.options) == 1
            if rec is None and self.scenario and (not single or len(game.log) >= self.end):
                raise _Exhausted  # the scenario ended where its decisions did
            if rec is not None:
                e = rec.event
                assert isinstance(e, ev.DecisionMade)
                # a decision with one option is recorded only if answered otherwise (an
                # "up to" choice, a mana ability): taken as that only where the games are
                # still aligned
                if e.kind == d.kind and e.player == d.player and (
                        not single or rec.seq == len(game.log)):
                    self.next += 1
                    self.last = rec
                    return e.choice
            if single:
                assert d.options is not None
                return d.options[0]  # a decision with one option is not recorded
            if rec is None:
                self.dropped = Dropped(-1, len(game.log), "the engine asks for a decision "
                                       "after the old log's last one")
            else:
                e = rec.event
                assert isinstance(e, ev.DecisionMade)
                self.dropped = Dropped(rec.seq, len(game.log), (
                    f"the engine asks {game.name(-1 - d.player)} for a {d.kind} decision "
                    f"where the old log's next decision is player {e.player}'s {e.kind}"))
        return self.agents[d.player].decide(game, d)

    def refused(self, game: Game, d: Decision, err: RulesError) -> None:
        rec = self.last
        if self.dropped is not None or rec is None:
            raise err
        self.next -= 1  # (not applied after all)
        self.dropped = Dropped(rec.seq, len(game.log),
                               f"the engine refuses the recorded {d.kind} answer: {err}")


def upgrade(registry: Registry, header: LogHeader, envelopes: Sequence[Envelope], *,
            agents: Sequence[Agent], meta: dict[str, Any] | None = None) -> UpgradeResult:
    """Re-run the old log of ``header``/``envelopes`` under the rules running now,
    answering with its decisions, and ``agents`` (one per player) playing on from the
    first decision that no longer applies.  The new header is this kernel's for the
    same game (players, decks, seed, rules, meta), with ``meta`` added and
    ``meta["upgraded_from"]`` = ``{"kernel_version", "rules_revision", "cardsets",
    "first_difference", "decisions", "applied", "dropped"}`` (callers add ``"file"``).
    Engine errors propagate."""
    from mtgk.scenario import runner  # noqa: F401 - it registers the scenario logs' re-runners

    rerun = rerunner_for(header)
    if rerun is None:
        raise UpgradeError(f"logs of kind {log_kind(header)!r} cannot be re-run by this kernel")
    scenario = log_kind(header) == "scenario"
    end = header.meta.get("scenario_end")
    agent = _UpgradeAgent(envelopes, agents, scenario,
                          end if type(end) is int else len(envelopes))
    made: list[Game] = []
    try:
        game = rerun_log(rerun, registry, header, [agent] * max(2, len(header.players)),
                         made.append, envelopes)
    except (_Exhausted, GameOver):
        game = made[0]
    new_meta = dict(header.meta)
    new_meta.update(meta or {})
    if scenario:
        new_meta["scenario_end"] = len(game.log)
    div = compare_streams(envelopes, game.log)
    written = of_header(header)
    now = running(registry, [name for name, _ in written.cardsets])
    drop = agent.dropped
    new_meta["upgraded_from"] = {
        "kernel_version": header.kernel_version, "rules_revision": written.rules,
        "cardsets": [list(c) for c in header.cardsets],
        "first_difference": None if div is None else div.seq,
        "decisions": len(agent.queue), "applied": agent.next,
        "dropped": None if drop is None else {"event": drop.seq, "at": drop.at,
                                              "why": drop.why}}
    new = new_header(registry, header.players, header.decks, header.seed, header.profile,
                     new_meta)
    return UpgradeResult(game, new, div, len(agent.queue), agent.next, drop, written, now)
