"""Every event's cause is the event that really caused it (docs/debugging.md, "What a
cause is").

Over many random games -- random decks drawn from every card, the built-in decks, random
and heuristic agents, with and without mulligans -- every event of the log is checked:

* its cause is an earlier event, and ``-1`` only for the game's start (``GameStarted``
  and the setup before the first decision); so following causes from any event ends, at
  event 0 or a setup event, and no cycle can hide;
* the link is justified by what the event is: a triggered ability's cause is the event
  it triggered on (a leaves-the-battlefield ability is recorded just before that event,
  or before all the moves of objects that left together, with that event's cause); a
  triggered ability goes on the stack caused by its triggering;
  a stack item resolves caused by the event that put it on the stack; a step begins as
  the last one ended (its last recorded pass of priority, or its beginning); a priority
  decision is caused by the step it is made in; an attack or a block by the decision
  declaring it, a blockers decision by the attack it answers; combat damage by the
  declaration that brought it about (an attacker's damage to what it attacks by the
  attack, the damage between blockers and attackers by the blocks); a state-based action by an event about the object it concerns (or its
  host), or an event that may change permanents -- a creature dying of lethal damage by
  the damage dealt to it or a change of its toughness; a player's loss by the damage or
  life loss that took their life to 0, or by their draw from an empty library;
* "why did X die": from each permanent put into a graveyard from the battlefield by
  lethal damage, a destroy or a sacrifice effect, the chain of causes reaches the damage
  dealt to it, or the spell or ability that did it (its cast, activation or trigger).

:func:`test_the_checks_can_fail` breaks links on purpose and sees each one reported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.answers import PASS
from mtgk.log.events import Envelope
from mtgk.rules.engine import Game
from tests.test_every_card import random_deck, spells

GAMES = 48

STACK_ENTRIES = {"SpellCast": "new_obj", "AbilityActivated": "item",
                 "TriggerPutOnStack": "item", "AbilityCopied": "item", "SpellCopied": "item"}
"""Events that put a stack item on the stack, and the field naming it."""


def stack_item(e: ev.Event) -> int | None:
    """The stack item ``e`` puts on the stack, if it does."""
    field = STACK_ENTRIES.get(e.TAG)
    return None if field is None else int(getattr(e, field))


def about(e: ev.Event, oid: int) -> bool:
    """Whether ``e`` names object ``oid`` (as the object it changes, the target of damage,
    the permanent something is attached to, or among the objects of an effect)."""
    for f in ("obj", "new_obj", "target", "to", "attached_to"):
        if getattr(e, f, None) == oid:
            return True
    return oid in (getattr(e, "objs", None) or ())


def plain(x: Any) -> Any:
    """Tuples as lists, as a triggered ability's ``data`` holds them."""
    return [plain(i) for i in x] if isinstance(x, tuple | list) else x


def as_data(e: ev.Event) -> list[Any]:
    """``e`` as a triggered ability records the event it triggered on (``data``)."""
    return [e.TAG, plain(list(msgspec.structs.astuple(e)))]


class Checker:
    """The causes of one game's log, checked event by event (:meth:`problems`)."""

    def __init__(self, log: Sequence[Envelope]) -> None:
        self.log = log
        self.first_decision = next((env.seq for env in log
                                    if isinstance(env.event, ev.DecisionMade)), len(log))
        self.entries: dict[int, int] = {}  # stack item -> the event that put it there
        self.triggered: dict[int, int] = {}  # stack item -> its AbilityTriggered
        self.step_at: list[int] = []  # for each event, the last StepBegan/TurnBegan before
        last = -1
        for env in log:
            e = env.event
            self.step_at.append(last)
            item = stack_item(e)
            if item is not None:
                self.entries[item] = env.seq
            if isinstance(e, ev.AbilityTriggered):
                self.triggered[e.item] = env.seq
            if isinstance(e, ev.StepBegan | ev.TurnBegan):
                last = env.seq

    def event(self, seq: int) -> ev.Event:
        return self.log[seq].event

    def chain(self, seq: int) -> list[int]:
        """Event ``seq`` and its causes, back to the first."""
        out = []
        while seq >= 0:
            out.append(seq)
            seq = self.log[seq].cause
        return out

    def problems(self) -> list[str]:
        """Every unjustified link, and every death whose chain misses what killed it."""
        out: list[str] = []
        for env in self.log:
            why = self.unjustified(env)
            if why:
                c = env.cause
                out.append(f"event {env.seq} {env.event!r}, caused by {c} "
                           f"{self.event(c) if c >= 0 else None!r}: {why}")
        out.extend(self.deaths())
        return out

    def deaths(self) -> list[str]:
        """Why did each permanent die: the chain reaches the damage or the effect."""
        out = []
        for env in self.log:
            e = env.event
            if not (isinstance(e, ev.ZoneChanged) and e.from_zone == "battlefield"
                    and e.to_zone == "graveyard"):
                continue
            events = [self.event(s) for s in self.chain(env.cause)]
            if e.reason == "sba:lethal-damage":
                ok = any(isinstance(x, ev.DamageDealt) and x.target == e.obj for x in events) \
                    or self.toughness_change(events[0], e.obj)
                what = "the damage dealt to it"
            elif e.reason in ("destroy", "sacrifice"):
                ok = any(stack_item(x) is not None or isinstance(x, ev.ZoneChanged)
                         and x.reason.startswith("sba") for x in events)
                what = "the spell or ability that did it"
            else:
                continue
            if not ok:
                out.append(f"event {env.seq} {e!r}: its causes {self.chain(env.cause)} do not "
                           f"reach {what}")
        return out

    @staticmethod
    def toughness_change(ce: ev.Event, oid: int) -> bool:
        """Whether ``ce`` may have lowered ``oid``'s toughness: a counter on it, an effect
        naming it, or an event that may change any permanent."""
        return isinstance(ce, ev.CounterPlaced | ev.CounterRemoved) and ce.obj == oid or \
            isinstance(ce, ev.EffectCreated) and oid in ce.objs or ce.changes() is None

    def unjustified(self, env: Envelope) -> str:
        """Why the cause of ``env`` is not the event that caused it ('' if it is)."""
        e, c, seq = env.event, env.cause, env.seq
        if not -1 <= c < seq:
            return "the cause is not an earlier event"
        if c == -1:
            if isinstance(e, ev.GameStarted) or seq < self.first_decision:
                return ""
            return "no cause, after the game's setup"
        ce = self.event(c)
        step = self.step_at[seq]
        if isinstance(e, ev.AbilityTriggered):
            return self.trigger(e, seq, c, ce)
        if isinstance(e, ev.TriggerPutOnStack):
            return "" if self.triggered.get(e.item) == c else "not its triggering"
        if isinstance(e, ev.StackItemResolved):
            if self.entries.get(e.item) == c or e.fizzled and self.triggered.get(e.item) == c:
                return ""  # (a trigger with no legal target is removed as it triggered)
            return "not the event that put it on the stack"
        if isinstance(e, ev.StepBegan | ev.TurnBegan):
            if c == step or c > step and isinstance(ce, ev.DecisionMade) and \
                    ce.kind == "priority" and ce.choice == PASS:
                return ""
            if step < 0 and isinstance(ce, ev.DecisionMade) and ce.kind in (
                    "first_player", "mulligan", "bottom"):
                return ""  # the first turn, after the mulligans
            return "not the end of the last step"
        if isinstance(e, ev.DecisionMade):
            return self.decision(e, step, c, ce)
        if isinstance(e, ev.SpellCast | ev.AbilityActivated | ev.LandPlayed):
            what = {"SpellCast": "cast", "AbilityActivated": "activate",
                    "LandPlayed": "play"}[e.TAG]
            obj = e.source if isinstance(e, ev.AbilityActivated) else e.obj
            if isinstance(ce, ev.DecisionMade) and ce.kind == "priority" and \
                    ce.choice[:2] == [what, obj]:
                return ""
            if stack_item(ce) is not None and not isinstance(e, ev.AbilityActivated):
                return ""  # cast or played as a spell or ability resolves
            return f"not the decision to {what} it"
        if isinstance(e, ev.AttackersDeclared):
            ok = isinstance(ce, ev.DecisionMade) and ce.kind == "attackers"
            return "" if ok else "not the attackers decision"
        if isinstance(e, ev.BlockersDeclared):
            ok = isinstance(ce, ev.DecisionMade) and ce.kind == "blockers" or \
                isinstance(ce, ev.AttackersDeclared) and not e.blocks  # none could block
            return "" if ok else "not the blockers decision"
        if isinstance(e, ev.PlayerLost):
            if e.reason == "life":
                ok = isinstance(ce, ev.DamageDealt) and ce.target == ev.player_ref(e.player) \
                    or isinstance(ce, ev.LifeLost) and ce.player == e.player
            elif e.reason == "empty-library":
                ok = isinstance(ce, ev.DrewFromEmptyLibrary) and ce.player == e.player
            else:
                ok = True
            return "" if ok else "not what made them lose"
        if isinstance(e, ev.GameEnded):
            if e.reason == "turn-limit":
                ok = c == step or isinstance(ce, ev.DecisionMade)  # the last turn's end
            elif e.reason == "loop":
                ok = isinstance(ce, ev.DecisionMade)
            else:
                ok = isinstance(ce, ev.PlayerLost)
            return "" if ok else "not what ended the game"
        if isinstance(e, ev.ZoneChanged) and e.reason.startswith("sba"):
            return self.sba(e, c, ce)
        if isinstance(e, ev.ZoneChanged) and e.reason == "token-ceased":
            ok = getattr(ce, "new_obj", None) == e.obj and ev.entered(ce) == 0
            return "" if ok else "not the zone change that took the token off the battlefield"
        if isinstance(e, ev.DamageDealt):
            if isinstance(ce, ev.DamageRedirected):
                return ""
            if e.combat:
                return self.combat_damage(e, ce)
            ok = stack_item(ce) is not None
            return "" if ok else "not the spell or ability dealing it"
        if isinstance(e, ev.DamageRedirected):
            ok = isinstance(ce, ev.DecisionMade) and ce.kind == "redirect" and ce.choice == e.to
            return "" if ok else "not the decision to redirect it"
        if isinstance(ce, ev.StepBegan | ev.TurnBegan) and c != step:
            return "a step or turn that is over"  # (a turn-based action is of this step)
        return ""

    @staticmethod
    def combat_damage(e: ev.DamageDealt, ce: ev.Event) -> str:
        """Combat damage is caused by the declaration that brought it about (CR 510.1): an
        attacker's damage to what it attacks by the attack declaring it (or, for one put
        onto the battlefield attacking, the attack it joined); the damage between a blocked
        attacker and its blocker, either way, by the blocks."""
        if isinstance(ce, ev.AttackersDeclared):
            declared = {a: t for a, t in ce.attacks}
            ok = declared.get(e.source, e.target) == e.target
        elif isinstance(ce, ev.BlockersDeclared):
            pairs = [(b, a) for b, a in ce.blocks]
            ok = (e.source, e.target) in pairs or (e.target, e.source) in pairs
        else:
            ok = False
        return "" if ok else "not the attack or block declaration that brought it about"

    def trigger(self, e: ev.AbilityTriggered, seq: int, c: int, ce: ev.Event) -> str:
        """A triggered ability triggers at the event it triggers on."""
        data = e.data
        prev = self.log[seq - 1]
        if isinstance(prev.event, ev.EffectsEnded) and prev.cause == c:
            return ""  # a delayed trigger: its effect ended at the same event
        if not (isinstance(data, list) and len(data) >= 2 and data[0] in ev.EVENT_TYPES):
            # a reflexive trigger ("when you do"): the resolving spell or ability did it
            return "" if stack_item(ce) is not None else "a reflexive trigger not caused " \
                "by the resolving spell or ability"
        if as_data(ce) == data[:2]:
            return ""  # the event it triggered on
        for x in self.log[seq + 1:]:
            # a look-back trigger, recorded just before the event, with its cause -- or,
            # for objects that left together, before the first of those moves
            if x.cause != c or isinstance(x.event, ev.AbilityTriggered):
                continue
            if as_data(x.event) == data[:2]:
                return ""
            if not isinstance(x.event, ev.ZoneChanged | ev.RemovedFromGame):
                break
        return "not the event it triggered on"

    def decision(self, e: ev.DecisionMade, step: int, c: int, ce: ev.Event) -> str:
        """A decision is caused by the event that made the engine ask it."""
        kind = e.kind
        if kind == "first_player":
            return "" if isinstance(ce, ev.GameStarted) else "not the game's start"
        if kind in ("mulligan", "bottom"):
            ok = isinstance(ce, ev.DecisionMade) and ce.kind in ("first_player", "mulligan")
            return "" if ok else "not the deal or the last mulligan"
        if kind in ("priority", "attackers"):
            return "" if c == step else "not the step it is made in"
        if kind == "blockers":  # the blocks answer the attack
            return "" if isinstance(ce, ev.AttackersDeclared) else "not the attack"
        if kind == "order":
            ok = isinstance(ce, ev.AbilityTriggered)
            return "" if ok else "not the triggering of the abilities ordered"
        return ""

    def host(self, oid: int, before: int) -> int:
        """The permanent ``oid`` was last attached to before event ``before`` (0: none)."""
        for env in reversed(self.log[:before]):
            x = env.event
            if isinstance(x, ev.Attached) and x.obj == oid:
                return x.to
            if isinstance(x, ev.TokenCreated) and x.obj == oid:
                return x.attached_to
        return 0

    def sba(self, e: ev.ZoneChanged, c: int, ce: ev.Event) -> str:
        """A permanent put into the graveyard by a state-based action."""
        if e.reason == "sba:lethal-damage":
            ok = isinstance(ce, ev.DamageDealt) and ce.target == e.obj or \
                self.toughness_change(ce, e.obj)
            return "" if ok else "not damage dealt to it or a change of its toughness"
        host = self.host(e.obj, c + 1)
        if about(ce, e.obj) or host and about(ce, host) or ce.changes() is None:
            return ""
        if e.reason in ("sba:saga", "sba:legend-rule") and isinstance(ce, ev.StackItemResolved):
            return ""  # its last chapter ability left the stack
        return "not an event about it or its host, nor one that may change permanents"


def random_game(reg: Registry, i: int, salt: int = 0) -> tuple[str, Game]:
    """Game ``i`` of a batch (``salt``): random decks from every card (three in four) or
    the built-in decks, random or heuristic agents, one in three with mulligans."""
    seed = salt * 1000 + i
    rng = random.Random(seed)
    if i % 4 == 3:
        built_in = [parse_deck(t, reg) for _n, t in sorted(reg.sets["lorwyn"].decks.items())]
        decks = [rng.choice(built_in), rng.choice(built_in)]
    else:
        pool = spells(reg)
        decks = [random_deck(rng, pool), random_deck(rng, pool)]
    agent = HeuristicAgent if i % 2 else RandomAgent
    g = Game(reg, ["p1", "p2"], seed=seed, agents=[agent(seed), agent(~seed)])
    g.play(decks, mulligans=i % 3 == 0, max_turns=30)
    return f"seed {seed} ({agent.__name__})", g


def random_games(reg: Registry, n: int, salt: int = 0) -> list[tuple[str, Game]]:
    """The first ``n`` games of batch ``salt`` (:func:`random_game`)."""
    return [random_game(reg, i, salt) for i in range(n)]


@pytest.mark.parametrize("batch", range(4))
def test_every_cause_is_justified(registry: Registry, batch: int) -> None:
    for name, g in random_games(registry, GAMES // 4, salt=batch):
        problems = Checker(g.log).problems()
        assert not problems, f"{name}: " + "\n".join(problems[:10])


@pytest.mark.parametrize(("salt", "i"), [(11, 10), (11, 50), (11, 296)])
def test_games_a_larger_campaign_found(registry: Registry, salt: int, i: int) -> None:
    """Games of a 300-game campaign that once broke a link: a token copy of a spell
    exiled on an adventure (it ceases to exist because of that exile, not of a flag set
    after it); a creature dying as the Equipment that kept it alive moves to another one
    (the move, not the ability's resolution); a ward ability triggered as another
    trigger went on the stack (its own triggering, not the step)."""
    name, g = random_game(registry, i, salt)
    problems = Checker(g.log).problems()
    assert not problems, f"{name}: " + "\n".join(problems[:10])


def test_scenario_logs_verify_with_their_causes(tmp_path: Any) -> None:
    """A scenario's game goes on from its set-up step: the decisions there are caused by
    that step's beginning, as when the log is re-run (``mtgk verify``), so the logs of
    the example scenarios verify, causes included."""
    from pathlib import Path

    from mtgk.cards.loading import load_registry
    from mtgk.games.replay import verify
    from mtgk.log.logfile import read_log
    from tests.conftest import run_mtgk

    examples = Path(__file__).parent / "scenarios" / "examples"
    code, _out, err = run_mtgk("scenario", examples, "--log", tmp_path)
    assert code == 0, err
    reg = load_registry()
    logs = sorted(tmp_path.glob("*.mtgk"))
    assert len(logs) >= 10
    for path in logs:
        log = read_log(path)
        report = verify(log.header, log.envelopes, reg)
        assert report.ok, f"{path.name}: {report.summary()}"


def test_the_checks_can_fail(registry: Registry) -> None:
    """Each kind of broken link is reported: a trigger, a trigger put on the stack and a
    death by lethal damage linked to their step instead, a step with no cause, a cause
    that is not earlier, a resolution linked to another spell."""
    games = [g for _n, g in random_games(registry, 8, salt=9)]
    log = next(list(g.log) for g in games if any(
        isinstance(e.event, ev.ZoneChanged) and e.event.reason == "sba:lethal-damage"
        for e in g.log) and any(isinstance(e.event, ev.TriggerPutOnStack) for e in g.log))
    assert Checker(log).problems() == []
    steps = Checker(log).step_at

    def first(kind: type, test: Any = lambda e: True) -> int:
        return next(env.seq for env in log if isinstance(env.event, kind) and test(env.event))

    lethal = first(ev.ZoneChanged, lambda e: e.reason == "sba:lethal-damage")
    broken = {
        first(ev.AbilityTriggered, lambda e: isinstance(e.data, list)
              and e.data[0] != "StepBegan"): "not the event it triggered on",
        first(ev.TriggerPutOnStack): "not its triggering",
        lethal: "not damage dealt to it or a change of its toughness",
        first(ev.StepBegan, lambda e: e.step == "upkeep"): "no cause, after the game's setup",
        first(ev.SpellCast): "the cause is not an earlier event",
        first(ev.StackItemResolved, lambda e: not e.fizzled):
            "not the event that put it on the stack",
        first(ev.DamageDealt, lambda e: e.combat):
            "not the attack or block declaration that brought it about",
    }
    for seq, why in broken.items():
        env = log[seq]
        cause = {"no cause, after the game's setup": -1,
                 "the cause is not an earlier event": seq,
                 "not the event that put it on the stack": 0}.get(why, steps[seq])
        bad = [*log[:seq], Envelope(seq, cause, env.event), *log[seq + 1:]]
        found = Checker(bad).problems()
        assert any(f"event {seq} " in p and why in p for p in found), (seq, why, found)
    # a death whose chain no longer reaches the damage
    bad = [*log[:lethal], Envelope(lethal, steps[lethal], log[lethal].event), *log[lethal + 1:]]
    assert any("do not reach the damage dealt to it" in p for p in Checker(bad).problems())
