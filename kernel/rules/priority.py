"""Priority, the stack and resolution (CR 117, 405, 608): priority rounds, mandatory loops
(CR 104.4b), settling state-based actions and triggers before a player gets priority,
resolving and countering spells and abilities."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.answers import PASS, Pass
from mtgk.rules.checkpoints import Checkpoint, record
from mtgk.rules.core import Decision, GameOver, card_of
from mtgk.rules.definitions import KEYWORD_ABILITY_KEYS, Target, Triggered
from mtgk.rules.effects import Ctx
from mtgk.rules.parts import GamePart
from mtgk.rules.replacement import replace
from mtgk.rules.seats import defending_players, first_priority, next_priority, players_in_game
from mtgk.rules.state import StackItem

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

_STACK_ENTRIES: dict[type, str] = {ev.SpellCast: "new_obj", ev.AbilityActivated: "item",
                                   ev.TriggerPutOnStack: "item"}
"""Events that put a stack item on the stack, with the field naming it (``""``: an event
type that doesn't).  A plugin's event that does (a copy of a spell or ability) says so
with a class attribute ``STACK_ITEM`` naming that field."""


LOOP_WINDOW = 500
"""Events without a player's choice after which the engine looks for a loop of mandatory
actions (CR 104.4b, :meth:`Game._mandatory_loop`)."""


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class PriorityAndStack(GamePart):
    """Priority, the stack and resolution (CR 117, 405, 608)."""

    # ------------------------------------------------------------------ priority
    def priority_round(self, at: Checkpoint | None = None) -> None:
        """Players get priority until all pass in succession with an empty stack.
        ``at``: take up the round at that checkpoint (a player is about to get priority
        there: :mod:`mtgk.rules.checkpoints`)."""
        s = self.state
        if at is None:
            p = first_priority(s)
            passes = 0
            last_pass = -1  # the last recorded pass of those in succession so far
        else:
            p, passes, last_pass = at.player, at.passes, at.last_pass
        if len(self._checks) != len(s.players):
            self._checks = [partial(self.check_action, i) for i in range(len(s.players))]
        checks = self._checks
        log = self.log
        while True:
            if at is None:
                if self._settled != self._sba_version or s.pending:
                    self.settle()  # (validated mode checks the skipped looks: KeptFacts)  # (else nothing since the last look: :meth:`settle`'s test)
                mark = len(log)
                if mark - self._choice_at > LOOP_WINDOW:
                    self._mandatory_loop(p, passes)
                if self.checkpoints is not None and self._round_ctx is not None:
                    record(cast("Game", self), p, passes, last_pass)
            else:  # (settled, and looked at for a loop, before the checkpoint was recorded)
                mark = len(log)
                at = None
            action = self.ask(Decision("priority", p, self.legal_actions(p), check=checks[p]))
            if action is PASS or type(action) is Pass:
                if self._choice_at >= mark:
                    last_pass = self._choice_at
                passes += 1
                if passes >= (players_in_game(s) if s.variant else len(s.players)):
                    if not s.stack:
                        if last_pass >= 0:  # the step ends with this pass (CR 500.2)
                            self._step_end = last_pass
                        return
                    self.resolve_top()
                    passes = 0
                    last_pass = -1
                    p = first_priority(s)
                else:
                    p = next_priority(s, p)
                continue
            self.perform(p, action)
            passes = 0
            last_pass = -1

    def _mandatory_loop(self, player: int, passes: int) -> None:
        """CR 104.4b: a game in a loop of mandatory actions, repeating with no way to stop,
        is a draw.  Called as ``player`` gets priority (after ``passes`` passes in a row)
        once :data:`LOOP_WINDOW` events have passed without a player's choice: if the
        game is back in a situation (:meth:`situation`) it was in at that point of a round
        of priority since that choice, nobody can change what happens next.  (A game that
        only moves on -- steps, turns, draws -- never is: the turn and step are part of
        the situation.)"""
        if self._loop_from != self._choice_at:
            self._loop_from = self._choice_at
            self._loop_seen = set()
        here = (player, passes, self.situation())
        if here in self._loop_seen:
            self.diag().info("mandatory loop: a draw", event_no=len(self.log),
                             since_choice=self._choice_at)
            self.emit(ev.GameEnded(winner=-1, reason="loop"), cause=self._choice_at)
            raise GameOver()
        self._loop_seen.add(here)

    def situation(self) -> tuple[Any, ...]:
        """The game's state with object ids left out (they change with every zone change)
        but everything the rules look at kept: turn, step, players, each zone's cards in
        order, permanents with their status, the stack, effects (by kind and params).
        Two equal situations, with no choice made in between, play out the same."""
        s = self.state
        objs = s.objects

        def card(i: int) -> Any:
            o = objs.get(i)
            return (o.card, o.face_down) if o is not None else ("?", i)

        def permanent(i: int) -> Any:
            o = objs[i]
            return (o.card, o.controller, o.tapped, o.sick, o.face_down, o.token,
                    tuple(sorted(o.counters.items())), o.damage,
                    card(o.attached_to) if o.attached_to else None)

        return (s.turn, s.step, s.active,
                tuple((p.life, p.lost, tuple(map(card, p.hand)), tuple(map(card, p.library)),
                       tuple(map(card, p.graveyard)), tuple(p.mana), p.lands_played)
                      for p in s.players),
                tuple(map(permanent, s.battlefield)), tuple(map(card, s.exile)),
                tuple((it.kind, it.ability, it.controller, it.source_card, it.x,
                       tuple(map(card, (t for t in it.targets if t > 0))))
                      for it in [*s.stack, *s.pending]),
                tuple((x.kind, x.controller, repr(x.params), x.duration) for x in s.effects))

    def settle(self) -> None:
        """State-based actions, then triggered abilities to the stack, until stable (CR 117.5)."""
        if self._settled == self._sba_version and not self.state.pending:
            return  # nothing but decisions and mana since the last check: nothing to do
        while True:
            self._linked_knowledge()
            self._walkers_changed_control()
            while self._sba():
                pass
            if not self.state.pending:
                self._settled = self._sba_version
                return
            self._put_triggers_on_stack()

    def _walkers_changed_control(self) -> None:
        """An attacked planeswalker that changes controller is removed from combat and
        stays removed (Lorwyn primer, "Planeswalkers in Combat"; one that leaves the
        battlefield is removed by the projector).  Its attackers keep attacking."""
        c = self.state.combat
        if c is None:
            return
        defenders = defending_players(self.state)
        for t in dict.fromkeys(c.attackers.values()):
            o = self.state.objects.get(t)
            if t > 0 and t not in c.removed_attacked and o is not None \
                    and o.zone == "battlefield" and self.chars(t).controller not in defenders:
                self.emit(ev.RemovedFromCombat(obj=t),  # (its change of control)
                          cause=self._sba_cause([t], [], len(self.log)))

    # ------------------------------------------------------------------ stack
    def resolve_top(self) -> None:
        s = self.state
        item = s.stack[-1]
        with self.caused(self._item_cause(item)):
            if item.kind == "spell":
                self._resolve_spell(item)
            else:
                self._resolve_ability(item)

    def _item_cause(self, item: StackItem) -> int:
        """The event that put ``item`` on the stack (its cast, activation, trigger put on
        the stack, or copy): the cause of its resolution and of everything it does."""
        oid = item.id
        entries = _STACK_ENTRIES
        for env in reversed(self.log):
            e = env.event
            field = entries.get(type(e))
            if field is None:  # a type not seen yet: a plugin's may say (a copy ...)
                field = entries[type(e)] = getattr(type(e), "STACK_ITEM", "")
            if field and getattr(e, field) == oid:
                return env.seq
        return self._cause[-1]

    def _triggered_at(self, items: Sequence[StackItem]) -> dict[int, int]:
        """The event at which each of ``items`` (triggered abilities waiting to be put on
        the stack) triggered: its ``AbilityTriggered``."""
        want = {it.id for it in items}
        found: dict[int, int] = {}
        for env in reversed(self.log):
            e = env.event
            if type(e) is ev.AbilityTriggered and e.item in want:
                found[e.item] = env.seq
                if len(found) == len(want):
                    break
        return found

    def target_slots_of(self, item: StackItem) -> list[Target]:
        """The target slots of a spell or ability on the stack (its modes' included)."""
        return self._target_slots_of(item)

    def _target_slots_of(self, item: StackItem) -> list[Target]:
        if item.kind == "spell":
            return self._spell_target_slots(self.reg[item.source_card], item.modes)
        ab = self.ability(item)
        if getattr(ab, "modes", ()):
            return [t for m in item.modes for t in ab.modes[m - 1].targets]
        return list(ab.targets) if ab is not None else []

    def ability(self, item: StackItem) -> Any:
        name, _, idx = item.ability.rpartition("#")
        d = self.reg.cards.get(name)
        if d is None or not idx.isdigit():
            meant = KEYWORD_ABILITY_KEYS.get(item.ability)  # what a keyword stands for
            if meant is not None:
                return meant[1]
            return self.reg.kernel_abilities.get(item.ability) \
                if hasattr(self.reg, "kernel_abilities") else None
        return d.abilities[int(idx)]

    def _legal_now(self, item: StackItem) -> list[bool]:
        slots = self._target_slots_of(item)
        out: list[bool] = []
        for t, chunk in zip(slots, self.split_targets(slots, item.targets, item.x), strict=True):
            cands = self.target_candidates(item.controller, item.source, t, item.x)
            out.extend(ref in cands for ref in chunk)
        out.extend([True] * (len(item.targets) - len(out)))
        return out

    def _resolve_spell(self, item: StackItem) -> None:
        d = self.reg[item.source_card]
        legal = self._legal_now(item)
        if item.targets and not any(legal):
            self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
            self.move(item.id, "graveyard", reason="fizzle")
            return
        if d.is_permanent_card():
            aura = d.extras.get("enchant")
            self.emit(ev.StackItemResolved(item=item.id))
            new = self.move(item.id, "battlefield", reason="resolve", controller=item.controller,
                            cast_data={"alt": item.data or "", "x": item.x})
            if aura is not None and item.targets and new is not None:
                self.emit(ev.Attached(obj=new, to=item.targets[0]))
            return
        sp = d.spell
        ctx = Ctx(cast("Game", self), item, legal)
        if sp is not None:
            if sp.modes:
                # modes resolve in printed order; each sees its own targets
                pos = 0
                parts = self.split_targets(self._target_slots_of(item), item.targets, item.x)
                for m in sorted(item.modes):
                    mode = sp.modes[m - 1]
                    n = sum(len(parts.pop(0)) for _t in mode.targets)
                    sub = Ctx(cast("Game", self), item, legal)
                    sub.targets = item.targets[pos:pos + n]
                    sub.legal = legal[pos:pos + n]
                    pos += n
                    if n and not any(sub.legal):
                        continue
                    try:
                        mode.effect(sub)
                    except Exception as exc:
                        self.card_failed(exc, d.name, sp, f"effect of mode {m}")
            else:
                try:
                    sp.effect(ctx)
                except Exception as exc:
                    self.card_failed(exc, d.name, sp, "effect")
        self.emit(ev.StackItemResolved(item=item.id))
        if item.id in self.state.objects and self.state.objects[item.id].zone == "stack":
            self.move(item.id, "graveyard", reason="resolve")

    def _resolve_ability(self, item: StackItem) -> None:
        ab = self.ability(item)
        legal = self._legal_now(item)
        if item.targets and not any(legal):
            self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
            return
        if isinstance(ab, Triggered) and ab.intervening_if is not None:
            try:
                holds = ab.intervening_if(self.view(), item.source, ev.event_from_data(item.data))
            except Exception as exc:
                self.card_failed(exc, card_of(item), item.ability, "intervening 'if' condition")
            if not holds:
                self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
                return
        if ab is not None:
            try:
                ab.effect(Ctx(cast("Game", self), item, legal))
            except Exception as exc:
                self.card_failed(exc, card_of(item), item.ability, "effect")
        self.emit(ev.StackItemResolved(item=item.id))

    def counter(self, item_id: int, by: int | None = None, to_zone: str = "graveyard") -> None:
        """Counter a spell or ability on the stack (a spell goes to ``to_zone``: "exile it
        instead of putting it into its owner's graveyard").  ``by`` is the controller of
        the spell or ability countering it; replacement effects see the proposal
        ``"counter"``: ``{"item", "kind", "by"}`` (e.g. Guile's)."""
        for it in self.state.stack:
            if it.id == item_id:
                if replace(cast("Game", self), "counter", {"item": item_id, "kind": it.kind, "by": by}) is None:
                    return
                self.emit(ev.StackItemCountered(item=item_id))
                if it.kind == "spell":
                    self.move(item_id, to_zone, reason="countered")
                return

