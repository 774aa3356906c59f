"""Casting spells and activating abilities (CR 601, 602, 605, 118): checking an action,
announcing it, paying its costs (additional and alternative costs, sacrifices, tapping),
casting or playing cards while something resolves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn, cast

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.answers import PASS, Action, Activate, Cast, Pass, PlayLand, action_from
from mtgk.rules.core import BASIC_MANA, Decision, RulesError
from mtgk.rules.definitions import Activated, Cost, Target
from mtgk.rules.mana import ManaCost
from mtgk.rules.names import HASTE
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import is_active

ZONE_WORDS = {"hand": "a hand", "graveyard": "a graveyard", "exile": "exile",
              "library": "a library", "battlefield": "the battlefield", "stack": "the stack"}


KNOWN_TO_CONTROLLERS_OF = "known_to_controllers_of"
"""Flag of a face-down exiled card: the permanent whose controllers may look at it
(hideaway: "any player who has controlled [this land]"); see :meth:`Game.settle`."""


def _intrinsic(mana: str) -> Activated:
    """The intrinsic mana ability "{T}: Add [mana]" of a basic land type (CR 305.6)."""
    return Activated(Cost(tap=True), lambda c: None, mana=(mana,), text=f"{{T}}: Add {{{mana}}}.")


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class Casting(GamePart):
    """Checking, announcing and paying for spells and abilities (CR 601, 602)."""

    def check_action(self, player: int, action: Any) -> Any:
        """The :data:`~mtgk.log.answers.Action` ``action`` is (an action, or the list it
        encodes to); raise :class:`RulesError` if it is not legal for ``player`` now."""
        try:
            a = action_from(action)
        except ValueError:
            raise RulesError("117", f"not an action: {action!r}") from None
        s = self.state
        sorcery_ok = is_active(s, player) and not s.stack and s.step in ("precombat_main",
                                                                          "postcombat_main")
        if type(a) is Pass:
            return PASS
        if type(a) is PlayLand:
            oid = a.card
            o = s.objects.get(oid)
            allowed = self.cast_alts_from(player, oid)  # ``None``: their own hand
            if o is None or not (allowed is None or "" in allowed):
                raise RulesError("305.1", "you can play only a land card from your hand")
            if "Land" not in self.cast_chars(oid).types:
                raise RulesError("305.1", f"{o.card} is not a land")
            if not sorcery_ok:
                raise RulesError("305.1", "a land can be played only in your main phase "
                                 "with an empty stack")
            if s.players[player].lands_played >= 1:
                raise RulesError("305.2", "you have already played a land this turn")
            return a
        if type(a) is Cast:
            alt = self._auto_alt(player, a.card, a.alt, sorcery_ok)
            self._check_cast(player, a.card, list(a.targets), list(a.modes), a.x, alt,
                             sorcery_ok)
            return a if alt == a.alt else Cast(a.card, a.targets, a.modes, a.x, alt)
        assert type(a) is Activate
        if a.ability < 0:  # an intrinsic mana ability (CR 305.6)
            self._check_intrinsic(player, a.source, -a.ability)
            return a if not a.targets and not a.x else Activate(a.source, a.ability)
        self._check_activate(player, a.source, a.ability, list(a.targets), a.x, sorcery_ok)
        return a

    def intrinsic_mana(self, oid: int) -> list[str]:
        """The mana of ``oid``'s intrinsic mana abilities (CR 305.6: a land with a basic
        land type has "{T}: Add [its mana]"), one per basic land type, in the order of its
        subtypes.  The action ``["activate", oid, -k]`` activates the ``k``-th."""
        return [BASIC_MANA[t] for t in self.chars(oid).subtypes if t in BASIC_MANA]

    def _check_intrinsic(self, player: int, oid: int, k: int) -> None:
        o = self.state.objects.get(oid)
        if o is None or o.zone != "battlefield":
            raise RulesError("602.2", "that is not a permanent on the battlefield")
        if self.chars(oid).controller != player:
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if not 1 <= k <= len(self.intrinsic_mana(oid)):
            raise RulesError("305.6", f"{o.card} has no intrinsic mana ability {k}")
        self._check_activation_costs(player, oid, _intrinsic(self.intrinsic_mana(oid)[k - 1]), 0)

    def spell_cost(self, oid: int, alt: str = "") -> ManaCost:
        """The total cost to cast ``oid``: its mana cost or the alternative cost ``alt``,
        plus cost increases, minus cost reductions (CR 601.2f)."""
        d = self.card(oid)
        text = d.alt_costs[alt] if alt else d.facts.mana_cost
        cost = ManaCost.parse(text)
        change = self.cost_change(oid) + self.additional_mana(oid)
        return cost.plus(change) if change else cost

    def additional_mana(self, oid: int, player: int | None = None) -> int:
        """Generic mana that the additional cost to cast ``oid`` adds to its total cost
        whatever the player chooses (CR 601.2f): ``extras["additional_cost"]`` is an object
        with ``mana(game, player, card) -> int`` and ``unpayable(game, player, card) ->
        str`` (why it can't be paid now, or ``""``); a cast hook pays the rest of it (see
        ``mtgk.plugins.reveal_cost``: "reveal a Kithkin card from your hand or pay {3}")."""
        ac = self.card(oid).extras.get("additional_cost")
        if ac is None:
            return 0
        try:
            return int(ac.mana(self, self.state.objects[oid].owner if player is None
                               else player, oid))
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")

    def cast_forbidden(self, player: int, oid: int, alt: str = "") -> str:
        """Why an effect stops ``player`` from casting ``oid`` (with ``alt``), or ``""``:
        static abilities with a ``forbids_cast(view, source, card, player, alt)`` that
        returns a reason ("... can't be cast"; CR 101.2: a "can't" wins), or an additional
        cost that can't be paid (``extras["additional_cost"]``, see ``additional_mana``)."""
        ac = self.card(oid).extras.get("additional_cost")
        try:
            why = ac.unpayable(self, player, oid) if ac is not None else ""
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")
        if why:
            return str(why)
        for src, fn in self.static_hooks("forbids_cast"):
            try:
                why = fn(self.view(), src, oid, player, alt)
            except Exception as exc:
                self._hook_failed(exc, src, "forbids_cast", fn)
            if why:
                return str(why)
        for rule in self.reg.cast_restrictions:  # rules of plugins (with the game's history)
            why = rule(self, player, oid, alt)
            if why:
                return str(why)
        return ""

    def cost_change(self, oid: int) -> int:
        """How much generic mana more (or, negative, less) casting ``oid`` costs: the
        static abilities of permanents with a ``cost_change(view, source, card)``."""
        total = 0
        for src, fn in self.static_hooks("cost_change"):
            try:
                total += fn(self.view(), src, oid)
            except Exception as exc:
                self._hook_failed(exc, src, "cost_change", fn)
        return total

    def _hook_failed(self, error: Exception, src: int, attr: str, fn: Any) -> NoReturn:
        """:meth:`card_failed` for the hook ``attr`` of a static ability of ``src``."""
        d = self.definition(src)
        key = next((k for k, st in d.statics if getattr(st, attr, None) is fn), None)
        self.card_failed(error, d.name, key, attr)

    def _check_cast(self, player: int, oid: int, targets: list[int], modes: list[int], x: int,
                    alt: str, sorcery_ok: bool) -> None:
        s = self.state
        o = s.objects.get(oid)
        allowed = self.cast_alts_from(player, oid)
        if o is None or (allowed is not None and alt not in allowed):
            raise RulesError("601.2", "you can cast only a spell from your hand")
        if alt and alt not in self.card(oid).alt_costs:
            raise RulesError("601.2b", f"{o.card} has no {alt} cost")
        c = self.cast_chars(oid, alt)
        if "Land" in c.types:
            raise RulesError("305.9", f"{o.card} is a land: it is played, not cast")
        if not self._cast_timing_ok(player, oid, alt, sorcery_ok):
            what = "planeswalker" if "Planeswalker" in c.types else "sorcery-speed spell"
            raise RulesError("307.1", f"{c.name} ({what}) can be cast only in your main phase "
                             "when the stack is empty")
        ac = self.card(oid).extras.get("additional_cost")
        try:
            why = ac.unpayable(self, player, oid) if ac is not None else ""
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")
        if why:  # an additional cost that can't be paid (CR 601.2h)
            raise RulesError("601.2h", f"you can't pay the additional cost of {o.card}: {why}")
        why = self.cast_forbidden(player, oid, alt)
        if why:
            raise RulesError("101.2", f"{o.card} can't be cast: {why}")
        d = self.cast_def(oid, alt)
        sp = d.spell
        if sp is not None and sp.modes:
            want = sp.choose or 1
            if len(modes) != want or len(set(modes)) != len(modes) or \
                    any(not 1 <= m <= len(sp.modes) for m in modes):
                raise RulesError("700.2", f"choose {want} different modes of {o.card}")
            modes = sorted(modes)
        elif modes:
            raise RulesError("700.2", f"{o.card} is not modal")
        slots = self._spell_target_slots(d, modes)
        self.check_targets(player, oid, slots, targets, x)
        cost = self.spell_cost(oid, alt)
        if x and not cost.x:
            raise RulesError("107.3", f"{o.card} has no X in its cost")
        if self.plan_mana(player, cost.with_x(x), ("spell", oid)) is None:
            raise RulesError("601.2h", f"you can't pay {cost.text} for {o.card}")

    def check_targets(self, player: int, source: int, slots: Sequence[Target],
                      targets: list[int], x: int = 0) -> None:
        """Raise unless ``targets`` fill ``slots`` legally (CR 115, 601.2c).  The same
        object may be chosen for different slots (e.g. by two modes), not twice for one."""
        need_min = sum(0 if t.up_to else self.slot_count(t, x) for t in slots)
        need_max = sum(self.slot_count(t, x) for t in slots)
        if not need_min <= len(targets) <= need_max:
            raise RulesError("601.2c", f"expected {need_min} target(s), got {len(targets)}")
        before: list[int] = []
        for t, chunk in zip(slots, self.split_targets(slots, targets, x), strict=True):
            if len(set(chunk)) != len(chunk):
                raise RulesError("115.3", "the same object can't be chosen twice for one "
                                 "instance of 'target'")
            if t.another and any(r in before for r in chunk):
                raise RulesError("115.3", "'another target' can't be an object chosen for "
                                 "a target before it")
            before.extend(chunk)
            cands = self.target_candidates(player, source, t, x)
            for ref in chunk:
                if ref not in cands:
                    raise RulesError("115.1", f"{self.name(ref)} is not a legal target "
                                     f"({t.filter!r})")

    def _check_activation_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
        s = self.state
        o = s.objects[oid]
        if ab.cost.tap:
            if o.tapped:
                raise RulesError("602.5a", f"{o.card} is already tapped")
            if self.summoning_sick(oid):
                raise RulesError("302.6", f"{o.card} has summoning sickness")
        if ab.cost.untap:  # {Q} (CR 107.6)
            if not o.tapped:
                raise RulesError("107.6", f"{o.card} is untapped: {{Q}} untaps it")
            if self.summoning_sick(oid):
                raise RulesError("302.6", f"{o.card} has summoning sickness")
        if ab.cost.loyalty is not None or ab.cost.loyalty_x:
            if not is_active(s, player) or s.stack or s.step not in ("precombat_main",
                                                                "postcombat_main"):
                raise RulesError("606.3", "loyalty abilities can be activated only at sorcery "
                                 "speed")
            if o.loyalty_turn == s.turn:
                raise RulesError("606.3", f"a loyalty ability of {o.card} was already "
                                 "activated this turn")
            need = x if ab.cost.loyalty_x else -(ab.cost.loyalty or 0)
            if need > 0 and o.counters.get("loyalty", 0) < need:
                raise RulesError("606.6", f"{o.card} has only {o.counters.get('loyalty', 0)} "
                                 f"loyalty: can't pay -{need}")
        if ab.cost.life and s.players[player].life < ab.cost.life:
            raise RulesError("119.4", f"you can't pay {ab.cost.life} life with "
                             f"{s.players[player].life} life")
        if ab.cost.mana:  # a mana ability's too ("{1}, {T}: Add one mana of any color.")
            cost = ManaCost.parse(ab.cost.mana).with_x(x)
            if self.plan_mana(player, cost, ("ability", oid),
                              exclude=oid if ab.cost.tap else 0) is None:
                raise RulesError("602.2b", f"you can't pay {ab.cost.mana}")
        if ab.cost.sacrifice is not None and not self.sacrifice_options(player, oid, ab):
            raise RulesError("602.2b", "you have nothing to sacrifice for that cost")
        if (ab.cost.discard_self or ab.cost.reveal_self) and not (
                o.zone == "hand" and o.owner == player):
            raise RulesError("602.2b", f"{'discard' if ab.cost.discard_self else 'reveal'} "
                             "this card: it must be in your hand")
        for part in ab.cost.extra:  # other costs and restrictions (``Cost.extra``)
            try:
                payable = part.can_pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
            if not payable:
                raise RulesError("602.2b", f"you can't {part}")

    def summoning_sick(self, oid: int) -> bool:
        """Whether creature ``oid`` can't pay a {T} cost yet (CR 302.6): it came under its
        controller's control this turn and lacks haste, and no static ability (with an
        ``as_though_haste(view, source, creature)``: Thousand-Year Elixir) lets its
        abilities be activated as though it had haste."""
        o = self.state.objects[oid]
        c = self.chars(oid)
        if not (c.is_creature and o.sick) or c.has(HASTE):
            return False
        for src, fn in self.static_hooks("as_though_haste"):
            try:
                if fn(self.view(), src, oid):
                    return False
            except Exception as exc:
                self._hook_failed(exc, src, "as_though_haste", fn)
        return True

    def sacrifice_options(self, player: int, oid: int, ab: Activated) -> list[int]:
        """Permanents ``player`` could sacrifice for ``ab``'s "Sacrifice a ..." cost."""
        v = self.view()
        f = ab.cost.sacrifice
        try:
            return [o for o in self.state.battlefield
                    if self.chars(o).controller == player and f(v, o, player, oid)]
        except Exception as exc:
            self.card_failed(exc, self.definition(oid).name, ab, "sacrifice cost")

    def _check_activate(self, player: int, oid: int, idx: int, targets: list[int], x: int,
                        sorcery_ok: bool) -> None:
        s = self.state
        o = s.objects.get(oid)
        if o is not None and o.zone in ("hand", "library") and o.owner != player:
            raise RulesError("602.2", f"that card is in another player's {o.zone}")
        acts = self.definition(oid).activated if o is not None and o.zone != "none" else []
        if o is None or not (o.zone == "battlefield" or any(  # ``Activated.zones``
                o.zone in ab.zones for _k, ab in acts)):
            where = f"a card in {ZONE_WORDS[o.zone]}" if o is not None and \
                o.zone in ZONE_WORDS else "that"
            raise RulesError("113.6", f"{where} has no ability that works there: abilities "
                             "work on the battlefield unless they say otherwise")
        c = self.chars(oid)
        if c.controller != player and not any(ab.any_player for _k, ab in acts):
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if not 1 <= idx <= len(acts):
            raise RulesError("602.1", f"{o.card} has no activated ability {idx}")
        key, ab = acts[idx - 1]
        if o.zone not in ab.zones:
            raise RulesError("113.6", f"that ability of {self.name(oid)} works only from: "
                             f"{', '.join(ab.zones)} (it is in {ZONE_WORDS.get(o.zone, o.zone)})")
        if c.controller != player and not ab.any_player:
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if key not in c.abilities:
            raise RulesError("602.1", f"{o.card} doesn't have that ability now")
        if ab.sorcery and not sorcery_ok:
            raise RulesError("602.5d", "that ability can be activated only at sorcery speed")
        self._check_activation_costs(player, oid, ab, x)
        if not ab.mana:
            self.check_targets(player, oid, ab.targets, targets, x)

    def perform(self, player: int, action: Action | list[Any]) -> None:
        """Carry out a checked priority action."""
        seq = len(self.log) - 1
        if not isinstance(action, Action):  # (the list it encodes to)
            action = action_from(action)
        with self.caused(seq):
            kind = type(action)
            if kind is PlayLand:
                oid = action.card  # type: ignore[union-attr]
                new = self.new_id()
                self.emit(ev.LandPlayed(player=player, obj=oid, new_obj=new))
                self._entered(new, False, None)  # "this land enters tapped" ...
            elif kind is Cast:
                a = cast(Cast, action)
                self._cast(player, a.card, list(a.targets), list(a.modes), a.x, a.alt)
            elif kind is Activate:
                b = cast(Activate, action)
                self._activate(player, b.source, b.ability, list(b.targets), b.x)

    def _cast(self, player: int, oid: int, targets: list[int], modes: list[int], x: int,
              alt: str, from_zone: str = "hand", free: bool = False) -> int:
        if free and alt in self.card(oid).alt_costs and \
                alt not in self.card(oid).extras.get("faces", {}):
            # "without paying its mana cost" is itself an alternative cost (CR 118.9a)
            raise RulesError("118.9a", f"{self.name(oid)} is cast without paying its mana "
                             f"cost: its {alt} cost can't be used as well")
        cost = self.spell_cost(oid, alt).with_x(x)
        if free:  # without paying its mana cost: an additional cost is still paid
            cost = ManaCost.parse("").plus(self.additional_mana(oid, player))
        plan = None if free and cost.is_free else \
            self.plan_mana(player, cost, ("spell", oid))
        new = self.new_id()
        o = self.state.objects[oid]
        if from_zone == "hand" and o.zone != "hand":
            from_zone = o.zone  # cast with a permission (e.g. an Adventure card from exile)
        face = self.card(oid).extras.get("faces", {}).get(alt, "")
        # CR 601.2a-h: the spell moves to the stack with its choices, then its costs are
        # paid; it becomes cast once they are (601.2i): only then does it trigger
        # ("whenever ... casts"), seeing the choices and the costs paid
        e = ev.SpellCast(obj=oid, new_obj=new, controller=player, from_zone=from_zone,
                         targets=tuple(targets), modes=tuple(sorted(modes)), x=x,
                         alt=alt, face=face)
        seq = self.emit(e, together=True)
        with self.caused(seq):
            if plan is not None:
                self._pay(player, plan)
            for fn in self.reg.cast_hooks:
                fn(self, player, new)
            self._became_cast(e, seq)
        return new

    def _became_cast(self, e: ev.Event, seq: int) -> None:
        """The abilities that trigger on ``e`` (event ``seq``), a spell cast or an ability
        activated whose costs have now been paid (CR 601.2i, 602.2i): emitted with
        ``together``, it triggered nothing then."""
        if self._setting_up:
            return
        plans = self._tag_plans.get(e.TAG) or self._trigger_plans(e.TAG)
        if plans[0]:
            self._triggers(plans[0], e, seq, before=True)
        if plans[1]:
            self._triggers(plans[1], e, seq, before=False)
        if self.state.effects:
            self._delayed_triggers(e, seq)

    def _linked_knowledge(self) -> None:
        """Each player who controls the permanent a face-down card is flagged
        :data:`KNOWN_TO_CONTROLLERS_OF` may look at that card from then on; once the
        permanent has left the battlefield, no one may (hideaway)."""
        s = self.state
        for oid in list(s.exile):
            o = s.objects[oid]
            host = o.flags.get(KNOWN_TO_CONTROLLERS_OF) if o.flags else None
            if not host:
                continue
            h = s.objects.get(host)
            gone = h is None or h.zone != "battlefield"
            if not gone and self.chars(host).controller in o.known_to:
                continue
            # caused by the host's leaving or change of control (the last event about it)
            with self.caused(self._sba_cause([host], [], len(self.log))):
                if gone:
                    self.emit(ev.ObjectFlagged(obj=oid, key=KNOWN_TO_CONTROLLERS_OF, value=None))
                    self.emit(ev.ObjectFlagged(obj=oid, key="known_to", value=[]))
                else:
                    self.emit(ev.ObjectFlagged(obj=oid, key="known_to", value=sorted(
                        [*o.known_to, self.chars(host).controller])))

    # ------------------------------------------------------------ playing while resolving
    def play_during_resolution(self, player: int, oid: int, optional: bool = False,
                               prompt: str = "") -> int | None:
        """``player`` plays card ``oid`` as a spell or ability resolves, without paying
        its mana cost: a land with :meth:`play_land_from`, any other card with
        :meth:`cast_during_resolution`.  ``optional``: "you may play it" (a ``may``
        decision, asked only if it can be played)."""
        o = self.state.objects.get(oid)
        if o is not None and "Land" in self.reg[o.card].facts.types:
            return self.play_land_from(player, oid, optional, prompt)
        return self.cast_during_resolution(player, oid, free=True, optional=optional,
                                           prompt=prompt)

    def _may(self, player: int, possible: bool, prompt: str) -> bool:
        """"You may ...": a ``may`` decision; if it can't be done, "no" is the only answer."""
        return bool(self.choose(player, "may", [False, True] if possible else [False], prompt))

    def play_land_from(self, player: int, oid: int, optional: bool = False,
                       prompt: str = "") -> int | None:
        """Play land card ``oid`` from its zone as something resolves: only on ``player``'s
        turn with a land play left, and it counts as the land play (CR 305.2).  Returns
        the land's new id, or ``None`` (then nothing happens)."""
        s = self.state
        o = s.objects.get(oid)
        ok = (o is not None and o.zone not in ("battlefield", "stack", "none")
              and "Land" in self.reg[o.card].facts.types and is_active(s, player)
              and s.players[player].lands_played < 1)
        if optional and not self._may(player, ok, prompt or f"play {self.name(oid)}?"):
            return None
        if not ok:
            return None
        new = self.new_id()
        self.emit(ev.LandPlayed(player=player, obj=oid, new_obj=new))
        self._entered(new, False, None)
        return new

    def cast_during_resolution(self, player: int, oid: int, free: bool = True,
                               optional: bool = False, prompt: str = "") -> int | None:
        """``player`` casts card ``oid`` from its zone (exile, a graveyard ...) while a
        spell or ability resolves (CR 608.2g).  Timing permissions by card type don't
        apply; modes, X and targets are chosen with the decisions ``modes``, ``x`` and
        ``targets``; no alternative cost may be used, and with ``free`` ("without paying
        its mana cost") no mana is paid and X is 0 (CR 107.3b).  A mode is offered only
        if its targets can be chosen.  Returns the spell's id, or ``None`` if it can't be
        cast (then nothing happens and the card stays where it is)."""
        o = self.state.objects.get(oid)
        plans: list[tuple[list[int], int, list[list[int]]]] = []
        if o is not None and o.zone not in ("battlefield", "stack", "none") and \
                "Land" not in self.reg[o.card].facts.types:
            plans = self._cast_plans(player, oid, free)
        name = self.name(oid)
        if optional and not self._may(player, bool(plans), prompt or f"cast {name}?"):
            return None
        if o is None or not plans:
            return None
        mode_opts: list[list[int]] = []
        for m, _x, _c in plans:
            if m not in mode_opts:
                mode_opts.append(m)
        modes = self.choose(player, "modes", mode_opts, f"modes for {name}")
        xs = [x for m, x, _c in plans if m == modes]
        x = self.choose(player, "x", xs, f"X for {name}")
        combos = next(c for m, xx, c in plans if m == modes and xx == x)
        slots = self._spell_target_slots(self.card(oid), modes)
        targets: list[int] = []
        if slots:
            targets = self.ask(Decision("targets", player, combos, f"targets for {name}",
                                        check=lambda ch: self._targets_answer(
                                            player, oid, slots, ch, x), context=oid))
        return self._cast(player, oid, targets, modes, x, "", from_zone=o.zone, free=free)

    def _cast_plans(self, player: int, oid: int, free: bool
                    ) -> list[tuple[list[int], int, list[list[int]]]]:
        """(modes, X, target combinations) with which ``oid`` can be cast now."""
        if self.cast_forbidden(player, oid, ""):
            return []
        d = self.card(oid)
        cost = self.spell_cost(oid)
        if free:
            xs = [0]
        elif cost.x:
            xs = list(range(0, self.max_payable(player, cost, ("spell", oid)) + 1))
        else:
            xs = [0] if self.plan_mana(player, cost, ("spell", oid)) is not None else []
        out = []
        for modes in self._mode_choices(d):
            slots = self._spell_target_slots(d, modes)
            for x in xs:
                if not free and cost.x and \
                        self.plan_mana(player, cost.with_x(x), ("spell", oid)) is None:
                    continue
                combos = self._target_combos(player, oid, slots, x)
                if combos:
                    out.append((modes, x, combos))
        return out

    def targets_answer(self, player: int, source: int, slots: list[Target], choice: Any,
                       x: int = 0) -> list[int]:
        """``choice`` as legal targets for ``slots``, or a rules error saying why not."""
        return self._targets_answer(player, source, slots, choice, x)

    def _targets_answer(self, player: int, source: int, slots: list[Target], choice: Any,
                        x: int = 0) -> list[int]:
        if not isinstance(choice, list):
            choice = [choice]
        self.check_targets(player, source, slots, choice, x)
        return choice

    def _activate(self, player: int, oid: int, idx: int, targets: list[int], x: int) -> None:
        if idx < 0:
            self._activate_mana(player, oid, _intrinsic(self.intrinsic_mana(oid)[-idx - 1]))
            return
        key, ab = self.definition(oid).activated[idx - 1]
        if ab.mana:
            self._activate_mana(player, oid, ab)
            return
        if self.state.objects[oid].zone in ("hand", "library"):
            # CR 602.2a: activated from a hidden zone, the card is revealed
            self.emit(ev.Revealed(player=player, objs=(oid,)))
        item = self.new_id()
        e = ev.AbilityActivated(item=item, source=oid, ability=key, controller=player,
                                targets=tuple(targets), x=x,
                                loyalty=ab.cost.loyalty is not None or ab.cost.loyalty_x)
        seq = self.emit(e, together=True)  # it triggers once its costs are paid (602.2i)
        with self.caused(seq):
            self._pay_ability_costs(player, oid, ab, x)
            self._became_cast(e, seq)

    def _pay_ability_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
        c = ab.cost
        if c.loyalty_x and x:
            self.emit(ev.CounterRemoved(obj=oid, kind="loyalty", n=x))
        elif c.loyalty is not None and c.loyalty > 0:
            self.emit(ev.CounterPlaced(obj=oid, kind="loyalty", n=c.loyalty))
        elif c.loyalty is not None and c.loyalty < 0:
            self.emit(ev.CounterRemoved(obj=oid, kind="loyalty", n=-c.loyalty))
        if c.tap:
            self.emit(ev.Tapped(obj=oid))
        if c.untap:
            self.emit(ev.Untapped(obj=oid))
        if c.mana:
            plan = self.plan_mana(player, ManaCost.parse(c.mana).with_x(x), ("ability", oid))
            if plan is not None:
                self._pay(player, plan)
        if c.life:
            self.emit(ev.LifeLost(player=player, n=c.life))
        if c.sacrifice is not None:
            opts = self.sacrifice_options(player, oid, ab)
            if opts:
                self.move(self.choose(player, "choose", opts, "sacrifice (cost)"), "graveyard",
                          reason="sacrifice")
        for part in c.extra:
            try:
                part.pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
        if c.sacrifice_self:
            self.move(oid, "graveyard", reason="sacrifice")
        if c.discard_self:
            self.move(oid, "graveyard", reason="discard")

    def _activate_mana(self, player: int, oid: int, ab: Activated) -> None:
        if ab.cost.tap:
            self.emit(ev.Tapped(obj=oid))
        if ab.cost.untap:
            self.emit(ev.Untapped(obj=oid))
        if ab.cost.mana:  # "{1}, {T}: Add one mana of any color."
            plan = self.plan_mana(player, ManaCost.parse(ab.cost.mana), ("ability", oid))
            if plan is not None:
                self._pay(player, plan)
        for part in ab.cost.extra:
            try:
                part.pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
        mana = "".join(ab.mana[0] if len(ab.mana) == 1 else
                       self.choose(player, "choose", list(ab.mana), "choose the color of the mana")
                       for _ in range(ab.amount))
        self.emit(ev.ManaAdded(player=player, mana=mana, spend=ab.spend))
        if ab.cost.tap:  # tapped for mana: "... adds an additional one mana" (Fertile Ground)
            for colors in self.extra_mana(oid):
                self.emit(ev.ManaAdded(player=player, mana=self.choose(
                    player, "choose", list(colors), "choose the color of the additional mana")))
        if ab.cost.sacrifice_self:
            self.move(oid, "graveyard", reason="sacrifice")

