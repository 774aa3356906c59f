"""Lorwyn cards whose whole Oracle text the kernel can express directly.

Vanilla and keyword-only creatures, simple spells, simple triggered and
activated abilities, lords and Auras.  Cards with clash, champion, evoke,
hideaway, changeling or a tribal type, the Commands, the Incarnations and
the planeswalkers are defined elsewhere (Thoughtseize, too, lives with the
Incarnations, whose primer example uses it).  A card is only defined here if
*everything* its Oracle text says is implemented.

The two built-in decks are at the bottom (:data:`DECKS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mtgk.cards.definitions import Effect, Static, Target, Triggered
from mtgk.cards.dsl import (
    activated,
    at_upkeep,
    attacks,
    casts,
    controller,
    counter,
    create,
    damage,
    destroy,
    dies,
    discard_a_card,
    draw,
    enchanted,
    etb,
    gain_life,
    gets_and_has,
    leaves,
    lord,
    mana_ability,
    may,
    me,
    modal,
    mode,
    pt_and_grant_layers,
    pump,
    return_exiled,
    return_to_hand,
    self_pump,
    sequence,
    spell,
    static,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    TYPES,
    Filter,
    card_in_graveyard,
    creature,
    creature_or_player,
    exists,
    kind,
    matching,
    nonland_permanent,
    opponent,
    permanent,
    player,
)
from mtgk.cards.filters import spell as a_spell
from mtgk.log import events as ev
from mtgk.rules.layers import View
from mtgk.rules.mana import ManaCost
from mtgk.rules.state import stack_item

from .cards import S

_EARLIER = set(S.defs)

# ======================================================================== filters

attacking_or_blocking = creature.where(
    lambda v, r, y, s: v.state.combat is not None
    and (r in v.state.combat.attackers or r in v.state.combat.blockers),
    "attacking_or_blocking()")
with_flying = creature.with_ability("flying")
without_flying = creature.without_ability("flying")
creature_card_in_your_graveyard = card_in_graveyard.with_type("Creature").you_own()
forest = permanent.with_subtype("Forest")
forest_card = Filter(lambda v, r, y, s: v.chars(r).has_subtype("Forest"), "forest_card",
                     TYPES)


def count(v: View, f: Filter, you: int, source: int) -> int:
    """How many permanents ``f`` accepts (from the point of view of ``you``)."""
    return len(matching(v, f, you, source))


class Condition:
    """A condition on a static ability's source (``cond(view, source)``) that knows the
    characteristics it looks at (``reads``, see ``mtgk.cards.filters.Reads``); ``~cond`` is
    its negation."""

    def __init__(self, test: Callable[[View, int], bool], reads: frozenset[str] | None,
                 desc: str = "condition") -> None:
        self.test = test
        self.reads = reads
        self.desc = desc

    def __call__(self, v: View, src: int) -> bool:
        return self.test(v, src)

    def __invert__(self) -> Condition:
        t = self.test
        return Condition(lambda v, src: not t(v, src), self.reads, f"~{self.desc}")

    def __repr__(self) -> str:
        return self.desc


def you_control(f: Filter) -> Condition:
    """"As long as you control a [f]": a condition on the source."""
    g = f.you_control()
    return Condition(lambda v, src: exists(v, g, controller(v, src), src), g.reads,
                     f"you_control({f!r})")


def stack_mana_value(v: View, r: int) -> int:
    """A spell's mana value on the stack, X included (CR 202.3b)."""
    o = v.obj(r)
    it = stack_item(v.state, r)
    x = it.x if it is not None else 0
    cost = ManaCost.parse(v.reg[o.card].facts.mana_cost)
    return v.chars(r).mana_value + x * cost.x


# ======================================================================== effects

def counter_on_me(n: int | Callable[[Ctx], int] = 1) -> Effect:
    """"Put N +1/+1 counters on ~"."""
    return lambda c: c.put_counters(me(c), "+1/+1", n(c) if callable(n) else n)


def tap(to: int = 0) -> Effect:
    return lambda c: c.tap(c.target(to))


def tap_or_untap(to: int = 0) -> Effect:
    """"(You may) tap or untap target permanent": the controller chooses (or neither)."""
    def eff(c: Ctx) -> None:
        t = c.target(to)
        if t is None:
            return
        choice = c.choose(["tap", "untap", "neither"], prompt=f"tap or untap {c.game.name(t)}?")
        if choice == "tap":
            c.tap(t)
        elif choice == "untap":
            c.untap(t)
    return eff


def counters(n: int | Callable[[Ctx], int], to: int = 0) -> Effect:
    """Put ``n`` +1/+1 counters on target number ``to``."""
    def eff(c: Ctx) -> None:
        c.put_counters(c.target(to), "+1/+1", n(c) if callable(n) else n)
    return eff


def each_creature(f: Filter, power: int, toughness: int) -> Effect:
    """"All [f] creatures get +P/+T until end of turn" (affected set locked in now)."""
    def eff(c: Ctx) -> None:
        objs = c.objects(f)
        if objs:
            c.until_end_of_turn("pt", objs, [power, toughness])
    return eff


def damage_each(f: Filter, n: int | Callable[[Ctx], int]) -> Effect:
    """"~ deals N damage to each [f]"."""
    def eff(c: Ctx) -> None:
        amount = n(c) if callable(n) else n
        for oid in c.objects(f):
            c.damage(oid, amount)
    return eff


def search_library(c: Ctx, f: Filter, up_to: int = 1) -> list[int]:
    """Search your library for up to ``up_to`` cards ``f`` accepts (may find none)."""
    found = [o for o in c.objects(f.you_own(), zone="library")]
    if not found:
        return []
    return list(c.choose(found, kind="search", prompt="search your library", count=up_to,
                         up_to=True))


def harbinger(f: Filter) -> Effect:
    """"You may search your library for a [f] card, reveal it, then shuffle and put that
    card on top." (the Harbinger cycle)"""
    def eff(c: Ctx) -> None:
        if not c.may("search your library?"):
            return
        picked = search_library(c, f)
        c.reveal(c.you, picked)
        c.shuffle()
        for oid in picked:
            c.put_on_library(oid)
    return eff


def lose_life(n: int, to: int = 0) -> Effect:
    """Target player loses ``n`` life."""
    def eff(c: Ctx) -> None:
        t = c.target(to)
        if t is not None:
            c.lose_life(ev.ref_player(t), n)
    return eff


# ======================================================================== abilities

def as_long_as(cond: Callable[[View, int], bool], power: int = 0, toughness: int = 0,
               grant: Sequence[str] = ()) -> Static:
    """"As long as [cond], ~ gets +P/+T and has [abilities]"."""
    def effects(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
        return gets_and_has([src], power, toughness, grant) if cond(v, src) else []
    return static(effects, f"as long as {cond!r}" if isinstance(cond, Condition)
                  else "as long as ...", pt_and_grant_layers(power, toughness, grant),
                  getattr(cond, "reads", None), scope="self")


def becomes_tapped(f: Filter | None, effect: Effect, *targets: Target) -> Triggered:
    """"Whenever ~ becomes tapped" (``f`` None) or "Whenever a [f] you control becomes
    tapped"."""
    def when(v: View, src: int, e: Any) -> bool:
        if e.entering:  # entering the battlefield tapped is not becoming tapped
            return False
        if f is None:
            return bool(e.obj == src)
        return f.you_control()(v, e.obj, controller(v, src), src)
    return triggered(ev.Tapped, when, effect, *targets, text="becomes tapped")


def enters(f: Filter, effect: Effect, *targets: Target) -> Triggered:
    """"Whenever a [f] enters the battlefield" (``f`` seen by the source's controller)."""
    def when(v: View, src: int, e: Any) -> bool:
        new = ev.entered(e)
        return bool(new) and f(v, new, controller(v, src), src)
    return triggered([ev.ZoneChanged, ev.LandPlayed, ev.TokenCreated], when, effect, *targets,
                     text="enters")


def put_into_graveyard_from_battlefield(cond: Callable[[View, int, Any], bool], effect: Effect,
                                        *targets: Target) -> Triggered:
    """"Whenever a [cond] is put into a graveyard from the battlefield" (looks back)."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.from_zone == "battlefield" and e.to_zone == "graveyard"
                    and e.obj in v.state.objects and cond(v, src, e))
    return triggered(ev.ZoneChanged, when, effect, *targets, look_back=True,
                     text="put into a graveyard from the battlefield")


# The tokens these cards create are the core set's (cardsets/core/tokens.json).


# ======================================================================== white

S.vanilla("Knight of Meadowgrain",  # first strike, lifelink
          "Plover Knights",  # flying, first strike
          "Hillcomber Giant")  # mountainwalk


def _highest_life(c: Ctx) -> None:
    """Each player's life total becomes the highest life total among all players."""
    players = c.state.players
    high = max(players[p].life for p in c.players())
    for p in c.players():  # (a Two-Headed Giant team's life: raised once, for both)
        c.gain_life(p, high - players[p].life)


def _cenns_heir(c: Ctx) -> None:
    """It gets +1/+1 until end of turn for each other attacking Kithkin."""
    n = c.count(kind("Kithkin").creature.attacking().other())
    self_pump(n, n)(c)


def _exile_target(c: Ctx) -> None:
    """Exile target (linked to this permanent, for its leaves-the-battlefield ability)."""
    c.exile(c.target(), linked=True)


def _untap_enchanted(c: Ctx) -> None:
    o = c.state.objects.get(c.source)
    if o is not None and o.zone == "battlefield" and o.attached_to:
        c.untap(o.attached_to)


def _merfolk_you_control(c: Ctx) -> int:
    return c.count(kind("Merfolk").you_control())


S.card("Arbiter of Knollridge", etb(_highest_life))
S.card("Cenn's Heir", attacks(_cenns_heir))
S.card("Goldmeadow Harrier", activated("{W}, {T}", tap(), target(creature)))
S.card("Harpoon Sniper",
       activated("{W}, {T}", damage(_merfolk_you_control), target(attacking_or_blocking)))
S.card("Kinsbaile Balloonist",
       attacks(may(pump(0, 0, grant=["flying"])), target(creature)))
S.card("Kinsbaile Skirmisher", etb(pump(1, 1), target(creature)))
S.card("Kithkin Greatheart",
       as_long_as(you_control(kind("Giant")), 1, 1, grant=["first strike"]))
S.card("Kithkin Harbinger", etb(harbinger(kind("Kithkin").card)))
S.card("Judge of Currents", becomes_tapped(kind("Merfolk"), may(gain_life(1))))
S.card("Neck Snap", spell(destroy(), target(attacking_or_blocking)))
S.card("Oblivion Ring",
       etb(_exile_target, target(nonland_permanent.other())),
       leaves(return_exiled))
S.card("Veteran of the Depths",
       becomes_tapped(None, may(counter_on_me())))
S.card("Wizened Cenn", lord(kind("Kithkin").creature.other().you_control(), 1, 1))

# Auras
S.card("Battle Mastery", enchanted(grant=["double strike"]), enchant=target(creature))
S.card("Soaring Hope",
       etb(gain_life(3)),
       enchanted(grant=["flying"]),
       activated("{W}", lambda c: c.put_on_library(c.source)),
       enchant=target(creature))
S.card("Triclopean Sight",  # flash
       etb(_untap_enchanted),
       enchanted(1, 1, grant=["vigilance"]),
       enchant=target(creature))


# ======================================================================== blue

S.vanilla("Sentinels of Glen Elendra")  # flash, flying


def _merfolk_and_faeries(c: Ctx) -> int:
    return c.count(kind("Merfolk", "Faerie").you_control())


_your_faeries = kind("Faerie").you_control()


def _faeries_you_control(v: View, you: int, src: int) -> int:
    return count(v, _your_faeries, you, src)


spell_mv_at_most_faeries = a_spell.where(
    lambda v, r, y, s: stack_mana_value(v, r) <= _faeries_you_control(v, y, s),
    "mana_value_at_most(Faeries you control)")

S.card("Deeptread Merrow", activated("{U}", self_pump(0, 0, grant=["islandwalk"])))
S.card("Faerie Harbinger", etb(harbinger(kind("Faerie").card)))  # flash, flying
S.card("Fallowsage", becomes_tapped(None, may(draw(1))))
S.card("Glen Elendra Pranksters",  # flying
       casts(a_spell, may(return_to_hand()), target(creature.you_control()),
             opponents_turn=True))
S.card("Merrow Harbinger", etb(harbinger(kind("Merfolk").card)))  # islandwalk
S.card("Merrow Reejerey",
       lord(kind("Merfolk").creature.other().you_control(), 1, 1),
       casts(kind("Merfolk").spell, tap_or_untap(), target(permanent)))
S.card("Pestermite", etb(tap_or_untap(), target(permanent)))  # flash, flying
S.card("Scion of Oona",  # flash, flying
       lord(kind("Faerie").creature.other().you_control(), 1, 1),
       lord(kind("Faerie").other().you_control(), 0, 0, grant=["shroud"]))
S.card("Silvergill Douser",
       activated("{T}", lambda c: pump(-_merfolk_and_faeries(c), 0)(c), target(creature)))
S.card("Spellstutter Sprite",  # flash, flying
       etb(counter(), target(spell_mv_at_most_faeries)))
S.card("Stonybrook Angler", activated("{1}{U}, {T}", tap_or_untap(), target(creature)))
S.card("Zephyr Net", enchanted(grant=["defender", "flying"]), enchant=target(creature))


# ======================================================================== black

S.vanilla("Moonglove Winnower",  # deathtouch
          "Nath's Buffoon")  # protection from Elves


def _thieving_sprite(c: Ctx) -> None:
    """Target player reveals X cards from their hand, where X is the number of Faeries you
    control. You choose one of those cards. That player discards that card."""
    t = c.target()
    if t is None:
        return
    p = ev.ref_player(t)
    assert p is not None
    x = c.count(kind("Faerie").you_control())
    hand = list(c.state.players[p].hand)
    if x <= 0 or not hand:
        return
    shown = c.choose(hand, kind="reveal", player=p, prompt=f"reveal {x} cards",
                     count=min(x, len(hand)))
    c.reveal(p, shown)
    c.discard(p, c.choose(shown, kind="discard", prompt="choose a card to discard"))


def _warren_pilferers(c: Ctx) -> None:
    """Return target creature card from your graveyard to your hand. If that card is a
    Goblin card, Warren Pilferers gains haste until end of turn."""
    t = c.target()
    if t is None:
        return
    goblin = c.chars(t).has_subtype("Goblin")
    c.bounce(t)
    if goblin:
        self_pump(0, 0, grant=["haste"])(c)


S.card("Dreamspoiler Witches",  # flying
       casts(a_spell, may(pump(-1, -1)), target(creature),
             opponents_turn=True))
S.card("Exiled Boggart", dies(lambda c: discard_a_card(c, c.you)))  # you discard a card
S.card("Final Revels", modal(1, mode("All creatures get +2/+0", each_creature(creature, 2, 0)),
                             mode("All creatures get -0/-2", each_creature(creature, 0, -2))))
S.card("Hornet Harasser", dies(pump(-2, -2), target(creature)))
S.card("Hunter of Eyeblights",
       etb(counters(1), target(creature.opponent_controls())),
       activated("{2}{B}, {T}", destroy(),
                 target(creature.where(lambda v, r, y, s: bool(v.obj(r).counters),
                                       "with_a_counter()"))))
S.card("Knucklebone Witch",
       put_into_graveyard_from_battlefield(
           lambda v, src, e: v.chars(e.obj).has_subtype("Goblin")
           and v.chars(e.obj).controller == controller(v, src),
           may(counter_on_me())))
S.card("Boggart Harbinger", etb(harbinger(kind("Goblin").card)))
S.card("Nectar Faerie",  # flying
       activated("{B}, {T}", pump(0, 0, grant=["lifelink"]), target(kind("Faerie", "Elf"))))
S.card("Quill-Slinger Boggart",
       casts(kind("Kithkin").spell, may(lose_life(1)), target(player), who="any"))
S.card("Spiderwig Boggart", etb(pump(0, 0, grant=["fear"]), target(creature)))
S.card("Thieving Sprite", etb(_thieving_sprite, target(player)))  # flying
S.card("Thorntooth Witch", casts(kind("Treefolk").spell, may(pump(3, -3)), target(creature)))
S.card("Warren Pilferers", etb(_warren_pilferers, target(creature_card_in_your_graveyard)))


# ======================================================================== red

S.vanilla("Axegrinder Giant",
          "Warren-Scourge Elf")  # protection from Goblins (a creature type: kernel)


def _giants_you_control(c: Ctx) -> int:
    return c.count(kind("Giant").you_control())


def _target_player_shuffles(c: Ctx) -> None:
    t = c.target()
    if t is not None:
        c.shuffle(ev.ref_player(t))


def _goatnapper(c: Ctx) -> None:
    """Untap target Goat and gain control of it until end of turn. It gains haste until end
    of turn."""
    t = c.target()
    if t is None:
        return
    c.untap(t)
    c.gain_control(t, until_eot=True)
    c.until_end_of_turn("grant", [t], ["haste"])


def _entered_power(c: Ctx) -> int:
    """The power of the creature whose entering triggered this ability (last known)."""
    new = ev.entered(c.event) if c.event is not None else 0
    return c.power(new) if new else 0


S.card("Boggart Forager",
       activated("{R}, Sacrifice ~", _target_player_shuffles, target(player)))
S.card("Boggart Sprite-Chaser", as_long_as(you_control(kind("Faerie")), 1, 1, grant=["flying"]))
S.card("Caterwauling Boggart", lord(kind("Goblin", "Elemental").you_control(), 0, 0,
                                    grant=["menace"]))
S.card("Flamekin Brawler", activated("{R}", self_pump(1, 0)))
S.card("Flamekin Harbinger", etb(harbinger(kind("Elemental").card)))
S.card("Flamekin Spitfire", activated("{3}{R}", damage(1), target(creature_or_player)))
S.card("Giant Harbinger", etb(harbinger(kind("Giant").card)))
S.card("Goatnapper", etb(_goatnapper, target(kind("Goat"))))
S.card("Hamletback Goliath",
       enters(creature.other(), may(counter_on_me(_entered_power))))
S.card("Hurly-Burly", modal(1, mode("1 damage to each creature without flying",
                                    damage_each(without_flying, 1)),
                            mode("1 damage to each creature with flying",
                                 damage_each(with_flying, 1))))
S.card("Mudbutton Torchrunner", dies(damage(3), target(creature_or_player)))
S.card("Sunrise Sovereign", lord(kind("Giant").creature.other().you_control(), 2, 2,
                                 grant=["trample"]))
S.card("Thundercloud Shaman", etb(damage_each(~kind("Giant").creature & creature,
                                              _giants_you_control)))


# ======================================================================== green

S.vanilla("Cloudcrown Oak",  # reach
          "Oakgnarl Warrior")  # vigilance, trample


_your_elves = kind("Elf").you_control()
_your_forests = forest.you_control()
_your_treefolk = kind("Treefolk").you_control()


def _elves_you_control(v: View, src: int) -> tuple[int, int]:
    """Power and toughness are each equal to the number of Elves you control."""
    n = count(v, _your_elves, controller(v, src), src)
    return n, n


def _forests_and_treefolk(v: View, src: int) -> tuple[int, int]:
    """Power and toughness are each equal to the number of Forests you control plus the
    number of Treefolk you control."""
    me = controller(v, src)
    n = count(v, _your_forests, me, src) + count(v, _your_treefolk, me, src)
    return n, n


def _incremental_growth(c: Ctx) -> None:
    """Put a +1/+1 counter on target creature, two +1/+1 counters on another target
    creature, and three +1/+1 counters on a third target creature."""
    for i in range(3):
        c.put_counters(c.target(i), "+1/+1", i + 1)


def _seedguide_ash(c: Ctx) -> None:
    """You may search your library for up to three Forest cards, put them onto the
    battlefield tapped, then shuffle."""
    if not c.may("search your library for Forests?"):
        return
    c.put_all_onto_battlefield(search_library(c, forest_card, up_to=3), tapped=True)
    c.shuffle()


def _elf_cards_in_your_graveyard(c: Ctx) -> int:
    return len(c.objects(kind("Elf").card.you_own(), zone="graveyard"))


S.card("Battlewand Oak",
       enters(forest.you_control(), self_pump(2, 2)),
       casts(kind("Treefolk").spell, self_pump(2, 2)))
S.card("Dauntless Dourbark",
       as_long_as(you_control(kind("Treefolk").other()), grant=["trample"]),
       pt=_forests_and_treefolk, pt_reads=())
S.card("Elvish Eulogist",
       activated("Sacrifice ~", lambda c: c.gain_life(c.you, _elf_cards_in_your_graveyard(c))))
S.card("Elvish Handservant",
       casts(kind("Giant").spell, may(counter_on_me()), who="any"))
S.card("Elvish Harbinger", etb(harbinger(kind("Elf").card)), mana_ability("WUBRG"))
S.card("Epic Proportions",  # flash
       enchanted(5, 5, grant=["trample"]), enchant=target(creature))
S.card("Immaculate Magistrate",
       activated("{T}", counters(lambda c: c.count(kind("Elf").you_control())),
                 target(creature)))
S.card("Imperious Perfect",
       lord(kind("Elf").other().you_control(), 1, 1),
       activated("{G}, {T}", create("Elf Warrior")))
S.card("Incremental Growth", spell(_incremental_growth, target(creature, count=3)))
S.card("Jagged-Scar Archers",
       activated("{T}", damage(lambda c: c.power(c.source)), target(with_flying)),
       pt=_elves_you_control, pt_reads=())
S.card("Kithkin Daggerdare",
       activated("{G}, {T}", pump(2, 2), target(creature.attacking())))
S.card("Kithkin Mourncaller",
       put_into_graveyard_from_battlefield(
           lambda v, src, e: v.obj(e.obj).owner == controller(v, src)
           and v.state.combat is not None and e.obj in v.state.combat.attackers
           and (v.chars(e.obj).has_subtype("Kithkin") or v.chars(e.obj).has_subtype("Elf")),
           may(draw(1))))
S.card("Lace with Moonglove", spell(sequence(pump(0, 0, grant=["deathtouch"]), draw(1)),
                                    target(creature)))
S.card("Leaf Gilder", mana_ability("G"))
S.card("Lys Alana Huntmaster", casts(kind("Elf").spell, may(create("Elf Warrior"))))
S.card("Seedguide Ash", dies(_seedguide_ash))
S.card("Timber Protector",
       lord(kind("Treefolk").creature.other().you_control(), 1, 1),
       lord((kind("Treefolk") | forest).other().you_control(), 0, 0, grant=["indestructible"]))
S.card("Treefolk Harbinger", etb(harbinger(kind("Treefolk").card | forest_card)))


# ======================================================================== multicolour

def _discard_at_random(c: Ctx) -> None:
    t = c.target()
    if t is None:
        return
    p = ev.ref_player(t)
    assert p is not None
    hand = list(c.state.players[p].hand)
    if hand:
        c.discard(p, hand[c.game.rng("discard-at-random").randrange(len(hand))])


def _opponent_discards(v: View, src: int, e: Any) -> bool:
    if e.reason != "discard" or e.from_zone != "hand" or e.new_obj not in v.state.objects:
        return False
    return bool(v.obj(e.new_obj).owner != controller(v, src))


S.card("Nath of the Gilt-Leaf",
       at_upkeep(may(_discard_at_random), target(opponent)),
       triggered(ev.ZoneChanged, _opponent_discards, may(create("Elf Warrior")),
                 text="an opponent discards"))
S.card("Wort, Boggart Auntie",  # fear
       at_upkeep(may(return_to_hand()),
                 target(kind("Goblin").card.in_zone("graveyard").you_own())))
S.card("Wydwen, the Biting Gale",  # flash, flying
       activated("{U}{B}, Pay 1 life", lambda c: c.bounce(c.source)))


# ======================================================================== artifacts

def _wanderers_twig(c: Ctx) -> None:
    """Search your library for a basic land card, reveal it, put it into your hand, then
    shuffle."""
    basic = Filter(lambda v, r, y, s: "Basic" in v.chars(r).supertypes
                   and "Land" in v.chars(r).types, "basic_land_card")
    picked = search_library(c, basic)
    c.reveal(c.you, picked)
    c.game.move_all(picked, "hand", reason="search")
    c.shuffle()


S.card("Moonglove Extract", activated("Sacrifice ~", damage(2), target(creature_or_player)))
S.card("Wanderer's Twig", activated("{1}, Sacrifice ~", _wanderers_twig))


# ======================================================================== decks

DECKS: dict[str, str] = {
    "Lorwyn Giants & Treefolk": """\
# Red/green beatdown: Treefolk and Giants, with Leaf Gilder for mana.
10 Forest
7 Mountain
3 Leaf Gilder
2 Mudbutton Torchrunner
2 Battlewand Oak
3 Dauntless Dourbark
1 Cloudcrown Oak
1 Giant Harbinger
2 Flamekin Spitfire
2 Thundercloud Shaman
2 Timber Protector
2 Axegrinder Giant
1 Sunrise Sovereign
1 Hamletback Goliath
1 Oakgnarl Warrior
""",
    "Lorwyn Kithkin & Faerie Flyers": """\
# White/blue: Kithkin on the ground, Faeries in the air.
10 Plains
7 Island
3 Knight of Meadowgrain
2 Wizened Cenn
2 Kinsbaile Balloonist
1 Kinsbaile Skirmisher
3 Pestermite
2 Spellstutter Sprite
2 Scion of Oona
3 Sentinels of Glen Elendra
2 Plover Knights
2 Oblivion Ring
1 Neck Snap
""",
}


for _name, _text in DECKS.items():
    S.deck(_name, _text)

#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
