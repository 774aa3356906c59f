"""Legal actions (CR 117.1, 305, 601.2, 602.2): what a player may do with priority --
play a land, cast a spell, activate an ability -- with its timing, modes, alternative
costs and targets (CR 115, 601.2c; protection CR 702.16; enchanting CR 303.4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, islice, product
from typing import Any

import msgspec
from mypy_extensions import trait

from mtgk.log.answers import Activate, Cast, PlayLand
from mtgk.log.events import player_ref
from mtgk.rules.chars import Chars, printed, printed_template
from mtgk.rules.core import PASS, RulesError, card_of
from mtgk.rules.definitions import X_COUNT, Activated, CardDef, Target
from mtgk.rules.filters import permanent
from mtgk.rules.layers import ALL_CHANGES, View, is_creature_type
from mtgk.rules.mana import ManaCost, Source, plan_payment
from mtgk.rules.names import FLASH, HEXPROOF, SHROUD
from mtgk.rules.options import Options
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import is_active
from mtgk.rules.state import Obj

ABILITY_ZONES = ("hand", "graveyard", "exile")
"""Zones other than the battlefield from which a player is offered the activated abilities
of their own cards that work there (``Activated.zones``)."""


COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


MAX_TARGET_COMBOS = 24

PERMANENT = permanent.pred
"""The condition "on the battlefield" (the filter ``permanent``): a filter whose first
condition (``Filter.parts``) it is accepts nothing but permanents."""


class Activations:
    """The options of one activated ability of one source, in the order the enumeration
    lists them (each choice of targets, then each X): ``["activate", oid, idx, targets,
    x]``.  ``single``: the candidates of its one target slot (one target, not "up to"),
    each option targeting one of the first :data:`MAX_TARGET_COMBOS`; else ``combos``,
    the choices of targets."""

    def __init__(self, oid: int, idx: int, xs: list[int], single: list[int] | None,
                 combos: list[list[int]] | None) -> None:
        self.oid = oid
        self.idx = idx
        self.xs = xs
        self.single = single
        self.combos = combos
        targets = min(len(single), MAX_TARGET_COMBOS) if single is not None \
            else len(combos) if combos is not None else 0
        self.count = targets * len(xs)

    def option(self, k: int) -> Activate:
        """Option ``k`` of this ability (``0 <= k < count``), made now."""
        n = len(self.xs)
        t = k // n
        single = self.single
        targets = [single[t]] if single is not None else \
            list(self.combos[t]) if self.combos is not None else []
        return Activate(self.oid, self.idx, tuple(targets), self.xs[k - t * n])


def _singulars(q: str) -> list[str]:
    """The creature type a plural quality may name: ``elves`` -> Elf, ``goblins`` ->
    Goblin, ``merfolk`` -> Merfolk."""
    out = [q.capitalize()]
    if q.endswith("ves"):
        out.append(q[:-3].capitalize() + "f")
    if q.endswith("s"):
        out.append(q[:-1].capitalize())
    return out


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class LegalActions(GamePart):
    """What a player may do now (CR 117.1), with timing, modes and targets."""

    # ------------------------------------------------------------------ actions
    def legal_actions(self, player: int) -> Sequence[Any]:
        """Every legal priority action (pass first); targets enumerated, capped per ability.
        A list, or with activated abilities to offer an :class:`Options` (a sequence
        that makes the options of those abilities as they are asked for).

        Remembered while nothing they depend on changes: the characteristics and
        everything but the events of :data:`NEUTRAL_EVENTS` (``_version``), tapped
        status, the player's mana pool, whether they could cast a sorcery, and the top
        cards of the libraries.  Validated mode compares them with a fresh enumeration
        that makes every option at once (``share=False``)."""
        s = self.state
        if s.over:
            return [PASS]
        sorcery_ok = is_active(s, player) and not s.stack and s.step in ("precombat_main",
                                                                          "postcombat_main")
        if not sorcery_ok and (self._idle.get(player) == self._idle_version
                               or self._nothing_at_instant_speed(player)):
            self.confirm_idle(player)
            return [PASS]
        key = (player, self._version, self._taps, tuple(s.players[player].mana), sorcery_ok,
               tuple([p.library[0] for p in s.players if p.library]))
        out = self.kept(self._legal, (player, sorcery_ok), "the legal actions of player {0}",
                        self._listed_actions, player, sorcery_ok, version=key,
                        fresh=self._unshared_actions)
        return list(out) if type(out) is list else out  # (a list: a copy of it)

    def _unshared_actions(self, player: int, sorcery_ok: bool) -> Sequence[Any]:
        """:meth:`_legal_actions` enumerating every card in hand and making every option
        at once: what validated mode compares the kept actions with (and each of them with
        what :meth:`check_action` makes of it, as a listed action is taken as it is)."""
        out = self._legal_actions(player, sorcery_ok, share=False)
        self.confirm_listed(player, out)
        return out

    def _listed_actions(self, player: int, sorcery_ok: bool) -> Sequence[Any]:
        out = self._legal_actions(player, sorcery_ok)
        self.confirm("the legal actions of player {1} differ when the same cards in hand "
                     "are enumerated once and activated abilities' options made as asked "
                     "for", self._same_actions, out, player, sorcery_ok)
        return out

    def _same_actions(self, out: Sequence[Any], player: int, sorcery_ok: bool) -> bool:
        return out == self._unshared_actions(player, sorcery_ok)

    def _nothing_at_instant_speed(self, player: int) -> bool:
        """Whether ``player``, unable to cast a sorcery now, surely can do nothing but pass:
        no card in their hand could ever be cast at instant speed, nothing may be cast from
        another zone, and no permanent nor card of theirs has an activated ability other
        than a mana ability (what :meth:`_legal_actions` would find, found sooner)."""
        s = self.state
        objs = s.objects
        fast: dict[str, bool] = self.reg.derived.get("instant_speed") or {}
        for oid in s.players[player].hand:
            o = objs[oid]
            known = None if o.flags else fast.get(o.card)  # (:meth:`_instant_speed`'s cache)
            if known or (known is None and self._instant_speed(o)):
                return False
        if self.reg.cast_permissions and self._castable_elsewhere(player):
            return False
        activators, elsewhere, _makers = self._ability_cards()
        if elsewhere or (s.effects and self._effects_facts()[0]):
            return False
        if activators and self._may_activate(player, activators):
            return False
        perms = self.reg.cast_permissions
        plan = self.reg.derived.get("permission_plan") if perms else None
        if not perms or (plan is not None and plan[0] == (len(perms),
                                                          len(self.reg.cast_permission_zones))
                         and all(zone == "exile" for zone, _asked in plan[1])):
            # kept until an event changes what this looked at (``_idle_version``; what
            # permissions for exiled cards answer is kept as :meth:`_castable_elsewhere` does)
            self._idle[player] = self._idle_version
        return True

    def _legal_actions(self, player: int, sorcery_ok: bool, share: bool = True
                       ) -> list[Any] | Options:
        """Every legal priority action of ``player`` (:meth:`legal_actions`, enumerated).
        ``share``: cards in the hand that are the same card (the same name, face up, no
        flags) are enumerated once, the others' options made from the first's, and the
        options of activated abilities are made as they are asked for (an
        :class:`Options`; validated mode checks it against ``share=False``, which makes
        every option at once, as a list)."""
        out: list[Any] = [PASS]
        s = self.state
        pl = s.players[player]
        listed: list[list[Source] | None] = []

        def sources() -> list[Source] | None:
            """The mana sources, listed once something may be cast or activated (``None``
            with mana whose spending is restricted: what may pay is found per action)."""
            if not listed:
                listed.append(None if self._restricted_mana(player)
                              else self.mana_sources(player))
            return listed[0]

        objs = s.objects
        same: dict[str, list[Any]] = {}  # a card's options, by name (``share``)
        for oid in pl.hand:
            o = objs[oid]
            if not sorcery_ok and not self._instant_speed(o):
                continue  # neither a land nor a spell can be played now
            c = self.chars(oid)
            if "Land" in c.types:
                if sorcery_ok and pl.lands_played < 1:
                    out.append(PlayLand(oid))
                continue
            plain_card = share and not o.flags and not o.face_down
            if plain_card and o.card in same:  # the same options, with this card
                out.extend(Cast(oid, a.targets, a.modes, a.x, a.alt) for a in same[o.card])
                continue
            opts = self._cast_options(player, oid, c, sorcery_ok, sources())
            if plain_card:
                same[o.card] = opts
            out.extend(opts)
        for oid, alts in self._castable_elsewhere(player):
            if "Land" in self.card(oid).facts.types:  # a permission to play it (CR 305.1)
                if sorcery_ok and pl.lands_played < 1 and "" in alts:
                    out.append(PlayLand(oid))
                continue
            out.extend(self._cast_options(player, oid, self.chars(oid), sorcery_ok, sources(),
                                          alts))
        copies = bool(s.effects) and self._effects_facts()[0]  # else each behaves as its card
        activators, elsewhere, _makers = self._ability_cards()
        families: list[Activations] = []
        if share:
            for oid, idx, ab in self._activation_slots(player, copies, activators) \
                    if copies or activators else ():
                if not (ab.cost.tap and objs[oid].tapped):  # (else none: 602.5a)
                    f = self._activations(player, oid, idx, ab, sorcery_ok, sources())
                    if f is not None:
                        families.append(f)
        for oid in s.battlefield if not share and (copies or activators) else ():
            if not copies and s.objects[oid].card not in activators:
                continue
            d = self.definition(oid) if copies else self.reg[s.objects[oid].card]
            if not d.activated:
                continue
            c = self.chars(oid)
            for idx, (key, ab) in enumerate(d.activated, start=1):
                if key not in c.abilities or ab.mana or "battlefield" not in ab.zones or (
                        c.controller != player and not ab.any_player):
                    continue
                out.extend(self._activate_options(player, oid, idx, ab, sorcery_ok, sources()))
        for zone in elsewhere:  # abilities that work from other zones (``Activated.zones``)
            for oid in self._own_cards_in(player, zone):
                if s.objects[oid].card not in elsewhere[zone]:
                    continue
                for idx, (_key, ab) in enumerate(self.definition(oid).activated, start=1):
                    if zone not in ab.zones or ab.mana:
                        continue
                    if not share:
                        out.extend(self._activate_options(player, oid, idx, ab, sorcery_ok,
                                                          sources()))
                        continue
                    f = self._activations(player, oid, idx, ab, sorcery_ok, sources())
                    if f is not None:
                        families.append(f)
        return Options(out, families) if families else out

    def _may_activate(self, player: int, activators: set[str]) -> bool:
        """Whether a permanent has an activated ability other than a mana ability
        (its card is one of ``activators``) that ``player`` might activate: they control
        it, or its card has an "any player may" one.  Kept while the permanents and their
        characteristics stay."""
        kept = self._chars is not None  # (else none are computed: not computed for this)
        return self.kept(self._chars_cache() if kept else {}, ("\0may activate", player),
                         "whether player {0} may activate an ability", self._may_activate_now,
                         player, activators)

    def _may_activate_now(self, player: int, activators: set[str]) -> bool:
        s = self.state
        reg = self.reg
        for oid in s.battlefield:
            card = s.objects[oid].card
            if card in activators and (self.chars(oid).controller == player or any(
                    ab.any_player for _k, ab in reg[card].activated)):
                return True  # (another player's permanent: only "any player" abilities)
        return False

    def _activation_slots(self, player: int, copies: bool, activators: set[str]
                          ) -> list[tuple[int, int, Activated]]:
        """The activated abilities of permanents, other than mana abilities and those that
        work only from other zones, that ``player`` may activate (their controller's,
        and "any player may" ones), as
        (permanent, ability number, ability) in battlefield order; ``copies``: a copy
        effect exists (each permanent's definition is asked, not its card's), else
        ``activators`` names the cards that have such an ability.  Kept while the
        permanents and their characteristics stay (validated mode compares a fresh look)."""
        return self.kept(self._chars_cache(), ("\0activations", player, copies),
                         "the activated abilities of player {0} to activate",
                         self._activation_slots_now, player, copies, activators)

    def _activation_slots_now(self, player: int, copies: bool, activators: set[str]
                              ) -> list[tuple[int, int, Activated]]:
        s = self.state
        fresh: list[tuple[int, int, Activated]] = []
        for oid in s.battlefield:
            card = s.objects[oid].card
            if not copies and card not in activators:
                continue
            d = self.definition(oid) if copies else self.reg[card]
            if not d.activated:
                continue
            c = self.chars(oid)
            for idx, (name, ab) in enumerate(d.activated, start=1):
                if name in c.abilities and not ab.mana and "battlefield" in ab.zones and (
                        c.controller == player or ab.any_player):
                    fresh.append((oid, idx, ab))
        return fresh

    def _own_cards_in(self, player: int, zone: str) -> list[int]:
        """``player``'s own cards in ``zone`` (hand, graveyard, library, or face-up cards
        in exile): where abilities that work from a zone other than the battlefield are
        offered from."""
        s = self.state
        if zone == "exile":
            return [o for o in s.exile if s.objects[o].owner == player
                    and not s.objects[o].face_down]
        if zone in ("hand", "graveyard", "library"):
            ids: list[int] = getattr(s.players[player], zone)
            return ids
        return []

    def _ability_cards(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        """The cards in this game (by the names objects have) with an activated ability
        that isn't a mana ability; by zone other than the battlefield (in the order
        :data:`ABILITY_ZONES`), those with one that works from there; and those with a
        mana ability whose mana has a spending restriction."""
        found = self._game_facts.get(("\0abilities", False))
        if found is None:
            reg = self.reg
            cards = {n: reg.cards.get(reg.canonical(n)) for n in self._names}
            elsewhere = {z: {n for n, d in cards.items() if d is not None and any(
                z in ab.zones and not ab.mana for _k, ab in d.activated)}
                for z in ABILITY_ZONES}
            found = self._game_facts[("\0abilities", False)] = [(
                {n for n, d in cards.items()
                 if d is not None and any(not ab.mana for _k, ab in d.activated)},
                {z: names for z, names in elsewhere.items() if names},
                {n for n, d in cards.items()
                 if d is not None and any(ab.spend for _k, ab in d.activated)})]
        out: tuple[set[str], dict[str, set[str]], set[str]] = found[0]
        return out

    def _instant_speed(self, o: Obj) -> bool:
        """Whether card ``o`` (in a hand) could ever be cast when only instants can: an
        instant, a card with flash, or one with a face or an alternative cost that is or
        grants that (cards in hand have their printed characteristics; cached per card)."""
        name = o.flags.get("face") or o.card if o.flags else o.card
        cache: dict[str, bool] | None = self.reg.derived.get("instant_speed")
        if cache is None:
            cache = self.reg.derived["instant_speed"] = {}
        fast = cache.get(name)
        if fast is None:
            d = self.reg[o.card]
            fast = False
            for alt in [""] + sorted(d.alt_costs):
                face = d.extras.get("faces", {}).get(alt) if alt else name
                t = printed_template(self.reg, face or name)
                if alt in d.extras.get("flash_alts", ()) or "Instant" in t.types \
                        or FLASH in t.abilities:
                    fast = True
            cache[name] = fast
        return fast

    def _timing_ok(self, player: int, c: Chars, sorcery_ok: bool) -> bool:
        return sorcery_ok or "Instant" in c.types or c.has(FLASH)

    def _cast_timing_ok(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> bool:
        """Timing for casting ``oid`` with ``alt`` (a face's types; an alt granting flash)."""
        if alt and alt in self.card(oid).extras.get("flash_alts", ()):
            return True
        return self._timing_ok(player, self.cast_chars(oid, alt), sorcery_ok)

    def cast_def(self, oid: int, alt: str = "") -> CardDef:
        """The definition ``oid`` is cast with: its own, or a face's (``extras["faces"]``)."""
        d = self.card(oid)
        face = d.extras.get("faces", {}).get(alt)
        return self.reg[face] if face else d

    def cast_chars(self, oid: int, alt: str = "") -> Chars:
        """The characteristics ``oid`` would have as a spell cast with ``alt``."""
        face = self.card(oid).extras.get("faces", {}).get(alt)
        o = self.state.objects[oid]
        if not face and not o.face_down:
            return self.chars(oid)
        # a face-down card (in exile) is cast face up: its own characteristics
        return printed(self.reg, msgspec.structs.replace(
            o, face_down=False, flags={"face": face} if face else o.flags))

    def cast_alts_from(self, player: int, oid: int) -> list[str] | None:
        """How ``player`` may cast ``oid`` from where it is: ``None`` (any way: their hand)
        or the alt costs that permissions allow (``""`` = normal), empty if none.  For a
        land card, ``""`` means they may play it."""
        o = self.state.objects.get(oid)
        if o is None:
            return []
        if o.zone == "hand" and o.owner == player:
            return None
        out: list[str] = []
        for fn in self.reg.cast_permissions:
            for alt in fn(self, player, oid) or ():
                if alt not in out:
                    out.append(alt)
        return out

    def _castable_elsewhere(self, player: int) -> list[tuple[int, list[str]]]:
        perms = self.reg.cast_permissions
        if not perms:
            return []
        s = self.state
        plan = self.reg.derived.get("permission_plan")
        zones = self.reg.cast_permission_zones
        if plan is None or plan[0] != (len(perms), len(zones)):  # what to ask, by zone
            everywhere = ("exile", "graveyard", "library")
            plan = self.reg.derived["permission_plan"] = ((len(perms), len(zones)), [
                (zone, asked) for zone in everywhere
                for asked in [[fn for fn in perms if zone in zones.get(fn, everywhere)]]
                if asked])
        out: list[tuple[int, list[str]]] = []
        for zone, asked in plan[1]:
            if zone == "exile" and not s.exile:
                continue
            if zone == "exile":
                # kept while the exiled cards, the characteristics and the turn stay
                out.extend(self.kept(self._chars_cache(),
                                     ("\0exiled", player, s.turn, tuple(s.exile)),
                                     "what player {0} may cast from exile",
                                     self._castable_in, player, s.exile, asked))
                continue
            ids = s.players[player].library[:1] if zone == "library" \
                else [o for p in s.players for o in p.graveyard] if zone == "graveyard" else []
            out.extend(self._castable_in(player, ids, asked))
        return out

    def _castable_in(self, player: int, ids: list[int], asked: list[Callable[..., Any]]
                     ) -> list[tuple[int, list[str]]]:
        """The cards among ``ids`` that permissions ``asked`` let ``player`` cast."""
        objs = self.state.objects
        out: list[tuple[int, list[str]]] = []
        for oid in ids:  # none in its owner's hand: :meth:`cast_alts_from`, inlined
            if oid not in objs:
                continue
            alts: list[str] = []
            for fn in asked:
                for alt in fn(self, player, oid) or ():
                    if alt not in alts:
                        alts.append(alt)
            if alts:
                out.append((oid, alts))
        return out

    def _auto_alt(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> str:
        """Casting at instant speed a spell that may be cast "as though it had flash" for
        an extra cost uses that cost (``extras["flash_alts"]``)."""
        o = self.state.objects.get(oid)
        if alt or o is None or o.zone == "stack" or o.card not in self.reg:
            return alt
        flash = self.card(oid).extras.get("flash_alts", ())
        if flash and not self._cast_timing_ok(player, oid, "", sorcery_ok):
            return str(flash[0])
        return alt

    def _cast_options(self, player: int, oid: int, c: Chars, sorcery_ok: bool,
                      sources: list[Source] | None, alts: list[str] | None = None
                      ) -> list[Any]:
        d0 = self.card(oid)
        out: list[Any] = []
        # the mana there is, against what the printed cost asks (nothing changes costs)
        avail = -1 if sources is None or "additional_cost" in d0.extras \
            or self.static_hooks("cost_change") \
            else len(self.state.players[player].mana) + len(sources)
        for alt in [""] + sorted(d0.alt_costs) if d0.alt_costs else ("",):
            if alts is not None and alt not in alts:
                continue
            if avail >= 0 and ManaCost.parse(d0.alt_costs[alt] if alt else d0.facts.mana_cost
                                             ).least_mana > avail:
                continue  # (what plan_payment would find, sooner)
            if not self._cast_timing_ok(player, oid, alt, sorcery_ok):
                continue
            cost = self.spell_cost(oid, alt)
            pool, srcs = self.payment(player, ("spell", oid)) if sources is None else \
                (self.state.players[player].mana, sources)
            xs = [0]
            if cost.x:
                xs = list(range(0, self.max_payable(player, cost, ("spell", oid), pool, srcs)
                                + 1))
            elif plan_payment(cost, pool, srcs) is None and \
                    self.plan_mana(player, cost, ("spell", oid)) is None:
                continue
            if self.cast_forbidden(player, oid, alt):
                continue
            d = self.cast_def(oid, alt)
            for modes in self._mode_choices(d):
                slots = self._spell_target_slots(d, modes)
                payable = [x for x in xs if not cost.x or
                           plan_payment(cost.with_x(x), pool, srcs) is not None
                           or self.plan_mana(player, cost.with_x(x), ("spell", oid))
                           is not None]
                by_x = {x: self._target_combos(player, oid, slots, x) for x in payable}
                seen: list[list[int]] = []
                for x in payable:
                    seen.extend(t for t in by_x[x] if t not in seen)
                for targets in seen:
                    for x in payable:
                        if targets in by_x[x]:
                            out.append(Cast(oid, tuple(targets), tuple(modes), x, alt))
        return out

    def _mode_choices(self, d: CardDef) -> list[list[int]]:
        sp = d.spell
        if sp is None or not sp.modes:
            return [[]]
        return [list(m) for m in combinations(range(1, len(sp.modes) + 1), sp.choose or 1)]

    def _spell_target_slots(self, d: CardDef, modes: list[int]) -> list[Target]:
        sp = d.spell
        if sp is None:
            ench = d.extras.get("enchant")
            return [ench] if ench is not None else []
        if sp.modes:
            return [t for m in modes for t in sp.modes[m - 1].targets]
        return list(sp.targets)

    @staticmethod
    def slot_count(t: Target, x: int = 0) -> int:
        """How many targets slot ``t`` takes (X for ``X_COUNT``)."""
        return x if t.count == X_COUNT else t.count

    def split_targets(self, slots: Sequence[Target], targets: Sequence[int], x: int = 0
                      ) -> list[list[int]]:
        """Which of ``targets`` fill each slot: a slot takes its count, an "up to" slot as
        many as the later required slots leave (CR 601.2c)."""
        out: list[list[int]] = []
        i = 0
        for k, t in enumerate(slots):
            n = self.slot_count(t, x)
            if t.up_to:
                later = sum(self.slot_count(u, x) for u in slots[k + 1:] if not u.up_to)
                n = max(0, min(n, len(targets) - i - later))
            out.append(list(targets[i:i + n]))
            i += n
        return out

    def target_combos(self, player: int, source: int, slots: Sequence[Target],
                      x: int = 0) -> list[list[int]]:
        """Every legal choice of targets ``player`` can make for ``slots`` of ``source``."""
        return self._target_combos(player, source, slots, x)

    def _target_combos(self, player: int, source: int, slots: Sequence[Target],
                       x: int = 0) -> list[list[int]]:
        if not slots:
            return [[]]
        per_slot: list[list[list[int]]] = []
        for t in slots:
            cands = self.target_candidates(player, source, t, x)
            count = self.slot_count(t, x)
            if count == 1 and not t.up_to:
                # (no more than the combinations kept: the first of the product need no more)
                opts = [[c] for c in cands[:MAX_TARGET_COMBOS]]
            else:
                lo = 0 if t.up_to else count  # ("any number of targets": a large count)
                opts = [list(cs) for cs in islice(
                    (cs for n in range(lo, min(count, len(cands)) + 1)
                     for cs in combinations(cands, n)), MAX_TARGET_COMBOS)]
            if not opts:
                return []
            per_slot.append(opts)
        out: list[list[int]] = []
        another = any(t.another for t in slots)
        for combo in product(*per_slot):
            if another and not _distinct_for_another(slots, combo):
                continue
            out.append([r for part in combo for r in part])
            if len(out) >= MAX_TARGET_COMBOS:
                break
        return out

    def target_candidates(self, player: int, source: int, t: Target, x: int | None = None
                          ) -> list[int]:
        """Objects and players that could be chosen for target slot ``t`` (with X ``x``;
        by default the X of ``source`` if it is a spell or ability on the stack)."""
        v = self.view()
        if x is None:
            x = next((it.x for it in self.state.stack if it.id == source), 0)
        v.x = x
        try:
            parts = getattr(t.filter, "parts", None)
            if parts and parts[0] is PERMANENT:
                # a filter of permanents (its first condition: "on the battlefield")
                # takes no player, stack item or card: only the permanents are asked
                out = self._candidates(v, player, source, t, True)
                self.confirm("{0.filter!r} accepts more than permanents", self._only_permanents,
                             t, v, player, source, out)
                return out
            return self._candidates(v, player, source, t, False)
        except Exception as exc:
            card, ability = self._target_owner(source, t)
            self.card_failed(exc, card, ability, "target filter")

    def _card_targets(self, cards: list[int], v: View, player: int, source: int, t: Target
                      ) -> list[int]:
        return [oid for oid in cards if t.filter(v, oid, player, source)]

    def _only_permanents(self, t: Target, v: View, player: int, source: int, out: list[int]
                         ) -> bool:
        return out == self._candidates(v, player, source, t, False)

    def _candidates(self, v: View, player: int, source: int, t: Target, permanents: bool
                    ) -> list[int]:
        """:meth:`target_candidates` (``v.x`` set): ``permanents``, only the permanents
        (for a filter that accepts nothing else)."""
        s = self.state
        out = [] if permanents else [player_ref(p) for p in range(len(s.players))
                                     if t.filter(v, player_ref(p), player, source)]
        reads = getattr(t.filter, "reads", None)
        kept = reads is not None and reads <= ALL_CHANGES
        cache = self._chars_cache() if kept else {}
        if kept:
            # it looks at characteristics only: the permanents it allows are kept while
            # the permanents and their characteristics stay (across taps, mana, steps)
            out.extend(self.kept(cache, ("\0targets", player, source, t.filter, v.x),
                                 "the permanents that are legal targets for {3.filter!r} (the "
                                 "filter reads more than it declares?)",
                                 self._permanent_targets, v, player, source, t))
        else:
            out.extend(self._permanent_targets(v, player, source, t))
        if permanents:
            return out
        for it in s.stack:
            if it.id != source and t.filter(v, it.id, player, source):
                out.append(it.id)
        cards = [oid for p in s.players for oid in p.graveyard]
        if cards and kept:  # (the cards there, by their printed characteristics)
            out.extend(self.kept(cache, ("\0graveyard", player, source, t.filter, v.x,
                                         tuple(cards)),
                                 "the cards in graveyards that are legal targets for {4.filter!r}",
                                 self._card_targets, cards, v, player, source, t))
        elif cards:
            out.extend(oid for oid in cards if t.filter(v, oid, player, source))
        return out

    def _permanent_targets(self, v: View, player: int, source: int, t: Target) -> list[int]:
        """The permanents ``player`` could choose for target slot ``t`` of ``source``."""
        return [oid for oid in self.state.battlefield
                if t.filter(v, oid, player, source) and self._can_target(player, oid, source)]

    def _target_owner(self, source: int, t: Target) -> tuple[str, Any]:
        """The card and ability whose target slot ``t`` is (``source``: the card, permanent
        or stack item choosing targets): for naming it in an error."""
        it = next((i for i in self.state.stack + self.state.pending if i.id == source), None)
        names = [card_of(it)] if it is not None else []
        o = self.state.objects.get(source)
        if o is not None:
            names += [o.card, self.chars(source).card] if o.zone == "battlefield" else [o.card]
        for name in names:
            d = self.reg.cards.get(name)
            for ab in d.abilities if d is not None else ():
                slots = list(getattr(ab, "targets", ())) + [
                    u for m in getattr(ab, "modes", ()) for u in m.targets]
                if any(u is t for u in slots):
                    return name, ab
            if d is not None and d.extras.get("enchant") is t:
                return name, None
        return (names[0] if names else self.name(source)), None

    def _can_target(self, player: int, oid: int, source: int) -> bool:
        c = self.chars(oid)
        if c.has(SHROUD):
            return False
        if c.has(HEXPROOF) and c.controller != player:
            return False
        if source and self.protected_from(oid, source):
            return False
        return True

    def protected_from(self, oid: int, source: int) -> bool:
        """Whether permanent ``oid`` has protection from a quality of ``source`` (CR 702.16):
        ``protection from enchantments`` (any card type, plural), ``from red``, ``from
        everything``."""
        if oid <= 0 or source <= 0 or oid == source:
            return False
        try:
            if not any(a.startswith("protection from ") for a in self.chars(oid).abilities):
                return False
            return self.protected_against(oid, self.chars(source))
        except KeyError:
            return False

    def protected_against(self, oid: int, sc: Chars) -> bool:
        """Whether ``oid`` has protection from something with characteristics ``sc``."""
        prots = [a[16:] for a in self.chars(oid).abilities if a.startswith("protection from ")]
        for q in prots:
            if q == "everything":
                return True
            if q.endswith("s") and q[:-1].capitalize() in sc.types:
                return True
            if COLOR_WORDS.get(q, "?") in sc.colors:
                return True
            if any(t and is_creature_type(t) and sc.has_subtype(t) for t in _singulars(q)):
                return True  # a creature type: "protection from Elves"
        return False

    def can_enchant(self, aura: int, host: int) -> bool:
        """Whether ``aura`` could legally be attached to ``host`` (its enchant quality and
        the host's protection: CR 303.4d, 702.16c)."""
        o = self.state.objects.get(aura)
        h = self.state.objects.get(host)
        if o is None or h is None or h.zone != "battlefield":
            return False
        ench = self.definition(aura).extras.get("enchant")
        try:
            if ench is not None and not ench.filter(self.view(), host,
                                                    self.chars(aura).controller, aura):
                return False
        except Exception as exc:
            self.card_failed(exc, self.definition(aura).name, None, "enchant restriction")
        return not self.protected_from(host, aura)

    def _activate_options(self, player: int, oid: int, idx: int, ab: Activated,
                          sorcery_ok: bool, sources: list[Source] | None) -> list[Any]:
        """The options to activate ability ``idx`` (``ab``) of ``oid``, every one made
        (what :meth:`_activations` makes as asked for: validated mode compares them)."""
        if ab.sorcery and not sorcery_ok:
            return []
        try:
            self._check_activation_costs(player, oid, ab, 0)
        except RulesError:
            return []
        o = self.state.objects[oid]
        xs = [0]
        if ab.cost.loyalty_x:
            xs = list(range(0, o.counters.get("loyalty", 0) + 1))
        cost = ManaCost.parse(ab.cost.mana)
        if cost.x:
            pool, srcs = self.payment(player, ("ability", oid)) if sources is None else \
                (self.state.players[player].mana, sources)
            xs = list(range(0, self.max_payable(player, cost, ("ability", oid), pool, srcs)
                            + 1))
        out: list[Any] = []
        for targets in self._target_combos(player, oid, ab.targets):
            for x in xs:
                out.append(Activate(oid, idx, tuple(targets), x))
        return out

    def _activations(self, player: int, oid: int, idx: int, ab: Activated,
                     sorcery_ok: bool, sources: list[Source] | None) -> Activations | None:
        """The options to activate ability ``idx`` (``ab``) of ``oid`` as a family, its
        options made as they are asked for (``None`` if there are none); the same
        options as :meth:`_activate_options`, in the same order."""
        if ab.sorcery and not sorcery_ok:
            return None
        try:
            self._check_activation_costs(player, oid, ab, 0)
        except RulesError:
            return None
        xs = [0]
        if ab.cost.loyalty_x:
            xs = list(range(0, self.state.objects[oid].counters.get("loyalty", 0) + 1))
        cost = ManaCost.parse(ab.cost.mana)
        if cost.x:
            pool, srcs = self.payment(player, ("ability", oid)) if sources is None else \
                (self.state.players[player].mana, sources)
            xs = list(range(0, self.max_payable(player, cost, ("ability", oid), pool, srcs)
                            + 1))
        slots = ab.targets
        if len(slots) == 1 and slots[0].count == 1 and not slots[0].up_to:
            single = self.target_candidates(player, oid, slots[0], 0)  # (_target_combos's)
            f = Activations(oid, idx, xs, single, None)
        else:
            f = Activations(oid, idx, xs, None, self._target_combos(player, oid, slots))
        return f if f.count else None


def _distinct_for_another(slots: Sequence[Target], chunks: Sequence[Sequence[int]]) -> bool:
    """Whether no "another target" slot took an object a slot before it took (CR 115.3)."""
    before: list[int] = []
    for t, chunk in zip(slots, chunks, strict=True):
        if t.another and any(r in before for r in chunk):
            return False
        before.extend(chunk)
    return True
