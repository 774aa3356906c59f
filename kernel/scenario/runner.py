"""Run rules scenarios through the real engine (the format of docs/scenarios.md).

A scenario's setup is recorded as the first events of an ordinary game log;
its actions are played by a scripted agent that answers the engine's
decisions; its expectations are checked against the live state and the log;
and, always, the log is replayed from the start and must give exactly the
live state.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.scenario.model import loads_scenarios
>>> sc = loads_scenarios('''
... name: shock-the-bears
... players:
...   alice: {battlefield: [Mountain], hand: [Shock]}
...   bob: {battlefield: [Grizzly Bears]}
... actions:
...   - {player: alice, cast: Shock, targets: [Grizzly Bears]}
...   - {resolve: all}
... expect:
...   - {card: Grizzly Bears, zone: graveyard}
... ''')[0]
>>> run_scenario(sc, load_registry())
ScenarioResult('shock-the-bears', passed=True)

How actions become the engine's decisions
-----------------------------------------
The engine asks; the runner answers from the scenario.  Action ``i`` is the
*current* one.  A ``cast``, ``play``, ``activate``, ``attack`` or ``block`` is
handed to the engine as the answer to a decision (priority, or the declaration
of attackers or blockers) and is then *under way* until a player next receives
priority -- so the decisions it leads to (targets of the triggers it causes, a
card chosen as a spell is cast) are answered from its ``answers``.  A
``resolve`` or ``pass_until`` passes priority until its goal is reached at a
moment a player receives priority.  A ``check`` runs when a player would next
receive priority (after the decisions of the action before it).  The next
action starts when the current one is done; then, in strict mode, an answer of
the finished action that no decision used fails the scenario.

Implementation choices the spec leaves open (docs/scenarios.md lists them all):

* Setup objects are created after the turn begins, so ``sick`` is exactly as
  written.  Nothing is checked before the first action that is not a ``check``:
  checks written before it see the setup as it is, and a scenario without such
  an action never starts play (no state-based action is ever checked).
* A name in an action resolves to an alias, a player, or an object with that
  name (battlefield, then stack, hand, graveyard, exile, library): the first for
  which the action is legal; an expectation's name must match exactly one
  object in the first zone (in that order) where it matches any.  A token is
  named by its printed name (:func:`printed_name`).
* Answers without ``player:`` belong to the acting player of their action; on
  ``resolve`` and ``pass_until`` (which have no acting player) they serve
  whoever decides.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgk.cards.definitions import Activated, Registry
from mtgk.cards.errors import CardError
from mtgk.log import events as ev
from mtgk.log.events import player_ref
from mtgk.log.logfile import LogHeader, write_log
from mtgk.log.replay import (
    DEFAULT_MAX_TURNS,
    SCENARIO_SETUP,
    SETUP_EVENTS,
    Watch,
    register_rerunner,
    start_game,
)
from mtgk.rules.engine import COLOR_WORDS, STEPS, Decision, Game, GameOver, RulesError, StaleCache
from mtgk.rules.seats import (
    ATTACK_MULTIPLE,
    FREE_FOR_ALL,
    TWO_HEADED_GIANT,
    active_team,
    defending_players,
    next_turn,
    opponents_of,
    team_of,
)
from mtgk.rules.state import encode_state, fold
from mtgk.scenario.model import (
    OPENING_HANDS,
    Action,
    Answer,
    Arrangement,
    CardEntry,
    Expectation,
    PassUntil,
    Scenario,
    ScenarioFileError,
    iter_scenario_files,
    load_scenarios,
    split_ability_ref,
)
from mtgk.stepper import Stepper

SEARCH_ORDER = ("battlefield", "stack", "hand", "graveyard", "exile", "library", "none")
"""Where a name is looked for, in order (``none``: tokens that have ceased to exist)."""

ANSWER_FOR: dict[str, tuple[str, ...]] = {
    "targets": ("target", "targets"),
    "redirect": ("redirect",),
    "may": ("may",),
    "clash": ("clash",),
    "hideaway": ("hideaway",),
    "champion": ("champion",),
    "modes": ("mode", "modes"),
    "x": ("x",),
    "order": ("order",),
    "assign": ("assign",),
    "discard": ("discard", "choose"),
}
"""Decision kind -> the answer kinds that serve it.  Every other decision kind (``choose``,
``search``, ``legend``, ``role``, ``creature_type``, ``replacement``, ``reveal``, a
plugin's own ...) is answered by ``choose``.  A decision whose context is a mapping with
an ``"answer"`` key is answered by that kind instead (``pay``: ``Ctx.pay``; ``arrange``:
:func:`mtgk.plugins.scry.arrangement`)."""

GAME_OVER_TURNS = 20
"""``pass_until: game_over`` fails if the game has not ended within this many turns."""

DECLARATIONS = ("attackers", "blockers")
"""Decision kinds driven by ``attack`` / ``block`` actions, not by answers."""


class ScenarioFailed(Exception):
    pass


_DONE = object()
"""What :meth:`ScenarioRun.decide` gives once the scenario has no action left: the run
stops answering (the game is left where it is)."""


@dataclass
class ScenarioResult:
    name: str
    file: str
    passed: bool
    reason: str = ""
    log: list[ev.Envelope] = field(default_factory=list)
    game: Game | None = None
    invalid: bool = False  # the scenario can't be run (e.g. a card is unknown): a bad file
    #: the exception a card's code (or the engine) raised, if that is why it failed: the
    #: traceback ``mtgk -v scenario`` prints
    error: BaseException | None = None

    def __repr__(self) -> str:
        extra = f", reason={self.reason!r}" if self.reason else ""
        return f"ScenarioResult({self.name!r}, passed={self.passed}{extra})"


_QUALIFIED = re.compile(r"(.+) \([^()]*\)")


def printed_name(reg: Registry, card: str) -> str:
    """The name the card (or token) ``card`` -- a registry name -- is printed or created
    with: what scenarios call it.  A card set may register two different tokens that
    share a name under names qualified in parentheses ("Elemental (Hoofprints)" is the
    Elemental token of Hoofprints of the Stag); the qualifier is not part of the name.
    (A registry that knows its tokens' printed names says: ``Registry.token_name``.)"""
    token_name = getattr(reg, "token_name", None)
    if callable(token_name):
        return str(token_name(card))
    name = reg[card].facts.name if card in reg else card
    m = _QUALIFIED.fullmatch(name)
    return m.group(1) if m else name


_PRINTED: dict[int, tuple[int, dict[str, list[str]]]] = {}
"""id(registry) -> (its number of cards, printed name -> registry names)."""


def card_key(reg: Registry, name: str) -> str | None:
    """The registry name of the card a scenario calls ``name``: the card of that name (or
    alias), else the first card or token printed with that name; ``None``: none is."""
    if name in reg:
        return reg.canonical(name)
    known = _PRINTED.get(id(reg))
    if known is None or known[0] != len(reg.cards):
        names: dict[str, list[str]] = {}
        for key in reg.cards:
            names.setdefault(printed_name(reg, key), []).append(key)
        known = _PRINTED[id(reg)] = (len(reg.cards), names)
    keys = known[1].get(name)
    return keys[0] if keys else None


def known_card(reg: Registry) -> Callable[[str], bool]:
    """The ``known_card`` test of the scenario loader for ``reg`` (printed names too)."""
    return lambda name: card_key(reg, name) is not None


def load_failures(reg: Registry) -> str:
    """The card sets and plugins that failed to load into ``reg``, as the first words of an
    "unknown card" message ("" if none did): the likely reason a card is unknown."""
    return "; ".join(f"card set or plugin {name!r} failed to load ({error})"
                     for name, error in reg.failures)


def unknown_card_reason(reg: Registry, reason: str) -> str:
    """``reason`` (an "unknown card ..." message), led by what failed to load, if anything."""
    failed = load_failures(reg)
    return f"{failed}, so: {reason}" if failed else reason


def load_file(path: str | Path, reg: Registry) -> list[Scenario]:
    """The scenarios of the file at ``path``, checked against ``reg``'s cards and the known
    event types; an unknown card's error is led by the card sets that failed to load."""
    try:
        return load_scenarios(path, known_card=known_card(reg),
                              known_event=ev.EVENT_TYPES.__contains__)
    except ScenarioFileError as err:
        if reg.failures and err.reason.startswith("unknown card"):
            raise ScenarioFileError(err.file, unknown_card_reason(reg, err.reason),
                                    scenario=err.scenario, path=err.path) from None
        raise


def in_no_zone(zone: str) -> str:
    """A zone as expectations name it: a card that left the game with its owner from a
    library or hand (zone ``left``: unseen) is in no zone, ``none``, like one that left
    from a public zone or a token that ceased to exist."""
    return "none" if zone == "left" else zone


def game_variant(sc: Scenario) -> tuple[str, list[list[int]]]:
    """The engine's variant and teams (player indices) for ``sc``: a two-player scenario
    plays the two-player game (variant ``""``: its log is a two-player log), more players
    a free-for-all game unless the scenario says Two-Headed Giant."""
    names = list(sc.players)
    if sc.variant == "two_headed_giant":
        return TWO_HEADED_GIANT, [[names.index(n) for n in team] for team in sc.teams]
    return ("" if len(names) == 2 else FREE_FOR_ALL), []


def unsupported(sc: Scenario) -> str:
    """Why the engine can't play ``sc`` yet ("" if it can)."""
    steps = [("turn.step", sc.turn.step)] + [
        (f"{a.where}.pass_until.step", a.pass_until.step) for a in sc.actions
        if isinstance(a.pass_until, PassUntil)]
    for where, step in steps:
        if step not in STEPS and not (where == "turn.step" and step == OPENING_HANDS):
            return f"not supported yet: {where}: the engine has no {step} step"
    return ""


@dataclass
class _Plan:
    """An ``arrange`` answer being carried out: the looked-at cards for the top and the
    bottom, each top first."""

    answer: Answer
    top: list[int]
    bottom: list[int]


class ScenarioRun:
    """One scenario being played: the game, its aliases and the scripted agent."""

    def __init__(self, sc: Scenario, reg: Registry) -> None:
        self.sc = sc
        self.reg = reg
        self.names = list(sc.players)
        variant, teams = game_variant(sc)
        self.game = Game(reg, self.names, seed=0, agents=[self] * len(self.names),
                         variant=variant, teams=teams)
        # validated mode: a card whose static ability reads more than it declares fails
        self.game.validate_caches = True
        self.game.attack_option = sc.attack_option
        self.aliases: dict[str, int] = {}  # alias -> card_id
        self.i = 0  # the current action
        self.under_way = False  # the current action was handed to the engine
        self.actors: dict[int, int] = {}  # action index -> who took it (else: anyone)
        self.checked: set[int] = set()  # actions whose unused answers were looked at
        self.used_by: dict[int, set[int]] = {}  # action index -> indexes of its used answers
        self.started = False  # the current action has been looked at in play
        self.passed = False  # the runner has passed priority for the current action
        self.action_start = 0  # the log's length as the current action started
        self.start_pos: tuple[int, int] = (0, 0)  # (turn, step index) then
        self.passers: list[int] = []  # players who passed in succession, so far
        self.pass_mark = -1  # the log's length at the last pass
        self.declared: set[tuple[int, str]] = set()  # (turn, "attackers"/"blockers") asked
        self.plan: _Plan | None = None  # the arrangement under way
        self.mulligans: dict[int, int] = {}  # opening hands: player -> mulligans taken
        self.keeping: Action | None = None  # the keep whose cards go to the bottom now
        self.moved: dict[int, int] = {}  # object id -> card_id, of objects that moved
        self.moves_seen = 0  # the log's length when ``moved`` was brought up to date
        self.retarget: tuple[int, Answer] | None = None  # a new_targets answer's targets
        #: a `block` of several defending players: action index -> the blockers declared
        self.block_keys: dict[int, set[str]] = {}
        #: pass_until: (log position, turn, steps begun) since the current action started
        self.scan: tuple[int, int, set[tuple[int, str]]] = (0, 0, set())

    # ------------------------------------------------------------ setup
    def setup(self) -> None:
        """Put the position in place: recorded as events, but nothing triggers."""
        with self.game.setting_up():
            self._setup()

    def _setup(self) -> None:
        g = self.game
        sc = self.sc
        active = self.names.index(sc.turn.active)
        if sc.turn.step != OPENING_HANDS:  # (the first turn begins once the hands are kept)
            g.emit(ev.TurnBegan(turn=sc.turn.number, active=active))
        for p, pname in enumerate(self.names):  # life first: no object exists yet to trigger
            diff = sc.players[pname].life - g.state.players[p].life
            if diff:
                g.emit(ev.LifeGained(player=p, n=diff) if diff > 0 else
                       ev.LifeLost(player=p, n=-diff))
        links: list[tuple[int, CardEntry, int, str]] = []
        for p, pname in enumerate(self.names):
            for zone, entries in sc.players[pname].zones():
                for entry in entries:
                    key = card_key(self.reg, entry.card)
                    if key is None:
                        raise ScenarioFailed(unknown_card_reason(
                            self.reg, f"unknown card {entry.card!r} (players.{pname}.{zone}): "
                                      "is its card set installed?"))
                    oid = g.new_id()
                    ctrl = self.names.index(entry.controller) if entry.controller else -1
                    g.emit(ev.ObjectCreated(obj=oid, card=key, owner=p, zone=zone,
                                            controller=ctrl, token=entry.token,
                                            tapped=entry.tapped, sick=entry.sick,
                                            face_down=entry.face_down))
                    if entry.alias:
                        self.aliases[entry.alias] = oid
                    links.append((oid, entry, p, key))
        for oid, entry, p, key in links:
            d = self.reg[key]
            counters = dict(entry.counters)
            if entry.face_down is False and "Planeswalker" in d.facts.types and \
                    "loyalty" not in counters and entry in sc.players[self.names[p]].battlefield \
                    and d.facts.loyalty:
                counters["loyalty"] = int(d.facts.loyalty)
            for kind in sorted(counters):
                if counters[kind]:
                    g.emit(ev.CounterPlaced(obj=oid, kind=kind, n=counters[kind]))
            if entry.damage:
                g.emit(ev.DamageMarked(obj=oid, amount=entry.damage))
            if entry.attached_to:
                g.emit(ev.Attached(obj=oid, to=self.ref(entry.attached_to)))
            if entry.exiled_with:
                host = self.ref(entry.exiled_with)
                g.emit(ev.ObjectFlagged(obj=oid, key="exiled_with", value=host))
                if entry.face_down:
                    g.emit(ev.ObjectFlagged(obj=oid, key="known_to",
                                            value=[g.state.objects[host].controller]))

    # ------------------------------------------------------------ names
    def current(self, card_id: int) -> int | None:
        best = None
        for oid, o in self.game.state.objects.items():
            if o.card_id == card_id and (best is None or oid > best):
                best = oid
        return best

    def printed(self, card: str) -> str:
        """The printed name of the registry name ``card`` (:func:`printed_name`)."""
        return printed_name(self.reg, card)

    def named(self, oid: int, name: str) -> bool:
        """Whether object ``oid`` is the one called ``name`` (an alias, or its name)."""
        o = self.game.state.objects[oid]
        if name in self.aliases:
            return o.card_id == self.aliases[name]
        return o.card == self.reg.canonical(name) or self.printed(o.card) == name

    def objects_named(self, name: str) -> list[int]:
        """The objects called ``name``, zone by zone in :data:`SEARCH_ORDER`."""
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return [oid]
        return [o for zone in SEARCH_ORDER for o in self._in_zone(zone) if self.named(o, name)]

    def ref(self, name: str, candidates: Sequence[int] | None = None,
            avoid: Sequence[int] = ()) -> int:
        """Resolve a name or alias (or player name) used in an action or answer: one of
        ``candidates`` if any is so called, else the first object so called (not in
        ``avoid`` if possible)."""
        if name in self.names:
            return player_ref(self.names.index(name))
        found = self.objects_named(name)
        if candidates is not None:
            among = [o for o in found if o in candidates] or \
                [c for c in candidates if c > 0 and c in self.game.state.objects
                 and self.named(c, name)]
            found = among or found
        fresh = [o for o in found if o not in avoid]
        if fresh:
            return fresh[0]
        if found:
            return found[0]
        raise ScenarioFailed(f"no object named {name!r}" +
                             (" among the legal choices" if candidates is not None else ""))

    def _in_zone(self, zone: str) -> list[int]:
        s = self.game.state
        if zone == "battlefield":
            return list(s.battlefield)
        if zone == "stack":
            return [it.id for it in s.stack if it.id in s.objects]
        if zone == "exile":
            return list(s.exile)
        if zone == "none":
            return [o for o, x in s.objects.items() if in_no_zone(x.zone) == "none"]
        return [o for p in s.players for o in getattr(p, zone)]

    def expect_ref(self, name: str) -> int:
        """Resolve a name in an expectation: an alias, or exactly one object."""
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return oid
        for zone in SEARCH_ORDER:
            hits = [o for o in self._in_zone(zone) if self.named(o, name)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise ScenarioFailed(f"{name!r} is ambiguous: {len(hits)} objects in {zone} "
                                     "(use an alias or count)")
        raise ScenarioFailed(f"no object named {name!r}")

    def player(self, name: str) -> int:
        return self.names.index(name)

    # ------------------------------------------------------------ running
    def run(self) -> None:
        """Set up, then play the actions (raises :class:`ScenarioFailed`)."""
        self.setup()
        g = self.game
        why = unsupported(self.sc)
        if why:
            raise ScenarioFailed(why)
        self._next()  # checks before the first action see the setup as it is
        if self.i >= len(self.sc.actions):
            # nothing to play: the game is in its step, but no state-based action is ever
            # checked (the StepBegan is the one play would begin with: the log re-runs)
            with g.setting_up():
                g.emit(ev.StepBegan(step=self.sc.turn.step))
            self._close()
            return
        active = self.names.index(self.sc.turn.active)

        def play(agents: Sequence[Any], watch: Callable[[Game], None]) -> None:
            g.agents = list(agents)
            watch(g)
            if self.sc.turn.step == OPENING_HANDS:
                g.take_mulligans(active, g.log[-1].seq if g.log else -1)
                g.run(first=active, turn=self.sc.turn.number)
            else:
                g.turn_from(self.sc.turn.step, self.sc.turn.number, active, resume=True)
                g.run(first=next_turn(g.state, active), turn=self.sc.turn.number + 1)

        # the game is driven by a stepper: each decision is answered here (by the game's
        # agents: this run, unless a test put others in its place), until the scenario
        # has no action left (then the game is left where it is) or the game ends
        deciders = list(g.agents)
        stepper = Stepper.driving(play, g.reg, None, [None] * len(self.names),
                                  forced=self.forced)
        while stepper.decision is not None:
            d = stepper.decision
            who = deciders[d.player] if 0 <= d.player < len(deciders) else self
            answer = who.decide(g, d)
            if answer is _DONE:
                break
            try:
                stepper.answer(answer)
            except RulesError as err:
                getattr(who, "refused", self.refused)(g, d, err)
        if stepper.over:
            self._game_over()
        self._close()

    def _next(self) -> Action | None:
        """The current action, after running the checks that come first."""
        while self.i < len(self.sc.actions):
            a = self.sc.actions[self.i]
            if a.verb != "check":
                return a
            if a.refused:
                raise self.fail(a.where, "a check can't be refused (it is not a game action)")
            for exp in a.check:
                self.check(exp)
            self._advance()
        return None

    def _advance(self) -> None:
        """The current action is done; the next one starts.  The action before the
        current one can no longer serve decisions (see :meth:`_reachable`): in strict
        mode, none of its answers may be left unused."""
        before = self._before(self.i)
        if before is not None and self.sc.actions[self.i].verb != "check":
            self._unused(before)  # (a check between an action and its resolve: not yet)
        self.i += 1
        self.under_way = False
        self.started = False
        self.passed = False
        self.plan = None

    def _before(self, k: int) -> int | None:
        """The last action before ``k`` that is not a ``check``."""
        k -= 1
        while k >= 0 and self.sc.actions[k].verb == "check":
            k -= 1
        return k if k >= 0 else None

    def _after(self, k: int) -> int | None:
        """The first action after ``k`` that is not a ``check``."""
        k += 1
        while k < len(self.sc.actions) and self.sc.actions[k].verb == "check":
            k += 1
        return k if k < len(self.sc.actions) else None

    def _reachable(self) -> list[int]:
        """The actions whose answers serve a decision now: the current one; while it is
        under way (handed to the engine), then the one after it (an attack's trigger
        answered on the ``pass_until`` that follows); while it passes priority
        (``resolve``, ``pass_until``), then the one before it (a spell's choices made as
        it resolves, answered on its ``cast``)."""
        if self.i >= len(self.sc.actions):
            return []
        other = self._after(self.i) if self.under_way else self._before(self.i)
        return [self.i] if other is None else [self.i, other]

    def _unused(self, k: int) -> None:
        """Strict: action ``k``'s answers must all have been used."""
        if k in self.checked:
            return
        self.checked.add(k)
        if not self.sc.strict:
            return
        a = self.sc.actions[k]
        used = self.used_by.get(k, set())
        left = [ans for n, ans in enumerate(a.answers) if n not in used]
        if left:
            ans = left[0]
            raise self.fail(ans.where or a.where, f"answer {{{ans.kind}: {ans.value!r}}} "
                            "was never used (strict)")

    def _close(self) -> None:
        """The scenario's actions are over: every answer must have been used (strict)."""
        for k in range(min(self.i + 1, len(self.sc.actions))):
            self._unused(k)

    def _start(self) -> None:
        """The current action is looked at in play for the first time: remember where."""
        if not self.started:
            g = self.game
            self.started = True
            self.action_start = len(g.log)
            self.start_pos = self._pos()
            self.scan = (len(g.log), g.state.turn, set())

    def _pos(self) -> tuple[int, int]:
        s = self.game.state
        return (s.turn, STEPS.index(s.step) if s.step in STEPS else -1)

    def fail(self, where: str, msg: str) -> ScenarioFailed:
        return ScenarioFailed(f"{where}: {msg}" if where else msg)

    def _ended(self) -> str:
        """``at event N (what ended the game)``: the game's end, for messages."""
        from mtgk.render import Renderer
        g = self.game
        r = Renderer(self.reg, None, g.state)
        end = next((e for e in reversed(g.log) if isinstance(e.event, ev.GameEnded)), None)
        if end is None:
            return "(the game is over)"
        lost = [r.describe(e) for e in g.log if isinstance(e.event, ev.PlayerLost)]
        return f"at event {end.seq} ({'; '.join([*lost, r.describe(end)])})"

    def _game_over(self) -> None:
        """The game ended during the current action: the actions left can't be taken (but
        checks run); an action whose goal was not reached fails."""
        ended = self._ended()
        if self.under_way:
            self._advance()
        elif self.i < len(self.sc.actions):
            a = self.sc.actions[self.i]
            if a.verb == "resolve" or a.pass_until == "game_over":
                # the game ended as things resolved: the resolve stops there (third edition)
                self._advance()
            elif isinstance(a.pass_until, PassUntil):
                raise self.fail(a.where, f"the game ended {ended} before turn "
                                f"{a.pass_until.turn}'s {_step_text(a.pass_until.step)}")
        left = self._next()
        if left is not None:
            raise self.fail(left.where, f"the game ended {ended} before this action")

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority":
            return self._priority(d)
        return self._answer(d)

    # priority ---------------------------------------------------------------
    def _priority(self, d: Decision) -> Any:
        g = self.game
        s = g.state
        p = d.player
        if self.pass_mark >= 0 and any(not isinstance(e.event, ev.DecisionMade)
                                       for e in g.log[self.pass_mark:]):
            self.passers = []  # something happened since: a new succession of passes
        if self.under_way:
            self._advance()
        while True:
            a = self._next()
            if a is None:
                return _DONE
            self._start()
            verb = a.verb
            if verb in ("cast", "play", "activate"):
                actor = self.player(a.player) if a.player else s.active
                if p != actor:
                    return self._pass_for(a, p, actor)
                out = self._do(a, p)
                if out is None:
                    continue  # refused as expected; next action
                return out
            if verb == "resolve":
                out = self._resolve(a, p)
            elif verb == "pass_until":
                out = self._pass_until(a, p)
            elif verb in ("attack", "block"):
                out = self._combat(a, p)
            else:
                raise self.fail(a.where, f"unknown action {verb!r}")
            if out is not None:
                return out

    def _pass(self, p: int) -> Any:
        self.passed = True
        self.passers.append(p)
        self.pass_mark = len(self.game.log)
        return ["pass"]

    def _pass_for(self, a: Action, p: int, actor: int) -> Any:
        """``p`` passes so that ``actor`` gets priority -- unless ``actor`` has passed
        since anything last happened (then everyone would have passed: the top of the
        stack would resolve, or the step end)."""
        if actor in self.passers:
            raise self.fail(a.where, f"{self.names[actor]} can't get priority now without "
                            "the top of the stack resolving or the step ending (every player "
                            "would have passed in succession)")
        return self._pass(p)

    def _resolved_count(self) -> int:
        return sum(1 for e in self.game.log[self.action_start:]
                   if isinstance(e.event, ev.StackItemResolved | ev.StackItemCountered))

    def _resolved(self, a: Action) -> bool:
        if a.resolve == "all":
            return not self.game.state.stack
        return isinstance(a.resolve, int) and self._resolved_count() >= a.resolve

    def _resolve(self, a: Action, p: int) -> Any:
        s = self.game.state
        if a.refused and not self.passed:
            if s.stack:
                raise self.fail(a.where, "resolve was accepted but should be refused (the "
                                "stack is not empty)")
            self._advance()  # nothing to resolve: refused
            return None
        if self._resolved(a):
            self._advance()
            return None
        if not s.stack:
            raise self.fail(a.where, f"only {self._resolved_count()} object(s) resolved; the "
                            "stack is empty")
        return self._pass(p)

    def _began_since(self, turn: int, step: str) -> bool:
        """Whether ``step`` of ``turn`` has begun since the current action started."""
        pos, now, began = self.scan
        log = self.game.log
        for env in log[pos:]:
            e = env.event
            if isinstance(e, ev.TurnBegan):
                now = e.turn
            elif isinstance(e, ev.StepBegan):
                began.add((now, e.step))
        self.scan = (len(log), now, began)
        return (turn, step) in began

    def _pass_until(self, a: Action, p: int) -> Any:
        pu = a.pass_until
        if pu == "game_over":
            if a.refused:
                raise self.fail(a.where, "pass_until: game_over can't be refused")
            turns = self.game.state.turn - self.start_pos[0]
            if turns >= GAME_OVER_TURNS:
                here = self.game.state.step.replace("_", " ")
                raise self.fail(a.where, f"the game has not ended within {GAME_OVER_TURNS} "
                                f"turns (it is in turn {self.game.state.turn}'s {here} step)")
            return self._pass(p)
        assert pu is not None
        target = (pu.turn, STEPS.index(pu.step))
        now = self._pos()
        if now == target or self._began_since(pu.turn, pu.step):
            if a.refused:
                raise self.fail(a.where, "pass_until was accepted but should be refused")
            self._advance()
            return None
        if now > target:
            if self.start_pos > target:
                if a.refused:
                    self._advance()
                    return None
                here = f"turn {now[0]}'s {_step_text(STEPS[now[1]])}" if now[1] >= 0 else ""
                raise self.fail(a.where, f"turn {pu.turn}'s {_step_text(pu.step)} has already "
                                f"passed (the game is in {here})")
            raise self.fail(a.where, f"the game passed turn {pu.turn} without a "
                            f"{_step_text(pu.step)}{_SKIPPED.get(pu.step, '')}")
        if a.refused:
            raise self.fail(a.where, f"pass_until was accepted but should be refused (turn "
                            f"{pu.turn}'s {_step_text(pu.step)} is still to come)")
        return self._pass(p)

    def _do(self, a: Action, p: int) -> list[Any] | None:
        g = self.game
        before_len, before = len(g.log), encode_state(g.state)
        try:
            action = self._build(a, p)
        except (RulesError, ScenarioFailed) as err:
            if not a.refused:
                raise self.fail(a.where, f"illegal action: {err}") from None
            if len(g.log) != before_len or encode_state(g.state) != before:
                raise self.fail(a.where, "a refused action changed the game") from None
            self._advance()
            return None
        if a.refused:
            raise self.fail(a.where, f"{a.verb} {a.card} was accepted but should be refused")
        self.under_way = True
        self.actors[self.i] = p
        self.passers = []
        return action

    def _build(self, a: Action, p: int) -> list[Any]:
        """The engine's action for ``a``, checked: with several objects of the name, the
        first for which it is legal (else the first one's error is raised)."""
        g = self.game
        tries = self._candidates(a, p)
        error: Exception | None = None
        for build in tries:
            try:
                return list(g.check_action(p, build()))
            except (RulesError, ScenarioFailed) as err:
                error = error or err
        assert error is not None
        raise error

    def _candidates(self, a: Action, p: int) -> list[Callable[[], list[Any]]]:
        g = self.game
        s = g.state
        assert a.card is not None
        name = a.card
        if a.verb in ("cast", "play"):
            hand = s.players[p].hand
            alt = a.alt_cost
            if name in self.aliases:
                oid = self.ref(name)
                if oid not in hand and not g.cast_alts_from(p, oid):
                    raise RulesError("601.2", f"{name} is not in {self.names[p]}'s hand")
                ids, face_alt = [oid], ""
            else:
                ids = [o for o in hand if self.named(o, name)]
                face_alt = ""
                if not ids:  # a face, or a card a permission lets them cast (or play)
                    ids, face_alt = self._castable_by_name(p, name)
                if not ids:
                    raise RulesError("601.2", f"{name} is not in {self.names[p]}'s hand")
            if a.verb == "play":
                return [functools.partial(lambda o: ["play", o], o) for o in ids]
            return [functools.partial(lambda o: ["cast", o, self._targets(a.targets),
                                                 sorted(a.modes), a.x or 0, alt or face_alt], o)
                    for o in ids]
        srcs = [o for o in self.objects_named(name) if o > 0]
        if not srcs:
            raise ScenarioFailed(f"no object named {name!r}")
        return [functools.partial(self._activation, a, o) for o in srcs]

    def _activation(self, a: Action, src: int) -> list[Any]:
        g = self.game
        o = g.state.objects[src]
        if o.zone != "battlefield" and not any(o.zone in ab.zones
                                               for _k, ab in g.definition(src).activated):
            raise RulesError("602.2", f"{a.card} is not on the battlefield")
        acts = g.definition(src).activated  # a copy's are the copied card's (layer 1)
        if isinstance(a.ability, str):
            idx = 0
            for k, (_key, ab) in enumerate(acts, start=1):
                if _loyalty_text(ab) == _norm_loyalty(a.ability):
                    idx = k
            if not idx:
                raise RulesError("606.4", f"{a.card} has no loyalty ability {a.ability}")
        else:
            # intrinsic mana abilities (a basic land type's "{T}: Add ...") come first
            intrinsic = len(g.intrinsic_mana(src)) if o.zone == "battlefield" else 0
            k = a.ability or 1
            idx = -k if k <= intrinsic else k - intrinsic
            if idx > len(acts):
                raise RulesError("602.1", f"{a.card} has no activated ability {k} (it has "
                                 f"{len(acts) + intrinsic})")
        return ["activate", src, idx, self._targets(a.targets), a.x or 0]

    def _castable_by_name(self, p: int, name: str) -> tuple[list[int], str]:
        """Cards ``p`` may cast by this name: a face of a card in hand (an Adventure:
        ``cast: Betroth the Beast``), or a card elsewhere that a rule lets them cast
        (e.g. from exile); with the alt cost that casts it so."""
        g = self.game
        s = g.state
        for oid in s.players[p].hand:
            for alt, face in sorted(g.card(oid).extras.get("faces", {}).items()):
                if face == name:
                    return [oid], alt
        for oid, alts in g._castable_elsewhere(p):
            if self.named(oid, name):
                return [oid], alts[0]
            for alt in alts:
                if g.card(oid).extras.get("faces", {}).get(alt) == name:
                    return [oid], alt
        return [], ""

    def _targets(self, names: Sequence[str]) -> list[int]:
        out: list[int] = []
        for n in names:
            out.append(self.ref(n, avoid=out))
        return out

    # attack and block ---------------------------------------------------------
    def _combat(self, a: Action, p: int) -> Any:
        """An ``attack`` / ``block`` action when a player receives priority: pass on to
        its declaration step; once that step has begun (the engine asks for the
        declaration as it begins, if any creature could make one), the action is judged
        here: it is illegal now, so it holds only with ``refused: true``."""
        s = self.game.state
        now = STEPS.index(s.step) if s.step in STEPS else -1
        attackers = s.combat.attackers if s.combat is not None else {}
        if a.verb == "attack":
            before = now < STEPS.index("declare_attackers")
        else:
            before = now < STEPS.index("declare_attackers") or (
                now == STEPS.index("declare_attackers") and bool(attackers))
        if before:
            if s.stack:
                raise self.fail(a.where, "the stack must be empty to move to combat")
            return self._pass(p)
        reason = self._too_late(a)
        if reason is None:  # ``block: {}`` where no blocks were declared: that is so
            if a.refused:
                raise self.fail(a.where, "block was accepted but should be refused")
            self._advance()
            return None
        if a.refused:
            self._advance()
            return None
        raise self.fail(a.where, f"illegal {a.verb}: {reason}")

    def _too_late(self, a: Action) -> str | None:
        """Why ``a`` can't be taken now that its declaration step has begun (``None``: a
        ``block: {}`` with no blocks declared, which holds)."""
        g = self.game
        s = g.state
        what = "attackers" if a.verb == "attack" else "blockers"
        rule = "508.1" if a.verb == "attack" else "509.1"
        if (s.turn, what) in self.declared:
            return f"{what} have already been declared this combat (rule {rule})"
        active = s.active
        try:
            if a.verb == "attack":
                if a.player and self.player(a.player) not in active_team(s):
                    return (f"{a.player} is not the active player: only the active player "
                            "declares attackers (rule 508.1)")
                choice = self._attack_choice(a, active, [], [])
                g.check_attackers(active, choice)
                return ("attackers are declared as the declare attackers step begins "
                        "(rule 508.1)")
            defenders = defending_players(s)
            defender = defenders[0] if defenders else active
            if a.player and self.player(a.player) not in defenders:
                return (f"{a.player} is not the defending player: only the defending player "
                        "declares blockers (rule 509.1)")
            if not a.blocks:
                return None
            attackers = s.combat.attackers if s.combat is not None else {}
            if not attackers:
                first = next(iter(a.blocks))
                return f"{first} can't block: no creature is attacking (rule 509.1)"
            choice = self._block_choice(a, [], list(attackers))
            g.check_blockers(defender, choice)
            return "blockers are declared as the declare blockers step begins (rule 509.1)"
        except RulesError as err:
            return str(err)
        except ScenarioFailed as err:
            return str(err)

    def _attack_choice(self, a: Action, active: int, attackers: Sequence[int],
                       targets: Sequence[int]) -> list[list[int]]:
        out: list[list[int]] = []
        for k, v in a.attackers.items():
            oid = self.ref(k, candidates=attackers or None, avoid=[x for x, _t in out])
            to = self.ref(v, candidates=targets or None) if v else \
                self._defending_player(active)
            out.append([oid, to])
        return out

    def _defending_player(self, active: int) -> int:
        """"The defending player" of ``attack: [A, B]``: the first player the active player
        may attack (the next opponent in turn order, unless attack left or right says
        otherwise)."""
        g = self.game
        refs = [t for t in g.attack_targets(active) if t < 0]
        return refs[0] if refs else player_ref(opponents_of(g.state, active)[0])

    def _block_choice(self, a: Action, blockers: Sequence[int], attackers: Sequence[int],
                      keys: Sequence[str] | None = None) -> list[list[int]]:
        out: list[list[int]] = []
        for k, v in a.blocks.items():
            if keys is not None and k not in keys:
                continue
            b = self.ref(k, candidates=blockers or None, avoid=[x for x, _t in out])
            for one in v if isinstance(v, list) else [v]:  # a list: it blocks each of them
                out.append([b, self.ref(one, candidates=attackers or None,
                                        avoid=[t for x, t in out if x == b])])
        return out

    def _declare(self, d: Decision) -> Any:
        """The engine asks for attackers (blockers): the next action, if it is an
        ``attack`` (``block``), declares them; one refused as it should be leaves the
        declaration to the action after it."""
        s = self.game.state
        verb = "attack" if d.kind == "attackers" else "block"
        ctx = d.context if isinstance(d.context, dict) else {}
        defenders: list[int] = list(ctx.get("defenders", []))
        if not defenders or ctx.get("last"):
            self.declared.add((s.turn, d.kind))
        if defenders and self.under_way and self.i < len(self.sc.actions) and \
                self.sc.actions[self.i].verb == "block" and \
                self.actors.get(self.i) not in team_of(s, d.player):
            self._advance()  # the previous defending player's block is done
        while True:
            a = self._peek()
            if a is None or a.verb != verb:
                return []  # no attackers (no blocks)
            if defenders and not a.refused and a.player and \
                    self.player(a.player) in defenders and \
                    self.player(a.player) not in team_of(s, d.player):
                return []  # another defending player's blocks: this one declares none
            self._run_checks_up_to(a)
            if defenders and not a.player and not ctx.get("last"):
                # one `block` for several defending players: this one's creatures' blocks
                mine = self._own_blocks(a, d)
                choice = self._block_choice(a, ctx.get("blockers", []),
                                            ctx.get("attackers", []), keys=mine)
                try:
                    assert d.check is not None
                    d.check(choice)
                except (RulesError, ScenarioFailed) as err:
                    raise self.fail(a.where, f"illegal {verb}: {err}") from None
                self.block_keys.setdefault(self.i, set()).update(mine)
                return choice
            try:
                choice = self._declaration(a, d)
                assert d.check is not None
                d.check(choice)
            except (RulesError, ScenarioFailed) as err:
                if not a.refused:
                    raise self.fail(a.where, f"illegal {verb}: {err}") from None
                self._advance()  # refused, as it should be: the declaration is still open
                continue
            if a.refused:
                raise self.fail(a.where, f"{verb} was accepted but should be refused")
            self.under_way = True
            self.actors[self.i] = d.player
            return choice

    def _declaration(self, a: Action, d: Decision) -> list[list[int]]:
        ctx = d.context or {}
        if d.kind == "attackers":
            if a.player and self.player(a.player) not in team_of(self.game.state, d.player):
                raise RulesError("508.1", f"{a.player} is not the active player: only the "
                                 "active player declares attackers")
            return self._attack_choice(a, d.player, ctx.get("attackers", []),
                                       ctx.get("targets", []))
        if a.player and self.player(a.player) not in team_of(self.game.state, d.player):
            raise RulesError("509.1", f"{a.player} is not the defending player: only the "
                             "defending player declares blockers")
        keys = None
        if ctx.get("defenders") and not a.player:  # the blocks the other defenders left
            keys = [k for k in a.blocks if k not in self.block_keys.get(self.i, set())]
        return self._block_choice(a, ctx.get("blockers", []), ctx.get("attackers", []), keys)

    def _own_blocks(self, a: Action, d: Decision) -> list[str]:
        """The blockers of ``a`` that are the deciding defending player's creatures."""
        ctx = d.context if isinstance(d.context, dict) else {}
        cands = list(ctx.get("blockers", []))
        taken = self.block_keys.get(self.i, set())
        out = []
        for k in a.blocks:
            if k in taken:
                continue
            try:
                oid = self.ref(k, candidates=cands)
            except ScenarioFailed:
                continue
            if oid in cands:
                out.append(k)
        return out

    def _peek(self) -> Action | None:
        """The next action that is not a ``check``, without running the checks: a
        ``check`` waits until a player would receive priority (a decision asked while a
        spell is being cast or resolved comes first)."""
        for a in self.sc.actions[self.i:]:
            if a.verb != "check":
                return a
        return None

    def _run_checks_up_to(self, a: Action) -> None:
        """Run the ``check`` actions that stand before ``a`` (a declaration is made now)."""
        while self.i < len(self.sc.actions) and self.sc.actions[self.i] is not a:
            for exp in self.sc.actions[self.i].check:
                self.check(exp)
            self._advance()

    # answers ----------------------------------------------------------------
    def _kinds(self, d: Decision) -> tuple[str, ...]:
        ctx = d.context
        if isinstance(ctx, dict) and isinstance(ctx.get("answer"), str):
            if ctx["answer"] == "new_targets":  # "you may choose new targets for the copy"
                return ("new_targets", "may")
            return (ctx["answer"],)
        return ANSWER_FOR.get(d.kind, ("choose",))

    def _find_answer(self, d: Decision, kinds: tuple[str, ...],
                     accept: Callable[[Answer], bool] | None = None) -> Answer | None:
        """The first unused answer of one of ``kinds`` for the deciding player, of the
        current action, else of the other one within reach (:meth:`_reachable`); marked
        used."""
        for k in self._reachable():
            a = self.sc.actions[k]
            used = self.used_by.setdefault(k, set())
            for n, ans in enumerate(a.answers):
                if ans.kind not in kinds or n in used:
                    continue
                who = self.player(ans.player) if ans.player else self.actors.get(k)
                if who is not None and who != d.player:
                    continue
                if accept is not None and not accept(ans):
                    continue
                used.add(n)
                return ans
        return None

    def forced(self, game: Game, d: Decision) -> None:
        """A decision with one legal option was taken without asking. An answer the
        action gives for it is used if it names that option (for ``may`` and ``pay``: any
        answer; choosing to do what can't be done does nothing), so a strict scenario may
        state a forced choice."""
        kinds = self._kinds(d)
        if "arrange" in kinds:
            self._arranged(d)
            return

        def accept(ans: Answer) -> bool:
            if d.kind == "may":
                return True
            try:
                return bool(self._convert(d, ans) == (d.options or [None])[0])
            except ScenarioFailed:
                return False
        self._find_answer(d, kinds, accept)

    def _answer(self, d: Decision) -> Any:
        if d.kind in DECLARATIONS:
            return self._declare(d)
        if d.kind == "mulligan":
            return self._mulligan(d)
        if d.kind == "bottom" and self.keeping is not None:
            return self._bottom(d)
        kinds = self._kinds(d)
        if "arrange" in kinds:
            return self._arranged(d)
        if d.kind == "targets" and self.retarget is not None and self.retarget[0] == d.player:
            new = self.retarget[1]  # the new targets of a copy, the may answered before
            self.retarget = None
            try:
                return self._convert(d, Answer(kind="targets", value=new.value,
                                               where=new.where))
            except ScenarioFailed as err:
                raise self.fail(new.where, str(err)) from None
        ans = self._find_answer(d, kinds)
        if ans is not None and ans.kind == "new_targets":
            if ans.value is None:
                return False  # keep the original's targets
            self.retarget = (d.player, ans)
            return True
        if ans is None:
            return self._default(d)
        try:
            return self._convert(d, ans)
        except ScenarioFailed as err:
            raise self.fail(ans.where, str(err)) from None

    def _mulligan(self, d: Decision) -> bool:
        """A player keeps or mulligans (opening hands): the next action says which; it must
        be this player's.  Without such an action the player keeps (strict: fails)."""
        who = self.names[d.player]
        a = self._next()
        if a is None or a.verb not in ("mulligan", "keep"):
            if self.sc.strict:
                raise self.fail(a.where if a else "", f"{who} keeps or mulligans now: a "
                                f"`{{player: {who}, keep: true}}` or `mulligan: true` action "
                                "comes first (strict)")
            return True
        if a.player != who:
            raise self.fail(a.where, f"{a.player} can't decide now: {who} keeps or mulligans "
                            "first (in each round the players decide in turn order, starting "
                            "with the active player)")
        self._start()
        self.actors[self.i] = d.player
        taken = self.mulligans.get(d.player, 0)
        if a.verb == "mulligan":
            self.mulligans[d.player] = taken + 1
            self._advance()
            return False
        free = 1 if taken and len(self.names) > 2 else 0
        need = min(taken - free, len(self.game.state.players[d.player].hand))
        if len(a.bottom) != need:
            raise self.fail(f"{a.where}.bottom", f"{who} puts {need} card(s) on the bottom "
                            f"({taken} mulligan(s){', the first free' if free else ''}), "
                            f"not {len(a.bottom)}")
        self.keeping = a if need else None
        self._advance()
        return True

    def _bottom(self, d: Decision) -> list[int]:
        """The cards a player who kept puts on the bottom: the ``keep`` action's list."""
        a = self.keeping
        assert a is not None
        self.keeping = None
        out: list[int] = []
        for name in a.bottom:
            try:
                out.append(self._pick(name, d.options or [], list(d.options or []), out))
            except ScenarioFailed as err:
                raise self.fail(f"{a.where}.bottom", str(err)) from None
        return out

    def _where(self) -> str:
        return self.sc.actions[self.i].where if self.i < len(self.sc.actions) else ""

    def _default(self, d: Decision) -> Any:
        """The documented default answer; in strict mode, a decision with more than one
        legal answer fails instead."""
        if self.sc.strict and _answer_count(d) > 1:
            kinds = " or ".join(f"{{{k}: ...}}" for k in self._kinds(d))
            raise self.fail(self._where(), f"unanswered {d.kind} decision for "
                            f"{self.names[d.player]}: {d.prompt or d.kind} (strict: answer it "
                            f"with {kinds})")
        if d.kind == "assign":
            return d.context["default"]
        if d.kind == "order":
            return list(d.context)
        if d.options is None:
            return []
        if not d.many:
            return d.options[0]
        return [] if d.up_to else d.options[:d.count]

    def _convert(self, d: Decision, ans: Answer) -> Any:
        v = ans.value
        opts = d.options or []
        flat = [o for o in opts if isinstance(o, int) and not isinstance(o, bool)]
        if d.kind == "targets":
            names = v if isinstance(v, list) else [v]
            cands = sorted({r for combo in opts for r in combo}) if opts else None
            out: list[int] = []
            for n in names:
                out.append(self.ref(n, candidates=cands, avoid=out))
            return out
        if d.kind == "redirect":
            return 0 if v is None else self._pick(v, opts, flat, [])
        if ans.kind in ("may", "pay"):
            return bool(v)
        if d.kind == "order":
            return self._order(d, v)
        if d.kind == "assign":
            return [[self.ref(k, candidates=d.context["recipients"]), int(n)]
                    for k, n in v.items()]
        if d.kind == "modes":
            return v if isinstance(v, list) else [v]
        if d.kind == "x":
            return int(v)
        if d.kind == "clash":
            return v
        # choose-like: objects, players, or words among the options
        names = v if isinstance(v, list) else [v]
        picked: list[Any] = []
        for n in names:
            picked.append(self._pick(n, opts, flat, picked))
        if d.many:
            return picked
        if len(picked) != 1:
            raise ScenarioFailed(f"expected one choice for this {d.kind} decision, got "
                                 f"{len(picked)}")
        return picked[0]

    def _pick(self, name: Any, opts: Sequence[Any], flat: list[int], picked: list[Any]) -> Any:
        """The option a ``choose`` answer's name stands for."""
        if name is None:
            return 0 if 0 in opts else None
        if name in opts and not isinstance(name, bool):
            return name
        words = [o for o in opts if isinstance(o, str)]
        if words:
            low = str(name).lower()
            for o in words:  # a word as printed, in any case
                if o.lower() == low:
                    return o
            color = COLOR_WORDS.get(low)
            if color is not None and color in words:  # a colour of mana
                return color
            for o in words:  # a replacement effect, by its source ("Card#0")
                if "#" in o and self.printed(o.split("#", 1)[0]) == name:
                    return o
            if not flat:
                raise ScenarioFailed(f"{name!r} is not one of the choices: "
                                     f"{', '.join(words[:12])}{', ...' if len(words) > 12 else ''}")
        oid = self.ref(str(name), candidates=flat, avoid=picked)
        if flat and oid not in flat:
            shown = ["none" if o == 0 else self.game.name(o) if o < 0 else self._label(o)
                     for o in flat[:12]]
            raise ScenarioFailed(f"{name!r} is not one of the choices: {', '.join(shown)}"
                                 f"{', ...' if len(flat) > 12 else ''}")
        return oid

    def _order(self, d: Decision, v: list[str]) -> list[int]:
        s = self.game.state
        items = list(d.context)
        out: list[int] = []
        for n in v:
            base, index = split_ability_ref(n)
            match = [i for i in items if i not in out and any(
                it.id == i and self._source_named(it.source, it.source_card, base)
                and (index is None or self._trigger_index(it.source_card, it.ability) == index)
                for it in s.pending)]
            if not match:
                raise ScenarioFailed(f"no pending triggered ability from {n!r} to order")
            out.append(match[0])
        return out

    def _trigger_index(self, card: str, ability: str) -> int:
        """The 1-based index of ``ability`` among ``card``'s triggered abilities in printed
        order (0: not one of them)."""
        try:
            keys = [k for k, _t in self.reg[card].triggered]
        except KeyError:
            return 0
        return keys.index(ability) + 1 if ability in keys else 0

    def _card_id(self, oid: int) -> int:
        """The physical card (``Obj.card_id``) of object ``oid``, which may have left its
        zone since (a new object, CR 400.7): followed through the log's moves."""
        o = self.game.state.objects.get(oid)
        if o is not None:
            return o.card_id
        log = self.game.log
        for env in log[self.moves_seen:]:
            e = env.event
            new = getattr(e, "new_obj", None)
            old = getattr(e, "obj", None)
            if isinstance(new, int) and isinstance(old, int):
                self.moved[new] = self.moved.get(old, old)
        self.moves_seen = len(log)
        return self.moved.get(oid, oid)

    def _source_named(self, source: int, source_card: str, name: str) -> bool:
        if name in self.aliases:  # (also after the source left its zone: CR 400.7)
            return self._card_id(source) == self.aliases[name]
        return source_card == self.reg.canonical(name) or self.printed(source_card) == name

    def _arranged(self, d: Decision) -> Any:
        """A decision arranging looked-at cards (:func:`mtgk.plugins.scry.arrangement`): the
        arrangement's first decision takes an ``arrange`` answer, which then answers
        every decision of that arrangement."""
        ctx = d.context
        if ctx.get("first"):
            ans = self._find_answer(d, ("arrange",))
            self.plan = None if ans is None else self._plan(ans, list(ctx["cards"]), ctx)
        plan = self.plan
        opts = list(d.options or [])
        if plan is None:
            return self._default(d) if len(opts) > 1 or d.many else opts[0]
        part = ctx.get("part")
        if part == "bottom_set":
            return [o for o in plan.bottom if o in opts]
        order = plan.top if part == "top" else plan.bottom
        nxt = [o for o in order if o in opts]
        rest = [o for o in opts if o not in plan.top and o not in plan.bottom]
        return (nxt or rest or opts)[0]

    def _plan(self, ans: Answer, cards: list[int], ctx: dict[str, Any]) -> _Plan:
        """The looked-at cards an ``arrange`` answer names, top and bottom."""
        value: Arrangement = ans.value
        taken: list[int] = []
        sides: dict[str, list[int]] = {"top": [], "bottom": []}
        for side in ("top", "bottom"):
            for name in getattr(value, side):
                hit = next((c for c in cards if c not in taken and c in self.game.state.objects
                            and self.named(c, name)), None)
                if hit is None:
                    looked = ", ".join(self._label(c) for c in cards)
                    raise self.fail(ans.where, f"{name!r} is not among the looked-at cards "
                                    f"({looked})")
                taken.append(hit)
                sides[side].append(hit)
        part = ctx.get("part")
        if part == "top" and sides["bottom"]:
            raise self.fail(ans.where, "these cards are put back on top: none can go to the "
                            "bottom")
        if part == "bottom" and sides["top"]:
            raise self.fail(ans.where, "these cards go to the bottom: none can stay on top")
        return _Plan(ans, sides["top"], sides["bottom"])

    def refused(self, game: Game, d: Decision, err: RulesError) -> None:
        raise self.fail(self._where(), f"illegal answer: {err}")

    # ------------------------------------------------------------ expectations
    def check(self, e: Expectation) -> None:
        g = self.game
        s = g.state
        where = e.where
        try:
            self._check(e, g, s)
        except ScenarioFailed as err:
            raise self.fail(where, str(err)) from None

    def _check(self, e: Expectation, g: Game, s: Any) -> None:
        def want(what: str, got: Any, exp: Any) -> None:
            if got != exp:
                raise ScenarioFailed(f"{what}: expected {exp!r}, got {got!r}")
        if e.player is not None:
            p = self.player(e.player)
            pl = s.players[p]
            if e.life is not None:
                want(f"{e.player}'s life", pl.life, e.life)
            for key in ("hand_size", "library_size", "graveyard_size"):
                val = getattr(e, key)
                if val is not None:
                    want(f"{e.player}'s {key}", len(getattr(pl, key.split("_")[0])), val)
            if e.library_top is not None:
                ids = pl.library[:len(e.library_top)]
                self._match_names(f"{e.player}'s library top", ids, e.library_top,
                                  [self._label(o) for o in ids])
            if e.library_bottom is not None:
                k = len(e.library_bottom)
                ids = list(reversed(pl.library))[:k]
                self._match_names(f"{e.player}'s library bottom", ids, e.library_bottom,
                                  [self._label(o) for o in ids])
            if e.lost is not None:  # in Two-Headed Giant: P's team lost
                lost = all(s.players[q].lost for q in team_of(s, p))
                want(f"{e.player} lost", lost, e.lost)
        if e.winner is not None:  # in Two-Headed Giant: a player of the team that won
            won = s.winner is not None and s.winner >= 0
            winners = team_of(s, s.winner) if won and s.winner is not None else []
            if self.player(e.winner) not in winners:
                shown = " & ".join(self.names[q] for q in winners) if winners else None
                raise ScenarioFailed(f"winner: expected {e.winner!r}, got {shown!r}")
        if e.draw is not None:
            drawn = s.over and (s.winner is None or s.winner < 0)
            if drawn != e.draw:
                how = ("the game is not over" if not s.over else
                       f"{self.names[s.winner]} won" if drawn is False else "it is a draw")
                raise ScenarioFailed(f"draw: expected {e.draw!r}, but {how}")
        if e.card is not None:
            oid = self.expect_ref(e.card)
            o = s.objects[oid]
            on_bf = o.zone == "battlefield"
            c = g.chars(oid)
            if e.zone is not None:
                want(f"{e.card}'s zone", in_no_zone(o.zone), e.zone)
            if e.loyalty is not None:
                got = o.counters.get("loyalty", 0) if on_bf else c.loyalty
                want(f"{e.card}'s loyalty", got, e.loyalty)
            if e.counters is not None:
                for kind, n in e.counters.items():
                    want(f"{e.card}'s {kind} counters", o.counters.get(kind, 0), n)
            if e.power is not None:
                want(f"{e.card}'s power", c.power, e.power)
            if e.toughness is not None:
                want(f"{e.card}'s toughness", c.toughness, e.toughness)
            if e.damage is not None:
                want(f"{e.card}'s damage", o.damage, e.damage)
            if e.tapped is not None:
                want(f"{e.card} tapped", o.tapped, e.tapped)
            if e.controller is not None:
                want(f"{e.card}'s controller", self.names[c.controller if on_bf else o.controller],
                     e.controller)
            if e.owner is not None:
                want(f"{e.card}'s owner", self.names[o.owner], e.owner)
            if e.types is not None:
                want(f"{e.card}'s card types", sorted(c.types), sorted(e.types))
            for t in e.has_subtypes or []:
                if not c.has_subtype(t):
                    raise ScenarioFailed(f"{e.card} lacks subtype {t} (has "
                                         f"{', '.join(c.all_subtypes()[:8]) or 'none'})")
            for t in e.lacks_subtypes or []:
                if c.has_subtype(t):
                    raise ScenarioFailed(f"{e.card} has subtype {t}")
            if e.has_ability is not None and not c.has(e.has_ability.lower()):
                raise ScenarioFailed(f"{e.card} lacks {e.has_ability}")
            if e.lacks_ability is not None and c.has(e.lacks_ability.lower()):
                raise ScenarioFailed(f"{e.card} has {e.lacks_ability}")
            if e.attached_to is not None:
                host = self.expect_ref(e.attached_to)
                if o.attached_to != host:
                    host_label = self._label(o.attached_to) if o.attached_to else "nothing"
                    raise ScenarioFailed(f"{e.card} is attached to {host_label}, "
                                         f"not {e.attached_to}")
            if e.face_down is not None:
                want(f"{e.card} face down", o.face_down, e.face_down)
        if e.count is not None:
            n = len(self._count(e.count))
            want(f"count of {self._filter_text(e.count)}", n, e.equals)
        if e.stack_size is not None:
            want("stack size", len(s.stack), e.stack_size)
        if e.log_has is not None:
            if e.log_has not in ev.EVENT_TYPES:
                raise ScenarioFailed(f"unknown event type {e.log_has!r}")
            n = sum(1 for env in g.log if env.event.TAG == e.log_has)
            if e.log_count is not None:
                want(f"{e.log_has} events", n, e.log_count)
            if e.log_min is not None and n < e.log_min:
                raise ScenarioFailed(f"{e.log_has} events: expected at least {e.log_min}, "
                                     f"got {n}")
            if e.log_max is not None and n > e.log_max:
                raise ScenarioFailed(f"{e.log_has} events: expected at most {e.log_max}, "
                                     f"got {n}")

    def _label(self, oid: int) -> str:
        o = self.game.state.objects.get(oid)
        return self.printed(o.card) if o else f"#{oid}"

    def _match_names(self, what: str, ids: list[int], names: list[str], got: list[str]) -> None:
        ok = len(ids) == len(names) and all(self.named(oid, n) for oid, n in zip(ids, names,
                                                                                 strict=False))
        if not ok:
            raise ScenarioFailed(f"{what}: expected {names!r}, got {got!r}")

    def _count(self, f: Any) -> list[int]:
        g = self.game
        s = g.state
        out = []
        for oid, o in s.objects.items():
            zone = in_no_zone(o.zone)
            if f.zone is not None and zone != f.zone:
                continue
            if f.zone is None and zone == "none":
                continue
            c = g.chars(oid)
            if f.name is not None and not self.named(oid, f.name):
                continue
            ctrl = c.controller if zone == "battlefield" else o.controller
            if f.controller is not None and self.names[ctrl] != f.controller:
                continue
            if f.owner is not None and self.names[o.owner] != f.owner:
                continue
            if f.type is not None and f.type not in c.types:
                continue
            if f.subtype is not None and not c.has_subtype(f.subtype):
                continue
            if f.token is not None and o.token != f.token:
                continue
            if f.tapped is not None and o.tapped != f.tapped:
                continue
            out.append(oid)
        return out

    def _filter_text(self, f: Any) -> str:
        return "{" + ", ".join(f"{k}: {getattr(f, k)}" for k in
                               ("name", "zone", "controller", "owner", "type", "subtype", "token",
                                "tapped")
                               if getattr(f, k) is not None) + "}"


_SKIPPED = {
    "first_strike_damage": " (that step happens only when an attacking or blocking creature "
                           "has first strike or double strike as combat damage begins)",
    "declare_blockers": " (no creature attacked)",
    "combat_damage": " (no creature attacked)",
    "draw": " (the draw step was skipped)",
}
"""Why a step may not happen in a turn, for the message of a ``pass_until`` that passed it."""


def _step_text(step: str) -> str:
    return f"{step.replace('_', ' ')} step"


def _answer_count(d: Decision) -> int:
    """How many legal answers ``d`` has (2: more than one)."""
    if d.options is None:
        if d.kind == "order":
            return 2 if len(d.context or ()) > 1 else 1
        if d.kind == "assign":
            return 2 if len(d.context["recipients"]) > 1 else 1
        return 2
    n = len(d.options)
    if d.many:
        if d.up_to:
            return 2 if n else 1
        return 2 if n > d.count else 1
    return n


def _norm_loyalty(text: str) -> str:
    t = text.replace("−", "-").strip()
    if t and t[0] not in "+-" and t != "0":
        t = "+" + t
    return t


def _loyalty_text(ab: Activated) -> str:
    c = ab.cost
    if c.loyalty_x:
        return "-X"
    if c.loyalty is None:
        return ""
    if c.loyalty == 0:
        return "0"
    return f"{c.loyalty:+d}"


def run_scenario(sc: Scenario, reg: Registry) -> ScenarioResult:
    """Play one scenario and check it; never raises for a failing scenario.  A scenario
    the engine can't play yet (:func:`unsupported`) fails as ``invalid``."""
    why = unsupported(sc)
    if why:
        return ScenarioResult(sc.name, sc.file, False, why, invalid=True)
    run = ScenarioRun(sc, reg)
    try:
        run.run()
        for exp in sc.expect:
            run.check(exp)
        replayed = fold(run.game.log)
        if encode_state(replayed) != encode_state(run.game.state):
            raise ScenarioFailed("replaying the scenario's log does not give the live state")
    except ScenarioFailed as err:
        return ScenarioResult(sc.name, sc.file, False, str(err), run.game.log, run.game)
    except RulesError as err:
        return ScenarioResult(sc.name, sc.file, False, f"rules error: {err}", run.game.log,
                              run.game)
    except StaleCache as err:  # validated mode: a declaration of what a card reads is wrong
        return ScenarioResult(sc.name, sc.file, False, f"validated mode: {err}", run.game.log,
                              run.game)
    except CardError as err:  # a card's code raised: the line names the card and its set
        return ScenarioResult(sc.name, sc.file, False, str(err), run.game.log, run.game,
                              error=err.error)
    except Exception as err:  # noqa: BLE001 - a crashing card must not stop the other scenarios
        return ScenarioResult(sc.name, sc.file, False, f"internal error: {type(err).__name__}: "
                              f"{err}", run.game.log, run.game, error=err)
    return ScenarioResult(sc.name, sc.file, True, "", run.game.log, run.game)


def unknown_cards(sc: Scenario, reg: Registry) -> list[str]:
    """Setup entries naming cards no loaded card set defines, as key paths."""
    out = []
    for pname, setup in sc.players.items():
        for zone, entries in setup.zones():
            for i, entry in enumerate(entries):
                if card_key(reg, entry.card) is None:
                    out.append(f"players.{pname}.{zone}[{i}]: unknown card {entry.card!r}")
    return out


def run_file(path: str | Path, reg: Registry) -> list[ScenarioResult]:
    """Run every scenario in a file.  A file naming a card, an alias or an event type
    that the loaded sets and plugins don't know is invalid (:class:`ScenarioFileError`)."""
    scs = load_file(path, reg)
    out = []
    for sc in scs:
        missing = unknown_cards(sc, reg)
        if missing:
            r = ScenarioResult(sc.name, sc.file, False, unknown_card_reason(
                reg, "; ".join(missing) + " (is its card set installed?)"))
            r.invalid = True
            out.append(r)
            continue
        out.append(run_scenario(sc, reg))
    return out


MAX_LOG_NAME = 80
"""The longest file name stem ``mtgk scenario --log`` writes (before ``.mtgk``)."""


class ScenarioLogError(Exception):
    """A scenario's log cannot be written (the message says why, in one line)."""


def log_file_name(name: str) -> str:
    """A safe file name stem for a scenario's log: letters, digits, ``-``, ``_``
    and ``.`` (other characters become ``_``), no leading dot, at most
    :data:`MAX_LOG_NAME` characters.  A name that had to be changed gets a short
    hash of the original, so different names never share a stem.

    >>> log_file_name("shock-the-bears"), log_file_name("a_b")
    ('shock-the-bears', 'a_b')
    >>> log_file_name("a/b")
    'a_b-c14cddc0'
    >>> len(log_file_name("x" * 300))
    80
    """
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_"
                   for ch in name).lstrip(".")
    if safe == name and 0 < len(name) <= MAX_LOG_NAME:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{safe[:MAX_LOG_NAME - 9] or 'scenario'}-{digest}"


class ScenarioLogs:
    """Writes the logs of one ``mtgk scenario --log DIR`` run: one file per scenario,
    named by :func:`log_file_name`; two scenarios of the same name in one run get
    ``-2``, ``-3`` ... so no log of the run overwrites another.

    Raises :class:`ScenarioLogError` if ``out_dir`` is not a directory and can't be
    made one.
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.taken: set[str] = set()
        if out_dir.exists() and not out_dir.is_dir():
            raise ScenarioLogError(f"--log {out_dir}: not a directory")
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ScenarioLogError(f"--log {out_dir}: cannot make the directory: "
                                   f"{exc.strerror or exc}") from None

    def path_for(self, name: str) -> Path:
        """The file the log of the scenario ``name`` goes to (reserved for it)."""
        stem = log_file_name(name)
        unique, k = stem, 1
        while unique.casefold() in self.taken:  # (case-insensitive file systems too)
            k += 1
            unique = f"{stem}-{k}"
        self.taken.add(unique.casefold())
        return self.out_dir / f"{unique}.mtgk"

    def write(self, result: ScenarioResult, reg: Registry) -> Path | None:
        """Write ``result``'s log; ``None`` (nothing written) if the scenario never
        started a game (e.g. it names an unknown card)."""
        if result.game is None:
            return None
        path = self.path_for(result.name)
        try:
            write_log(path, scenario_log_header(result, reg), result.log)
        except OSError as exc:
            raise ScenarioLogError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path


def scenario_log_header(result: ScenarioResult, reg: Registry) -> LogHeader:
    """The header of a scenario's log: players, card sets, no decks, seed 0 (as the
    runner plays it), and in ``meta`` the scenario's name, file and the number of
    events it produced (``scenario_end``, so that ``mtgk verify`` can tell a log
    cut short from a whole one) and how this runner sets a scenario up
    (``scenario_setup``, :data:`mtgk.log.replay.SCENARIO_SETUP`)."""
    g = result.game
    players = [p.name for p in g.state.players] if g else []
    meta: dict[str, Any] = {"scenario": result.name, "file": result.file,
                            "scenario_end": len(result.log), "scenario_setup": SCENARIO_SETUP}
    if g is not None and g.attack_option != ATTACK_MULTIPLE:
        meta["attack"] = g.attack_option  # (a free-for-all game's option; default: multiple)
    opening = opening_hands_start(result.log)
    if opening is not None:  # a scenario from the opening hands: re-run by this module
        meta["kind"] = OPENING_HANDS_KIND
        meta["opening_hands"] = list(opening)
    multiplayer = g is not None and bool(g.state.variant)
    if g is not None and g.state.variant:  # a multiplayer game: its variant and teams
        meta["variant"] = g.state.variant
        if g.state.teams:
            meta["teams"] = [list(t) for t in g.state.teams]
    return LogHeader(kernel_version=_kernel_version(), players=players,
                     cardsets=[(i.name, i.version) for i in sorted(reg.sets.values(),
                                                                   key=lambda i: i.name)],
                     decks=[], seed=0, meta=meta,
                     events=LogHeader.current_event_table(multiplayer),
                     rules_revision=_rules_revision())


OPENING_HANDS_KIND = "scenario_opening_hands"
"""``meta["kind"]`` of the log of a scenario that starts from the opening hands
(``step: opening_hands``): its setup has no ``TurnBegan``, the players keep or mulligan
(the game's own decisions), then the first turn begins (``meta["opening_hands"]``:
``[turn, active]``).  :func:`run_opening_hands_log` re-runs such logs for ``mtgk verify``."""


def opening_hands_start(log: Sequence[ev.Envelope]) -> tuple[int, int] | None:
    """``(turn, active)`` of the first turn of a scenario that starts from the opening
    hands (its setup, after ``GameStarted`` and a ``GameVariant``, has no ``TurnBegan``);
    ``None`` for another log."""
    start = 2 if len(log) > 1 and isinstance(log[1].event, ev.GameVariant) else 1
    if len(log) <= start or isinstance(log[start].event, ev.TurnBegan):
        return None
    first = next((env.event for env in log if isinstance(env.event, ev.TurnBegan)), None)
    if first is None:
        return None
    return first.turn, first.active


def run_opening_hands_log(registry: Registry, header: LogHeader, agents: Sequence[Any],
                          watch: Watch, log: Sequence[ev.Envelope] = ()) -> Game:
    """Re-run the log of a scenario that starts from the opening hands
    (:data:`OPENING_HANDS_KIND`): its setup events (those before the first decision) again
    as recorded, triggering nothing; then the mulligans and the turns, as the runner plays
    them."""
    turn, active = (int(x) for x in header.meta.get("opening_hands", (1, 0)))
    game = start_game(registry, header, agents)
    watch(game)
    with game.setting_up():
        for env in log[len(game.log):]:
            if not isinstance(env.event, SETUP_EVENTS) or env.cause != -1:
                break
            game.emit(env.event)
    max_turns = int(header.meta.get("max_turns", DEFAULT_MAX_TURNS))
    try:
        game.take_mulligans(active, game.log[-1].seq)
        game.run(first=active, turn=turn, max_turns=max_turns)
    except GameOver:
        pass
    return game


run_opening_hands_log.wants_log = True  # type: ignore[attr-defined]
register_rerunner(OPENING_HANDS_KIND, run_opening_hands_log)


def write_scenario_log(result: ScenarioResult, out_dir: Path, reg: Registry) -> Path | None:
    """Write one scenario's log into ``out_dir`` (see :class:`ScenarioLogs`, which
    also keeps the names of one run's logs apart)."""
    return ScenarioLogs(out_dir).write(result, reg)


def _kernel_version() -> str:
    import mtgk
    return mtgk.__version__


def _rules_revision() -> int:
    import mtgk
    return mtgk.RULES_REVISION


def cli_main(argv: Sequence[str] | None = None, reg: Registry | None = None) -> int:
    """``mtgk scenario PATH... [--json] [--log DIR]`` -- exit 0 all pass, 1 any fail, 2 bad file.

    Takes the options every ``mtgk`` command takes (``-v``, ``--log-json``,
    ``--strict``). With ``--json`` every line of standard output is a JSON object: one per
    scenario, then ``{"passed": N, "failed": N, "summary": "N passed, N failed"}``; the
    plain closing line then goes to standard error.
    """
    from mtgk import diag

    ap = argparse.ArgumentParser(prog="mtgk scenario",
                                 description="Run rules scenario files (YAML).")
    ap.add_argument("paths", nargs="+", help="scenario files or folders (searched for *.yaml)")
    ap.add_argument("--json", action="store_true",
                    help="one JSON object per scenario, then one with the totals")
    ap.add_argument("--log", metavar="DIR", help="write each scenario's event log to DIR")
    diag.add_common_options(ap)
    ap.add_argument("--strict-plugins", dest="strict", action="store_true",
                    help=argparse.SUPPRESS)  # the old name of --strict
    try:
        args = ap.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    if args.verbose or args.log_json:
        diag.configure(verbosity=args.verbose, json=args.log_json)
    if reg is None:
        from mtgk.cards.loading import PluginError, load_registry
        try:
            reg = load_registry(strict=args.strict)
        except PluginError as err:
            print(f"mtgk: error: {err}", file=sys.stderr)
            return 2
    try:
        files = iter_scenario_files(args.paths)
    except ScenarioFileError as err:
        print(f"mtgk: error: {err}", file=sys.stderr)
        return 2
    passed = failed = 0
    bad_file = False
    try:
        logs = ScenarioLogs(Path(args.log)) if args.log else None
    except ScenarioLogError as err:
        print(f"mtgk: error: {err}", file=sys.stderr)
        return 2
    for f in files:
        try:
            results = run_file(f, reg)
        except ScenarioFileError as err:
            print(f"mtgk: error: {err}", file=sys.stderr)
            bad_file = True
            continue
        for r in results:
            if r.passed:
                passed += 1
            else:
                failed += 1
                bad_file = bad_file or getattr(r, "invalid", False)
            if args.json:
                print(json.dumps({"file": str(f), "name": r.name, "passed": r.passed,
                                  "reason": r.reason}))
            else:
                print(f"PASS {r.name}" if r.passed else f"FAIL {r.name}: {r.reason}")
            if r.error is not None and args.verbose:  # -v: the card's traceback (stderr)
                sys.stdout.flush()
                traceback.print_exception(r.error, file=sys.stderr)
            if logs is not None:
                try:
                    logs.write(r, reg)
                except ScenarioLogError as err:
                    print(f"mtgk: error: {err}", file=sys.stderr)
                    return 2
    closing = f"{passed} passed, {failed} failed"
    if args.json:
        print(json.dumps({"passed": passed, "failed": failed, "summary": closing}))
        print(closing, file=sys.stderr)
    else:
        print(closing)
    if bad_file:
        return 2
    return 1 if failed else 0
