"""Triggered abilities (CR 603): matching events against the triggers of the cards in the
game (look-back triggers for objects leaving, CR 603.10; delayed triggers, CR 603.7),
putting them on the stack in APNAP order (CR 603.3b) with their targets."""

from __future__ import annotations

from functools import partial
from itertools import combinations
from typing import Any

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.events import Event
from mtgk.rules.core import Decision, RulesError, event_data, plain
from mtgk.rules.definitions import KEYWORD_MEANINGS, Target, Triggered
from mtgk.rules.kept import KEYWORD_ZONE
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import turn_order_from
from mtgk.rules.state import StackItem, zone_ids


def _check_order(choice: Any, items: list[StackItem]) -> list[int]:
    ids = [it.id for it in items]
    if not isinstance(choice, list) or sorted(choice) != sorted(ids):
        raise RulesError("603.3b", "order must list each of your triggered abilities once")
    return [int(c) for c in choice]


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class TriggeredAbilities(GamePart):
    """Triggered abilities (CR 603)."""

    def _source_left(self, oid: int, seq: int) -> None:
        """Effects that last "for as long as [their source] remains on the battlefield"
        (duration ``while_source``) end as it leaves."""
        ended = tuple(x.id for x in self.state.effects
                      if x.duration == "while_source" and x.source == oid)
        if ended:
            self.emit(ev.EffectsEnded(effects=ended), cause=seq)

    def _delayed_triggers(self, e: Event, seq: int) -> None:
        """Delayed triggered abilities (CR 603.7) are effects of kind ``delayed_trigger``
        with params ``{"on": TAG, "match": {field: value or [values]}, "active": player
        or None, "ability": ability key, "data": ..., "event": bool}``: the first event
        that matches -- and satisfies the ability's ``condition(view, controller, event)``,
        if it has one -- triggers the ability (controlled by the effect's controller)
        once.  With ``"event": True`` the ability's data is that event (``Ctx.event``)."""
        for eff in [x for x in self.state.effects if x.kind == "delayed_trigger"]:
            p = eff.params
            if p.get("on") != e.TAG or p.get("active") not in (None, self.state.active):
                continue
            if any(getattr(e, k, None) not in (v if isinstance(v, list) else [v])
                   for k, v in (p.get("match") or {}).items()):
                continue
            name, _, idx = str(p.get("ability", "")).rpartition("#")
            d = self.reg.cards.get(name)
            cond = getattr(d.abilities[int(idx)], "condition", None) \
                if d is not None and idx.isdigit() else None
            try:
                if cond is not None and not cond(self.view(), eff.controller, e):
                    continue
            except Exception as exc:
                self.card_failed(exc, name, p["ability"], "delayed trigger's condition")
            data = plain(event_data(e)) if p.get("event") else p.get("data")
            self.emit(ev.EffectsEnded(effects=(eff.id,)), cause=seq)
            self.emit(ev.AbilityTriggered(item=self.new_id(), source=eff.source,
                                          ability=p["ability"], controller=eff.controller,
                                          data=data), cause=seq)

    # ------------------------------------------------------------------ triggers
    def _trigger_plans(self, tag: str) -> tuple[list[Any], list[Any]]:
        """The registry's trigger plans for event ``tag`` (look-back, ordinary), narrowed
        to the cards in this game; kept until a card new to the game appears."""
        names = self._names
        look_back, ordinary = (
            list[Any]([(z, b, g) for z, by_card, g in self.reg.trigger_plan(tag, before)
                       for b in [{n: t for n, t in by_card.items() if n in names}] if b or g])
            for before in (True, False))
        live = self.meaning_keywords()
        for plan, before in ((look_back, True), (ordinary, False)):
            # the triggered abilities keywords stand for (persist), of whoever has them
            kw = [(key, word, t) for word in live
                  for key, t in KEYWORD_MEANINGS[word].items()
                  if isinstance(t, Triggered) and tag in t.on and t.look_back == before]
            if kw:
                plan.append((KEYWORD_ZONE, {}, kw))
        pair = self._tag_plans[tag] = (look_back, ordinary)
        return pair

    def _keyword_triggers(self, found: list[Any], e: Event, seq: int,
                          collect: list[Any] | None) -> None:
        """The triggered abilities that keywords stand for (``found``: ``(key, keyword,
        ability)``), for each permanent that has the keyword now -- unless the ability is
        that permanent's own printed instance (its card lists the same ability: it has
        triggered as the card's already)."""
        for key, word, t in found:
            for oid in self.permanents_with(word):
                if self.state.objects[oid].face_down:
                    continue
                c = self.chars(oid)
                if any(a is t and k in c.abilities for k, a in self.definition(oid).triggered):
                    continue
                self._trigger_one(oid, key, t, c.controller, e, seq, collect)

    def _trigger_one(self, oid: int, key: str, t: Any, controller: int, e: Event, seq: int,
                     collect: list[Any] | None) -> None:
        """Trigger ability ``key`` (``t``) of ``oid`` if ``e`` triggers it."""
        v = self.view()
        try:
            if not t.when(v, oid, e):
                return
            if t.intervening_if is not None and not t.intervening_if(v, oid, e):
                return
            # "whenever a creature you control attacks": one trigger per subject
            subjects = t.each(v, oid, e) if t.each is not None else [None]
        except Exception as exc:
            self.card_failed(exc, key.rpartition("#")[0] or self.state.objects[oid].card, key,
                             "trigger condition")
        data = plain(event_data(e))
        for subject in subjects:
            d = data if subject is None else data + [subject]
            if collect is not None:
                collect.append((oid, key, controller, d))
                continue
            self.emit(ev.AbilityTriggered(item=self.new_id(), source=oid, ability=key,
                                          controller=controller, data=d), cause=seq)

    def _triggers(self, plan: list[Any], e: Event, seq: int, before: bool,
                  collect: list[Any] | None = None) -> None:
        """Trigger the abilities that ``e`` triggers (``before``: look-back triggers),
        following ``plan`` (see :meth:`_trigger_plans`).  With ``collect``, the abilities
        found are added to it, to be triggered by :meth:`_triggered_after` once ``e`` is
        recorded: a look-back ability is found against the state before the event (CR
        603.10a) but triggers after it, caused by it."""
        s = self.state
        objs = s.objects
        copies = bool(s.effects) and self._effects_facts()[0]  # else it behaves as its card
        for zone, by_card, granted in plan:
            if zone == KEYWORD_ZONE:
                self._keyword_triggers(granted, e, seq, collect)
                continue
            on_battlefield = zone == "battlefield"
            ids = zone_ids(s, zone)
            grants = bool(granted) and on_battlefield and self._grants_possible()
            if not by_card and not grants:
                continue
            if on_battlefield and not copies and not grants:
                # the permanents whose cards have these triggers, while nothing changes
                hits = self.kept(self._chars_cache(), (zone, e.TAG, before),
                                 "the permanents with the event's triggers", self._with_triggers,
                                 by_card)
            else:
                hits = [(oid, mine) for oid in list(ids) for o in [objs.get(oid)]
                        if o is not None and not o.face_down
                        for mine in [by_card.get(self.definition(oid).name
                                                 if copies and on_battlefield else o.card, ())]]
            for oid, mine in hits:
                if grants:
                    c0 = self.chars(oid)
                    extra = [(k, t) for k, t in granted if k in c0.abilities and (k, t) not in mine]
                    if extra:
                        mine = list(mine) + extra
                for key, t in mine:
                    c = self.chars(oid)
                    if key in c.abilities:
                        self._trigger_one(oid, key, t, c.controller, e, seq, collect)

    def _with_triggers(self, by_card: dict[str, Any]) -> list[tuple[int, Any]]:
        """The face-up permanents whose cards are among ``by_card``'s, with their triggers."""
        s = self.state
        objs = s.objects
        return [(oid, by_card[o.card]) for oid in s.battlefield
                for o in [objs[oid]] if not o.face_down and o.card in by_card]

    def _triggered_after(self, found: list[Any], seq: int) -> None:
        """The look-back abilities :meth:`_triggers` collected for event ``seq``: they
        trigger now, after it, with it as their cause."""
        for oid, key, controller, d in found:
            self.emit(ev.AbilityTriggered(item=self.new_id(), source=oid, ability=key,
                                          controller=controller, data=d), cause=seq)

    def trigger_kernel(self, ability: str, source: int, controller: int, data: Any = None
                       ) -> None:
        """Trigger an ability defined by the kernel or a plugin (not printed on a card)."""
        self.emit(ev.AbilityTriggered(item=self.new_id(), source=source, ability=ability,
                                      controller=controller, data=data))

    def _put_triggers_on_stack(self) -> None:
        s = self.state
        order = turn_order_from(s, s.active)  # APNAP (CR 101.4, 603.3b)
        for p in order:
            mine = [it for it in s.pending if it.controller == p]
            if not mine:
                continue
            at = self._triggered_at(mine)  # (some may have triggered as others went on)
            if len(mine) > 1:  # asked because the last of them triggered
                with self.caused(max((at[it.id] for it in mine if it.id in at),
                                     default=self._cause[-1])):
                    ids = self.ask(Decision("order", p, None, "order your triggered "
                                            "abilities (first goes on the stack first)",
                                            check=partial(_check_order, items=mine),
                                            context=[it.id for it in mine]))
                mine = [next(it for it in mine if it.id == i) for i in ids]
            for it in mine:
                with self.caused(at.get(it.id, self._cause[-1])):
                    self._put_on_stack(p, it)

    def _put_on_stack(self, p: int, it: StackItem) -> None:
        """Put triggered ability ``it`` of player ``p`` on the stack: its modes and targets
        chosen, or removed if it has none it can take (CR 603.3)."""
        ab = self.ability(it)
        slots = list(ab.targets) if ab is not None else []
        modes: list[int] = []
        if getattr(ab, "modes", ()):  # a modal triggered ability (CR 603.3c)
            ok = [list(m) for m in combinations(range(1, len(ab.modes) + 1),
                                                ab.choose or 1)
                  if all(self._target_combos(p, it.source, ab.modes[i - 1].targets)
                         for i in m)]
            if not ok:
                self.emit(ev.StackItemResolved(item=it.id, fizzled=True))
                return
            modes = self.ask(Decision("modes", p, ok, f"modes for {it.source_card}"))
            slots = [t for m in modes for t in ab.modes[m - 1].targets]
        targets: list[int] = []
        if slots:
            combos = self._target_combos(p, it.source, slots)
            # "up to" slots may stay empty: that choice is offered last
            combos = [c for c in combos if c] + [c for c in combos if not c]
            if not combos:  # 603.3d: no legal targets -> removed from the stack
                self.emit(ev.StackItemResolved(item=it.id, fizzled=True))
                return
            targets = self.ask(Decision("targets", p, combos,
                                        f"targets for {it.source_card}",
                                        check=partial(self._check_trigger_targets,
                                                      p, it, slots),
                                        context=it.id))
        self.emit(ev.TriggerPutOnStack(item=it.id, targets=tuple(targets),
                                       modes=tuple(modes)))

    def _check_trigger_targets(self, p: int, it: StackItem, slots: list[Target],
                               choice: Any) -> Any:
        if not isinstance(choice, list):
            choice = [choice]
        self.check_targets(p, it.source, slots, choice)
        return choice

