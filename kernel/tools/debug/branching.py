"""What if a decision had gone otherwise? :func:`branch` re-runs a game up to one of its
decisions, answers it differently, and lets agents play on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from mtgk.agents import ReplayAgent
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, event_tag
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.stepper import Stepper
from mtgk.tools.debug.changes import envelope_difference

__all__ = [
    "BranchError",
    "BranchRefused",
    "BranchResult",
    "branch",
]


class BranchError(Exception):
    """A branch cannot be made: the event is not a decision, the log does not
    re-run up to it, or logs of its kind cannot be re-run."""


class BranchRefused(BranchError):
    """The engine refused the replacement choice: ``rule`` and ``reason`` say why."""

    def __init__(self, err: RulesError, decision: Decision) -> None:
        self.rule = err.rule
        self.reason = err.message
        self.decision = decision
        opts = decision.options
        hint = ""
        if opts is not None:
            shown = ", ".join(msgspec.json.encode(o).decode() for o in opts[:8])
            more = f", ... ({len(opts)} in all)" if len(opts) > 8 else ""
            hint = f"; the legal choices are: {shown}{more}"
        super().__init__(f"the engine refuses this {decision.kind} choice: {err.message} "
                         f"(rule {err.rule}){hint}")


_UNSET: Any = object()


@dataclass
class BranchResult:
    """A branched game: the new game (its ``log`` is the new log) and its header."""

    game: Game
    header: LogHeader
    at: int
    kind: str
    player: int
    original: Any
    choice: Any


def branch(registry: Registry, header: LogHeader, envelopes: Sequence[Envelope], at: int, *,
           agents: Sequence[Agent], choice: Any = _UNSET, chooser: Agent | None = None,
           meta: dict[str, Any] | None = None,
           watch: Callable[[Game], None] | None = None) -> BranchResult:
    """Re-run the game of ``header``/``envelopes`` up to decision ``at``, answer it
    with ``choice`` (or let ``chooser``, by default the deciding player's agent,
    choose), then let ``agents`` (one per player) play on to the end.

    The engine validates the new choice as it validates every answer: an
    illegal one raises :class:`BranchRefused`.  The new log's header is a
    header of this kernel for the same game (players, decks, seed, rules) with
    ``meta`` added to the original meta, and ``meta["branched_from"]`` = ``{"event",
    "kind", "player", "original", "choice"}`` (callers add ``"file"``).
    ``watch(game)`` is called once the new game exists (e.g. to write its log
    as it grows).  Engine errors after the branch point propagate.
    """
    from mtgk.games.replay import log_kind, new_header, rerun_log, rerunner_for
    from mtgk.scenario import runner  # noqa: F401 - it registers the scenario logs' re-runners

    if not 0 <= at < len(envelopes):
        raise BranchError(f"event {at} is not in the log (it has events 0 to "
                          f"{len(envelopes) - 1})")
    rec = envelopes[at].event
    if not isinstance(rec, ev.DecisionMade):
        near = [env.seq for env in envelopes if isinstance(env.event, ev.DecisionMade)
                and env.event.player >= 0]
        before = [s for s in near if s < at][-1:]
        after = [s for s in near if s > at][:1]
        hint = ", ".join(f"event {s}" for s in before + after)
        raise BranchError(f"event {at} is {event_tag(rec)}, not a player's decision (DecisionMade)"
                          + (f"; the nearest decisions are {hint}" if hint else ""))
    if rec.player < 0:
        raise BranchError(f"event {at} is the game's own {rec.kind} choice (made at random "
                          "from the seed), not a player's decision")
    rerun = rerunner_for(header)
    if rerun is None:
        raise BranchError(f"logs of kind {log_kind(header)!r} cannot be re-run by this kernel")
    chosen_meta = dict(header.meta)
    chosen_meta.update(meta or {})
    problem: list[str] = []

    def check_prefix(env: Envelope) -> None:
        if env.seq < at and not problem:
            why = envelope_difference(envelopes[env.seq], env)
            if why:
                problem.append(f"the log does not re-run to event {at}: at event {env.seq} "
                               f"the engine gives another event ({why}); try `mtgk verify`")

    def on_start(game: Game) -> None:
        for env in game.log:
            check_prefix(env)
        game.listeners.append(check_prefix)
        if watch is not None:
            watch(game)

    def run(members: Sequence[Agent], seen: Callable[[Game], None]) -> Any:
        return rerun_log(rerun, registry, header, members, seen, envelopes)

    stepper = Stepper.driving(run, registry, header, watch=on_start)
    replay = ReplayAgent(envelopes)
    chosen: Any = _UNSET
    while chosen is _UNSET:
        d = stepper.decision
        seq = len(stepper.log)
        if problem:
            raise BranchError(problem[0])
        if d is None or seq > at:
            raise BranchError(f"the re-run game ended before event {at}" if d is None else
                              f"the log does not re-run to event {at}: the engine's next "
                              f"decision comes at event {seq}; try `mtgk verify`")
        if seq < at:
            try:
                stepper.answer(replay.decide(stepper.game, d))
            except RulesError as err:
                raise BranchError(f"the log does not re-run to event {at}: the recorded "
                                  f"{d.kind} decision at event {seq} is illegal now: "
                                  f"{err}") from None
            continue
        if rec.kind != d.kind or rec.player != d.player:
            if d.options is not None and len(d.options) == 1:
                stepper.answer(d.options[0])  # a decision with one option, not recorded
                continue
            raise BranchError(f"the re-run engine asks {stepper.game.name(-1 - d.player)} "
                              f"for a {d.kind} decision at event {seq}, the log records "
                              f"{rec.kind} by player {rec.player}: the log does not re-run "
                              "to this point (try `mtgk verify`)")
        pick = chooser or agents[d.player]
        chosen = choice if choice is not _UNSET else pick.decide(stepper.game, d)
        stepper.agents = list(agents)
        try:
            stepper.answer(chosen)
        except RulesError as err:
            raise BranchRefused(err, d) from None
    game = stepper.game
    chosen_meta["branched_from"] = {"event": at, "kind": rec.kind, "player": rec.player,
                                    "original": msgspec.to_builtins(rec.choice),
                                    "choice": msgspec.to_builtins(chosen)}
    new = new_header(registry, header.players, header.decks, header.seed, header.profile,
                     chosen_meta)
    return BranchResult(game, new, at, rec.kind, rec.player, rec.choice, chosen)
