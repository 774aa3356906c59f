"""Run rules scenarios through the real engine (``shared/spec/scenario-format.md``).

A scenario's setup is recorded as the first events of an ordinary game log;
its actions are played by a scripted agent that answers the engine's
decisions; its expectations are checked against the live state and the log;
and, always, the log is replayed from the start and must give exactly the
live state.

>>> from kernel.plugins import load_registry
>>> from kernel.scenario.model import loads_scenarios
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

Implementation choices the spec leaves open (documented in docs/scenarios.md):

* Setup objects are created after the turn begins, so ``sick`` is exactly as
  written; the first state-based action check happens when the first player
  receives priority, i.e. as the first action is taken.
* A name in an action resolves to an alias, a player, or the first object of
  that name (battlefield, then stack, hand, graveyard, exile, library) that is
  a legal choice; an expectation's name must match exactly one object in the
  first zone (in that order) where it matches any.
* Answers without ``player:`` belong to the acting player of their action;
  on ``resolve`` and ``pass_until`` (which have no acting player) they serve
  whoever decides.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernel import events as ev
from kernel.cards import Activated, Registry
from kernel.effects import CardError
from kernel.engine import Decision, Game, GameOver, RulesError, StaleCache
from kernel.events import player_ref
from kernel.logfile import LogHeader, write_log
from kernel.replay import SCENARIO_SETUP
from kernel.scenario.model import (
    Action,
    Answer,
    CardEntry,
    Expectation,
    Scenario,
    ScenarioFileError,
    iter_scenario_files,
    load_scenarios,
)
from kernel.state import encode_state, fold

SEARCH_ORDER = ("battlefield", "stack", "hand", "graveyard", "exile", "library", "none")
# decision kind -> answer kinds that can serve it
ANSWER_FOR = {
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
    "choose": ("choose",),
    "legend": ("choose",),
    "role": ("choose",),
    "bottom": ("choose",),
    "creature_type": ("choose",),
}
QUIET_DECISIONS = ("attackers", "blockers", "mulligan")


class ScenarioFailed(Exception):
    pass


class _Done(Exception):
    pass


@dataclass
class ScenarioResult:
    name: str
    file: str
    passed: bool
    reason: str = ""
    log: list[ev.Envelope] = field(default_factory=list)
    game: Game | None = None
    invalid: bool = False  # the scenario can't be run (e.g. a card is unknown): a bad file

    def __repr__(self) -> str:
        extra = f", reason={self.reason!r}" if self.reason else ""
        return f"ScenarioResult({self.name!r}, passed={self.passed}{extra})"


class ScenarioRun:
    """One scenario being played: the game, its aliases and the scripted agent."""

    def __init__(self, sc: Scenario, reg: Registry) -> None:
        self.sc = sc
        self.reg = reg
        self.names = list(sc.players)
        self.game = Game(reg, self.names, seed=0, agents=[self, self])
        # validated mode: a card whose static ability reads more than it declares fails
        self.game.validate_caches = True
        self.aliases: dict[str, int] = {}  # alias -> card_id
        self.i = 0  # current action
        self.used_by: dict[int, set[int]] = {}  # action index -> indexes of its used answers
        self.checked: set[int] = set()  # actions whose unused answers were checked (strict)
        self.action_start = 0
        self.last_pass: tuple[int, int] | None = None
        self.failed: str | None = None

    # ------------------------------------------------------------ setup
    def setup(self) -> None:
        """Put the position in place: recorded as events, but nothing triggers."""
        with self.game.setting_up():
            self._setup()

    def _setup(self) -> None:
        g = self.game
        sc = self.sc
        active = self.names.index(sc.turn.active)
        g.emit(ev.TurnBegan(turn=sc.turn.number, active=active))
        for p, pname in enumerate(self.names):  # life first: no object exists yet to trigger
            diff = sc.players[pname].life - g.state.players[p].life
            if diff:
                g.emit(ev.LifeGained(player=p, n=diff) if diff > 0 else
                       ev.LifeLost(player=p, n=-diff))
        links: list[tuple[int, CardEntry, int]] = []
        for p, pname in enumerate(self.names):
            for zone, entries in sc.players[pname].zones():
                for entry in entries:
                    if entry.card not in self.reg:
                        raise ScenarioFailed(f"unknown card {entry.card!r} (players.{pname}."
                                             f"{zone}): is its card set installed?")
                    oid = g.new_id()
                    ctrl = self.names.index(entry.controller) if entry.controller else -1
                    g.emit(ev.ObjectCreated(obj=oid, card=self.reg.canonical(entry.card),
                                            owner=p, zone=zone,
                                            controller=ctrl, token=entry.token,
                                            tapped=entry.tapped, sick=entry.sick,
                                            face_down=entry.face_down))
                    if entry.alias:
                        self.aliases[entry.alias] = oid
                    links.append((oid, entry, p))
        for oid, entry, p in links:
            d = self.reg[entry.card]
            counters = dict(entry.counters)
            if entry.face_down is False and "Planeswalker" in d.facts.types and \
                    "loyalty" not in counters and entry in sc.players[self.names[p]].battlefield \
                    and d.facts.loyalty:
                counters["loyalty"] = int(d.facts.loyalty)
            for kind in sorted(counters):
                if counters[kind]:
                    g.emit(ev.CounterPlaced(obj=oid, kind=kind, n=counters[kind]))
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

    def ref(self, name: str, candidates: Sequence[int] | None = None,
            avoid: Sequence[int] = ()) -> int:
        """Resolve a name or alias (or player name) used in an action or answer."""
        if name in self.names:
            return player_ref(self.names.index(name))
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return oid
        s = self.game.state
        found: list[int] = []
        for zone in SEARCH_ORDER:
            found.extend(self._in_zone(zone))
        canon = self.reg.canonical(name)
        named = [o for o in found if s.objects[o].card == canon]
        if candidates is not None:
            named = [o for o in named if o in candidates] or \
                [c for c in candidates if c > 0 and c in s.objects and s.objects[c].card == name]
        fresh = [o for o in named if o not in avoid]
        if fresh:
            return fresh[0]
        if named:
            return named[0]
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
            return [o for o, x in s.objects.items() if x.zone == "none"]
        return [o for p in s.players for o in getattr(p, zone)]

    def expect_ref(self, name: str) -> int:
        """Resolve a name in an expectation: an alias, or exactly one object."""
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return oid
        s = self.game.state
        for zone in SEARCH_ORDER:
            hits = [o for o in self._in_zone(zone)
                    if s.objects[o].card == self.reg.canonical(name)]
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
        self.setup()
        g = self.game
        active = self.names.index(self.sc.turn.active)
        try:
            g.turn_from(self.sc.turn.step, self.sc.turn.number, active, resume=True)
            g.run(first=1 - active, turn=self.sc.turn.number + 1)
        except _Done:
            pass
        except GameOver:
            # the action under way may have ended the game; later actions (but checks) can't run
            left = [a for a in self.sc.actions[self.i + 1:] if a.verb != "check"]
            if left:
                w = g.state.winner
                who = "a draw" if w is None or w < 0 else f"{self.names[w]} won"
                raise self.fail(left[0].where,
                                f"the game ended ({who}) before this action") from None
            for a in self.sc.actions[self.i + 1:]:
                for exp in a.check:
                    self.check(exp)
            self.i = len(self.sc.actions)
        self._finish_action_checks(final=True)

    def _action(self) -> Action | None:
        while self.i < len(self.sc.actions):
            a = self.sc.actions[self.i]
            if a.verb == "check":
                for exp in a.check:
                    self.check(exp)
                self._advance()
                continue
            return a
        return None

    def _advance(self) -> None:
        self.i += 1
        self.action_start = len(self.game.log)
        self._finish_action_checks()

    @property
    def used(self) -> set[int]:
        return self.used_by.setdefault(self.i, set())

    def _reachable(self) -> list[int]:
        """Actions whose answers can still serve decisions: the current one, and the
        previous non-``check`` action (a cast's trigger targets, a resolve's last
        decisions are asked after the scenario has moved on to the next action)."""
        out = [self.i] if self.i < len(self.sc.actions) else []
        k = self.i - 1
        while k >= 0 and self.sc.actions[k].verb == "check":
            k -= 1
        if k >= 0:
            out.append(k)
        return out

    def _finish_action_checks(self, final: bool = False) -> None:
        """Strict: an answer left unused once its action can no longer be reached
        (or when the scenario ends) fails the scenario."""
        if not self.sc.strict:
            return
        reach = self._reachable()
        for k in range(len(self.sc.actions)):
            if k in self.checked or (k in reach and not final) or k > self.i:
                continue
            self.checked.add(k)
            self._unused(self.sc.actions[k], self.used_by.get(k, set()))

    def _unused(self, a: Action, used: set[int]) -> None:
        left = [ans for k, ans in enumerate(a.answers) if k not in used]
        if left:
            ans = left[0]
            raise ScenarioFailed(f"{a.where}: answer {{{ans.kind}: {ans.value!r}}} was never "
                                 "used (strict)")

    def fail(self, where: str, msg: str) -> ScenarioFailed:
        return ScenarioFailed(f"{where}: {msg}" if where else msg)

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority":
            return self._priority(d)
        return self._answer(d)

    # priority ---------------------------------------------------------------
    def _priority(self, d: Decision) -> Any:
        g = self.game
        s = g.state
        p = d.player
        while True:
            a = self._action()
            if a is None:
                raise _Done()
            verb = a.verb
            if verb in ("cast", "play", "activate"):
                actor = self.player(a.player) if a.player else s.active
                if p == actor:
                    out = self._do(a, p, d)
                    if out is None:
                        continue  # refused as expected; next action
                    return out
                return self._pass_for(a, p, actor)
            if verb == "resolve":
                resolved = sum(1 for e in g.log[self.action_start:]
                               if isinstance(e.event, ev.StackItemResolved | ev.StackItemCountered))
                if (a.resolve == "all" and not s.stack) or \
                        (isinstance(a.resolve, int) and resolved >= a.resolve):
                    self._advance()
                    continue
                if not s.stack:
                    raise self.fail(a.where, f"only {resolved} object(s) resolved; the stack is "
                                    "empty")
                return self._pass(p)
            if verb == "pass_until":
                pu = a.pass_until
                assert pu is not None
                if s.turn == pu.turn and s.step == pu.step and p == s.active:
                    self._advance()
                    continue
                if s.turn > pu.turn:
                    raise self.fail(a.where, f"turn {pu.turn} {pu.step} has already passed")
                return self._pass(p)
            if verb in ("attack", "block"):
                order = ("declare_attackers" if verb == "attack" else "declare_blockers")
                from kernel.engine import STEPS
                if STEPS.index(s.step) >= STEPS.index(order):
                    if verb == "block" and not a.blocks and s.step == "declare_blockers":
                        self._advance()
                        continue
                    raise self.fail(a.where, f"the game is past the {order.replace('_', ' ')} "
                                    f"step without a chance to {verb}" +
                                    ("" if verb == "attack" else
                                     " (no creature could block)"))
                if s.stack:
                    raise self.fail(a.where, "the stack must be empty to move to combat")
                return self._pass(p)
            raise self.fail(a.where, f"unknown action {verb!r}")

    def _pass(self, p: int) -> Any:
        self.last_pass = (len(self.game.log), p)
        return ["pass"]

    def _pass_for(self, a: Action, p: int, actor: int) -> Any:
        # p passes so that the actor gets priority -- unless the actor passed just
        # before (then everyone would have passed and the game would move on).
        if self.last_pass is not None and self.last_pass[1] == actor and \
                len(self.game.log) - self.last_pass[0] <= 1:
            raise self.fail(a.where, f"{self.names[actor]} can't get priority now without "
                            "the top of the stack resolving or the step ending")
        return self._pass(p)

    def _do(self, a: Action, p: int, d: Decision) -> list[Any] | None:
        g = self.game
        before_len, before = len(g.log), encode_state(g.state)
        try:
            action = self._build(a, p)
            g.check_action(p, action)
        except (RulesError, ScenarioFailed) as err:
            if not a.refused:
                raise self.fail(a.where, f"illegal action: {err}") from None
            if len(g.log) != before_len or encode_state(g.state) != before:
                raise self.fail(a.where, "a refused action changed the game") from None
            self._advance()
            return None
        if a.refused:
            raise self.fail(a.where, f"{a.verb} {a.card} was accepted but should be refused")
        self._advance()
        self._pending_answers = a
        return action

    def _build(self, a: Action, p: int) -> list[Any]:
        g = self.game
        s = g.state
        assert a.card is not None
        face_alt = ""
        if a.verb in ("cast", "play"):
            hand = s.players[p].hand
            if a.card in self.aliases:
                oid = self.ref(a.card)
                if oid not in hand and not g.cast_alts_from(p, oid):
                    raise RulesError("601.2", f"{a.card} is not in {self.names[p]}'s hand")
            else:
                name = self.reg.canonical(a.card)
                mine = [o for o in hand if s.objects[o].card == name]
                if not mine:  # a face, or a card a permission lets them cast (or play)
                    mine, face_alt = self._castable_by_name(p, a.card)
                if not mine:
                    raise RulesError("601.2", f"{a.card} is not in {self.names[p]}'s hand")
                oid = mine[0]
            if a.verb == "play":
                return ["play", oid]
            targets = self._targets(a.targets)
            alt = "evoke" if a.evoke else face_alt
            return ["cast", oid, targets, sorted(a.modes), a.x or 0, alt]
        src = self.ref(a.card)
        if src < 0 or (s.objects[src].zone != "battlefield" and not any(
                s.objects[src].zone in ab.zones for _k, ab in g.definition(src).activated)):
            raise RulesError("602.2", f"{a.card} is not on the battlefield")
        acts = g.definition(src).activated  # a copy's are the copied card's (layer 1)
        x = a.x or 0
        if isinstance(a.ability, str):
            idx = 0
            for k, (_key, ab) in enumerate(acts, start=1):
                if _loyalty_text(ab) == _norm_loyalty(a.ability):
                    idx = k
            if not idx:
                raise RulesError("606.4", f"{a.card} has no loyalty ability {a.ability}")
        else:
            idx = a.ability or 1
        return ["activate", src, idx, self._targets(a.targets), x]

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
        canon = self.reg.canonical(name)
        for oid, alts in g._castable_elsewhere(p):
            if s.objects[oid].card == canon:
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

    # answers ----------------------------------------------------------------
    def _actor_of(self, a: Action) -> int | None:
        return self.player(a.player) if a.player else None

    def _find_answer(self, d: Decision, accept: Any = None) -> tuple[Answer, Action] | None:
        kinds = ANSWER_FOR.get(d.kind, (d.kind,))
        for k in self._reachable():
            a = self.sc.actions[k]
            used = self.used_by.setdefault(k, set())
            for n, ans in enumerate(a.answers):
                if ans.kind not in kinds or n in used:
                    continue
                who = self.player(ans.player) if ans.player else self._actor_of(a)
                if who is not None and who != d.player:
                    continue
                if accept is not None and not accept(ans):
                    continue
                used.add(n)
                return ans, a
        return None

    def forced(self, game: Game, d: Decision) -> None:
        """A decision with one legal option was taken without asking. An answer the
        action gives for it is used if it names that option (for ``may``: any answer;
        choosing to do what can't be done does nothing), so a strict scenario may state
        a forced choice."""
        def accept(ans: Answer) -> bool:
            if d.kind == "may":
                return True
            try:
                return bool(self._convert(d, ans) == (d.options or [None])[0])
            except ScenarioFailed:
                return False
        self._find_answer(d, accept)


    def _peek(self) -> Action | None:
        """The next action that is not a ``check``, without running the checks: a
        ``check`` waits until a player would receive priority (a decision asked while a
        spell is being cast or resolved comes first)."""
        for a in self.sc.actions[self.i:]:
            if a.verb != "check":
                return a
        return None

    def _answer(self, d: Decision) -> Any:
        # attackers / blockers: driven by attack/block actions
        a = self._peek()
        if d.kind == "attackers":
            if a is not None and a.verb == "attack" and (not a.player or
                                                         self.player(a.player) == d.player):
                choice = [[self.ref(k), self.ref(v) if v else player_ref(1 - d.player)]
                          for k, v in a.attackers.items()]
                return self._structured(a, d, choice)
            return []
        if d.kind == "blockers":
            if a is not None and a.verb == "block":
                choice = [[self.ref(k), self.ref(v)] for k, v in a.blocks.items()]
                return self._structured(a, d, choice)
            return []
        if d.kind == "mulligan":
            return True
        hit = self._find_answer(d)
        if hit is None:
            return self._default(d, a)
        ans, act = hit
        try:
            return self._convert(d, ans)
        except ScenarioFailed as err:
            raise self.fail(ans.where or act.where, str(err)) from None

    def _structured(self, a: Action, d: Decision, choice: Any) -> Any:
        self._run_checks_up_to(a)
        try:
            assert d.check is not None
            d.check(choice)
        except RulesError as err:
            if a.refused:
                self._advance()
                return []
            raise self.fail(a.where, f"illegal {a.verb}: {err}") from None
        if a.refused:
            raise self.fail(a.where, f"{a.verb} was accepted but should be refused")
        self._advance()
        return choice

    def _run_checks_up_to(self, a: Action) -> None:
        """Run the ``check`` actions that stand before ``a`` (a declaration is made now)."""
        while self.i < len(self.sc.actions) and self.sc.actions[self.i] is not a:
            for exp in self.sc.actions[self.i].check:
                self.check(exp)
            self._advance()

    def _default(self, d: Decision, a: Action | None) -> Any:
        multiple = d.options is None or len(d.options) > 1
        if d.kind == "assign":
            default = d.context["default"]
            if self.sc.strict and len(d.context["recipients"]) > 1:
                raise self.fail(a.where if a else "", f"unanswered decision: {d.prompt} (strict)")
            return default
        if d.kind == "order":
            if self.sc.strict:
                raise self.fail(a.where if a else "", "unanswered decision: order of triggered "
                                "abilities (strict)")
            return list(d.context)
        if self.sc.strict and multiple and d.kind not in QUIET_DECISIONS:
            raise self.fail(a.where if a else "", f"unanswered {d.kind} decision with "
                            f"{len(d.options or [])} options for {self.names[d.player]}: "
                            f"{d.prompt} (strict)")
        if d.options is None:
            return []
        return d.options[0] if not d.many else d.options[:d.count] if not d.up_to else []

    def _convert(self, d: Decision, ans: Answer) -> Any:
        v = ans.value
        opts = d.options or []
        flat = [o for o in opts if isinstance(o, int)]
        if d.kind == "targets":
            names = v if isinstance(v, list) else [v]
            cands = sorted({r for combo in opts for r in combo}) if opts else None
            out: list[int] = []
            for n in names:
                out.append(self.ref(n, candidates=cands, avoid=out))
            return out
        if d.kind == "redirect":
            return 0 if v is None else self.ref(v, candidates=[o for o in flat if o])
        if d.kind == "may":
            return bool(v)
        if d.kind == "order":
            items = list(d.context)
            out = []
            for n in v:
                match = [i for i in items if i not in out and
                         self.game.state.pending and any(it.id == i and
                                                         (it.source_card == n or
                                                          (n in self.aliases and
                                                           self.game.state.objects.get(it.source)
                                                           is not None and
                                                           self.game.state.objects[it.source]
                                                           .card_id == self.aliases[n]))
                                                         for it in self.game.state.pending)]
                if not match:
                    raise ScenarioFailed(f"no pending triggered ability from {n!r} to order")
                out.append(match[0])
            return out
        if d.kind == "assign":
            return [[self.ref(k, candidates=d.context["recipients"]), int(n)]
                    for k, n in v.items()]
        if d.kind in ("modes",):
            return v if isinstance(v, list) else [v]
        if d.kind == "x":
            return int(v)
        if d.kind == "clash":
            return v
        # choose-like: names among options
        names = v if isinstance(v, list) else [v]
        picked: list[Any] = []
        for n in names:
            if n is None:
                picked.append(0 if 0 in opts else None)
                continue
            if n in opts:
                picked.append(n)
                continue
            picked.append(self.ref(n, candidates=flat, avoid=picked))
        if d.many:
            return picked
        return picked[0] if picked else None

    def refused(self, game: Game, d: Decision, err: RulesError) -> None:
        raise self.fail(self.sc.actions[min(self.i, len(self.sc.actions) - 1)].where
                        if self.sc.actions else "", f"illegal answer: {err}")

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
                top_names = [self._label(o) for o in pl.library[:len(e.library_top)]]
                self._match_names(f"{e.player}'s library top", pl.library[:len(e.library_top)],
                                  e.library_top, top_names)
            if e.library_bottom is not None:
                k = len(e.library_bottom)
                ids = list(reversed(pl.library))[:k]
                self._match_names(f"{e.player}'s library bottom", ids, e.library_bottom,
                                  [self._label(o) for o in ids])
            if e.lost is not None:
                want(f"{e.player} lost", pl.lost, e.lost)
        if e.winner is not None:
            want("winner", s.winner, self.player(e.winner))
        if e.card is not None:
            oid = self.expect_ref(e.card)
            o = s.objects[oid]
            on_bf = o.zone == "battlefield"
            c = g.chars(oid)
            if e.zone is not None:
                want(f"{e.card}'s zone", o.zone, e.zone)
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
        return o.card if o else f"#{oid}"

    def _match_names(self, what: str, ids: list[int], names: list[str], got: list[str]) -> None:
        ok = len(ids) == len(names)
        for oid, n in zip(ids, names, strict=False):
            o = self.game.state.objects[oid]
            if n in self.aliases:
                ok = ok and o.card_id == self.aliases[n]
            else:
                ok = ok and o.card == n
        if not ok:
            raise ScenarioFailed(f"{what}: expected {names!r}, got {got!r}")

    def _count(self, f: Any) -> list[int]:
        g = self.game
        s = g.state
        out = []
        for oid, o in s.objects.items():
            zone = o.zone
            if f.zone is not None and zone != f.zone:
                continue
            if f.zone is None and zone == "none":
                continue
            c = g.chars(oid)
            if f.name is not None and o.card != self.reg.canonical(f.name) and not (
                    f.name in self.aliases and o.card_id == self.aliases[f.name]):
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
            out.append(oid)
        return out

    def _filter_text(self, f: Any) -> str:
        return "{" + ", ".join(f"{k}: {getattr(f, k)}" for k in
                               ("name", "zone", "controller", "owner", "type", "subtype", "token")
                               if getattr(f, k) is not None) + "}"


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
    """Play one scenario and check it; never raises for a failing scenario."""
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
        return ScenarioResult(sc.name, sc.file, False, str(err), run.game.log, run.game)
    except Exception as err:  # noqa: BLE001 - a crashing card must not stop the other scenarios
        return ScenarioResult(sc.name, sc.file, False, f"internal error: {type(err).__name__}: "
                              f"{err}", run.game.log, run.game)
    return ScenarioResult(sc.name, sc.file, True, "", run.game.log, run.game)


def unknown_cards(sc: Scenario, reg: Registry) -> list[str]:
    """Setup entries naming cards no loaded card set defines, as key paths."""
    out = []
    for pname, setup in sc.players.items():
        for zone, entries in setup.zones():
            for i, entry in enumerate(entries):
                if entry.card not in reg:
                    out.append(f"players.{pname}.{zone}[{i}]: unknown card {entry.card!r}")
    return out


def run_file(path: str | Path, reg: Registry) -> list[ScenarioResult]:
    """Run every scenario in a file.  A file naming a card, an alias or an event type
    that the loaded sets and plugins don't know is invalid (:class:`ScenarioFileError`)."""
    scs = load_scenarios(path, known_card=reg.__contains__,
                         known_event=ev.EVENT_TYPES.__contains__)
    out = []
    for sc in scs:
        missing = unknown_cards(sc, reg)
        if missing:
            r = ScenarioResult(sc.name, sc.file, False, "; ".join(missing) +
                               " (is its card set installed?)")
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
    (``scenario_setup``, :data:`kernel.replay.SCENARIO_SETUP`)."""
    g = result.game
    players = [p.name for p in g.state.players] if g else []
    return LogHeader(kernel_version=_kernel_version(), players=players,
                     cardsets=[(i.name, i.version) for i in sorted(reg.sets.values(),
                                                                   key=lambda i: i.name)],
                     decks=[], seed=0, meta={"scenario": result.name, "file": result.file,
                                             "scenario_end": len(result.log),
                                             "scenario_setup": SCENARIO_SETUP})


def write_scenario_log(result: ScenarioResult, out_dir: Path, reg: Registry) -> Path | None:
    """Write one scenario's log into ``out_dir`` (see :class:`ScenarioLogs`, which
    also keeps the names of one run's logs apart)."""
    return ScenarioLogs(out_dir).write(result, reg)


def _kernel_version() -> str:
    import kernel
    return kernel.__version__


def cli_main(argv: Sequence[str] | None = None, reg: Registry | None = None) -> int:
    """``mtgk scenario PATH... [--json] [--log DIR]`` -- exit 0 all pass, 1 any fail, 2 bad file.

    Takes the options every ``mtgk`` command takes (``-v``, ``--log-json``,
    ``--strict``). With ``--json`` every line of standard output is a JSON object: one per
    scenario, then ``{"passed": N, "failed": N, "summary": "N passed, N failed"}``; the
    plain closing line then goes to standard error.
    """
    from kernel import diag

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
        from kernel.plugins import PluginError, load_registry
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
