"""Scenario export: turn a position of a logged game into a rules scenario file.

A bug seen in a game becomes a regression test: :func:`export_scenario` writes
the position right after an event as a scenario (the format of
docs/scenarios.md) -- both players' life, every zone in order
(libraries top first), each object with an alias, counters, tapped, summoning
sickness, marked damage, tokens, attachments, face-down and "exiled with" links,
and the turn, active player and step.  The scenario's ``actions`` and ``expect`` are
left empty for the reporter to fill in; a comment lists what happened next in
the game.

Aliases are ``CARD#ID``, ``ID`` being the object's id at that event in the
original log (what ``mtgk replay LOG --at N`` shows in brackets), so every
name is unambiguous and can be traced back.

The position must be a quiet one: the stack empty and no triggered ability
waiting to go on it (:class:`ExportError` names the nearest earlier event that
qualifies).  What the scenario format cannot express -- continuous effects,
a land already played this turn, mana in pools, a combat under way, other
per-object marks -- is reported in :attr:`Export.warnings` (and in
the file's header comment), not silently dropped.

:func:`check_export` proves an export: it runs the exported setup through the
scenario runner's own setup code, checks that it gives the same position
(modulo object ids), then answers every decision with the one recorded in the
original log and compares the events that follow, one by one, with the
original's.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.games.replay import new_header, run_from_header
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 4})
>>> game = run_from_header(reg, header)
>>> at = next(e.seq for e in game.log if getattr(e.event, "step", "") == "draw")
>>> x = export_scenario(header, game.log, at, reg)
>>> "turn: {number: 1" in x.text, check_export(x, header, game.log, reg).ok
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader
from mtgk.render import Renderer
from mtgk.rules.engine import Decision
from mtgk.rules.seats import next_turn
from mtgk.rules.state import Obj, State, apply, new_state
from mtgk.stepper import Stepper
from mtgk.tools.debug import map_choice, map_event_ids

__all__ = ["Export", "ExportCheck", "ExportError", "check_export", "export_scenario",
           "exportable", "priority_point"]

SETUP_ZONES = ("battlefield", "hand", "library", "graveyard", "exile")
"""The order in which the scenario runner creates each player's objects."""
_KEPT_FLAGS = frozenset({"exiled_with", "known_to"})
_NEXT_EVENTS = 12


class ExportError(Exception):
    """The position cannot be exported; ``nearest`` is the closest earlier event
    whose position can (``None``: there is none)."""

    def __init__(self, message: str, nearest: int | None = None) -> None:
        super().__init__(message)
        self.nearest = nearest


@dataclass
class Export:
    """An exported scenario.

    ``text`` is the YAML file; ``created`` the original object ids in the
    order the scenario's setup creates them (the setup's object ``i + 1`` is
    ``created[i]``); ``aliases`` maps original ids to aliases; ``warnings``
    what the position holds that the file cannot.
    """

    text: str
    name: str
    at: int
    created: list[int]
    aliases: dict[int, str]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def exportable(s: State) -> str | None:
    """Why the position ``s`` cannot be a scenario's starting position, or ``None``.

    >>> exportable(new_state())
    'the game has not started'
    """
    if not s.players:
        return "the game has not started"
    if any(p.lost for p in s.players):
        return "a player has left the game (a scenario's players are all in it)"
    if s.turn < 1 or not s.step:
        return "the first turn has not begun"
    if s.over:
        return "the game is over"
    if s.stack:
        n = len(s.stack)
        return f"the stack is not empty ({n} object{'s' if n != 1 else ''} on it)"
    if s.pending:
        n = len(s.pending)
        return (f"{n} triggered abilit{'ies wait' if n != 1 else 'y waits'} to be put on "
                "the stack")
    return None


def priority_point(envelopes: Sequence[Envelope], at: int) -> int:
    """The last event of the beginning of the step that event ``at`` is in: the one
    just before the step's first priority decision, once its turn-based actions and
    "at the beginning of" triggers are done -- where a scenario that starts in the
    step begins.  ``at`` itself if it is already past that point.

    >>> envs = [Envelope(0, -1, ev.StepBegan(step="draw")),
    ...         Envelope(1, 0, ev.ZoneChanged(obj=1, new_obj=2, from_zone="library",
    ...                                       to_zone="hand", reason="draw")),
    ...         Envelope(2, 0, ev.DecisionMade(player=0, kind="priority", choice=None))]
    >>> priority_point(envs, 0), priority_point(envs, 2)
    (1, 2)
    """
    for env in reversed(envelopes[: at + 1]):
        e = env.event
        if isinstance(e, ev.DecisionMade) and e.kind == "priority":
            return at  # a player had priority in this step already
        if isinstance(e, ev.StepBegan):
            if e.step in ("untap", "cleanup"):
                return at  # no priority: a scenario starting in them plays them whole
            break
    for env in envelopes[at + 1:]:
        e = env.event
        if isinstance(e, ev.DecisionMade) and e.kind == "priority":
            return env.seq - 1
        if isinstance(e, ev.StepBegan | ev.TurnBegan | ev.GameEnded):
            return env.seq - 1
    return at


def _q(text: str) -> str:
    """A YAML scalar: JSON string syntax is valid YAML."""
    return json.dumps(text, ensure_ascii=False)


def export_scenario(header: LogHeader, envelopes: Sequence[Envelope], at: int,
                    registry: Registry | None = None, name: str | None = None,
                    source: str = "") -> Export:
    """The scenario that sets up the position right after event ``at``.

    Raises :class:`ExportError` if the stack is not empty or a triggered ability
    is waiting there (or the game has not begun, or is over).
    """
    if not 0 <= at < len(envelopes):
        raise ExportError(f"event {at} is not in the log (it has events 0 to "
                          f"{len(envelopes) - 1})")
    s = new_state()
    nearest: int | None = None
    for env in envelopes[:at]:
        apply(s, env.event)
        if exportable(s) is None:
            nearest = env.seq
    apply(s, envelopes[at].event)
    why = exportable(s)
    if why is not None:
        hint = (f"; the nearest earlier position that can be exported is after event "
                f"{nearest}" if nearest is not None else "")
        raise ExportError(f"cannot export the position after event {at}: {why}{hint}",
                          nearest)
    names = [p.name for p in s.players]
    if len(set(names)) != len(names):
        raise ExportError("a scenario needs players with different names")
    seats = range(len(names))
    warnings: list[str] = []
    r = Renderer(registry, None, s)

    def printed(key: str) -> str:
        """The name objects of card ``key`` have (a token's printed name)."""
        return registry.token_name(key) if registry is not None else key

    def setup_name(key: str) -> str:
        """The name a setup gives card ``key`` by: its printed name where that sets up this
        very card (a token sharing its printed name with another keeps its key)."""
        name = printed(key)
        if name == key or registry is None:
            return key
        if name in registry.cards or registry.keys_named(name)[:1] != [key]:
            return key
        return name

    def label(oid: int) -> str:
        o = s.objects.get(oid)
        return f"{printed(o.card)} [{oid}]" if o is not None else f"#{oid}"

    # which objects go where, in the order the scenario's setup creates them
    per_player: list[dict[str, list[Obj]]] = []
    for p in seats:
        zones: dict[str, list[Obj]] = {z: [] for z in SETUP_ZONES}
        zones["battlefield"] = [s.objects[o] for o in s.battlefield if s.objects[o].owner == p]
        zones["exile"] = [s.objects[o] for o in s.exile if s.objects[o].owner == p]
        for z in ("hand", "library", "graveyard"):
            zones[z] = [s.objects[o] for o in getattr(s.players[p], z)]
        per_player.append(zones)
    created: list[int] = []
    aliases: dict[int, str] = {}
    for p in seats:
        for z in SETUP_ZONES:
            for o in per_player[p][z]:
                if o.token and z != "battlefield":
                    warnings.append(f"the token {label(o.id)} in {names[p]}'s {z} is left out "
                                    "(a token can only be set up on the battlefield)")
                    continue
                created.append(o.id)
                aliases[o.id] = f"{printed(o.card)}#{o.id}"
    kept = set(created)

    def entry(o: Obj, zone: str) -> str:
        parts = [f"card: {_q(setup_name(o.card))}", f"as: {_q(aliases[o.id])}"]
        counters = dict(o.counters)
        if zone == "battlefield" and registry is not None and o.card in registry \
                and "Planeswalker" in registry[o.card].facts.types and "loyalty" not in counters:
            counters["loyalty"] = 0  # else the setup would give it its printed loyalty
        if zone == "battlefield":
            if o.tapped:
                parts.append("tapped: true")
            if o.sick:
                parts.append("sick: true")
            if o.token:
                parts.append("token: true")
            if o.controller != o.owner:
                parts.append(f"controller: {_q(names[o.controller])}")
            if o.damage:
                parts.append(f"damage: {o.damage}")
                if o.deathtouched:
                    warnings.append(f"{label(o.id)} was dealt damage by a source with "
                                    "deathtouch: the setup marks the damage only")
            if o.attached_to:
                if o.attached_to in kept:
                    parts.append(f"attached_to: {_q(aliases[o.attached_to])}")
                else:
                    warnings.append(f"{label(o.id)} is attached to {label(o.attached_to)}, "
                                    "which is not in the scenario: left unattached")
        if counters:
            inner = ", ".join(f"{_q(k)}: {n}" for k, n in sorted(counters.items()))
            parts.append(f"counters: {{{inner}}}")
        if zone == "exile":
            if o.face_down:
                parts.append("face_down: true")
            host = o.flags.get("exiled_with")
            if isinstance(host, int) and host:
                if host in kept:
                    parts.append(f"exiled_with: {_q(aliases[host])}")
                    if o.face_down and host in s.objects and \
                            sorted(o.known_to) != [s.objects[host].controller]:
                        warnings.append(f"{label(o.id)} is known to "
                                        f"{[names[i] for i in o.known_to]}; the setup makes "
                                        "it known to its host's controller only")
                else:
                    warnings.append(f"{label(o.id)} was exiled with {label(host)}, which has "
                                    "since left: the link is left out")
        elif o.known_to:
            warnings.append(f"{label(o.id)} is known to {[names[i] for i in o.known_to]}: "
                            "the scenario format can't say so")
        extra = {k: v for k, v in o.flags.items() if k not in _KEPT_FLAGS}
        if extra:
            warnings.append(f"{label(o.id)} has marks the scenario format can't set up: "
                            f"{json.dumps(extra, sort_keys=True)}")
        if o.loyalty_turn and o.loyalty_turn == s.turn:
            warnings.append(f"{label(o.id)} has already activated a loyalty ability this turn: "
                            "the scenario lets it activate one again")
        return "{" + ", ".join(parts) + "}"

    for x in s.effects:
        on = f" on {r.refs(x.objs)}" if x.objs else ""
        until = " until end of turn" if x.duration == "eot" else ""
        warnings.append(f"continuous effect left out: {r.obj(x.source)}: "
                        f"{r.effect_text(x.kind, x.params)}{on}{until}")
    for i, pl in enumerate(s.players):
        if pl.lands_played:
            warnings.append(f"{names[i]} has played {pl.lands_played} land(s) this turn: the "
                            "scenario lets them play one again")
        if pl.mana:
            warnings.append(f"{names[i]}'s mana pool ({''.join(pl.mana)}) is left out")
        if pl.lost or pl.drew_from_empty:
            warnings.append(f"{names[i]} has lost or drawn from an empty library: left out")
    if s.combat is not None:
        warnings.append("a combat is under way (attackers, blockers): it is left out")
    if s.profile != "lorwyn-2007":
        warnings.append(f"the game uses the rules profile {s.profile!r}; scenarios use the "
                        "default")
    point = priority_point(envelopes, at)
    if point > at:
        warnings.append(f"the position is at the beginning of the {s.step.replace('_', ' ')} "
                        f"step, before what happens as it begins (events {at + 1} to "
                        f"{point}: turn-based actions, \"at the beginning of\" triggers); a "
                        "scenario starts with its step's beginning past, so they don't "
                        f"happen (the position after event {point} has them)")
    notes: list[str] = []
    setup_order = [o for p in seats for o in s.battlefield if s.objects[o].owner == p]
    if setup_order != s.battlefield:
        notes.append("the setup lists each player's permanents apart, so the battlefield's "
                     "order (which orders simultaneous events such as state-based actions) "
                     "is not the original's")
    scenario_name = name or f"{_stem(source) or 'game'}-event-{at}"
    out: list[str] = []
    where = f" from {source}" if source else ""
    out.append(f"# Exported by `mtgk scenario export`{where} at event {at}: turn {s.turn}, "
               f"{names[s.active]}'s {s.step.replace('_', ' ')} step.")
    out.append(f"# Aliases are CARD#ID, ID being the object's id after event {at} of the "
               "original log.")
    if warnings:
        out.append("# Not part of this position (the scenario format can't set it up):")
        out.extend(f"#   - {w}" for w in warnings)
    if notes:
        out.append("# Note:")
        out.extend(f"#   - {n}" for n in notes)
    nxt = _next_lines(envelopes, at, r)
    if nxt:
        out.append("# What happened next in the original game:")
        out.extend(f"#   {line}" for line in nxt)
    out.append(f"name: {_q(scenario_name)}")
    desc = f"The position after event {at}{where} (turn {s.turn})."
    out.append(f"description: {_q(desc)}")
    if s.teams:  # Two-Headed Giant (a free-for-all game needs no key: its players say it)
        out.append(f"variant: {s.variant}")
        out.append("teams: [" + ", ".join("[" + ", ".join(_q(names[p]) for p in t) + "]"
                                         for t in s.teams) + "]")
    out.append("players:")
    for p in seats:
        out.append(f"  {_q(names[p])}:")
        out.append(f"    life: {s.players[p].life}")
        for z in SETUP_ZONES:
            objs = [o for o in per_player[p][z] if o.id in kept]
            if not objs:
                out.append(f"    {z}: []")
                continue
            out.append(f"    {z}:")
            out.extend(f"      - {entry(o, z)}" for o in objs)
    out.append(f"turn: {{number: {s.turn}, active: {_q(names[s.active])}, "
               f"step: {_q(s.step)}}}")
    out.append("actions: []")
    out.append("expect: []")
    return Export("\n".join(out) + "\n", scenario_name, at, created, aliases, warnings, notes)


def _stem(path: str) -> str:
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    return base.split(".", 1)[0]


def _next_lines(envelopes: Sequence[Envelope], at: int, r: Renderer) -> list[str]:
    """The events after ``at`` (until the next few decisions), as text."""
    out: list[str] = []
    decisions = 0
    state = r.state
    rr = Renderer(r.registry, None, _copy(state))
    for env in envelopes[at + 1: at + 1 + 60]:
        out.append(rr.render(env))
        if isinstance(env.event, ev.DecisionMade):
            decisions += 1
        if decisions >= 3 or len(out) >= _NEXT_EVENTS:
            break
    return out


def _copy(s: State) -> State:
    from mtgk.rules.state import copy_state

    return copy_state(s)


# --------------------------------------------------------------------------
# Proving an export


@dataclass
class ExportCheck:
    """The outcome of :func:`check_export`.

    ``setup_problems`` lists how the exported setup differs from the original
    position; ``compared`` counts the events after the setup that matched the
    original's; ``divergence`` says where the two first differ (``None``: they
    never did); ``complete`` whether the comparison reached the end of the
    original log.
    """

    ok: bool
    compared: int
    setup_problems: list[str] = field(default_factory=list)
    divergence: str | None = None
    complete: bool = False

    def summary(self) -> str:
        if self.ok:
            tail = " (to the end of the original log)" if self.complete else ""
            return (f"OK: the exported setup gives the same position, and the "
                    f"{self.compared} events after it match the original's{tail}")
        if self.setup_problems:
            return "FAILED: the exported setup differs: " + "; ".join(self.setup_problems[:5])
        return f"FAILED after {self.compared} matching events: {self.divergence}"


def check_export(export: Export, header: LogHeader, envelopes: Sequence[Envelope],
                 registry: Registry) -> ExportCheck:
    """Run ``export``'s setup, then the original game's recorded decisions, and
    compare the events with the original log's after the exported position.

    Object ids differ between the two runs (the setup numbers its objects from
    1): the setup's objects are mapped to the original ones through
    :attr:`Export.created`, and ids made later are matched by their offset.
    Outcomes drawn from the game seed (shuffles, random discards) differ, since
    the scenario runs with its own seed.
    """
    from mtgk.games.replay import same_event
    from mtgk.scenario.board import ScenarioFailed
    from mtgk.scenario.play import ScenarioRun
    from mtgk.scenario.reader import loads_scenarios

    at = export.at
    original = _state_at(envelopes, at)
    try:
        sc = loads_scenarios(export.text, export.name, lambda n: n in registry)[0]
        run = ScenarioRun(sc, registry)
        run.setup()
    except (ScenarioFailed, Exception) as exc:  # noqa: BLE001 - reported, not raised
        return ExportCheck(False, 0, [f"the scenario's setup fails: {exc}"])
    g = run.game
    created = export.created
    k = len(created)
    inverse = {orig: i + 1 for i, orig in enumerate(created)}
    offset = original.next_id - g.state.next_id

    def to_orig(x: int) -> int:
        return created[x - 1] if x <= k else x + offset

    def from_orig(y: int) -> int:
        if y in inverse:
            return inverse[y]
        return y - offset if y >= original.next_id else y

    problems = _setup_problems(original, g.state, from_orig)
    if problems:
        return ExportCheck(False, 0, problems)
    s_e = len(g.log)  # the scenario's StepBegan comes here
    step_seq = max((e.seq for e in envelopes[: at + 1] if isinstance(e.event, ev.StepBegan)),
                   default=-1)
    compared = 0

    def orig_seq(seq: int) -> int:
        return at + (seq - s_e)

    def orig_cause(c: int) -> int | None:
        if c < s_e:
            return None  # the setup: no counterpart
        return step_seq if c == s_e else at + (c - s_e)

    divergence: str | None = None
    past_end = False  # the original's log ends before the exported game's

    def listen(env: Envelope) -> None:
        nonlocal compared, divergence, past_end
        if env.seq <= s_e or divergence is not None or past_end:
            return
        o = orig_seq(env.seq)
        if o >= len(envelopes):
            past_end = True
            return
        exp = envelopes[o]
        got = map_event_ids(env.event, to_orig)
        if not same_event(exp.event, got) and not _loosely_same(exp.event, got, to_orig):
            divergence = (f"event {o} of the original is {exp.event!r}; the exported "
                          f"scenario gives {got!r} (ids mapped to the original's)")
            return
        c = orig_cause(env.cause)
        if c is not None and c != exp.cause:
            divergence = (f"event {o} ({exp.event.TAG}) has cause {exp.cause} in the "
                          f"original, {c} in the exported scenario")
            return
        compared += 1

    def expected(d: Decision) -> tuple[bool, Any]:
        """The original's answer to ``d`` (``(False, None)``: it has none)."""
        o = orig_seq(len(g.log))
        if o < len(envelopes):
            e = envelopes[o].event
            if isinstance(e, ev.DecisionMade) and e.kind == d.kind and e.player == d.player:
                return True, map_choice(d.kind, e.choice, from_orig)
        if d.options is not None and len(d.options) == 1:
            return True, d.options[0]
        return False, None

    active = run.names.index(sc.turn.active)
    max_turns = int(header.meta.get("max_turns", 200))

    def play(agents: Sequence[Any], watch: Any) -> None:  # as the runner plays
        g.agents = list(agents)
        g.listeners.append(listen)
        watch(g)
        g.turn_from(sc.turn.step, sc.turn.number, active, resume=True)
        g.run(first=next_turn(g.state, active), turn=sc.turn.number + 1, max_turns=max_turns)

    try:
        stepper = Stepper.driving(play, registry, header)
        while stepper.decision is not None and divergence is None and not past_end:
            d = stepper.decision
            found, answer = expected(d)
            if not found:
                o = orig_seq(len(g.log))
                if o >= len(envelopes):
                    past_end = True
                else:
                    divergence = (f"the exported scenario asks for a {d.kind} decision at "
                                  f"the original's event {o}, where the original has "
                                  f"{envelopes[o].event!r}")
                break
            stepper.answer(answer)
    except Exception as exc:  # noqa: BLE001 - an engine error is a failed check
        divergence = f"the engine failed: {type(exc).__name__}: {exc}"
    complete = divergence is None
    if divergence is None and not past_end and stepper.over \
            and orig_seq(len(g.log)) < len(envelopes):
        divergence = (f"the exported scenario's game ended; the original goes on with event "
                      f"{orig_seq(len(g.log))}")
    return ExportCheck(divergence is None, compared, [], divergence,
                       complete and divergence is None)


def _loosely_same(a: ev.Event, b: ev.Event, to_orig: Any) -> bool:
    """Same type and fields, where an int in ``b``'s free-form data may also be an id
    that maps to ``a``'s (``AbilityTriggered.data`` holds the triggering event)."""
    if type(a) is not type(b):
        return False
    return all(_deep_same(getattr(a, f), getattr(b, f), to_orig) for f in a.__struct_fields__)


def _deep_same(x: Any, y: Any, to_orig: Any) -> bool:
    if isinstance(x, list | tuple) and isinstance(y, list | tuple):
        return len(x) == len(y) and all(_deep_same(i, j, to_orig) for i, j in zip(x, y,
                                                                                  strict=True))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_deep_same(x[k], y[k], to_orig) for k in x)
    if isinstance(y, int) and not isinstance(y, bool) and y > 0 and x != y:
        return bool(x == to_orig(y))
    return bool(x == y)


def _state_at(envelopes: Sequence[Envelope], at: int) -> State:
    s = new_state()
    for env in envelopes[: at + 1]:
        apply(s, env.event)
    return s


def _setup_problems(orig: State, new: State, from_orig: Any) -> list[str]:
    """How ``new`` (the scenario's setup) differs from ``orig``, ids mapped."""
    out: list[str] = []

    def m(x: int) -> int:
        return from_orig(x) if x > 0 else x

    for i, (pa, pb) in enumerate(zip(orig.players, new.players, strict=False)):
        if pa.life != pb.life:
            out.append(f"player {i}'s life: {pa.life} in the original, {pb.life} in the setup")
        for z in ("hand", "library", "graveyard"):
            a = [m(x) for x in getattr(pa, z)]
            b = list(getattr(pb, z))
            if a != b:
                out.append(f"{pa.name}'s {z}: {a} (original ids mapped) vs {b}")
    for z, a_ids, b_ids in (("battlefield", orig.battlefield, new.battlefield),
                            ("exile", orig.exile, new.exile)):
        a = sorted(m(x) for x in a_ids if not (orig.objects[x].token and z != "battlefield"))
        if a != sorted(b_ids):
            out.append(f"{z}: {a} (original ids mapped) vs {sorted(b_ids)}")
    for oid, o in orig.objects.items():
        if o.zone in ("stack", "none") or (o.token and o.zone != "battlefield"):
            continue
        n = new.objects.get(m(oid))
        if n is None:
            out.append(f"{o.card} [{oid}] is missing from the setup")
            continue
        for f in ("card", "owner", "controller", "zone", "tapped", "sick", "token",
                  "face_down", "counters", "damage"):
            if getattr(o, f) != getattr(n, f):
                out.append(f"{o.card} [{oid}]: {f} {getattr(o, f)!r} in the original, "
                           f"{getattr(n, f)!r} in the setup")
        if o.attached_to and m(o.attached_to) != n.attached_to:
            out.append(f"{o.card} [{oid}] is attached differently")
        host = o.flags.get("exiled_with")
        if isinstance(host, int) and host and host in orig.objects \
                and n.flags.get("exiled_with") != m(host):
            out.append(f"{o.card} [{oid}] is exiled with something else")
    return out
