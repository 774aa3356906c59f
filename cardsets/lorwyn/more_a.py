"""Lorwyn cards, group A: the "reveal a [type] card or pay {3}" cycle and other additional
costs, then Ashling the Pilgrim ... Forced Fruition.

Oracle wordings, with the 2007 rules where they differ: Brion Stoutarm targets a player
(its printed "target player"; today's Oracle adds "or planeswalker").  Mechanics shared
with other cards live in plugins: additional costs to cast a spell
(:mod:`mtgk.plugins.reveal_cost`), extra activation costs and restrictions
(:mod:`mtgk.plugins.costs`), Equipment (:mod:`mtgk.plugins.equipment`), damage prevention
(:mod:`mtgk.plugins.prevention`), what happened this turn or while costs were paid
(:mod:`mtgk.plugins.history`), choices made as a permanent enters and permanents entering
tapped (:mod:`mtgk.plugins.enters`), additional mana from tapping a land (:mod:`mtgk.plugins.extra_mana`),
playing cards exiled with a permanent and "one spell each turn" (:mod:`mtgk.plugins.play_exiled`:
Colfenor's Plans; "Skip your draw step" is the kernel's ``SKIP_DRAW``).
Rules the engine reads by name: "can't attack", Doran's "assigns combat damage by
toughness" (``mtgk.cards.dsl.RULES_ABILITIES``).

Known limit: Ceaseless Searblades triggers on activated abilities that use the stack
(loyalty abilities too); mana abilities of Elementals, which the engine activates while
paying costs, don't trigger it.

Cards of this group that are not defined are listed in ``SKIPPED`` with the reason.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import (
    activated,
    casts,
    controller,
    counter,
    create,
    destroy,
    draw,
    each_step,
    etb,
    exiled_with,
    has,
    me,
    self_pump,
    spell,
    static,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    card_in_graveyard,
    creature,
    kind,
    land,
    permanent,
    player,
)
from mtgk.cards.filters import spell as a_spell
from mtgk.log import events as ev
from mtgk.plugins.costs import ability, cost, tap_untapped
from mtgk.plugins.enters import choose_as_enters, chosen, enters_tapped_if
from mtgk.plugins.equipment import equip, equipped
from mtgk.plugins.extra_mana import enchanted_land_adds
from mtgk.plugins.history import no_more_than, resolutions_this_turn, sacrificed_for_cost
from mtgk.plugins.incarnations import Prevent
from mtgk.plugins.play_exiled import ONE_SPELL, PLAY_EXILED, SKIP_DRAW, exile_top_face_down
from mtgk.plugins.prevention import prevent_all_from
from mtgk.plugins.reveal_cost import return_a, reveal_or_pay, sacrifice_a
from mtgk.plugins.scry import put_on_bottom_in_any_order
from mtgk.rules.layers import View

from .cards import S
from .simple import (
    as_long_as,
    attacking_or_blocking,
    you_control,
)

_EARLIER = set(S.defs)

SKIPPED: dict[str, str] = {}


# ======================================================================== additional costs

S.card("Goldmeadow Stalwart", additional_cost=reveal_or_pay("Kithkin"))
S.card("Silvergill Adept", etb(draw(1)), additional_cost=reveal_or_pay("Merfolk"))
S.card("Squeaking Pie Sneak", additional_cost=reveal_or_pay("Goblin"))  # fear
S.card("Flamekin Bladewhirl", additional_cost=reveal_or_pay("Elemental"))
S.card("Wren's Run Vanquisher", additional_cost=reveal_or_pay("Elf"))  # deathtouch


def _fodder_launch(c: Ctx) -> None:
    """Target creature gets -5/-5 until end of turn. Fodder Launch deals 5 damage to that
    creature's controller."""
    t = c.target(0)
    if t is None:
        return
    who = c.controller_of(t)
    c.until_end_of_turn("pt", [t], [-5, -5])
    if who is not None:
        c.damage(ev.player_ref(who), 5)


S.card("Fodder Launch", spell(_fodder_launch, target(creature)),
       additional_cost=sacrifice_a(kind("Goblin"), "a Goblin"))

S.card("Familiar's Ruse", spell(counter(), target(a_spell)),
       additional_cost=return_a(creature, "a creature you control"))


# ======================================================================== Ashling the Pilgrim

def _ashling(c: Ctx) -> None:
    """Put a +1/+1 counter on ~. If this is the third time this ability has resolved this
    turn, remove all +1/+1 counters from ~, and it deals that much damage to each
    creature and each player."""
    src = me(c)
    c.put_counters(src, "+1/+1", 1)
    if resolutions_this_turn(c) != 2:
        return
    n = c.state.objects[src].counters.get("+1/+1", 0) if src is not None else 0
    c.remove_counters(src, "+1/+1", n)
    for oid in c.objects(creature):
        c.damage(oid, n)
    for p in c.players():
        c.damage(ev.player_ref(p), n)


S.card("Ashling the Pilgrim", activated("{1}{R}", _ashling))


# As Ashling's Prerogative enters the battlefield, choose odd or even. Each creature with
# mana value of the chosen quality has haste. Each creature without mana value of the
# chosen quality enters the battlefield tapped.
def _of_chosen_quality(v: View, src: int, oid: int) -> bool:
    return v.chars(oid).mana_value % 2 == (1 if chosen(v, src) == "odd" else 0)


def _prerogative_haste(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    if chosen(v, src) is None:
        return []
    fast = [o for o in v.state.battlefield if v.chars(o).is_creature
            and _of_chosen_quality(v, src, o)]
    return [("6", "grant", fast, ["haste"])] if fast else []


S.card("Ashling's Prerogative",
       static(_prerogative_haste, "creatures of the chosen quality have haste", ("6",)),
       enters_tapped_if(lambda v, src, o: chosen(v, src) is not None and v.chars(o).is_creature
                        and not _of_chosen_quality(v, src, o),
                        "creatures not of the chosen quality enter tapped"),
       as_enters=choose_as_enters(["odd", "even"], "choose odd or even"))


# ======================================================================== B


def _benthicore(c: Ctx) -> None:
    """Untap ~. It gains shroud until end of turn."""
    src = me(c)
    c.untap(src)
    if src is not None:
        c.until_end_of_turn("grant", [src], ["shroud"])


S.card("Benthicore",
       etb(create("Merfolk Wizard", 2)),
       ability(cost("", tap_untapped(kind("Merfolk"), 2, "two untapped Merfolk")), _benthicore))

# ~ can't attack or block unless you control another Giant.
S.card("Blind-Spot Giant",
       as_long_as(~you_control(kind("Giant").other()),
                  grant=["can't attack", "can't block"]))


def _may_pay_g_to_gain_two(c: Ctx) -> None:
    """You may pay {G}. If you do, you gain 2 life."""
    if c.pay(c.you, "{G}", prompt="pay {G} to gain 2 life?"):
        c.gain_life(c.you, 2)


S.card("Bog-Strider Ash",  # swampwalk
       casts(kind("Goblin").spell, _may_pay_g_to_gain_two, who="any"))

S.card("Boggart Loggers",  # forestwalk
       activated("{2}{B}, Sacrifice ~", destroy(),
                 target(kind("Treefolk") | permanent.with_subtype("Forest"))))


def _brigid(c: Ctx) -> None:
    """~ deals 2 damage to each attacking or blocking creature target player controls."""
    who = c.controller_of(c.target(0))
    for oid in c.objects(attacking_or_blocking):
        if c.chars(oid).controller == who:
            c.damage(oid, 2)


S.card("Brigid, Hero of Kinsbaile",  # first strike
       activated("{T}", _brigid, target(player)))


def _brion(c: Ctx) -> None:
    """~ deals damage equal to the sacrificed creature's power to target player."""
    for oid in sacrificed_for_cost(c):
        c.damage(c.target(0), c.power(oid))


S.card("Brion Stoutarm",  # lifelink
       activated("{R}, {T}, Sacrifice another creature", _brion, target(player)))


def _forge_tender(c: Ctx) -> None:
    """Prevent all damage a red source of your choice would deal this turn."""
    v = c.game.view()
    red = [o for o in list(c.state.battlefield) + [it.id for it in c.state.stack
                                                   if it.kind == "spell"]
           if "R" in v.chars(o).colors]
    if red:
        prevent_all_from(c, c.choose(red, prompt="choose a red source"))


S.card("Burrenton Forge-Tender",  # protection from red
       activated("Sacrifice ~", _forge_tender))


# ======================================================================== C

def _activated_an_elemental(v: View, src: int, e: Any) -> bool:
    """Whenever you activate an ability of an Elemental ..."""
    return bool(e.controller == controller(v, src) and e.source in v.state.objects
                and v.chars(e.source).has_subtype("Elemental"))


S.card("Ceaseless Searblades",
       triggered(ev.AbilityActivated, _activated_an_elemental, self_pump(1, 0),
                 text="whenever you activate an ability of an Elemental"))

S.card("Cloudgoat Ranger",
       etb(create("Kithkin Soldier", 3)),
       ability(cost("", tap_untapped(kind("Kithkin"), 3, "three untapped Kithkin")),
               self_pump(2, 0, grant=["flying"])))


def _urn_dies(v: View, src: int, e: Any) -> bool:
    """Whenever a creature with toughness 4 or greater is put into your graveyard from
    the battlefield ..."""
    if not (e.from_zone == "battlefield" and e.to_zone == "graveyard"
            and e.obj in v.state.objects):
        return False
    c = v.chars(e.obj)
    return bool(c.is_creature and (c.toughness or 0) >= 4
                and v.obj(e.obj).owner == controller(v, src))


def _urn_exile(c: Ctx) -> None:
    """... you may exile it."""
    card: int | None = getattr(c.event, "new_obj", None)
    if card is None:
        return
    o = c.state.objects.get(card)
    if o is not None and o.zone == "graveyard" and c.may(f"exile {c.game.name(card)}?"):
        c.game.exile(card, exiled_with=c.source, reason="Colfenor's Urn")


def _urn_full(v: View, src: int, e: Any) -> bool:
    return len(exiled_with(v, src)) >= 3


def _urn_returns(c: Ctx) -> None:
    """Sacrifice it. If you do, return those cards to the battlefield under their owner's
    control."""
    if me(c) is None:
        return
    cards = exiled_with(c, c.source)
    c.sacrifice(c.source)
    if c.state.objects.get(c.source) is not None:
        return  # it wasn't sacrificed
    c.put_all_onto_battlefield(cards)  # under their owners' control


S.card("Colfenor's Urn",
       triggered(ev.ZoneChanged, _urn_dies, _urn_exile, look_back=True,
                 text="a creature with toughness 4 or greater is put into your graveyard"),
       triggered(ev.StepBegan, each_step("end"), _urn_returns,
                 intervening_if=_urn_full,
                 text="at the beginning of the end step, if three or more cards have been "
                      "exiled with ~"))

# When ~ enters the battlefield, exile the top seven cards of your library face down. You
# may look at the cards exiled with ~, and you may play lands and cast spells from among
# those cards. Skip your draw step. You can't cast more than one spell each turn.
S.card("Colfenor's Plans", etb(exile_top_face_down(7)), has(PLAY_EXILED), has(SKIP_DRAW),
       has(ONE_SPELL))


# ======================================================================== D

def _equipped_dies(v: View, src: int, e: Any) -> bool:
    """Whenever equipped creature dies ..."""
    host = v.obj(src).attached_to
    return bool(host and e.obj == host and e.from_zone == "battlefield"
                and e.to_zone == "graveyard" and v.chars(host).is_creature)


def _deathrender(c: Ctx) -> None:
    """... you may put a creature card from your hand onto the battlefield and attach ~
    to it."""
    v = c.game.view()
    cards = [o for o in c.state.players[c.you].hand if v.chars(o).is_creature]
    if not cards or not c.may("put a creature card from your hand onto the battlefield?"):
        return
    new = c.put_onto_battlefield(c.choose(cards, prompt="put which creature card?"))
    if new is not None and me(c) is not None and c.state.objects[new].zone == "battlefield" \
            and c.chars(new).is_creature:
        c.game.emit(ev.Attached(obj=c.source, to=new))


S.card("Deathrender",
       equipped(2, 2),
       triggered(ev.ZoneChanged, _equipped_dies, _deathrender, look_back=True,
                 text="whenever equipped creature dies"),
       equip("{2}"))


def _attacking_creature_of_yours(game: Any, p: dict[str, Any], src: int) -> bool:
    """Combat damage that would be dealt to an attacking creature you control."""
    t = p["target"]
    combat = game.state.combat
    return bool(p["combat"] and t > 0 and combat is not None and t in combat.attackers
                and game.chars(t).controller == game.chars(src).controller)


S.card("Dolmen Gate",
       Prevent("dolmen-gate", _attacking_creature_of_yours, lambda g, p, s, n: None,
               "Prevent all combat damage that would be dealt to attacking creatures you "
               "control."))

S.card("Doran, the Siege Tower", has("assigns combat damage by toughness"))

def _target_player_mills_a_card(c: Ctx) -> None:
    who = c.controller_of(c.target(0))
    if who is not None:
        c.mill(who, 1)


S.card("Drowner of Secrets",
       ability(cost("", tap_untapped(kind("Merfolk"), 1, "an untapped Merfolk")),
               _target_player_mills_a_card, target(player)))


# ======================================================================== E - F

def _no_island_for_defender(v: View, src: int) -> bool:
    """The defending player (the opponent) controls no Island."""
    me_ = controller(v, src)
    return not any(v.chars(o).controller != me_ and v.chars(o).has_subtype("Island")
                   for o in v.state.battlefield)


S.card("Ethereal Whiskergill",  # flying
       as_long_as(_no_island_for_defender, grant=["can't attack"]))

S.card("Facevaulter", activated("{B}, Sacrifice a Goblin", self_pump(2, 2)))


def _fathom_trawl(c: Ctx) -> None:
    """Reveal cards from the top of your library until you reveal three nonland cards. Put
    the nonland cards revealed this way into your hand, then put the rest of the revealed
    cards on the bottom of your library in any order."""
    lib = c.state.players[c.you].library
    shown: list[int] = []
    nonland: list[int] = []
    for oid in lib:
        if len(nonland) == 3:
            break
        shown.append(oid)
        if "Land" not in c.chars(oid).types:
            nonland.append(oid)
    c.reveal(c.you, shown)
    c.game.move_all(nonland, "hand", reason="reveal")
    rest = [o for o in shown if o not in nonland]
    for nxt in put_on_bottom_in_any_order(c.game, c.you, rest,
                                          "put on the bottom of your library: the next card"):
        c.put_on_library(nxt, bottom=True)


S.card("Fathom Trawl", spell(_fathom_trawl))

S.card("Fertile Ground", enchanted_land_adds("WUBRG"), enchant=target(land))

S.card("Fire-Belly Changeling",  # changeling
       ability(cost("{R}", no_more_than(2)), self_pump(1, 0)))


def _footbottom_feast(c: Ctx) -> None:
    """Put any number of target creature cards from your graveyard on top of your library.
    Draw a card."""
    for oid in c.legal_targets():
        c.put_on_library(oid)
    c.draw(c.you, 1)


S.card("Footbottom Feast",
       spell(_footbottom_feast,
             target(card_in_graveyard.with_type("Creature").you_own(), count=99, up_to=True)))


def _opponent_casts(v: View, src: int, e: Any) -> bool:
    return bool(e.controller != controller(v, src))


S.card("Forced Fruition",
       triggered(ev.SpellCast, _opponent_casts, lambda c: c.draw(c.event.controller, 7),
                 text="whenever an opponent casts a spell, that player draws seven cards"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
