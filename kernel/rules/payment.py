"""Mana (CR 106, 605, 601.2g-h): mana abilities and sources, the mana pools, spending
restrictions (CR 106.6), and paying a cost automatically from them."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.rules.core import BASIC_MANA
from mtgk.rules.mana import (
    SPEND_RESTRICTIONS,
    AnyPlan,
    FilteredPlan,
    ManaCost,
    Plan,
    Source,
    Spend,
    max_payable_x,
    plan_payment,
    restriction,
)
from mtgk.rules.parts import GamePart


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class ManaPayment(GamePart):
    """Mana abilities, pools and automatic payment (CR 106, 605)."""

    # ------------------------------------------------------------------ mana
    def payment(self, player: int, spend: Spend | None = None, exclude: int = 0
                ) -> tuple[list[str], list[Source]]:
        """The pool mana and the mana sources ``player`` may use to pay for ``spend`` (a
        spell being cast, an ability being activated; ``None``: anything else, e.g.
        "unless its controller pays {X}"), as :func:`~mtgk.rules.mana.plan_payment` takes
        them: mana with a spending restriction only where it may be spent, first."""
        return self.pool_for(player, spend), self.mana_sources(player, exclude, spend)

    def pool_for(self, player: int, spend: Spend | None = None) -> list[str]:
        """``player``'s pool mana that may pay for ``spend`` (restricted mana first)."""
        pool = self.state.players[player].mana
        if not any(restriction(m) for m in pool):
            return pool
        return [m for m in pool if restriction(m) and self._spend_ok(restriction(m), spend)] \
            + [m for m in pool if not restriction(m)]

    def _spend_ok(self, key: str, spend: Spend | None) -> bool:
        check = SPEND_RESTRICTIONS.get(key)
        return spend is not None and check is not None and \
            bool(check(self.view(), spend[0], spend[1]))

    def _restricted_mana(self, player: int) -> bool:
        """Whether ``player`` has mana, or an untapped source of mana, with a restriction."""
        if any(restriction(m) for m in self.state.players[player].mana):
            return True
        if not self._ability_cards()[2] and not (self.state.effects
                                                 and self._effects_facts()[0]):
            return False  # no card in this game makes any
        makers = self.cached("\0restricted_makers", lambda: [
            oid for oid in self.state.battlefield  # with an ability making restricted mana
            if any(ab.spend for _k, ab in self.definition(oid).activated)])
        return any(made[2] for oid in makers
                   if not self.state.objects[oid].tapped
                   and self.chars(oid).controller == player
                   for made in [self._tap_mana(oid, sick_ok=True)] if made is not None)

    def _tap_mana(self, oid: int, sick_ok: bool = False
                  ) -> tuple[list[str], int, str] | None:
        """What permanent ``oid`` makes when tapped for mana by the engine as a cost is paid:
        (the colours each mana may be, how many mana, the restriction on spending it).
        Mana abilities whose only cost is {T} count, and basic land types; a permanent that
        has an unrestricted one-mana ability uses those, else its first other one."""
        c = self.chars(oid)
        colors: list[str] = [BASIC_MANA[t] for t in c.subtypes if t in BASIC_MANA]
        other: tuple[list[str], int, str] | None = None
        for key, ab in self.definition(oid).activated:
            if ab.mana and ab.cost.tap and not ab.cost.mana and key in c.abilities \
                    and not ab.cost.sacrifice_self and not ab.cost.extra:
                if not sick_ok and self.summoning_sick(oid):
                    continue
                if ab.amount != 1 or ab.spend:
                    other = other or (list(ab.mana), ab.amount, ab.spend)
                    continue
                colors.extend(m for m in ab.mana if m not in colors)
        if colors:
            return colors, 1, ""
        return other

    def mana_sources(self, player: int, exclude: int = 0, spend: Spend | None = None
                     ) -> list[Source]:
        """Untapped permanents ``player`` can tap for one mana, with the colours they make.
        A permanent that makes more mana as it is tapped for mana (:meth:`extra_mana`, or a
        mana ability that adds several) is listed once more per additional mana; one whose
        mana has a spending restriction only if it may pay for ``spend``.  (Remembered
        while the characteristics, tapped status and turn stay as they are.)"""
        if spend is not None and not self._ability_cards()[2] and not (
                self.state.effects and self._effects_facts()[0]):
            spend = None  # no card in this game makes mana whose spending is restricted
        if exclude:  # the same, less ``exclude``'s (one list kept for all who exclude)
            return [src for src in self.mana_sources(player, 0, spend) if src[0] != exclude]
        s = self.state
        return list(self.kept(self._chars_cache(),
                              ("\0sources", player, exclude, spend, self._taps, s.turn),
                              "the mana sources of player {0}", self._mana_sources,
                              player, exclude, spend, fresh=self._fresh_mana_sources))

    def _fresh_mana_sources(self, player: int, exclude: int, spend: Spend | None
                            ) -> list[Source]:
        """:meth:`_mana_sources` with nothing kept of what each permanent makes."""
        self.mana_makers().clear()
        return self._mana_sources(player, exclude, spend)

    def _mana_sources(self, player: int, exclude: int, spend: Spend | None) -> list[Source]:
        out: list[Source] = []
        s = self.state
        extra = self._extra_mana_statics()
        cs = self._all_chars()
        # what each permanent makes, while the characteristics hold, this turn
        makes = self.mana_makers()
        for oid in s.battlefield:
            o = s.objects[oid]
            if o.tapped or oid == exclude:
                continue
            if cs[oid].controller != player:
                continue
            if oid in makes:
                made = makes[oid]
            else:
                made = makes[oid] = self._tap_mana(oid)
            if made is None:
                continue
            colors, amount, key = made
            if key and not self._spend_ok(key, spend):
                continue
            out.extend([(oid, tuple(colors))] * amount)
            if extra:
                out.extend((oid, tuple(more)) for more in self.extra_mana(oid, extra))
        return out

    def _extra_mana_statics(self) -> list[tuple[int, Any]]:
        return self.static_hooks("extra_mana")

    def extra_mana(self, oid: int, statics: list[tuple[int, Any]] | None = None
                   ) -> list[str]:
        """The additional mana permanent ``oid`` makes as it is tapped for mana, one entry
        (the colours it may be) per mana: static abilities with an ``extra_mana(view,
        source, obj) -> colours`` ("Whenever enchanted land is tapped for mana, its
        controller adds an additional one mana of any color": a triggered mana ability,
        CR 605.1b, which resolves at once)."""
        v = self.view()
        out = []
        for src, fn in self._extra_mana_statics() if statics is None else statics:
            try:
                more = fn(v, src, oid)
            except Exception as exc:
                self._hook_failed(exc, src, "extra_mana", fn)
            if more:
                out.append(str(more))
        return out

    # ------------------------------------------------- mana abilities that cost mana
    FILTER_DEPTH = 3
    """At most this many mana abilities that cost mana are used in one payment."""

    def mana_filters(self, player: int, exclude: int = 0
                     ) -> list[tuple[int, ManaCost, tuple[str, ...], int]]:
        """The mana abilities that cost mana ``player`` could activate now to pay a cost
        (a filter land's "{1}, {T}: Add one mana of any color"): ``(permanent, the
        ability's mana cost, the colours each mana it adds may be, how many)``, for
        permanents whose ability's other cost is {T} alone (the permanent untapped) or {Q}
        alone (the untap symbol, CR 107.6: the permanent tapped) and whose mana has no
        spending restriction; in the order of the battlefield, then of the abilities."""
        if not self._filter_cards() and not (self.state.effects
                                             and self._effects_facts()[0]):
            return []
        out: list[tuple[int, ManaCost, tuple[str, ...], int]] = []
        for oid in self.state.battlefield:
            o = self.state.objects[oid]
            if oid == exclude:
                continue
            c = self.chars(oid)
            if c.controller != player:
                continue
            for key, ab in self.definition(oid).activated:
                cost = ab.cost
                # {T} needs the permanent untapped, {Q} tapped; one of them, alone
                if not (ab.mana and cost.mana) or cost.tap == cost.untap \
                        or o.tapped != cost.untap or key not in c.abilities \
                        or ab.spend or cost.sacrifice_self or cost.extra or cost.life \
                        or cost.sacrifice is not None or cost.discard_self:
                    continue
                mana = ManaCost.parse(cost.mana)
                if mana.x or self.summoning_sick(oid):
                    continue
                out.append((oid, mana, tuple(ab.mana), ab.amount))
        return out

    def _filter_cards(self) -> bool:
        """Whether a card in this game has a mana ability that costs mana."""
        found = self._game_facts.get(("\0filters", False))
        if found is None:
            reg = self.reg
            found = self._game_facts[("\0filters", False)] = [any(
                ab.mana and ab.cost.mana
                for n in self._names for d in [reg.cards.get(reg.canonical(n))]
                if d is not None for _k, ab in d.activated)]
        return bool(found[0])

    def plan_mana(self, player: int, cost: ManaCost, spend: Spend | None = None,
                  exclude: int = 0) -> AnyPlan | None:
        """How ``player`` pays ``cost`` (X fixed) for ``spend`` automatically, or ``None``
        if they can't: from their pool and by tapping their mana sources
        (:func:`~mtgk.rules.mana.plan_payment`), and, when that is not enough, also
        activating mana abilities that cost mana (:meth:`mana_filters`, CR 605.3a): a
        :class:`~mtgk.rules.mana.FilteredPlan`.  ``exclude``: a permanent that can't be
        tapped for mana (the source of an ability with {T} in its cost)."""
        pool = self.state.players[player].mana
        if (spend is None or not self._ability_cards()[2] and not (
                self.state.effects and self._effects_facts()[0])) and not any(
                restriction(m) for m in pool):  # (then ``spend`` decides nothing)
            store = self._chars_cache()
            turn = self.state.turn
            if exclude and exclude in self.kept(
                    store, ("\0source ids", player, self._taps, turn),
                    "the mana sources of player {0}", self._source_ids, player):
                plan = plan_payment(cost, pool, self.mana_sources(player, exclude))
            else:  # (one plan kept for the sources of abilities that make no mana)
                kept = self.kept(store, ("\0plan", player, cost.generic, tuple(cost.colored),
                                         tuple(cost.hybrid), tuple(cost.twobrid),
                                         tuple(pool), self._taps, turn),
                                 "the payment of {1.text} by player {0}", self._plain_plan,
                                 player, cost)
                plan = None if kept is None else (list(kept[0]), list(kept[1]))
        else:
            plan = plan_payment(cost, *self.payment(player, spend, exclude))
        if plan is not None:
            return plan
        return self._filtered_plan(player, cost, exclude)

    def _source_ids(self, player: int) -> frozenset[int]:
        """The permanents among ``player``'s mana sources (:meth:`mana_sources`)."""
        return frozenset(src[0] for src in self.mana_sources(player))

    def _plain_plan(self, player: int, cost: ManaCost) -> Plan | None:
        """:func:`~mtgk.rules.mana.plan_payment` of ``cost`` from ``player``'s pool and
        mana sources, none excluded, for no spending in particular."""
        return plan_payment(cost, self.state.players[player].mana, self.mana_sources(player))

    def max_payable(self, player: int, cost: ManaCost, spend: Spend | None = None,
                    pool: list[str] | None = None, sources: list[Source] | None = None
                    ) -> int:
        """The largest X for which ``player`` can pay ``cost`` (:meth:`plan_mana`)."""
        if pool is None or sources is None:
            pool, sources = self.payment(player, spend)
        x = max_payable_x(cost, pool, sources)
        if cost.x and self.mana_filters(player):
            while self._filtered_plan(player, cost.with_x(x + 1), 0) is not None:
                x += 1
        return x

    def _filtered_plan(self, player: int, cost: ManaCost, exclude: int
                       ) -> FilteredPlan | None:
        """A payment of ``cost`` that activates mana abilities which cost mana: the fewest
        of them, tried in the order of :meth:`mana_filters`; for each choice, the cost and
        the abilities' costs are planned together (the abilities adding their mana as
        sources), then checked in an order in which each ability's cost is paid from mana
        already made.  Only unrestricted pool mana and sources that make one mana are
        used with them; with an "additional mana" static ability none are used."""
        filters = self.mana_filters(player, exclude)
        if not filters or self._extra_mana_statics():
            return None
        pool = [m for m in self.state.players[player].mana if not restriction(m)]
        made = {oid: self._tap_mana(oid) for oid in dict.fromkeys(
            src[0] for src in self.mana_sources(player, exclude))}
        real_all = [src for src in self.mana_sources(player, exclude)
                    if (m := made[src[0]]) is not None and m[1] == 1 and not m[2]]
        # a bound: not even with every filter's mana for free (each of its permanents
        # making the colours of either ability) -- then no choice of them pays
        fids = list(dict.fromkeys(f[0] for f in filters))
        best: list[Source] = []
        for oid in fids:
            plain = made.get(oid)
            colors = list(plain[0]) if plain is not None else []
            amount = plain[1] if plain is not None else 1
            for f in filters:
                if f[0] == oid:
                    colors.extend(c for c in f[2] if c not in colors)
                    amount = max(amount, f[3])
            best.extend([(oid, tuple(colors))] * amount)
        if plan_payment(cost, pool, [src for src in real_all if src[0] not in fids]
                        + best) is None:
            return None
        for k in range(1, min(self.FILTER_DEPTH, len(filters)) + 1):
            for combo in combinations(filters, k):
                oids = [f[0] for f in combo]
                if len(set(oids)) != len(oids):
                    continue  # one permanent is tapped once
                real = [src for src in real_all if src[0] not in oids]
                # a filter's permanent makes its mana instead of its own ({T}), or
                # besides none ({Q}: it was tapped)
                if cost.least_mana + sum(f[1].least_mana for f in combo) > \
                        len(pool) + len(real) + sum(f[3] for f in combo):
                    continue
                need = cost
                for f in combo:
                    need = need.combined(f[1])
                virtual = [(f[0], f[2]) for f in combo for _ in range(f[3])]
                together = plan_payment(need, pool, real + virtual)
                if together is None:
                    continue
                found = self._filter_order(cost, combo, together)
                if found is not None:
                    return found
        return None

    @staticmethod
    def _filter_order(cost: ManaCost,
                      combo: tuple[tuple[int, ManaCost, tuple[str, ...], int], ...],
                      together: Plan) -> FilteredPlan | None:
        """The steps of a payment planned together (``together``), in an order in which
        each ability's cost is paid from mana already made (``None`` if there is none)."""
        used, from_pool = together
        oids = [f[0] for f in combo]
        tapped = [(oid, m) for oid, m in used if oid not in oids]
        adds = {}
        for oid, colors, amount in ((f[0], f[2], f[3]) for f in combo):
            mine = [m for o, m in used if o == oid]
            adds[oid] = "".join(mine) + colors[0] * (amount - len(mine))
        for order in permutations(combo):
            have = list(from_pool) + [m for _oid, m in tapped]
            steps: list[tuple[int, list[str], str]] = []
            for f in order:
                paid = plan_payment(f[1], have, [])
                if paid is None:
                    break
                for m in paid[1]:
                    have.remove(m)
                have.extend(adds[f[0]])
                steps.append((f[0], paid[1], adds[f[0]]))
            else:
                last = plan_payment(cost, have, [])
                if last is not None:
                    return FilteredPlan(tapped, steps, last[1])
        return None

    def pay(self, player: int, plan: AnyPlan) -> None:
        """Pay a payment ``plan`` (:meth:`plan_mana`'s, or ``mtgk.rules.mana.plan_payment``'s)
        for ``player`` (the public face of payment for mechanics plugins)."""
        self._pay(player, plan)

    def _pay(self, player: int, plan: AnyPlan) -> None:
        if isinstance(plan, FilteredPlan):
            self._pay_filtered(player, plan)
            return
        used, from_pool = plan
        floating = ""  # mana a permanent tapped for mana makes that this payment doesn't use
        if used and self._extra_mana_statics():
            makes: dict[int, list[tuple[str, ...]]] = {}
            for oid, colors in self.mana_sources(player):
                makes.setdefault(oid, []).append(colors)
            for oid, m in used:
                left = sorted(makes.get(oid, []), key=len)
                if m in "".join(sum(left, ())):
                    left.remove(next(x for x in left if m in x))
                makes[oid] = left
            floating = "".join(colors[0] for oid in dict.fromkeys(u for u, _m in used)
                               for colors in makes.get(oid, []))
        added = ""
        tapped: list[int] = []
        # sources that make several mana, or mana with a spending restriction: (mana made,
        # restriction, mana used); what this payment doesn't use stays in the pool
        special: dict[int, tuple[str, str, str]] = {}
        for oid, m in used:
            if oid not in tapped:
                tapped.append(oid)
                made = self._tap_mana(oid, sick_ok=True)
                if made is not None and (made[1] != 1 or made[2]):
                    mine = "".join(mm for o, mm in used if o == oid)
                    special[oid] = (mine + mine[-1] * (made[1] - len(mine)), made[2], mine)
                self.emit(ev.Tapped(obj=oid))
            if oid not in special:
                added += m
        if added or floating:
            self.emit(ev.ManaAdded(player=player, mana=added + floating))
        spent: dict[str, str] = {"": added}  # restriction -> mana spent
        for oid in tapped:
            if oid in special:
                made_, key, mine = special[oid]
                self.emit(ev.ManaAdded(player=player, mana=made_, spend=key))
                spent[key] = spent.get(key, "") + mine
        for m in from_pool:
            spent[restriction(m)] = spent.get(restriction(m), "") + m[0]
        for key, mana in spent.items():
            if mana:
                self.emit(ev.ManaSpent(player=player, mana=mana, spend=key))


    def _pay_filtered(self, player: int, plan: FilteredPlan) -> None:
        """Tap the sources for mana, activate each mana ability that costs mana (its cost
        spent from the pool, its mana added), then spend the cost (CR 605.3a, 601.2g-h)."""
        made = ""
        for oid, m in plan.tapped:
            self.emit(ev.Tapped(obj=oid))
            made += m
        if made:
            self.emit(ev.ManaAdded(player=player, mana=made))
        for oid, spent, adds in plan.steps:
            if spent:
                self.emit(ev.ManaSpent(player=player, mana="".join(m[0] for m in spent)))
            # a tapped permanent's step is a {Q} ability (mana_filters): paying untaps it
            tapped = self.state.objects[oid].tapped
            self.emit(ev.Untapped(obj=oid) if tapped else ev.Tapped(obj=oid))
            self.emit(ev.ManaAdded(player=player, mana=adds))
        if plan.spent:
            self.emit(ev.ManaSpent(player=player, mana="".join(m[0] for m in plan.spent)))
